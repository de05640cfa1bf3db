import type { Db } from '../db/index.ts';
import type { Clock } from './clock.ts';
import { newUuid } from './ids.ts';

// Failed sign-in attempts, counted per key over a sliding minute (Laravel's "Too Many Attempts.").
// Rows live in `auth_failures` so the count survives restarts and is shared by every process.
export const FAILURE_WINDOW_MS = 60_000;

type Deps = { db: Db; clock: Clock };

export const failureKey = {
  /** Wrong password (or unknown email) for a username; a successful login clears it. */
  user: (email: string) => `user:${email.toLowerCase()}`,
  /** Any failure from an address; never cleared, it simply ages out. */
  ip: (ip: string) => `ip:${ip}`,
  /** Wrong 2FA codes for a user; only a right code clears it, not a new password login. */
  otp: (userUuid: string) => `otp:${userUuid}`,
};

const cutoff = (clock: Clock): string =>
  new Date(clock.now().getTime() - FAILURE_WINDOW_MS).toISOString();

/**
 * Seconds until an attempt is allowed again when any key already has `max` failures within the
 * last minute; null when the attempt may go ahead.
 */
export const lockedFor = async (
  { db, clock }: Deps,
  keys: readonly string[],
  max: number,
): Promise<number | null> => {
  const now = clock.now().getTime();
  const rows = await db
    .selectFrom('auth_failures')
    .select(['key', 'created_at'])
    .where('key', 'in', [...keys])
    .where('created_at', '>', cutoff(clock))
    .orderBy('created_at', 'asc')
    .execute();
  let waitMs: number | null = null;
  for (const key of keys) {
    const times = rows.filter((row) => row.key === key).map((row) => row.created_at);
    if (times.length < max) continue;
    // The lock lifts when enough of the oldest failures have aged out to leave max - 1.
    const liftsAt = new Date(times[times.length - max] ?? '').getTime() + FAILURE_WINDOW_MS;
    waitMs = Math.max(waitMs ?? 0, liftsAt - now);
  }
  return waitMs === null ? null : Math.max(1, Math.ceil(waitMs / 1000));
};

/** Records one failure under each key and drops rows that no longer count. */
export const recordFailure = async ({ db, clock }: Deps, keys: readonly string[]) => {
  const now = clock.now().toISOString();
  await db
    .insertInto('auth_failures')
    .values(keys.map((key) => ({ uuid: newUuid(), key, created_at: now })))
    .execute();
  await db.deleteFrom('auth_failures').where('created_at', '<=', cutoff(clock)).execute();
};

export const clearFailures = async ({ db }: Pick<Deps, 'db'>, key: string) => {
  await db.deleteFrom('auth_failures').where('key', '=', key).execute();
};
