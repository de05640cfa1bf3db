import * as OTPAuth from 'otpauth';

import { UsageError } from './errors.ts';

// Codes of the user's authenticator computed from CCP_TOTP_SECRET (SHA-1, 6 digits, 30 s: what
// the API expects), and the wait for the next 30-second step when the server says this step's
// code was already used (another sign-in a moment ago).

export const TOTP_PERIOD_MS = 30_000;

/** The current code for a base32 TOTP secret. */
export const totpCode = (secret: string, timestamp = Date.now()): string => {
  let parsed: OTPAuth.Secret;
  try {
    parsed = OTPAuth.Secret.fromBase32(secret.replace(/\s+/g, '').toUpperCase());
  } catch {
    throw new UsageError('CCP_TOTP_SECRET is not a valid base32 secret.');
  }
  return new OTPAuth.TOTP({ secret: parsed }).generate({ timestamp });
};

export const CODE_USED_WAITING =
  'The code of this 30-second step was already used (another sign-in a moment ago): waiting for the next code…';

/** Milliseconds until the next TOTP step starts, plus a little for clocks that differ. */
export const untilNextStep = (now = Date.now()): number =>
  TOTP_PERIOD_MS - (now % TOTP_PERIOD_MS) + 1000;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
