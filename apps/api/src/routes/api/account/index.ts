import {
  MESSAGES,
  ZChangePasswordRequestSchema,
  ZChangePasswordResponseSchema,
  ZForgotPasswordRequestSchema,
  ZForgotPasswordResponseSchema,
  ZFreshCodeRequestSchema,
  ZListSessionsResponseSchema,
  ZRecoveryCodesResponseSchema,
  ZRecoveryCodesStatusResponseSchema,
  ZResetPasswordRequestSchema,
  ZResetPasswordResponseSchema,
  ZSignedOutSessionsResponseSchema,
  ZUpdateProfileRequestSchema,
  ZUserResponseSchema,
  ZUuidParamsSchema,
  RECOVERY_CODE_COUNT,
  passwordProblem,
} from '@ccp/schemas';
import type { TAuditAction } from '@ccp/schemas';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { LINK_PATHS, linkUrl, passwordResetMail } from '../../../accounts/account-mail.ts';
import { recordAudit } from '../../../accounts/audit-log.ts';
import {
  createPasswordReset,
  findPasswordReset,
  spendPasswordReset,
} from '../../../accounts/password-resets.ts';
import { remainingRecoveryCodes, replaceRecoveryCodes } from '../../../accounts/recovery-codes.ts';
import { endSession, endSessions, listSessions } from '../../../accounts/sessions.ts';
import {
  findUserByEmail,
  localeOf,
  resetTwoFactor,
  setPassword,
} from '../../../accounts/users-repository.ts';
import type { UsersTable } from '../../../db/types.ts';
import { AppError, notFound, validationError } from '../../../lib/app-error.ts';
import { sendMail } from '../../../lib/mail.ts';
import { verifyPassword } from '../../../lib/passwords.ts';
import {
  ACCOUNT_WINDOW_MS,
  countFailures,
  failureKey,
  lockedFor,
  recordFailure,
} from '../../../lib/rate-limit.ts';
import { demoteFamilyToFirstStep } from '../../../lib/tokens.ts';
import { startAfterAnswer } from '../../../lib/after-response.ts';
import { revokeAllApiTokens } from '../../../lib/api-tokens.ts';
import { authOf } from '../../../plugins/auth.ts';
import { requireFreshCode, tooManyAttempts } from '../auth/shared.ts';
import { loadUser } from '../auth/user-resource.ts';

// The signed-in user's account (issue 17) and the password-reset flow for those who cannot sign
// in: profile, password, 2FA recovery codes and re-enrolment, sessions.

const tags = ['account'];

/** Reset requests one address may make per 15 minutes, known or not (then 429). */
export const RESET_REQUESTS_PER_ADDRESS = 3;

const resetKey = {
  client: (ip: string) => `reset-ip:${ip}`,
  address: (email: string) => `reset:${email.toLowerCase()}`,
};

const actorOf = (user: Pick<UsersTable, 'uuid' | 'email'>) => ({
  uuid: user.uuid,
  email: user.email,
});

/** An audit entry for something a user did to their own account. */
const auditSelf = (
  request: FastifyRequest,
  user: UsersTable,
  action: TAuditAction,
  details?: Record<string, string | number>,
) =>
  recordAudit(request.server, {
    companyUuid: user.company_uuid,
    actor: actorOf(user),
    action,
    target: user.email,
    ...(details ? { details } : {}),
    request,
  });

const passwordFieldError = (password: string, email: string) => {
  const problem = passwordProblem(password, email);
  if (problem) throw validationError({ password: [problem] });
};

export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  /** Mails a reset link when an active account has the e-mail; nothing otherwise. */
  const sendResetLink = async (request: FastifyRequest, email: string) => {
    const user = await findUserByEmail(app, email);
    if (!user || user.deactivated_at) return;
    const token = await createPasswordReset(app, user.uuid, request.ip);
    const mail = passwordResetMail(
      localeOf(user.locale),
      user.first_name,
      linkUrl(app.publicUrl, LINK_PATHS.reset, token),
    );
    await recordAudit(app, {
      companyUuid: user.company_uuid,
      actor: null,
      action: 'password.reset_requested',
      target: user.email,
      request,
    });
    await sendMail(app, { to: user.email, companyUuid: user.company_uuid, ...mail });
  };

  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.post(
    '/api/v1/users/password/forgot',
    {
      config: { auth: false },
      schema: {
        tags,
        summary: 'Ask for a password-reset link by e-mail',
        'x-errors': [429],
        description:
          'Always answers 202 {status: "sent"}, whether an account has the e-mail or not. The link works once, for 60 minutes. More than 5 requests a minute from one client, or 3 in 15 minutes for one address, answer 429 with Retry-After.',
        security: [],
        body: ZForgotPasswordRequestSchema,
        response: { 202: ZForgotPasswordResponseSchema },
      },
    },
    async (request, reply) => {
      const { email } = request.body;
      const client = resetKey.client(request.ip);
      const address = resetKey.address(email);
      const wait = await lockedFor(app, [client], app.authSettings.maxFailuresPerMinute);
      if (wait !== null) throw tooManyAttempts(reply, wait);
      if ((await countFailures(app, address, ACCOUNT_WINDOW_MS)) >= RESET_REQUESTS_PER_ADDRESS) {
        throw tooManyAttempts(reply, Math.ceil(ACCOUNT_WINDOW_MS / 1000));
      }
      await recordFailure(app, [client, address]);
      // Answered before the account is looked up: the time of the answer says nothing about it.
      startAfterAnswer(app, request, 'reset request', () => sendResetLink(request, email));
      return reply.code(202).send({ data: { status: 'sent' as const } });
    },
  );

  app.post(
    '/api/v1/users/password/reset',
    {
      config: { auth: false },
      schema: {
        tags,
        summary: 'Set a new password with the link from the reset e-mail',
        description:
          'token: from the link. The password needs 12 characters or more, may not be the e-mail nor a common password. Every session, API token and other reset link of the account ends; the next sign-in still asks for the 2FA code. An unknown, used or expired link answers 400 INVALID_LINK.',
        security: [],
        body: ZResetPasswordRequestSchema,
        response: { 200: ZResetPasswordResponseSchema },
      },
    },
    async (request, reply) => {
      const client = resetKey.client(request.ip);
      const wait = await lockedFor(app, [client], app.authSettings.maxFailuresPerMinute);
      if (wait !== null) throw tooManyAttempts(reply, wait);
      const found = await findPasswordReset(app, request.body.token);
      if (!found) {
        await recordFailure(app, [client]);
        throw new AppError('INVALID_LINK', MESSAGES.linkInvalid);
      }
      const { user } = found;
      passwordFieldError(request.body.password, user.email);
      if (!(await spendPasswordReset(app, found.tokenHash, user.uuid))) {
        throw new AppError('INVALID_LINK', MESSAGES.linkInvalid);
      }
      await setPassword(app, user.uuid, request.body.password);
      const ended = await endSessions(app, user.uuid);
      // A reset by e-mail link may follow a stolen password: the API tokens end too (issue 30).
      const tokens = await revokeAllApiTokens(app, user.uuid);
      await auditSelf(request, user, 'password.reset', {
        sessions_ended: ended,
        api_tokens_revoked: tokens,
      });
      return { data: { status: 'password_reset' as const } };
    },
  );

  app.patch(
    '/api/v1/users/me',
    {
      schema: {
        tags,
        summary: 'Change your name and preferred language',
        description:
          'The language is the one e-mails to you are written in, and the web app switches to it.',
        body: ZUpdateProfileRequestSchema,
        response: { 200: ZUserResponseSchema },
      },
    },
    async (request) => {
      const { user } = authOf(request);
      const { first_name: first, last_name: last, locale } = request.body;
      await app.db
        .updateTable('users')
        .set({
          first_name: first,
          last_name: last,
          locale,
          updated_at: app.clock.now().toISOString(),
        })
        .where('uuid', '=', user.uuid)
        .execute();
      const changed = [
        first !== user.first_name || last !== user.last_name ? 'name' : null,
        locale !== user.locale ? 'locale' : null,
      ].filter((field): field is string => field !== null);
      if (changed.length > 0) {
        await auditSelf(request, user, 'profile.updated', { changed: changed.join(', ') });
      }
      return { data: await loadUser(app.db, user.uuid) };
    },
  );

  app.post(
    '/api/v1/users/me/password',
    {
      schema: {
        tags,
        summary: 'Change your password (current password + new one)',
        'x-errors': [429],
        description:
          'A wrong current password answers 422 on current_password and counts like a failed sign-in (429 after 5 a minute). Every other session of the account ends; this one stays.',
        body: ZChangePasswordRequestSchema,
        response: { 200: ZChangePasswordResponseSchema },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const { user } = auth;
      const keys = [failureKey.pair(user.email, request.ip), failureKey.ip(request.ip)];
      const wait = await lockedFor(app, keys, app.authSettings.maxFailuresPerMinute);
      if (wait !== null) throw tooManyAttempts(reply, wait);
      if (!(await verifyPassword(request.body.current_password, user.password_hash))) {
        await recordFailure(app, keys);
        throw validationError({ current_password: [MESSAGES.passwordCurrentWrong] });
      }
      passwordFieldError(request.body.password, user.email);
      await setPassword(app, user.uuid, request.body.password);
      const ended = await endSessions(app, user.uuid, auth.familyUuid);
      await auditSelf(request, user, 'password.changed', { sessions_ended: ended });
      return { data: { status: 'password_changed' as const } };
    },
  );

  app.get(
    '/api/v1/users/me/sessions',
    {
      schema: {
        tags,
        summary: 'Your open sessions: browser, address, last use; the current one first',
        response: { 200: ZListSessionsResponseSchema },
      },
    },
    async (request) => {
      const auth = authOf(request);
      return { data: await listSessions(app, auth.user.uuid, auth.familyUuid) };
    },
  );

  app.delete(
    '/api/v1/users/me/sessions/:uuid',
    {
      schema: {
        tags,
        summary: 'Sign out one of your other sessions',
        params: ZUuidParamsSchema,
        response: { 200: ZSignedOutSessionsResponseSchema },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const { uuid } = request.params;
      if (uuid === auth.familyUuid) throw new AppError('CONFLICT', MESSAGES.sessionCurrent);
      const open = await listSessions(app, auth.user.uuid, auth.familyUuid);
      if (!open.some((session) => session.uuid === uuid)) throw notFound();
      await endSession(app, uuid);
      await auditSelf(request, auth.user, 'sessions.signed_out', { count: 1 });
      return { data: { signed_out: 1 } };
    },
  );

  app.post(
    '/api/v1/users/me/sessions/sign-out-others',
    {
      schema: {
        tags,
        summary: 'Sign out everywhere else: every session but this one ends',
        response: { 200: ZSignedOutSessionsResponseSchema },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const count = await endSessions(app, auth.user.uuid, auth.familyUuid);
      await auditSelf(request, auth.user, 'sessions.signed_out', { count });
      return { data: { signed_out: count } };
    },
  );

  app.get(
    '/api/v1/users/me/recovery-codes',
    {
      schema: {
        tags,
        summary: 'How many of your 2FA recovery codes are unused',
        response: { 200: ZRecoveryCodesStatusResponseSchema },
      },
    },
    async (request) => ({
      data: {
        remaining: await remainingRecoveryCodes(app, authOf(request).user.uuid),
        total: RECOVERY_CODE_COUNT,
      },
    }),
  );

  app.post(
    '/api/v1/users/me/recovery-codes',
    {
      schema: {
        tags,
        summary: 'New recovery codes (a fresh authenticator code confirms); the old ones end',
        body: ZFreshCodeRequestSchema,
        response: { 201: ZRecoveryCodesResponseSchema },
      },
    },
    async (request, reply) => {
      const { user } = authOf(request);
      await requireFreshCode(request, reply, user, request.body.code);
      const codes = await replaceRecoveryCodes(app, user.uuid);
      await auditSelf(request, user, 'two_factor.recovery_codes_generated');
      return reply.code(201).send({ data: { codes, remaining: codes.length } });
    },
  );

  app.post(
    '/api/v1/users/me/2fa/reset',
    {
      schema: {
        tags,
        summary: 'Re-enrol your authenticator: turns 2FA off until it is set up again',
        description:
          'A fresh code of the current authenticator confirms. Recovery codes end; every other session ends; this one may only set up 2FA again (GET 2fa-qrcode, POST 2fa-verify/).',
        body: ZFreshCodeRequestSchema,
        response: { 200: ZUserResponseSchema },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const { user } = auth;
      await requireFreshCode(request, reply, user, request.body.code);
      await resetTwoFactor(app, user.uuid);
      await endSessions(app, user.uuid, auth.familyUuid);
      // This sign-in goes back to its first step: its tokens open only the 2FA setup, and its
      // refresh token no longer mints full tokens (the setup's verify starts a new sign-in).
      await demoteFamilyToFirstStep(app, auth.familyUuid);
      await auditSelf(request, user, 'two_factor.reset');
      return { data: await loadUser(app.db, user.uuid) };
    },
  );
};
