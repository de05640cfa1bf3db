import type { Kysely } from 'kysely';

// The scheduler reads due lessons 500 at a time in (scheduled_for, uuid) order (UUIDv7: the
// order they were planned). With (status, scheduled_for) alone the database found every due
// lesson and sorted them all by uuid for each batch of 500: at 10,000 lessons due at once, twenty
// reads of the whole remainder (bench/delivery.ts). With the uuid in the index the read walks
// the index in order and stops after 500.
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createIndex('lesson_deliveries_due_order_idx')
    .on('lesson_deliveries')
    .columns(['status', 'scheduled_for', 'uuid'])
    .execute();
  await db.schema.dropIndex('lesson_deliveries_due_idx').ifExists().execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createIndex('lesson_deliveries_due_idx')
    .on('lesson_deliveries')
    .columns(['status', 'scheduled_for'])
    .execute();
  await db.schema.dropIndex('lesson_deliveries_due_order_idx').ifExists().execute();
};
