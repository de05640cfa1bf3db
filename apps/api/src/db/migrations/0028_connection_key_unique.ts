import { MESSAGES } from '@ccp/schemas';
import type { Kysely } from 'kysely';

// A provider key (Slack team id, WhatsApp phone number id, Google Chat project number...) routes
// a provider's webhooks to one company: two companies holding the same key meant the events of
// one went to whichever had been saved last (issue 25). The database now refuses a second holder.
//
// Rows as they stand:
// - Google Chat's keys were the project number as typed, never proven by Chat: all are cleared;
//   the first event Chat signs for a connection proves its number again (webhooks/index.ts).
// - Another channel's key was vouched for by the provider's API, but may be held twice: the
//   row updated last keeps it (the one webhooks were routed to so far); the others lose it and
//   show the error a second company now gets, until their administrator checks the account.

type Row = {
  uuid: string;
  channel: string;
  provider_key: string | null;
  updated_at: string;
};

export const up = async (db: Kysely<unknown>): Promise<void> => {
  const table = db as unknown as Kysely<{ channel_connections: Row & Record<string, unknown> }>;
  await table
    .updateTable('channel_connections')
    .set({ provider_key: null })
    .where('channel', '=', 'google-chat')
    .execute();
  const rows = await table
    .selectFrom('channel_connections')
    .select(['uuid', 'channel', 'provider_key', 'updated_at'])
    .where('provider_key', 'is not', null)
    .orderBy('updated_at', 'desc')
    .orderBy('uuid', 'desc')
    .execute();
  const kept = new Set<string>();
  const losers: string[] = [];
  for (const row of rows) {
    const key = `${row.channel}\u0000${row.provider_key}`;
    if (kept.has(key)) losers.push(row.uuid);
    else kept.add(key);
  }
  if (losers.length > 0) {
    await table
      .updateTable('channel_connections')
      .set({ provider_key: null, status: 'error', last_error: MESSAGES.connectionKeyTaken })
      .where('uuid', 'in', losers)
      .execute();
  }
  await db.schema.dropIndex('channel_connections_provider_idx').execute();
  await db.schema
    .createIndex('channel_connections_provider_uq')
    .on('channel_connections')
    .columns(['channel', 'provider_key'])
    .unique()
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropIndex('channel_connections_provider_uq').execute();
  await db.schema
    .createIndex('channel_connections_provider_idx')
    .on('channel_connections')
    .columns(['channel', 'provider_key'])
    .execute();
};
