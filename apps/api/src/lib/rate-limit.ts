import type { Db } from '../db/index.ts';
import type { Clock } from './clock.ts';
import { newUuid } from './ids.ts';

// Failed sign-in attempts, counted per key over a sliding window (Laravel's "Too Many Attempts.").
// Rows live in `auth_failures` so the count survives restarts and is shared by every process.
// Policy (issue 11 §6, docs/decisions.md): an address, and an (account, address) pair, are locked
// for a minute after 5 failures; an account alone is never locked, since anyone can fail for any
// e-mail: its recent failures only slow every attempt at it down, the owner's included.
export const FAILURE_WINDOW_MS = 60_000;
/** How long an account's failures count toward its delay. */
export const ACCOUNT_WINDOW_MS = 15 * 60_000;

type Deps = { db: Db; clock: Clock };

export const failureKey = {
  /** Wrong password (or unknown email) for a username, from anywhere: slows, never locks. */
  user: (email: string) => `user:${email.toLowerCase()}`,
  /** Wrong password for a username from one address; a successful login clears it. */
  pair: (email: string, ip: string) => `pair:${email.toLowerCase()}|${ip}`,
  /** Any failure from an address; never cleared, it simply ages out. */
  ip: (ip: string) => `ip:${ip}`,
  /** Wrong 2FA codes for a user; only a right code clears it, not a new password login. */
  otp: (userUuid: string) => `otp:${userUuid}`,
};

const cutoff = (clock: Clock, windowMs = FAILURE_WINDOW_MS): string =>
  new Date(clock.now().getTime() - windowMs).toISOString();

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
  await db
    .deleteFrom('auth_failures')
    .where('created_at', '<=', cutoff(clock, ACCOUNT_WINDOW_MS))
    .execute();
};

/** Failures under `key` within the last `windowMs`. */
export const countFailures = async ({ db, clock }: Deps, key: string, windowMs: number) => {
  const row = await db
    .selectFrom('auth_failures')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('key', '=', key)
    .where('created_at', '>', cutoff(clock, windowMs))
    .executeTakeFirstOrThrow();
  return Number(row.count);
};

export type AccountDelaySettings = {
  /** Failures an account may have within ACCOUNT_WINDOW_MS before attempts at it slow down. */
  accountFreeFailures: number;
  accountDelayBaseMs: number;
  accountDelayMaxMs: number;
};

/** The wait before an attempt at an account with `failures` recent ones: doubling, capped. */
export const accountDelayMs = (failures: number, settings: AccountDelaySettings): number =>
  failures < settings.accountFreeFailures
    ? 0
    : Math.min(
        settings.accountDelayBaseMs * 2 ** (failures - settings.accountFreeFailures),
        settings.accountDelayMaxMs,
      );

export const clearFailures = async ({ db }: Pick<Deps, 'db'>, key: string) => {
  await db.deleteFrom('auth_failures').where('key', '=', key).execute();
};
