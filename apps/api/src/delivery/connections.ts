import { CHANNEL_KEYS, MESSAGES } from '@ccp/schemas';
import type {
  TChannelConnection,
  TChannelKey,
  TConnectionProof,
  TConnectionProofKey,
  TConnectionStatus,
} from '@ccp/schemas';

import type { Db } from '../db/index.ts';
import type { ChannelConnectionsTable } from '../db/types.ts';
import type { Clock } from '../lib/clock.ts';
import { newUuid } from '../lib/ids.ts';
import { isUniqueViolation } from '../learners/learners-repository.ts';
import type { SecretBox } from '../lib/secrets.ts';
import type { Connection, ConnectionCheck } from './message.ts';

// The channel_connections table: one row per company and provider, provider ids in clear and
// secrets sealed with AES-256-GCM (lib/secrets.ts), bound to the row's uuid.

export type ConnectionDeps = { db: Db; clock: Clock; secretBox: SecretBox | null };

/** The server has connections but no CCP_SECRETS_KEY: refuse to run rather than lose them. */
export class MissingSecretsKeyError extends Error {
  constructor() {
    super(
      'channel connections exist but CCP_SECRETS_KEY is not set: set the key they were saved with',
    );
  }
}

const boxOf = (deps: Pick<ConnectionDeps, 'secretBox'>): SecretBox => {
  if (!deps.secretBox) throw new MissingSecretsKeyError();
  return deps.secretBox;
};

const parseIds = (text: string): Record<string, string> => {
  try {
    return JSON.parse(text) as Record<string, string>;
  } catch {
    return {};
  }
};

/** The row's secrets opened; a demo connection has none (nothing sealed, no key needed). */
const secretsOf = (deps: Pick<ConnectionDeps, 'secretBox'>, row: ChannelConnectionsTable) =>
  row.secrets === '' ? {} : boxOf(deps).open(row.secrets, row.uuid);

const toConnection = (deps: ConnectionDeps, row: ChannelConnectionsTable): Connection => ({
  uuid: row.uuid,
  companyUuid: row.company_uuid,
  channel: row.channel as TChannelKey,
  status: row.status,
  providerIds: parseIds(row.provider_ids),
  providerKey: row.provider_key,
  secrets: secretsOf(deps, row),
});

/**
 * Connections whose webhooks are taken: tested at least once (not disconnected, not a demo
 * sample); one awaiting verification takes the signed event that verifies it.
 */
const ANSWERING = ['connected', 'awaiting_verification', 'error'];

const parseProofs = (text: string | null): TConnectionProof[] => {
  if (!text) return [];
  try {
    const proofs = JSON.parse(text) as unknown;
    return Array.isArray(proofs) ? (proofs as TConnectionProof[]) : [];
  } catch {
    return [];
  }
};

// Changes of connections made by this process, per database: the scheduler's adapters read a
// connection again at once after one (an administrator connects, then resends), instead of
// waiting for their cache to expire. Other servers on the same database see it within the cache's
// few seconds.
const changes = new WeakMap<object, number>();

/** How many times this process changed the database's connections. */
export const connectionsVersion = (db: Db): number => changes.get(db) ?? 0;

/** A write of connections, counted once it is done (a read during it may see the old row). */
const changing =
  <D extends { db: Db }, A extends unknown[], R>(write: (deps: D, ...args: A) => Promise<R>) =>
  async (deps: D, ...args: A): Promise<R> => {
    try {
      return await write(deps, ...args);
    } finally {
      changes.set(deps.db, connectionsVersion(deps.db) + 1);
    }
  };

/**
 * Each channel's connection status for a company (`not_connected` without a row). Only a
 * `connected` one sends: the scheduler fails a lesson on any other (connected-adapters.ts).
 */
export const connectionStatuses = async (
  db: Db,
  companyUuid: string,
): Promise<Record<TChannelKey, TConnectionStatus>> => {
  const rows = await db
    .selectFrom('channel_connections')
    .select(['channel', 'status'])
    .where('company_uuid', '=', companyUuid)
    .execute();
  const status = new Map(rows.map((row) => [row.channel, row.status as TConnectionStatus]));
  return Object.fromEntries(
    CHANNEL_KEYS.map((key) => [key, status.get(key) ?? 'not_connected']),
  ) as Record<TChannelKey, TConnectionStatus>;
};

/** True when any company has a connection with secrets (start-up checks the key then). */
export const hasConnections = async (db: Db): Promise<boolean> =>
  (await db
    .selectFrom('channel_connections')
    .select('uuid')
    .where('secrets', '!=', '')
    .limit(1)
    .executeTakeFirst()) !== undefined;

export const loadConnection = async (
  deps: ConnectionDeps,
  companyUuid: string,
  channel: TChannelKey,
): Promise<Connection | null> => {
  const row = await deps.db
    .selectFrom('channel_connections')
    .selectAll()
    .where('company_uuid', '=', companyUuid)
    .where('channel', '=', channel)
    .executeTakeFirst();
  return row ? toConnection(deps, row) : null;
};

/**
 * The connection an inbound webhook names (Slack team id, WhatsApp phone number id...). A key is
 * held by one connection at most (unique index, migration 0028), and only once proven: never
 * "whichever company typed it last".
 */
export const findConnectionByKey = async (
  deps: ConnectionDeps,
  channel: TChannelKey,
  providerKey: string,
): Promise<Connection | null> => {
  const row = await deps.db
    .selectFrom('channel_connections')
    .selectAll()
    .where('channel', '=', channel)
    .where('provider_key', '=', providerKey)
    .where('status', 'in', ANSWERING)
    .executeTakeFirst();
  return row ? toConnection(deps, row) : null;
};

/** A live connection by its uuid (Google Chat's per-connection endpoint URL names it). */
export const findConnectionByUuid = async (
  deps: ConnectionDeps,
  channel: TChannelKey,
  uuid: string,
): Promise<Connection | null> => {
  const row = await deps.db
    .selectFrom('channel_connections')
    .selectAll()
    .where('uuid', '=', uuid)
    .where('channel', '=', channel)
    .where('status', 'in', ANSWERING)
    .executeTakeFirst();
  return row ? toConnection(deps, row) : null;
};

/**
 * A signed event proved the connection's key: it routes that key's events from now on. False
 * when the connection already has a key or another connection holds this one.
 */
export const proveProviderKey = changing(
  async (
    deps: Pick<ConnectionDeps, 'db' | 'clock'>,
    connection: Connection,
    providerKey: string,
  ): Promise<boolean> => {
    try {
      const result = await deps.db
        .updateTable('channel_connections')
        .set({ provider_key: providerKey, updated_at: deps.clock.now().toISOString() })
        .where('uuid', '=', connection.uuid)
        .where('provider_key', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  },
);

/** True when a connection other than `exceptUuid` holds the channel's key. */
const keyHeldElsewhere = async (
  deps: Pick<ConnectionDeps, 'db'>,
  channel: TChannelKey,
  providerKey: string,
  exceptUuid: string,
): Promise<boolean> =>
  (await deps.db
    .selectFrom('channel_connections')
    .select('uuid')
    .where('channel', '=', channel)
    .where('provider_key', '=', providerKey)
    .where('uuid', '!=', exceptUuid)
    .executeTakeFirst()) !== undefined;

/** Every live connection of a channel (WhatsApp's verify-token challenge names none). */
export const connectionsOfChannel = async (
  deps: ConnectionDeps,
  channel: TChannelKey,
): Promise<Connection[]> => {
  const rows = await deps.db
    .selectFrom('channel_connections')
    .selectAll()
    .where('channel', '=', channel)
    .where('status', 'in', ANSWERING)
    .execute();
  return rows.map((row) => toConnection(deps, row));
};

/**
 * Creates or updates the company's connection of a channel. Secrets not given keep their
 * stored value (an administrator edits an id without typing the token again).
 */
export const saveConnection = changing(
  async (
    deps: ConnectionDeps,
    values: {
      companyUuid: string;
      channel: TChannelKey;
      providerIds: Record<string, string>;
      secrets: Record<string, string>;
      userUuid: string | null;
    },
  ): Promise<Connection> => {
    const box = boxOf(deps);
    const now = deps.clock.now().toISOString();
    const existing = await loadConnection(deps, values.companyUuid, values.channel);
    const uuid = existing?.uuid ?? newUuid();
    const secrets = { ...existing?.secrets, ...values.secrets };
    const providerIds = { ...existing?.providerIds, ...values.providerIds };
    const sealed = box.seal(secrets, uuid);
    if (existing) {
      await deps.db
        .updateTable('channel_connections')
        .set({ provider_ids: JSON.stringify(providerIds), secrets: sealed, updated_at: now })
        .where('uuid', '=', uuid)
        .execute();
    } else {
      await deps.db
        .insertInto('channel_connections')
        .values({
          uuid,
          company_uuid: values.companyUuid,
          channel: values.channel,
          status: 'disconnected',
          provider_ids: JSON.stringify(providerIds),
          provider_key: null,
          secrets: sealed,
          last_error: null,
          last_tested_at: null,
          created_by: values.userUuid,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    return {
      uuid,
      companyUuid: values.companyUuid,
      channel: values.channel,
      status: existing?.status ?? 'disconnected',
      providerIds,
      providerKey: existing?.providerKey ?? null,
      secrets,
    };
  },
);

/**
 * The outcome of a connection test: connected with what the provider said, or the error.
 * `key_taken` (recorded as an error): the key the test found or the administrator typed is
 * another company's, which keeps it — two companies never share a provider account's events.
 */
export const recordConnectionTest = changing(
  async (
    deps: ConnectionDeps,
    connection: Connection,
    outcome:
      | { ok: true; check: ConnectionCheck }
      | { ok: false; error: string; proofs?: TConnectionProof[] },
  ): Promise<'recorded' | 'key_taken'> => {
    const now = deps.clock.now().toISOString();
    const failed = (error: string, proofs: TConnectionProof[] = []) =>
      deps.db
        .updateTable('channel_connections')
        .set({
          status: 'error',
          last_error: error,
          proofs: JSON.stringify(proofs),
          last_tested_at: now,
          updated_at: now,
        })
        .where('uuid', '=', connection.uuid)
        .execute();
    if (!outcome.ok) {
      await failed(outcome.error, outcome.proofs);
      return 'recorded';
    }
    const { check } = outcome;
    for (const key of [check.providerKey, check.claimedKey]) {
      if (key && (await keyHeldElsewhere(deps, connection.channel, key, connection.uuid))) {
        await failed(MESSAGES.connectionKeyTaken);
        return 'key_taken';
      }
    }
    try {
      await deps.db
        .updateTable('channel_connections')
        .set({
          status: check.awaitsVerification ? 'awaiting_verification' : 'connected',
          provider_ids: JSON.stringify({ ...connection.providerIds, ...check.providerIds }),
          provider_key: check.providerKey,
          last_error: null,
          proofs: JSON.stringify(check.proofs ?? []),
          last_tested_at: now,
          updated_at: now,
        })
        .where('uuid', '=', connection.uuid)
        .execute();
    } catch (error) {
      // Another company's test took the key between the check above and this write.
      if (!isUniqueViolation(error)) throw error;
      await failed(MESSAGES.connectionKeyTaken);
      return 'key_taken';
    }
    return 'recorded';
  },
);

/**
 * A signed request of the provider proved a step the last test could not (`pending`): the item
 * is `proved` from now on. `verify`: the step was the one the connection awaited (a signed
 * event), so it is `connected`, with `providerIds` (what the event proved) kept.
 */
export const markProved = changing(
  async (
    deps: Pick<ConnectionDeps, 'db' | 'clock'>,
    connection: Pick<Connection, 'uuid'>,
    key: TConnectionProofKey,
    { verify, providerIds = {} }: { verify?: boolean; providerIds?: Record<string, string> } = {},
  ): Promise<void> => {
    const row = await deps.db
      .selectFrom('channel_connections')
      .select(['status', 'proofs', 'provider_ids'])
      .where('uuid', '=', connection.uuid)
      .executeTakeFirst();
    if (!row) return;
    const proofs = parseProofs(row.proofs);
    const awaited = verify === true && row.status === 'awaiting_verification';
    const pending = proofs.some((item) => item.key === key && item.outcome !== 'proved');
    if (!awaited && !pending) return;
    let update = deps.db
      .updateTable('channel_connections')
      .set({
        proofs: JSON.stringify(
          proofs.map((item) => (item.key === key ? { ...item, outcome: 'proved' as const } : item)),
        ),
        ...(awaited
          ? {
              status: 'connected',
              provider_ids: JSON.stringify({ ...parseIds(row.provider_ids), ...providerIds }),
            }
          : {}),
        updated_at: deps.clock.now().toISOString(),
      })
      .where('uuid', '=', connection.uuid);
    // Only from awaiting: a test that failed meanwhile keeps its error.
    if (awaited) update = update.where('status', '=', 'awaiting_verification');
    await update.execute();
  },
);

/** The uuid of the company's connection of a channel (no secrets opened), or null. */
export const connectionUuidOf = async (
  db: Db,
  companyUuid: string,
  channel: TChannelKey,
): Promise<string | null> =>
  (
    await db
      .selectFrom('channel_connections')
      .select('uuid')
      .where('company_uuid', '=', companyUuid)
      .where('channel', '=', channel)
      .executeTakeFirst()
  )?.uuid ?? null;

export const deleteConnection = changing(
  async (
    deps: Pick<ConnectionDeps, 'db'>,
    companyUuid: string,
    channel: TChannelKey,
  ): Promise<boolean> => {
    const result = await deps.db
      .deleteFrom('channel_connections')
      .where('company_uuid', '=', companyUuid)
      .where('channel', '=', channel)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },
);

/**
 * The company's five channels as the Channels page shows them: status, the provider's ids, which
 * secrets are stored (never their values) and the last error. `full` false (not an
 * administrator): status only.
 */
export const listConnections = async (
  deps: ConnectionDeps,
  companyUuid: string,
  { full, available }: { full: boolean; available: readonly TChannelKey[] },
): Promise<TChannelConnection[]> => {
  const rows = await deps.db
    .selectFrom('channel_connections')
    .selectAll()
    .where('company_uuid', '=', companyUuid)
    .execute();
  return CHANNEL_KEYS.map((channel) => {
    const row = rows.find((candidate) => candidate.channel === channel);
    if (!row) {
      return {
        channel,
        status: 'not_connected',
        provider_ids: {},
        secrets_set: [],
        last_error: null,
        proofs: [],
        editable: full && available.includes(channel),
        available: available.includes(channel),
        last_tested_at: null,
        updated_at: null,
      };
    }
    const secrets = full && deps.secretBox ? secretsOf(deps, row) : {};
    return {
      channel,
      status: row.status as TChannelConnection['status'],
      provider_ids: full ? parseIds(row.provider_ids) : {},
      secrets_set: Object.keys(secrets).filter((key) => secrets[key] !== ''),
      last_error: full ? row.last_error : null,
      proofs: full ? parseProofs(row.proofs) : [],
      editable: full && available.includes(channel),
      available: available.includes(channel),
      last_tested_at: row.last_tested_at,
      updated_at: row.updated_at,
    };
  });
};
