import { MESSAGES } from '@ccp/schemas';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { UsersTable } from '../../../db/types.ts';
import { AppError } from '../../../lib/app-error.ts';
import { clearFailures, failureKey, lockedFor, recordFailure } from '../../../lib/rate-limit.ts';
import { isSpentCode, matchCode } from '../../../lib/totp.ts';

/** What lib/tokens.ts needs, taken from the app. */
export const tokenDeps = (app: FastifyInstance) => ({
  db: app.db,
  clock: app.clock,
  settings: app.authSettings,
});

/** The 429 for a locked username, user or address, telling the client when to retry. */
export const tooManyAttempts = (reply: FastifyReply, retryAfterSeconds: number): AppError => {
  reply.header('retry-after', String(retryAfterSeconds));
  reply.server.metrics.lockouts.inc();
  return new AppError('TOO_MANY_ATTEMPTS', MESSAGES.tooManyAttempts);
};

/**
 * Checks a TOTP code of `user` and spends its step, so the code works once. A wrong code counts
 * under `keys` and answers INVALID_CODE; a right code whose step was already spent (another
 * sign-in within the same 30 seconds, or a concurrent request with the same code) answers
 * CODE_ALREADY_USED, so a client holding the secret knows to wait for the next step. The caller
 * checks the lock (lockedFor) first.
 */
export const spendTotpCode = async (
  app: FastifyInstance,
  user: Pick<UsersTable, 'uuid' | 'totp_secret' | 'totp_last_step'>,
  code: string,
  keys: readonly string[],
): Promise<void> => {
  const secret = user.totp_secret;
  if (!secret) throw new AppError('TWO_FACTOR_REQUIRED', MESSAGES.twoFactorNotEnabled);
  const alreadyUsed = () => new AppError('CODE_ALREADY_USED', MESSAGES.codeAlreadyUsed);
  const step = matchCode(secret, code, app.clock, user.totp_last_step);
  if (step === null) {
    await recordFailure(app, keys);
    app.metrics.signInFailures.inc({ step: 'totp' });
    if (isSpentCode(secret, code, app.clock, user.totp_last_step)) throw alreadyUsed();
    throw new AppError('INVALID_CODE', MESSAGES.invalidCode);
  }
  // Consume the code's step first: of two concurrent requests with one code, one wins.
  const consumed = await app.db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('uuid', '=', user.uuid)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  if (Number(consumed.numUpdatedRows) !== 1) throw alreadyUsed();
  await clearFailures(app, failureKey.otp(user.uuid));
};

/**
 * A fresh authenticator code of the signed-in `user` for an action a stolen session alone must not
 * do (an API token, recovery codes, re-enrolment, an administrator's invitation or another's 2FA
 * reset): counted like a sign-in code (429 after too many wrong ones a minute), spent once.
 */
export const requireFreshCode = async (
  request: FastifyRequest,
  reply: FastifyReply,
  user: Pick<UsersTable, 'uuid' | 'totp_secret' | 'totp_last_step'>,
  code: string,
): Promise<void> => {
  const app = request.server;
  const keys = [failureKey.otp(user.uuid), failureKey.ip(request.ip)];
  const wait = await lockedFor(app, keys, app.authSettings.maxFailuresPerMinute);
  if (wait !== null) throw tooManyAttempts(reply, wait);
  await spendTotpCode(app, user, code, keys);
};
