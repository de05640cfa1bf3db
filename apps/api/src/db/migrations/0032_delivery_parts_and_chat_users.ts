import type { Kysely } from 'kysely';

// Issue 25, what was left of it:
// - channel_messages.part: which part of a lesson send a provider's message was (WhatsApp sends a
//   lesson as its text parts, then the question). Each part is kept the moment it is accepted,
//   so the next attempt of the same send (a later tick after a deferral, a Resend, a restart)
//   sends only the parts that did not go. Null: a notice (the template) or a send of one message.
// - google_chat_users: each Google Chat user whose events the app saw in a direct message (the
//   app added, a message), with their DM space, kept by e-mail for the company whether or not a
//   learner with that e-mail exists yet. Chat tells an app about a user only in those events, so
//   a learner imported afterwards is found here at their first send.
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('channel_messages').addColumn('part', 'integer').execute();
  await db.schema
    .createTable('google_chat_users')
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    // users/{numeric id}, as Chat names a user to an app.
    .addColumn('provider_user_id', 'text', (c) => c.notNull())
    // As Chat gave it, lower-cased.
    .addColumn('email', 'text', (c) => c.notNull())
    // spaces/{id} of the user's DM with the app; null once the app was removed from it.
    .addColumn('space_name', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('google_chat_users_pk', ['company_uuid', 'provider_user_id'])
    .execute();
  await db.schema
    .createIndex('google_chat_users_email_idx')
    .on('google_chat_users')
    .columns(['company_uuid', 'email'])
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropTable('google_chat_users').ifExists().execute();
  await db.schema.alterTable('channel_messages').dropColumn('part').execute();
};
