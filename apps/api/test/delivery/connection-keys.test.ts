import { MESSAGES } from '@ccp/schemas';
import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';

import { migrations } from '../../src/db/migrations/index.ts';
import { findConnectionByKey } from '../../src/delivery/connections.ts';
import { buildTestApp, createCompany, testDialect } from '../helper.ts';

// Migration 0028: a provider key routes to one company. Rows saved before it may hold a key
// twice (findConnectionByKey then took the newest); Google Chat's keys were typed, never proven.

describe('migration 0028: one holder per provider key', async () => {
  const app = await buildTestApp({ secretsKey: Buffer.alloc(32, 7).toString('base64') });
  // As db/index.ts migrates: on Postgres the migrator's tables are the test schema's own.
  const migrationTableSchema =
    testDialect() === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(app.db)).rows[0]
          ?.schema
      : undefined;
  const migrator = new Migrator({
    db: app.db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });

  it('keeps a duplicated key on the row updated last, clears typed Google Chat keys, then refuses a second holder', async () => {
    const down = await migrator.migrateTo('0024_learners_order_indexes');
    expect(down.error).toBeUndefined();
    const companies = [
      await createCompany(app),
      await createCompany(app),
      await createCompany(app),
    ];
    const row = (
      uuid: string,
      company: number,
      channel: string,
      providerKey: string,
      updatedAt: string,
    ) => ({
      uuid,
      company_uuid: companies[company]!.uuid,
      channel,
      status: 'connected',
      provider_ids: '{}',
      provider_key: providerKey,
      secrets: '',
      last_error: null,
      last_tested_at: updatedAt,
      created_by: null,
      created_at: updatedAt,
      updated_at: updatedAt,
    });
    await app.db
      .insertInto('channel_connections')
      .values([
        row('slack-old', 0, 'slack', 'T1', '2026-01-01T00:00:00.000Z'),
        row('slack-new', 1, 'slack', 'T1', '2026-02-01T00:00:00.000Z'),
        row('slack-own', 2, 'slack', 'T2', '2026-01-01T00:00:00.000Z'),
        row('chat-a', 0, 'google-chat', '123', '2026-01-01T00:00:00.000Z'),
        row('chat-b', 1, 'google-chat', '123', '2026-02-01T00:00:00.000Z'),
      ])
      .execute();

    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    const rows = await app.db
      .selectFrom('channel_connections')
      .select(['uuid', 'provider_key', 'status', 'last_error'])
      .orderBy('uuid')
      .execute();
    expect(rows).toEqual([
      { uuid: 'chat-a', provider_key: null, status: 'connected', last_error: null },
      { uuid: 'chat-b', provider_key: null, status: 'connected', last_error: null },
      {
        uuid: 'slack-new',
        provider_key: 'T1',
        status: 'connected',
        last_error: null,
      },
      {
        uuid: 'slack-old',
        provider_key: null,
        status: 'error',
        last_error: MESSAGES.connectionKeyTaken,
      },
      { uuid: 'slack-own', provider_key: 'T2', status: 'connected', last_error: null },
    ]);
    expect((await findConnectionByKey(app, 'slack', 'T1'))?.uuid).toBe('slack-new');
    expect(await findConnectionByKey(app, 'google-chat', '123')).toBeNull();
    await expect(
      app.db
        .updateTable('channel_connections')
        .set({ provider_key: 'T2' })
        .where('uuid', '=', 'slack-new')
        .execute(),
    ).rejects.toThrow();
  });
});
