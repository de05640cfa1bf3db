import { createHmac } from 'node:crypto';

import { MESSAGES } from '@ccp/schemas';

import type { AuthSettings, AuthStage } from '../context.ts';
import type { Db } from '../db/index.ts';
import { preparedQuery } from '../db/prepared.ts';
import type { AuthTokensTable, UsersTable } from '../db/types.ts';
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

type PairSecrets = { access: string; refresh: string };

/** Stores an access + refresh pair of the given secrets in a token family. */
const insertTokenPair = async (
  { db, clock, settings }: TokenDeps,
  { userUuid, stage, familyUuid }: { userUuid: string; stage: AuthStage; familyUuid: string },
  { access, refresh }: PairSecrets,
): Promise<TokenPair> => {
  const now = clock.now();
  const at = (seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();
  const row = (kind: 'access' | 'refresh', token: string, seconds: number) => ({
    token_hash: hashToken(token),
    user_uuid: userUuid,
    kind,
    stage,
    family_uuid: familyUuid,
    expires_at: at(seconds),
    used_at: null,
    revoked_at: null,
    created_at: now.toISOString(),
    successor_seed: null,
  });
  await db
    .insertInto('auth_tokens')
    .values([
      row('access', access, settings.accessTtlSeconds),
      row('refresh', refresh, settings.refreshTtlSeconds),
    ])
    .execute();
  return {
    access_token: access,
    refresh_token: refresh,
    token_type: 'Bearer',
    expires_in: settings.accessTtlSeconds,
  };
};

/** Issues an access + refresh pair in a token family (a new family for a new sign-in). */
export const issueTokenPair = (
  deps: TokenDeps,
  userUuid: string,
  stage: AuthStage,
  familyUuid: string = newUuid(),
): Promise<TokenPair> =>
  insertTokenPair(
    deps,
    { userUuid, stage, familyUuid },
    { access: newToken(), refresh: newToken() },
  );

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

type AccessRow = UsersTable & {
  stage: AuthStage;
  family_uuid: string;
  session_last_used_at: string | null;
};

// Asked on every authenticated request: built and compiled once (db/prepared.ts), so a request
// pays SQLite's look-up by key, not Kysely's building of a nine-clause join. The session's last
// use comes with it, so that noting a use (accounts/sessions.ts) needs no statement when it is
// not due.
const liveAccessToken = preparedQuery<[tokenHash: string, now: string], AccessRow>(
  2,
  (db, tokenHash, now) =>
    db
      .selectFrom('auth_tokens')
      .innerJoin('users', 'users.uuid', 'auth_tokens.user_uuid')
      .leftJoin('auth_sessions', 'auth_sessions.family_uuid', 'auth_tokens.family_uuid')
      .selectAll('users')
      .select([
        'auth_tokens.stage',
        'auth_tokens.family_uuid',
        'auth_sessions.last_used_at as session_last_used_at',
      ])
      .where('auth_tokens.token_hash', '=', tokenHash)
      .where('auth_tokens.kind', '=', 'access')
      .where('auth_tokens.revoked_at', 'is', null)
      .where('auth_tokens.expires_at', '>', now)
      // A deactivated creator's tokens stop working at once (issue 17).
      .where('users.deactivated_at', 'is', null),
);

/**
 * The live access token's user and stage, or null; with its session's last use (null when the
 * family has no session row).
 */
export const findAccessToken = async (
  { db, clock }: Pick<TokenDeps, 'db' | 'clock'>,
  token: string,
): Promise<{
  user: UsersTable;
  stage: AuthStage;
  tokenHash: string;
  familyUuid: string;
  sessionLastUsedAt: string | null;
} | null> => {
  const tokenHash = hashToken(token);
  const { rows } = await liveAccessToken.run(db, tokenHash, clock.now().toISOString());
  const row = rows[0];
  if (!row) return null;
  const { stage, family_uuid: familyUuid, session_last_used_at: sessionLastUsedAt, ...user } = row;
  return { user, stage, tokenHash, familyUuid, sessionLastUsedAt };
};

/** Seconds an access token stays valid once its sign-in was refreshed (issue 11 §11). */
export const ROTATED_ACCESS_GRACE_SECONDS = 30;

/**
 * Seconds during which a spent refresh token, presented again, answers the same pair it was
 * rotated into instead of ending the sign-in: the answer to the first call may have been lost (a
 * tab closed, a dropped connection) or two tabs may have sent the same cookie at once
 * (docs/decisions.md, "A spent refresh cookie within its grace").
 */
export const REFRESH_REUSE_GRACE_SECONDS = 30;

type RefreshRow = AuthTokensTable;
type Rotation = { pair: TokenPair; userUuid: string; familyUuid: string };

/**
 * The pair a refresh token is rotated into, derived from the token and the seed its spent row
 * keeps: the same pair every time, computable only by whoever holds the token and the database.
 */
const successorOf = (refreshToken: string, seed: string): PairSecrets => {
  const derive = (kind: string) =>
    createHmac('sha256', refreshToken).update(`${kind}:${seed}`).digest('base64url');
  return { access: derive('access'), refresh: derive('refresh') };
};

/**
 * Spends `row` and stores its successor pair in one transaction: of two concurrent rotations
 * only one updates the row (SQLite runs one transaction at a time; PostgreSQL makes the second
 * UPDATE wait for the first to commit, then finds the token spent). Null when it lost that race.
 */
const spendAndIssue = (
  deps: TokenDeps,
  row: RefreshRow,
  refreshToken: string,
): Promise<TokenPair | null> => {
  const { clock } = deps;
  const now = clock.now();
  const seed = newToken();
  return deps.db.transaction().execute(async (trx) => {
    const spent = await trx
      .updateTable('auth_tokens')
      .set({ used_at: now.toISOString(), successor_seed: seed })
      .where('token_hash', '=', row.token_hash)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) return null;
    // The access tokens issued before this refresh end soon, not after their full lifetime: long
    // enough for requests already on their way (another tab, a parallel CLI step), no longer.
    const graceEnd = new Date(now.getTime() + ROTATED_ACCESS_GRACE_SECONDS * 1000).toISOString();
    await trx
      .updateTable('auth_tokens')
      .set({ expires_at: graceEnd })
      .where('family_uuid', '=', row.family_uuid)
      .where('kind', '=', 'access')
      .where('expires_at', '>', graceEnd)
      .execute();
    return insertTokenPair(
      { ...deps, db: trx },
      { userUuid: row.user_uuid, stage: row.stage, familyUuid: row.family_uuid },
      successorOf(refreshToken, seed),
    );
  });
};

/**
 * The pair a spent refresh token was rotated into, when it is presented again within the grace
 * and that pair is still untouched (its refresh token unspent, nothing revoked); else null. An
 * older token is never answered: once the successor is spent, its predecessor is reuse.
 */
const answerAgain = async (
  { db, clock }: TokenDeps,
  row: RefreshRow,
  refreshToken: string,
): Promise<TokenPair | null> => {
  const now = clock.now();
  if (row.used_at === null || row.successor_seed === null || row.revoked_at !== null) return null;
  const graceEnd = Date.parse(row.used_at) + REFRESH_REUSE_GRACE_SECONDS * 1000;
  if (now.getTime() > graceEnd) return null;
  const successor = successorOf(refreshToken, row.successor_seed);
  const rows = await db
    .selectFrom('auth_tokens')
    .select(['kind', 'expires_at'])
    .where('token_hash', 'in', [hashToken(successor.access), hashToken(successor.refresh)])
    .where('family_uuid', '=', row.family_uuid)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .execute();
  const access = rows.find((token) => token.kind === 'access');
  if (!access || !rows.some((token) => token.kind === 'refresh')) return null;
  return {
    access_token: successor.access,
    refresh_token: successor.refresh,
    token_type: 'Bearer',
    expires_in: Math.floor((Date.parse(access.expires_at) - now.getTime()) / 1000),
  };
};

const findRefreshRow = (db: Db, refreshToken: string): Promise<RefreshRow | undefined> =>
  db
    .selectFrom('auth_tokens')
    .selectAll()
    .where('token_hash', '=', hashToken(refreshToken))
    .where('kind', '=', 'refresh')
    .executeTakeFirst();

/**
 * Rotates a refresh token: the old one is spent and a new pair issued in the same family.
 * Presented again within REFRESH_REUSE_GRACE_SECONDS it answers that same pair; later, or once
 * that pair's refresh token is spent too, it means the token leaked: the whole family is revoked
 * (RFC 9700 §4.14.2).
 */
export const rotateRefreshToken = async (
  deps: TokenDeps,
  refreshToken: string,
  expectedStage: AuthStage,
): Promise<Rotation> => {
  const { db, clock } = deps;
  const invalid = () => new AppError('INVALID_REFRESH_TOKEN', MESSAGES.invalidRefreshToken);
  let row = await findRefreshRow(db, refreshToken);
  if (!row || row.stage !== expectedStage) throw invalid();
  const { user_uuid: userUuid, family_uuid: familyUuid } = row;
  const rotated = (pair: TokenPair): Rotation => ({ pair, userUuid, familyUuid });
  if (row.used_at === null) {
    if (row.revoked_at !== null || row.expires_at <= clock.now().toISOString()) throw invalid();
    const pair = await spendAndIssue(deps, row, refreshToken);
    if (pair) return rotated(pair);
    // A parallel call spent it first: read what that one left, and answer as a repeat would.
    row = await findRefreshRow(db, refreshToken);
    if (!row) throw invalid();
  }
  const again = await answerAgain(deps, row, refreshToken);
  if (again) return rotated(again);
  await revokeFamily(deps, row.family_uuid);
  throw invalid();
};
