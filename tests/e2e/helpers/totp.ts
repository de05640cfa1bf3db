import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import * as OTPAuth from 'otpauth';

// One-time codes for the sign-ins of a run. The server accepts a user's codes once and only in
// rising time steps (one step of drift either way: the previous, current and next step). So the
// workers take turns per user (a lock directory) and each sign-in takes the next step nobody has
// spent, waiting for the clock when the steps around now are used up.

const PERIOD_MS = 30_000;
// A step is taken only if it is still accepted this long from now (a sign-in through the UI takes
// a few seconds on a busy machine).
const MARGIN_MS = 10_000;
const STALE_LOCK_MS = 30_000;

const stateDir = (): string => {
  const tmp = process.env.CCP_E2E_TMP;
  if (!tmp) throw new Error('CCP_E2E_TMP is not set (playwright.config.ts sets it).');
  const dir = path.join(tmp, 'totp');
  mkdirSync(dir, { recursive: true });
  return dir;
};

export const stepAt = (time = Date.now()): number => Math.floor(time / PERIOD_MS);

/** The RFC 6238 code (SHA-1, 6 digits, 30 s) of a time step. */
export const codeAt = (secret: string, step: number): string =>
  OTPAuth.HOTP.generate({
    secret: OTPAuth.Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    counter: step,
  });

/** Six digits that are not the code of any step near now. */
export const wrongCode = (secret: string): string => {
  const now = stepAt();
  const near = new Set([-2, -1, 0, 1, 2].map((offset) => codeAt(secret, now + offset)));
  for (let candidate = 123_456; ; candidate = (candidate + 111_111) % 1_000_000) {
    const code = String(candidate).padStart(6, '0');
    if (!near.has(code)) return code;
  }
};

const withLock = async <T>(email: string, run: () => Promise<T>): Promise<T> => {
  const lock = path.join(stateDir(), `${email}.lock`);
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // A worker that died holding it leaves the lock behind; a sign-in takes seconds.
    try {
      if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true });
    } catch {
      // released meanwhile
    }
    await sleep(50);
  }
  try {
    return await run();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
};

const stepFile = (email: string) => path.join(stateDir(), `${email}.step`);

const lastSpentStep = (email: string): number => {
  try {
    return Number(readFileSync(stepFile(email), 'utf8'));
  } catch {
    return Number.NEGATIVE_INFINITY;
  }
};

/** Waits until `step` is at most one step ahead of the clock. */
const waitUntilAccepted = async (step: number) => {
  const wait = (step - 1) * PERIOD_MS - Date.now();
  if (wait > 0) await sleep(wait + 50);
};

/**
 * Runs `use` with the user's next unspent code, holding the user's turn until it returns: `use`
 * should send the code and wait for the answer (through the UI or the API).
 */
export const withFreshCode = async <T>(
  email: string,
  secret: string,
  use: (code: string) => Promise<T>,
): Promise<T> =>
  withLock(email, async () => {
    const step = Math.max(lastSpentStep(email) + 1, stepAt(Date.now() + MARGIN_MS) - 1);
    await waitUntilAccepted(step);
    // Spent from now on, whatever the answer: a skipped step only costs a little waiting.
    writeFileSync(stepFile(email), String(step));
    return use(codeAt(secret, step));
  });

const secretFile = (email: string) => path.join(stateDir(), `${email}.secret`);

/** The secret a user set up during this run, if any (see `withSetupCodes`). */
export const setUpSecret = (email: string): string | null => {
  try {
    return readFileSync(secretFile(email), 'utf8');
  } catch {
    return null;
  }
};

/**
 * Two consecutive codes for a first-time 2FA setup (the server takes a first code from two steps
 * back up to one ahead, and the second of the step after it; the second counts as spent). When
 * `use` returns, the setup worked: later sign-ins of the user take their codes from `secret`.
 */
export const withSetupCodes = async <T>(
  email: string,
  secret: string,
  use: (codes: [string, string]) => Promise<T>,
): Promise<T> =>
  withLock(email, async () => {
    const first = Math.max(lastSpentStep(email) + 1, stepAt(Date.now() + MARGIN_MS) - 2);
    await waitUntilAccepted(first + 1);
    writeFileSync(stepFile(email), String(first + 1));
    const result = await use([codeAt(secret, first), codeAt(secret, first + 1)]);
    writeFileSync(secretFile(email), secret);
    return result;
  });
