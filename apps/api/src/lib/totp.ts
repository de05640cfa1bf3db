import { timingSafeEqual } from 'node:crypto';

import * as OTPAuth from 'otpauth';

import type { Clock } from './clock.ts';

// RFC 6238 with the parameters every authenticator app understands.
const PERIOD_SECONDS = 30;
const DIGITS = 6;
const ALGORITHM = 'SHA1';
const ISSUER = 'CCP';

/** A new random 160-bit secret, base32 (what the user types for manual entry). */
export const newTotpSecret = (): string => new OTPAuth.Secret({ size: 20 }).base32;

/** The `otpauth://totp/...` URL an authenticator app reads from the QR code. */
export const otpauthUrl = (secret: string, label: string): string =>
  new OTPAuth.TOTP({
    issuer: ISSUER,
    label,
    secret: OTPAuth.Secret.fromBase32(secret),
    algorithm: ALGORITHM,
    digits: DIGITS,
    period: PERIOD_SECONDS,
  }).toString();

/** The TOTP time step (counter) at the clock's time. */
export const currentStep = (clock: Clock): number =>
  Math.floor(clock.now().getTime() / 1000 / PERIOD_SECONDS);

const codeAt = (secret: string, step: number): string =>
  OTPAuth.HOTP.generate({
    secret: OTPAuth.Secret.fromBase32(secret),
    algorithm: ALGORITHM,
    digits: DIGITS,
    counter: step,
  });

const sameCode = (a: string, b: string): boolean =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The step a login code belongs to, accepting one step of clock drift either way, or null.
 * Steps at or before `lastStep` are refused so a code is accepted only once.
 */
export const matchCode = (
  secret: string,
  code: string,
  clock: Clock,
  lastStep: number | null,
): number | null => {
  const now = currentStep(clock);
  for (const step of [now - 1, now, now + 1]) {
    if (lastStep !== null && step <= lastStep) continue;
    if (sameCode(codeAt(secret, step), code)) return step;
  }
  return null;
};

/**
 * True when `code` is right for a step within the accepted drift that was already used (at or
 * before `lastStep`): a second sign-in within the same 30 seconds, not a wrong code.
 */
export const isSpentCode = (
  secret: string,
  code: string,
  clock: Clock,
  lastStep: number | null,
): boolean => {
  if (lastStep === null) return false;
  const now = currentStep(clock);
  return [now - 1, now, now + 1].some(
    (step) => step <= lastStep && sameCode(codeAt(secret, step), code),
  );
};

/**
 * Setup check: `first` is the code of some step s and `second` of s + 1, with s from two steps
 * back (the user typed the first code, then waited for the next one) to one step ahead.
 * Returns the step of the second code, or null.
 */
export const matchConsecutiveCodes = (
  secret: string,
  [first, second]: readonly [string, string],
  clock: Clock,
): number | null => {
  const now = currentStep(clock);
  for (let step = now - 2; step <= now + 1; step += 1) {
    if (sameCode(codeAt(secret, step), first) && sameCode(codeAt(secret, step + 1), second)) {
      return step + 1;
    }
  }
  return null;
};
