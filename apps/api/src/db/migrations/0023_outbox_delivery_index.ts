import type { Kysely } from 'kysely';

// A lesson send's outbox rows, read by delivery: a WhatsApp learner's reply looks for the lesson
// waiting for the window (`pending` in its row) and "Start" sends it. Without this index each
// reply would scan every message ever sent.
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createIndex('outbox_messages_delivery_idx')
    .on('outbox_messages')
    .column('delivery_uuid')
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropIndex('outbox_messages_delivery_idx').ifExists().execute();
};
