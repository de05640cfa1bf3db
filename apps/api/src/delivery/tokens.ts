import type { TChannelKey, TChannelToken, TCreatedChannelToken } from '@ccp/schemas';

import type { ChannelTokensTable } from '../db/types.ts';
import { hashToken, newToken, newUuid } from '../lib/ids.ts';
import type { DeliveryDeps } from './enrolment.ts';
import type { ChannelCaller } from './events.ts';

// Per-company, per-channel secrets a channel connector presents to the events endpoint.
// Stored as SHA-256 hashes like the user tokens, shown once on creation.

// A recognisable prefix helps secret scanners and people tell it from a user token.
const TOKEN_PREFIX = 'ccp_ch_';

const toChannelToken = (row: ChannelTokensTable): TChannelToken => ({
  uuid: row.uuid,
  channel: row.channel as TChannelKey,
  created_at: row.created_at,
  revoked_at: row.revoked_at,
});

/** A new token for the company and channel; the secret is only in this answer. */
export const createChannelToken = async (
  deps: DeliveryDeps,
  companyUuid: string,
  channel: TChannelKey,
): Promise<TCreatedChannelToken> => {
  const token = `${TOKEN_PREFIX}${newToken()}`;
  const row: ChannelTokensTable = {
    uuid: newUuid(),
    company_uuid: companyUuid,
    channel,
    token_hash: hashToken(token),
    created_at: deps.clock.now().toISOString(),
    revoked_at: null,
  };
  await deps.db.insertInto('channel_tokens').values(row).execute();
  return { ...toChannelToken(row), token };
};

/** The company's tokens of a channel, newest first, without their secrets. */
export const listChannelTokens = async (
  deps: DeliveryDeps,
  companyUuid: string,
  channel: TChannelKey,
): Promise<TChannelToken[]> => {
  const rows = await deps.db
    .selectFrom('channel_tokens')
    .selectAll()
    .where('company_uuid', '=', companyUuid)
    .where('channel', '=', channel)
    .orderBy('created_at', 'desc')
    .orderBy('uuid')
    .execute();
  return rows.map(toChannelToken);
};

/** Revokes a token (idempotent); undefined when the company has no such token for the channel. */
export const revokeChannelToken = async (
  deps: DeliveryDeps,
  companyUuid: string,
  channel: TChannelKey,
  tokenUuid: string,
): Promise<TChannelToken | undefined> => {
  await deps.db
    .updateTable('channel_tokens')
    .set({ revoked_at: deps.clock.now().toISOString() })
    .where('uuid', '=', tokenUuid)
    .where('company_uuid', '=', companyUuid)
    .where('channel', '=', channel)
    .where('revoked_at', 'is', null)
    .execute();
  const row = await deps.db
    .selectFrom('channel_tokens')
    .selectAll()
    .where('uuid', '=', tokenUuid)
    .where('company_uuid', '=', companyUuid)
    .where('channel', '=', channel)
    .executeTakeFirst();
  return row ? toChannelToken(row) : undefined;
};

/** The company and channel a live token speaks for, or null. */
export const findChannelCaller = async (
  deps: Pick<DeliveryDeps, 'db'>,
  token: string,
  channel: string,
): Promise<ChannelCaller | null> => {
  const row = await deps.db
    .selectFrom('channel_tokens')
    .select(['company_uuid', 'channel'])
    .where('token_hash', '=', hashToken(token))
    .where('channel', '=', channel)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row ? { companyUuid: row.company_uuid, channel: row.channel } : null;
};
