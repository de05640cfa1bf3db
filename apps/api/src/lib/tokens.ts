import { MESSAGES } from '@ccp/schemas';

import type { AuthSettings, AuthStage } from '../context.ts';
import type { Db } from '../db/index.ts';
import { preparedQuery } from '../db/prepared.ts';
import type { UsersTable } from '../db/types.ts';
import { AppError } from './app-error.ts';
import type { Clock } from './clock.ts';
import { hashToken, newToken, newUuid } from './ids.ts';

export type TokenPair = {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
};

type TokenDeps = { db: Db; clock: Clock; settings: AuthSettings };

/** Issues an access + refresh pair in a token family (a new family for a new sign-in). */
export const issueTokenPair = async (
  { db, clock, settings }: TokenDeps,
  userUuid: string,
  stage: AuthStage,
  familyUuid: string = newUuid(),
): Promise<TokenPair> => {
  const now = clock.now();
  const access = newToken();
  const refresh = newToken();
  const at = (seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();
  await db
    .insertInto('auth_tokens')
    .values([
      {
        token_hash: hashToken(access),
        user_uuid: userUuid,
        kind: 'access',
        stage,
        family_uuid: familyUuid,
        expires_at: at(settings.accessTtlSeconds),
        used_at: null,
        revoked_at: null,
        created_at: now.toISOString(),
      },
      {
        token_hash: hashToken(refresh),
        user_uuid: userUuid,
        kind: 'refresh',
        stage,
        family_uuid: familyUuid,
        expires_at: at(settings.refreshTtlSeconds),
        used_at: null,
        revoked_at: null,
        created_at: now.toISOString(),
      },
    ])
    .execute();
  return {
    access_token: access,
    refresh_token: refresh,
    token_type: 'Bearer',
    expires_in: settings.accessTtlSeconds,
  };
};

export const revokeFamily = async (
  { db, clock }: Pick<TokenDeps, 'db' | 'clock'>,
  familyUuid: string,
) => {
  await db
    .updateTable('auth_tokens')
    .set({ revoked_at: clock.now().toISOString() })
    .where('family_uuid', '=', familyUuid)
    .where('revoked_at', 'is', null)
    .execute();
};

/** Turns a sign-in's live tokens into first-step ones (a self-service 2FA reset). */
export const demoteFamilyToFirstStep = async (
  { db }: Pick<TokenDeps, 'db'>,
  familyUuid: string,
): Promise<void> => {
  await db
    .updateTable('auth_tokens')
    .set({ stage: 'otp' })
    .where('family_uuid', '=', familyUuid)
    .where('revoked_at', 'is', null)
    .execute();
};

type AccessRow = UsersTable & { stage: AuthStage; family_uuid: string };

// Asked on every authenticated request: built and compiled once (db/prepared.ts), so a request
// pays SQLite's look-up by key, not Kysely's building of a nine-clause join.
const liveAccessToken = preparedQuery<[tokenHash: string, now: string], AccessRow>(
  2,
  (db, tokenHash, now) =>
    db
      .selectFrom('auth_tokens')
      .innerJoin('users', 'users.uuid', 'auth_tokens.user_uuid')
      .selectAll('users')
      .select(['auth_tokens.stage', 'auth_tokens.family_uuid'])
      .where('auth_tokens.token_hash', '=', tokenHash)
      .where('auth_tokens.kind', '=', 'access')
      .where('auth_tokens.revoked_at', 'is', null)
      .where('auth_tokens.expires_at', '>', now)
      // A deactivated creator's tokens stop working at once (issue 17).
      .where('users.deactivated_at', 'is', null),
);

/** The live access token's user and stage, or null. */
export const findAccessToken = async (
  { db, clock }: Pick<TokenDeps, 'db' | 'clock'>,
  token: string,
): Promise<{
  user: UsersTable;
  stage: AuthStage;
  tokenHash: string;
  familyUuid: string;
} | null> => {
  const tokenHash = hashToken(token);
  const { rows } = await liveAccessToken.run(db, tokenHash, clock.now().toISOString());
  const row = rows[0];
  if (!row) return null;
  const { stage, family_uuid: familyUuid, ...user } = row;
  return { user, stage, tokenHash, familyUuid };
};

/**
 * Rotates a refresh token: the old one is spent and a new pair issued in the same family.
 * A spent token presented again means it leaked: the whole family is revoked (RFC 9700 §4.14.2).
 */
/** Seconds an access token stays valid once its sign-in was refreshed (issue 11 §11). */
export const ROTATED_ACCESS_GRACE_SECONDS = 30;

export const rotateRefreshToken = async (
  deps: TokenDeps,
  refreshToken: string,
  expectedStage: AuthStage,
): Promise<{ pair: TokenPair; userUuid: string; familyUuid: string }> => {
  const { db, clock } = deps;
  const now = clock.now().toISOString();
  const invalid = () => new AppError('INVALID_REFRESH_TOKEN', MESSAGES.invalidRefreshToken);
  const row = await db
    .selectFrom('auth_tokens')
    .selectAll()
    .where('token_hash', '=', hashToken(refreshToken))
    .where('kind', '=', 'refresh')
    .executeTakeFirst();
  if (!row || row.stage !== expectedStage) throw invalid();
  if (row.used_at !== null) {
    await revokeFamily(deps, row.family_uuid);
    throw invalid();
  }
  if (row.revoked_at !== null || row.expires_at <= now) throw invalid();
  // Spend it atomically: of two concurrent rotations only one updates the row.
  const spent = await db
    .updateTable('auth_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', row.token_hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) !== 1) {
    await revokeFamily(deps, row.family_uuid);
    throw invalid();
  }
  // The access tokens issued before this refresh end soon, not after their full lifetime: long
  // enough for requests already on their way (another tab, a parallel CLI step), no longer.
  const graceEnd = new Date(
    clock.now().getTime() + ROTATED_ACCESS_GRACE_SECONDS * 1000,
  ).toISOString();
  await db
    .updateTable('auth_tokens')
    .set({ expires_at: graceEnd })
    .where('family_uuid', '=', row.family_uuid)
    .where('kind', '=', 'access')
    .where('expires_at', '>', graceEnd)
    .execute();
  const pair = await issueTokenPair(deps, row.user_uuid, expectedStage, row.family_uuid);
  return { pair, userUuid: row.user_uuid, familyUuid: row.family_uuid };
};
