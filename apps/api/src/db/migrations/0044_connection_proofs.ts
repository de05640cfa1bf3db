import type { Kysely } from 'kysely';

// Issue 29: a connection test says what it proved of the path a lesson takes and what it could
// not prove (credentials, bot, templates, webhook, signed event), as a JSON array of
// { key, outcome, detail } the Channels page shows; null before the first test. A signed event
// that arrives later (Google Chat) turns its `pending` item into `proved` here.
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('channel_connections').addColumn('proofs', 'text').execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('channel_connections').dropColumn('proofs').execute();
};
