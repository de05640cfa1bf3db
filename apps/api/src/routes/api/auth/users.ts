import {
  MESSAGES,
  ZQrCodeResponseSchema,
  ZTwoFactorVerifyRequestSchema,
  ZTwoFactorVerifyResponseSchema,
  ZUserResponseSchema,
} from '@ccp/schemas';
import type { TTwoFactorVerifyResponse } from '@ccp/schemas';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { recordAudit } from '../../../accounts/audit-log.ts';
import { replaceRecoveryCodes } from '../../../accounts/recovery-codes.ts';
import { startSession } from '../../../accounts/sessions.ts';
import { AppError } from '../../../lib/app-error.ts';
import { newUuid } from '../../../lib/ids.ts';
import { clearFailures, failureKey, lockedFor, recordFailure } from '../../../lib/rate-limit.ts';
import { issueTokenPair, revokeFamily } from '../../../lib/tokens.ts';
import { matchConsecutiveCodes, newTotpSecret, otpauthUrl } from '../../../lib/totp.ts';
import { authOf } from '../../../plugins/auth.ts';
import { deliverRefreshToken } from './refresh-cookie.ts';
import { tokenDeps, tooManyAttempts } from './shared.ts';
import { loadUser } from './user-resource.ts';

/** The signed-in user and the first-time two-factor setup; all open to first-step tokens. */
export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const alreadyEnabled = () => new AppError('CONFLICT', MESSAGES.twoFactorAlreadyEnabled);

  app.get(
    '/api/v1/users/me',
    {
      config: { auth: 'otp' },
      schema: {
        tags: ['users'],
        summary: 'The signed-in user',
        response: { 200: ZUserResponseSchema },
      },
    },
    async (request) => ({ data: await loadUser(app.db, authOf(request).user.uuid) }),
  );

  app.get(
    '/api/v1/users/2fa-qrcode',
    {
      config: { auth: 'otp' },
      schema: {
        tags: ['users'],
        summary: 'Start two-factor setup: a new secret as a QR code (SVG data URL) and as text',
        'x-errors': [409],
        description:
          'Each call replaces the pending secret; 2fa-verify/ confirms it. 409 once 2FA is enabled.',
        response: { 200: ZQrCodeResponseSchema },
      },
    },
    async (request) => {
      const { user } = authOf(request);
      if (Number(user.is_2fa_enabled) === 1) throw alreadyEnabled();
      const secret = newTotpSecret();
      await app.db
        .updateTable('users')
        .set({ totp_pending_secret: secret, updated_at: app.clock.now().toISOString() })
        .where('uuid', '=', user.uuid)
        .execute();
      const url = otpauthUrl(secret, user.email);
      // Loaded at the first 2FA set-up, not at start (issue 18).
      const { default: QRCode } = await import('qrcode');
      const svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
      return {
        data: {
          qr_code: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
          secret,
          otpauth_url: url,
        },
      };
    },
  );

  const verify = async (
    request: FastifyRequest & { body: { code: [string, string] } },
    reply: FastifyReply,
  ): Promise<TTwoFactorVerifyResponse> => {
    const auth = authOf(request);
    const { user } = auth;
    if (Number(user.is_2fa_enabled) === 1) throw alreadyEnabled();
    const pending = user.totp_pending_secret;
    if (!pending) throw new AppError('VALIDATION_FAILED', MESSAGES.twoFactorSetupNotStarted);
    // Wrong setup codes count like wrong sign-in codes: 5 a minute, then 429.
    const keys = [failureKey.otp(user.uuid), failureKey.ip(request.ip)];
    const wait = await lockedFor(app, keys, app.authSettings.maxFailuresPerMinute);
    if (wait !== null) throw tooManyAttempts(reply, wait);
    const step = matchConsecutiveCodes(pending, request.body.code, app.clock);
    if (step === null) {
      await recordFailure(app, keys);
      app.metrics.signInFailures.inc({ step: '2fa_setup' });
      throw new AppError('INVALID_CODE', MESSAGES.invalidCode);
    }
    // The setup codes count as used, so neither opens a later sign-in.
    const enabled = await app.db
      .updateTable('users')
      .set({
        totp_secret: pending,
        totp_pending_secret: null,
        is_2fa_enabled: 1,
        totp_last_step: step,
        updated_at: app.clock.now().toISOString(),
      })
      .where('uuid', '=', user.uuid)
      .where('is_2fa_enabled', '=', 0)
      .where('totp_pending_secret', '=', pending)
      .executeTakeFirst();
    // A concurrent qrcode call replaced the secret the codes came from.
    if (Number(enabled.numUpdatedRows) !== 1) {
      throw new AppError('INVALID_CODE', MESSAGES.invalidCode);
    }
    await clearFailures(app, failureKey.otp(user.uuid));
    // The setup proved the second factor: continue fully signed in, in a new token family.
    await revokeFamily(app, auth.familyUuid);
    const familyUuid = newUuid();
    const pair = await issueTokenPair(tokenDeps(app), user.uuid, 'full', familyUuid);
    await startSession(app, { familyUuid, userUuid: user.uuid }, request);
    // Ten one-time codes for the day the phone is lost, shown once (issue 17).
    const recoveryCodes = await replaceRecoveryCodes(app, user.uuid);
    await recordAudit(app, {
      companyUuid: user.company_uuid,
      actor: { uuid: user.uuid, email: user.email },
      action: 'two_factor.enabled',
      target: user.email,
      request,
    });
    return {
      data: {
        status: 'confirmed',
        ...deliverRefreshToken(request, reply, pair, app.authSettings.refreshTtlSeconds),
        user: await loadUser(app.db, user.uuid),
        recovery_codes: recoveryCodes,
      },
    };
  };

  const verifyRoute = {
    config: { auth: 'otp' as const },
    schema: {
      tags: ['users'],
      summary: 'Confirm two-factor setup with two consecutive codes',
      'x-errors': [409, 429] as const,
      description:
        'code: ["123456", "654321"], "123456654321" or "123456 654321". Answers status "confirmed", full tokens and ten recovery codes (shown only here); the first-step tokens are revoked.',
      body: ZTwoFactorVerifyRequestSchema,
      response: { 200: ZTwoFactorVerifyResponseSchema },
    },
  };
  // The spec's path ends with a slash; clients that drop it reach the same handler.
  app.post('/api/v1/users/2fa-verify/', verifyRoute, verify);
  app.post(
    '/api/v1/users/2fa-verify',
    { ...verifyRoute, schema: { ...verifyRoute.schema, hide: true } },
    verify,
  );
};
