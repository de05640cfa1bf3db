import type { Kysely } from 'kysely';

// Every message a provider accepted, by the provider's id (a WhatsApp wamid): the provider's
// later reports about it (WhatsApp's `statuses` webhook: delivered, read, failed) name only that
// id, and a lesson goes as several messages (its text parts, then its question), so the outbox
// row's one body cannot be searched for it. `template`: the notice sent outside WhatsApp's
// 24-hour window (its receipts are not the lesson's).
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('channel_messages')
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('provider_message_id', 'text', (c) => c.notNull())
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    .addColumn('outbox_uuid', 'text', (c) => c.notNull())
    .addColumn('delivery_uuid', 'text', (c) =>
      c.references('lesson_deliveries.uuid').onDelete('cascade'),
    )
    .addColumn('course_uuid', 'text', (c) => c.notNull())
    .addColumn('learner_uuid', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('template', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('channel_messages_pk', ['channel', 'provider_message_id'])
    .execute();
  // A lesson send deleted (a course replanned) takes its rows along without a scan.
  await db.schema
    .createIndex('channel_messages_delivery_idx')
    .on('channel_messages')
    .column('delivery_uuid')
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropTable('channel_messages').ifExists().execute();
};
