import { API_TOKEN_PREFIX, API_TOKEN_SCOPES } from '@ccp/schemas';
import type { TApiToken, TApiTokenScope } from '@ccp/schemas';

import type { Db } from '../db/index.ts';
import type { ApiTokensTable, UsersTable } from '../db/types.ts';
import type { Clock } from './clock.ts';
import { hashToken, newToken } from './ids.ts';

// Personal API tokens (issue 12): `ccp_pat_` and 256 random bits, stored as a SHA-256 hash.

/** How often the last use is written: once a minute at most, not on every call. */
const LAST_USED_EVERY_MS = 60_000;

export const isApiToken = (bearer: string): boolean => bearer.startsWith(API_TOKEN_PREFIX);

export const newApiToken = (): { token: string; hash: string; hint: string } => {
  const token = `${API_TOKEN_PREFIX}${newToken()}`;
  return { token, hash: hashToken(token), hint: `${token.slice(0, API_TOKEN_PREFIX.length + 4)}…` };
};

const scopesOf = (text: string): TApiTokenScope[] => {
  const parsed = JSON.parse(text) as unknown;
  return Array.isArray(parsed)
    ? API_TOKEN_SCOPES.filter((scope) => (parsed as unknown[]).includes(scope))
    : [];
};

export const serializeApiToken = (row: ApiTokensTable): TApiToken => ({
  uuid: row.uuid,
  name: row.name,
  scopes: scopesOf(row.scopes),
  hint: row.hint,
  created_at: row.created_at,
  expires_at: row.expires_at,
  last_used_at: row.last_used_at,
});

/** The live (not revoked, not expired) token's user and scopes, or null; notes its use. */
export const findApiToken = async (
  { db, clock }: { db: Db; clock: Clock },
  bearer: string,
): Promise<{ user: UsersTable; uuid: string; scopes: TApiTokenScope[] } | null> => {
  const now = clock.now();
  const row = await db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.uuid', 'api_tokens.user_uuid')
    .selectAll('users')
    .select([
      'api_tokens.uuid as token_uuid',
      'api_tokens.scopes as token_scopes',
      'api_tokens.last_used_at as token_last_used_at',
    ])
    .where('api_tokens.token_hash', '=', hashToken(bearer))
    .where('api_tokens.revoked_at', 'is', null)
    .where('api_tokens.expires_at', '>', now.toISOString())
    .where('users.deactivated_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  const { token_uuid: uuid, token_scopes: scopes, token_last_used_at: lastUsed, ...user } = row;
  if (lastUsed === null || Date.parse(lastUsed) <= now.getTime() - LAST_USED_EVERY_MS) {
    await db
      .updateTable('api_tokens')
      .set({ last_used_at: now.toISOString() })
      .where('uuid', '=', uuid)
      .execute();
  }
  return { user, uuid, scopes: scopesOf(scopes) };
};

/**
 * Revokes every live API token of a user; answers how many. Done on "revoke all", and on the
 * resets that suggest a compromise: a password reset by e-mail link, an administrator's reset of
 * the user's 2FA, a deactivation (docs/decisions.md, issue 30).
 */
export const revokeAllApiTokens = async (
  app: { db: Db; clock: Clock },
  userUuid: string,
): Promise<number> => {
  const result = await app.db
    .updateTable('api_tokens')
    .set({ revoked_at: app.clock.now().toISOString() })
    .where('user_uuid', '=', userUuid)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
};
