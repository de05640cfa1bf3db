import type { Kysely } from 'kysely';

// "Send me a test lesson" (issue 29): each sample an administrator sent to their own account on a
// channel, its provider message and what they answered. A table of its own, never a learner nor
// a lesson send: Insights, usage, plan limits and the learners' lists read lesson_deliveries and
// learners, so a test lesson can never be counted there (docs/decisions.md "Test lessons").
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('channel_test_lessons')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    // The administrator who asked: the page shows them their own last test lesson.
    .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
    .addColumn('channel', 'text', (c) => c.notNull())
    // The e-mail or phone it was sent to, as typed (normalised).
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    // sending, sent, waiting (WhatsApp: the template went, the question follows Start), failed, answered.
    .addColumn('status', 'text', (c) => c.notNull())
    // Who the provider says the administrator is: only their own tap or reply answers it.
    .addColumn('provider_user_id', 'text')
    .addColumn('conversation_id', 'text')
    .addColumn('provider_message_id', 'text')
    // WhatsApp outside the window: the messages that wait for Start (JSON array of payloads).
    .addColumn('pending', 'text')
    .addColumn('failure_code', 'text')
    .addColumn('failure_detail', 'text')
    .addColumn('answer_index', 'integer')
    .addColumn('answer_correct', 'integer')
    .addColumn('answered_at', 'text')
    // sent or failed, once the answer's feedback was attempted.
    .addColumn('feedback_status', 'text')
    // The administrator's last message on the channel (WhatsApp's 24-hour window).
    .addColumn('last_inbound_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The page's "last test lesson" of an administrator on a channel.
  await db.schema
    .createIndex('channel_test_lessons_user_idx')
    .on('channel_test_lessons')
    .columns(['user_uuid', 'channel', 'created_at'])
    .execute();
  // A typed answer finds the provider user's waiting test lesson.
  await db.schema
    .createIndex('channel_test_lessons_provider_user_idx')
    .on('channel_test_lessons')
    .columns(['company_uuid', 'channel', 'provider_user_id'])
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropTable('channel_test_lessons').ifExists().execute();
};
