import {
  CSRF_HEADER,
  MESSAGES,
  REFRESH_COOKIE_HEADER,
  ZLoginRequestSchema,
  ZLoginResponseSchema,
  ZLogoutResponseSchema,
  ZRefreshRequestSchema,
  ZTokenResponseSchema,
  ZTwoFactorTokenRequestSchema,
  ZTwoFactorTokenResponseSchema,
} from '@ccp/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { AppError, validationError } from '../../../lib/app-error.ts';
import { recordAudit } from '../../../accounts/audit-log.ts';
import { remainingRecoveryCodes, spendRecoveryCode } from '../../../accounts/recovery-codes.ts';
import { startSession } from '../../../accounts/sessions.ts';
import type { UsersTable } from '../../../db/types.ts';
import { hashToken, newUuid } from '../../../lib/ids.ts';
import { hashPassword, verifyPassword } from '../../../lib/passwords.ts';
import {
  ACCOUNT_WINDOW_MS,
  accountDelayMs,
  clearFailures,
  countFailures,
  failureKey,
  lockedFor,
  recordFailure,
} from '../../../lib/rate-limit.ts';
import {
  issueTokenPair,
  REFRESH_REUSE_GRACE_SECONDS,
  revokeFamily,
  rotateRefreshToken,
} from '../../../lib/tokens.ts';
import { authOf } from '../../../plugins/auth.ts';
import { clearRefreshCookie, deliverRefreshToken, refreshTokenOf } from './refresh-cookie.ts';
import { spendTotpCode, tokenDeps, tooManyAttempts } from './shared.ts';
import { loadUser } from './user-resource.ts';

// An unknown email still costs one scrypt run, so timing does not tell which emails exist.
let dummyHash: Promise<string> | undefined;
const dummyPasswordHash = () => (dummyHash ??= hashPassword('not-a-real-password'));

/**
 * Spends one of the user's recovery codes instead of a TOTP code; a wrong one counts like a wrong
 * code. Answers how many unused codes remain.
 */
const spendRecovery = async (
  app: Parameters<typeof spendRecoveryCode>[0],
  user: Pick<UsersTable, 'uuid'>,
  code: string,
  keys: readonly string[],
): Promise<number> => {
  if (!(await spendRecoveryCode(app, user.uuid, code))) {
    await recordFailure(app, keys);
    throw new AppError('INVALID_CODE', MESSAGES.recoveryCodeInvalid);
  }
  await clearFailures(app, failureKey.otp(user.uuid));
  return remainingRecoveryCodes(app, user.uuid);
};

/** The token calls: login (first step), 2FA code (second step), refresh and logout. */
export const oauthRoutes: FastifyPluginAsyncZod = async (app) => {
  const invalidRefreshToken = () =>
    new AppError('INVALID_REFRESH_TOKEN', MESSAGES.invalidRefreshToken);

  app.post(
    '/api/v1/users/oauth/token',
    {
      config: { auth: false },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with email and password (first step)',
        'x-errors': [429],
        description:
          'Answers first-step tokens: they open only 2fa-token, 2fa-qrcode, 2fa-verify/, users/me and logout. More than 5 failed attempts a minute from one address, or for one username from one address, answer 429 with Retry-After. A username is never locked by failures from elsewhere: after 5 failures in 15 minutes every attempt at it waits 0.5 s, doubling to at most 10 s, and the right password still signs in.',
        security: [],
        body: ZLoginRequestSchema,
        response: { 200: ZLoginResponseSchema },
      },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      const settings = app.authSettings;
      const pairKey = failureKey.pair(username, request.ip);
      const account = failureKey.user(username);
      const keys = [pairKey, failureKey.ip(request.ip)];
      const wait = await lockedFor(app, keys, settings.maxFailuresPerMinute);
      if (wait !== null) throw tooManyAttempts(reply, wait);
      // Slow, never lock: failures from other addresses must not keep the owner out.
      const failures = await countFailures(app, account, ACCOUNT_WINDOW_MS);
      const delay = accountDelayMs(failures, settings);
      if (delay > 0) await settings.sleep(delay);

      const user = await app.db
        .selectFrom('users')
        .select(['uuid', 'password_hash', 'is_2fa_enabled', 'deactivated_at'])
        .where((eb) => eb(eb.fn<string>('lower', ['email']), '=', username))
        .executeTakeFirst();
      const valid = await verifyPassword(
        password,
        user?.password_hash ?? (await dummyPasswordHash()),
      );
      // A deactivated creator is refused like a wrong password: nothing tells them apart.
      if (!user || !valid || user.deactivated_at) {
        await recordFailure(app, [...keys, account]);
        app.metrics.signInFailures.inc({ step: 'password' });
        throw new AppError('INVALID_CREDENTIALS', MESSAGES.invalidCredentials);
      }
      await clearFailures(app, pairKey);
      await clearFailures(app, account);
      const pair = await issueTokenPair(tokenDeps(app), user.uuid, 'otp');
      return { data: { ...pair, is_2fa_enabled: Number(user.is_2fa_enabled) === 1 } };
    },
  );

  app.post(
    '/api/v1/users/oauth/2fa-token',
    {
      config: { auth: 'otp' },
      schema: {
        tags: ['auth'],
        summary: 'Complete sign-in with a TOTP code (second step)',
        'x-errors': [429],
        description:
          'Bearer: the first-step access token; refresh_token: the first-step refresh token of the same sign-in. Send `code` (TOTP) or `recovery_code` (one of the ten shown at setup, spent by use; the answer then says how many remain). Answers full tokens and the user. A code is accepted once (a right code whose 30-second step was already used answers 422 CODE_ALREADY_USED); wrong codes count towards the 429 limit.',
        body: ZTwoFactorTokenRequestSchema,
        response: { 200: ZTwoFactorTokenResponseSchema },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const { user } = auth;
      const now = app.clock.now().toISOString();
      const refresh = await app.db
        .selectFrom('auth_tokens')
        .select('token_hash')
        .where('token_hash', '=', hashToken(request.body.refresh_token))
        .where('kind', '=', 'refresh')
        .where('stage', '=', 'otp')
        .where('family_uuid', '=', auth.familyUuid)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (!refresh) throw invalidRefreshToken();
      if (Number(user.is_2fa_enabled) !== 1 || !user.totp_secret) {
        throw new AppError('TWO_FACTOR_REQUIRED', MESSAGES.twoFactorNotEnabled);
      }

      const keys = [failureKey.otp(user.uuid), failureKey.ip(request.ip)];
      const wait = await lockedFor(app, keys, app.authSettings.maxFailuresPerMinute);
      if (wait !== null) throw tooManyAttempts(reply, wait);
      const { code, recovery_code: recoveryCode } = request.body;
      let remaining: number | undefined;
      if (recoveryCode !== undefined) {
        remaining = await spendRecovery(app, user, recoveryCode, keys);
      } else {
        await spendTotpCode(app, user, code ?? '', keys);
      }
      const spent = await app.db
        .updateTable('auth_tokens')
        .set({ used_at: now })
        .where('token_hash', '=', refresh.token_hash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(spent.numUpdatedRows) !== 1) throw invalidRefreshToken();

      await revokeFamily(app, auth.familyUuid);
      const familyUuid = newUuid();
      const pair = await issueTokenPair(tokenDeps(app), user.uuid, 'full', familyUuid);
      await startSession(app, { familyUuid, userUuid: user.uuid }, request);
      if (remaining !== undefined) {
        await recordAudit(app, {
          companyUuid: user.company_uuid,
          actor: { uuid: user.uuid, email: user.email },
          action: 'two_factor.recovery_code_used',
          target: user.email,
          details: { remaining },
          request,
        });
      }
      return {
        data: {
          ...deliverRefreshToken(request, reply, pair, app.authSettings.refreshTtlSeconds),
          is_2fa_enabled: true as const,
          user: await loadUser(app.db, user.uuid),
          ...(remaining === undefined ? {} : { recovery_codes_remaining: remaining }),
        },
      };
    },
  );

  app.post(
    '/api/v1/users/oauth/refresh',
    {
      config: { auth: false },
      schema: {
        tags: ['auth'],
        summary: 'Exchange a refresh token for a new pair',
        description: `Refresh tokens rotate: each works once. A spent one presented again within ${REFRESH_REUSE_GRACE_SECONDS} s of its use answers the same new pair (its first answer may have been lost); later, or once that pair's refresh token was used, it revokes every token of its sign-in. First-step refresh tokens are refused. A browser that asked for its refresh token as a cookie (header \`${REFRESH_COOKIE_HEADER}: 1\` on sign-in) leaves \`refresh_token\` out and sends \`${CSRF_HEADER}: 1\` (403 without it); the new one is set as the cookie again.`,
        security: [],
        body: ZRefreshRequestSchema,
        response: { 200: ZTokenResponseSchema },
      },
    },
    async (request, reply) => {
      const token = refreshTokenOf(request, request.body.refresh_token);
      if (!token) throw validationError({ refresh_token: [MESSAGES.required] });
      const { pair } = await rotateRefreshToken(tokenDeps(app), token, 'full');
      return {
        data: deliverRefreshToken(request, reply, pair, app.authSettings.refreshTtlSeconds),
      };
    },
  );

  app.post(
    '/api/v1/users/oauth/logout',
    {
      config: { auth: 'otp' },
      schema: {
        tags: ['auth'],
        summary: 'Sign out: revokes the access and refresh tokens of this sign-in',
        response: { 200: ZLogoutResponseSchema },
      },
    },
    async (request, reply) => {
      await revokeFamily(app, authOf(request).familyUuid);
      clearRefreshCookie(request, reply);
      return { data: { status: 'logged_out' as const } };
    },
  );
};
