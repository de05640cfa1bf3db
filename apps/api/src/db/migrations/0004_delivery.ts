import type { Kysely } from 'kysely';

// The delivery model: enrolments, one row per lesson send (unique per enrolment and day, so a
// restarted scheduler never sends a lesson twice), the learner event log, the outbox the channel
// adapters and mails write to, channel tokens for the events endpoint, and exports.
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('enrollments')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    .addColumn('course_uuid', 'text', (c) =>
      c.notNull().references('courses.uuid').onDelete('cascade'),
    )
    .addColumn('learner_uuid', 'text', (c) =>
      c.notNull().references('learners.uuid').onDelete('cascade'),
    )
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('invited_at', 'text', (c) => c.notNull())
    .addColumn('enrolled_at', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('enrollments_course_learner_uq', ['course_uuid', 'learner_uuid'])
    .execute();
  await db.schema
    .createIndex('enrollments_learner_idx')
    .on('enrollments')
    .column('learner_uuid')
    .execute();
  await db.schema
    .createIndex('enrollments_company_idx')
    .on('enrollments')
    .columns(['company_uuid', 'course_uuid', 'status'])
    .execute();

  await db.schema
    .createTable('lesson_deliveries')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    .addColumn('course_uuid', 'text', (c) =>
      c.notNull().references('courses.uuid').onDelete('cascade'),
    )
    .addColumn('enrollment_uuid', 'text', (c) =>
      c.notNull().references('enrollments.uuid').onDelete('cascade'),
    )
    .addColumn('learner_uuid', 'text', (c) =>
      c.notNull().references('learners.uuid').onDelete('cascade'),
    )
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('scheduled_for', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .addColumn('delivered_at', 'text')
    .addColumn('read_at', 'text')
    .addColumn('answered_at', 'text')
    .addColumn('answer_correct', 'integer')
    .addColumn('missed_at', 'text')
    .addColumn('reminders_sent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('lesson_deliveries_enrollment_day_uq', ['enrollment_uuid', 'day'])
    .execute();
  await db.schema
    .createIndex('lesson_deliveries_due_idx')
    .on('lesson_deliveries')
    .columns(['status', 'scheduled_for'])
    .execute();
  await db.schema
    .createIndex('lesson_deliveries_course_idx')
    .on('lesson_deliveries')
    .columns(['course_uuid', 'learner_uuid', 'day'])
    .execute();
  await db.schema
    .createIndex('lesson_deliveries_learner_idx')
    .on('lesson_deliveries')
    .column('learner_uuid')
    .execute();

  await db.schema
    .createTable('learner_events')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    .addColumn('course_uuid', 'text', (c) =>
      c.notNull().references('courses.uuid').onDelete('cascade'),
    )
    .addColumn('learner_uuid', 'text', (c) =>
      c.notNull().references('learners.uuid').onDelete('cascade'),
    )
    .addColumn('delivery_uuid', 'text', (c) =>
      c.references('lesson_deliveries.uuid').onDelete('cascade'),
    )
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('correct', 'integer')
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('payload', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('learner_events_course_idx')
    .on('learner_events')
    .columns(['course_uuid', 'type', 'occurred_at'])
    .execute();
  await db.schema
    .createIndex('learner_events_learner_idx')
    .on('learner_events')
    .columns(['learner_uuid', 'occurred_at'])
    .execute();

  await db.schema
    .createTable('outbox_messages')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('company_uuid', 'text', (c) => c.references('companies.uuid').onDelete('cascade'))
    .addColumn('delivery_uuid', 'text', (c) =>
      c.references('lesson_deliveries.uuid').onDelete('set null'),
    )
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  await db.schema
    .createIndex('outbox_messages_status_idx')
    .on('outbox_messages')
    .columns(['status', 'created_at'])
    .execute();

  await db.schema
    .createTable('channel_tokens')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();

  await db.schema
    .createTable('exports')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
    .addColumn('course_uuid', 'text', (c) => c.references('courses.uuid').onDelete('set null'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('type_display_name', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('file_path', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  for (const table of [
    'exports',
    'channel_tokens',
    'outbox_messages',
    'learner_events',
    'lesson_deliveries',
    'enrollments',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
};
