import type { TSession } from '@ccp/schemas';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import { preparedQuery } from '../db/prepared.ts';
import { isoNow } from '../lib/clock.ts';
import { revokeFamily } from '../lib/tokens.ts';
import { userAgentOf } from './audit-log.ts';

// A session is a sign-in: one token family of full stage. Its live refresh token says it is
// still open; auth_sessions adds where it came from and when it was last used.

type App = Pick<FastifyInstance, 'db' | 'clock'>;

/** How often a session's last use is written: once a minute at most, not on every call. */
const LAST_USED_EVERY_MS = 60_000;

/** Records a new sign-in (after its second factor) and the user's last sign-in time. */
export const startSession = async (
  app: App,
  { familyUuid, userUuid }: { familyUuid: string; userUuid: string },
  request: Pick<FastifyRequest, 'ip' | 'headers'>,
): Promise<void> => {
  const now = isoNow(app.clock);
  await app.db
    .insertInto('auth_sessions')
    .values({
      family_uuid: familyUuid,
      user_uuid: userUuid,
      user_agent: userAgentOf(request),
      ip: request.ip,
      created_at: now,
      last_used_at: now,
      ended_at: null,
    })
    .execute();
  await app.db
    .updateTable('users')
    .set({ last_sign_in_at: now })
    .where('uuid', '=', userUuid)
    .execute();
};

// Run on every authenticated request: compiled once (db/prepared.ts).
const touchQuery = preparedQuery<[now: string, familyUuid: string, before: string]>(
  3,
  (db, now, familyUuid, before) =>
    db
      .updateTable('auth_sessions')
      .set({ last_used_at: now })
      .where('family_uuid', '=', familyUuid)
      .where('last_used_at', '<', before),
);

/**
 * Notes a use of the session, at most once a minute. `lastUsedAt` is the stored last use, read
 * with the access token (null: the family has no session row): the statement runs only when it
 * would change the row, not on every request (on SQLite an UPDATE takes the write lock even when
 * it matches nothing). It keeps its own condition: another process may have noted a use since.
 */
export const touchSession = async (
  app: App,
  familyUuid: string,
  lastUsedAt: string | null,
): Promise<void> => {
  const now = app.clock.now();
  const before = new Date(now.getTime() - LAST_USED_EVERY_MS).toISOString();
  if (lastUsedAt === null || lastUsedAt >= before) return;
  await touchQuery.run(app.db, now.toISOString(), familyUuid, before);
};

/** The user's open sessions (a live refresh token of full stage), the newest use first. */
export const listSessions = async (
  app: App,
  userUuid: string,
  currentFamily: string,
): Promise<TSession[]> => {
  const now = isoNow(app.clock);
  const rows = await app.db
    .selectFrom('auth_tokens')
    .leftJoin('auth_sessions', 'auth_sessions.family_uuid', 'auth_tokens.family_uuid')
    .select([
      'auth_tokens.family_uuid',
      'auth_tokens.created_at as token_created_at',
      'auth_sessions.user_agent',
      'auth_sessions.ip',
      'auth_sessions.created_at',
      'auth_sessions.last_used_at',
    ])
    .where('auth_tokens.user_uuid', '=', userUuid)
    .where('auth_tokens.kind', '=', 'refresh')
    .where('auth_tokens.stage', '=', 'full')
    .where('auth_tokens.used_at', 'is', null)
    .where('auth_tokens.revoked_at', 'is', null)
    .where('auth_tokens.expires_at', '>', now)
    .execute();
  return rows
    .map((row) => ({
      uuid: row.family_uuid,
      user_agent: row.user_agent ?? null,
      ip: row.ip ?? null,
      created_at: row.created_at ?? row.token_created_at,
      last_used_at: row.last_used_at ?? row.token_created_at,
      current: row.family_uuid === currentFamily,
    }))
    .sort((a, b) =>
      a.current ? -1 : b.current ? 1 : b.last_used_at.localeCompare(a.last_used_at),
    );
};

/** Ends one sign-in: its tokens stop working at once. */
export const endSession = async (app: App, familyUuid: string): Promise<void> => {
  await revokeFamily(app, familyUuid);
  await app.db
    .updateTable('auth_sessions')
    .set({ ended_at: isoNow(app.clock) })
    .where('family_uuid', '=', familyUuid)
    .where('ended_at', 'is', null)
    .execute();
};

/**
 * Ends every sign-in of a user (first-step ones included), except `exceptFamily`; answers how
 * many sessions were open.
 */
export const endSessions = async (
  app: App,
  userUuid: string,
  exceptFamily?: string,
): Promise<number> => {
  const now = isoNow(app.clock);
  const open = await listSessions(app, userUuid, exceptFamily ?? '');
  let revoke = app.db
    .updateTable('auth_tokens')
    .set({ revoked_at: now })
    .where('user_uuid', '=', userUuid)
    .where('revoked_at', 'is', null);
  if (exceptFamily) revoke = revoke.where('family_uuid', '!=', exceptFamily);
  await revoke.execute();
  let end = app.db
    .updateTable('auth_sessions')
    .set({ ended_at: now })
    .where('user_uuid', '=', userUuid)
    .where('ended_at', 'is', null);
  if (exceptFamily) end = end.where('family_uuid', '!=', exceptFamily);
  await end.execute();
  return open.filter((session) => session.uuid !== exceptFamily).length;
};
