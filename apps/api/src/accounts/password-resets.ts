import { PASSWORD_RESET_TTL_MINUTES } from '@ccp/schemas';
import type { FastifyInstance } from 'fastify';

import type { UsersTable } from '../db/types.ts';
import { isoNow } from '../lib/clock.ts';
import { hashToken, newToken } from '../lib/ids.ts';

// Password-reset links: 256 random bits in the link, a SHA-256 hash here, single use, valid for
// PASSWORD_RESET_TTL_MINUTES. A new request does not end older links; a reset ends them all.

type App = Pick<FastifyInstance, 'db' | 'clock'>;

export const createPasswordReset = async (
  app: App,
  userUuid: string,
  ip: string,
): Promise<string> => {
  const token = newToken();
  const now = app.clock.now();
  await app.db
    .insertInto('password_resets')
    .values({
      token_hash: hashToken(token),
      user_uuid: userUuid,
      ip,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + PASSWORD_RESET_TTL_MINUTES * 60_000).toISOString(),
      used_at: null,
    })
    .execute();
  return token;
};

/** The live link's user (never a deactivated one), or null. */
export const findPasswordReset = async (
  app: App,
  token: string,
): Promise<{ tokenHash: string; user: UsersTable } | null> => {
  const tokenHash = hashToken(token);
  const row = await app.db
    .selectFrom('password_resets')
    .innerJoin('users', 'users.uuid', 'password_resets.user_uuid')
    .selectAll('users')
    .where('password_resets.token_hash', '=', tokenHash)
    .where('password_resets.used_at', 'is', null)
    .where('password_resets.expires_at', '>', isoNow(app.clock))
    .where('users.deactivated_at', 'is', null)
    .executeTakeFirst();
  return row ? { tokenHash, user: row } : null;
};

/** Spends the link and every other open link of the user; false when another request won. */
export const spendPasswordReset = async (
  app: App,
  tokenHash: string,
  userUuid: string,
): Promise<boolean> => {
  const now = isoNow(app.clock);
  const spent = await app.db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) !== 1) return false;
  await app.db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('user_uuid', '=', userUuid)
    .where('used_at', 'is', null)
    .execute();
  return true;
};
