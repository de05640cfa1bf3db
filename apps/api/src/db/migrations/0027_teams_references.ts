import type { Kysely } from 'kysely';

// Teams (issue 25): the personal conversation of each user who installed the app, kept by the
// user's id on Teams whether or not a learner with their e-mail exists yet (an install that
// arrives before the learner is imported is not lost: the first send finds it by e-mail). When a
// failed invitation is tried again is 0025's enrollments.invitation_retry_at.
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('teams_conversation_references')
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    // The user's id for this bot (29:…), as activities name them.
    .addColumn('provider_user_id', 'text', (c) => c.notNull())
    .addColumn('aad_object_id', 'text')
    // E-mail (else user principal name) as Teams gave it, lower-cased; null when Teams gave none.
    .addColumn('email', 'text')
    .addColumn('service_url', 'text', (c) => c.notNull())
    // Always a personal (1:1) conversation: team channels and group chats are never kept.
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('teams_conversation_references_pk', [
      'company_uuid',
      'provider_user_id',
    ])
    .execute();
  await db.schema
    .createIndex('teams_conversation_references_email_idx')
    .on('teams_conversation_references')
    .columns(['company_uuid', 'email'])
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropTable('teams_conversation_references').ifExists().execute();
};
