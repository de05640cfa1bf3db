import type { Kysely } from 'kysely';

// The whole data model of the foundation, portable between SQLite and Postgres:
// text keys and timestamps, integer booleans, JSON as text.
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('plans')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('plan_functions')
    .addColumn('plan_key', 'text', (c) => c.notNull().references('plans.key').onDelete('cascade'))
    .addColumn('function_key', 'text', (c) => c.notNull())
    .addColumn('limit_value', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('plan_functions_pk', ['plan_key', 'function_key'])
    .execute();
  await db.schema
    .createTable('companies')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('plan_key', 'text', (c) => c.notNull().references('plans.key'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('classrooms')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('classrooms_company_idx')
    .on('classrooms')
    .columns(['company_uuid', 'position'])
    .execute();
  await db.schema
    .createTable('users')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('avatar', 'text')
    .addColumn('locale', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_2fa_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('totp_secret', 'text')
    .addColumn('totp_pending_secret', 'text')
    .addColumn('totp_last_step', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('auth_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('family_uuid', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('auth_tokens_family_idx')
    .on('auth_tokens')
    .column('family_uuid')
    .execute();
  await db.schema
    .createTable('auth_failures')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('auth_failures_key_idx')
    .on('auth_failures')
    .columns(['key', 'created_at'])
    .execute();
  await db.schema
    .createTable('usage_events')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    .addColumn('function_key', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('usage_events_company_idx')
    .on('usage_events')
    .columns(['company_uuid', 'function_key', 'created_at'])
    .execute();
  await db.schema
    .createTable('upgrade_requests')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
    .addColumn('requested_function', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('terms')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('published_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('terms_acceptances')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('term_uuid', 'text', (c) => c.notNull().references('terms.uuid').onDelete('cascade'))
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
    .addColumn('accepted_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('terms_acceptances_idx')
    .on('terms_acceptances')
    .columns(['term_uuid', 'company_uuid', 'user_uuid'])
    .execute();
  await db.schema
    .createTable('channels')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('contact', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('languages')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('short_name', 'text', (c) => c.notNull().unique())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('translations')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addUniqueConstraint('translations_locale_key_uq', ['locale', 'key'])
    .execute();
  await db.schema
    .createTable('courses')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    .addColumn('classroom_uuid', 'text', (c) =>
      c.notNull().references('classrooms.uuid').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('image_path', 'text')
    .addColumn('category', 'text')
    .addColumn('enrollment', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft'))
    .addColumn('distribution', 'text')
    .addColumn('creator_uuid', 'text', (c) => c.references('users.uuid').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('scheduled_at', 'text')
    .addColumn('delivered_at', 'text')
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema
    .createIndex('courses_classroom_idx')
    .on('courses')
    .columns(['classroom_uuid', 'deleted_at', 'created_at'])
    .execute();
  await db.schema
    .createTable('course_languages')
    .addColumn('course_uuid', 'text', (c) =>
      c.notNull().references('courses.uuid').onDelete('cascade'),
    )
    .addColumn('language_uuid', 'text', (c) => c.notNull().references('languages.uuid'))
    .addColumn('is_primary', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('course_languages_pk', ['course_uuid', 'language_uuid'])
    .execute();
  await db.schema
    .createTable('lessons')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('course_uuid', 'text', (c) =>
      c.notNull().references('courses.uuid').onDelete('cascade'),
    )
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('language_uuid', 'text', (c) => c.notNull().references('languages.uuid'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('topic_intro', 'text', (c) => c.notNull())
    .addColumn('topic_content', 'text', (c) => c.notNull())
    .addColumn('learning_minutes', 'integer', (c) => c.notNull())
    .addColumn('media', 'text')
    .addColumn('assessment', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('lessons_course_day_language_uq', ['course_uuid', 'day', 'language_uuid'])
    .execute();
  await db.schema
    .createTable('learners')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('locale', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('channels', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('reachability', 'text', (c) => c.notNull().defaultTo('unknown'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .addUniqueConstraint('learners_company_email_uq', ['company_uuid', 'email'])
    .execute();
  await db.schema
    .createIndex('learners_company_idx')
    .on('learners')
    .columns(['company_uuid', 'deleted_at', 'created_at'])
    .execute();
  await db.schema
    .createTable('learners_lists')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('learners_list_members')
    .addColumn('list_uuid', 'text', (c) =>
      c.notNull().references('learners_lists.uuid').onDelete('cascade'),
    )
    .addColumn('learner_uuid', 'text', (c) =>
      c.notNull().references('learners.uuid').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('learners_list_members_pk', ['list_uuid', 'learner_uuid'])
    .execute();
  await db.schema
    .createIndex('learners_list_members_learner_idx')
    .on('learners_list_members')
    .column('learner_uuid')
    .execute();
  await db.schema
    .createTable('course_learners_lists')
    .addColumn('course_uuid', 'text', (c) =>
      c.notNull().references('courses.uuid').onDelete('cascade'),
    )
    .addColumn('list_uuid', 'text', (c) =>
      c.notNull().references('learners_lists.uuid').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('course_learners_lists_pk', ['course_uuid', 'list_uuid'])
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  for (const table of [
    'course_learners_lists',
    'learners_list_members',
    'learners_lists',
    'learners',
    'lessons',
    'course_languages',
    'courses',
    'translations',
    'languages',
    'channels',
    'terms_acceptances',
    'terms',
    'upgrade_requests',
    'usage_events',
    'auth_failures',
    'auth_tokens',
    'users',
    'classrooms',
    'companies',
    'plan_functions',
    'plans',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
};
