import { API_TOKEN_PREFIX, MESSAGES } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { settleAfterAnswer } from '../../src/lib/after-response.ts';
import { routeScope } from '../../src/lib/token-scopes.ts';
import { linkTokenIn } from '../fixtures/accounts.ts';
import { bearer, login, nextIp, twoFactorToken } from '../fixtures/auth.ts';
import {
  buildTestApp,
  call,
  createCompany,
  createSignedInUser,
  createUser,
  signIn,
  totpCode,
} from '../helper.ts';

// Personal API tokens: made with a fresh 2FA code, shown once, scoped, expiring, revocable, and
// never a way into token or session management.

const DAY = 24 * 60 * 60 * 1000;

describe('personal API tokens', async () => {
  const app = await buildTestApp();

  const createToken = async (
    headers: Record<string, string>,
    body: Record<string, unknown>,
    stepOffset = 0,
  ) =>
    call(app, {
      method: 'POST',
      url: '/api/v1/users/me/tokens',
      headers,
      remoteAddress: nextIp(),
      payload: { code: totpCode(app, undefined, stepOffset), ...body },
    });

  const nextStep = () => app.testClock.advance(30_000);

  it('creates a token shown once, stored hashed, listed without it', async () => {
    nextStep();
    const { user, headers } = await createSignedInUser(app);
    const created = await createToken(headers, {
      name: 'Nightly export',
      scopes: ['exports:read', 'analytics:read', 'exports:read'],
      expires_in_days: 30,
    });
    expect(created.statusCode).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const token = created.json.data as Record<string, string>;
    expect(token.token?.startsWith(API_TOKEN_PREFIX)).toBe(true);
    expect(created.json.data).toMatchObject({
      name: 'Nightly export',
      scopes: ['analytics:read', 'exports:read'],
      hint: `${token.token!.slice(0, 12)}…`,
      last_used_at: null,
      expires_at: new Date(app.clock.now().getTime() + 30 * DAY).toISOString(),
    });
    const stored = await app.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('user_uuid', '=', user.uuid)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(token.token);

    const list = await call(app, { method: 'GET', url: '/api/v1/users/me/tokens', headers });
    expect(list.statusCode).toBe(200);
    const { token: _secret, ...shown } = token;
    expect(list.json.data).toEqual([shown]);
  });

  it('needs a right, unused code, a scope and an expiry within a year', async () => {
    nextStep();
    const { headers } = await createSignedInUser(app);
    const wrong = await createToken(headers, {
      name: 'x',
      scopes: ['courses:read'],
      code: '000000',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json.error.code).toBe('INVALID_CODE');

    expect((await createToken(headers, { name: 'ok', scopes: ['courses:read'] })).statusCode).toBe(
      201,
    );
    const again = await createToken(headers, { name: 'again', scopes: ['courses:read'] });
    expect(again.statusCode).toBe(422);
    expect(again.json.error).toMatchObject({
      code: 'CODE_ALREADY_USED',
      message: MESSAGES.codeAlreadyUsed,
    });

    nextStep();
    const invalid = await createToken(headers, {
      name: '',
      scopes: ['everything'],
      expires_in_days: 366,
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json.error.errors).toEqual({
      name: [MESSAGES.required],
      'scopes.0': [MESSAGES.apiTokenScopeInvalid],
      expires_in_days: [MESSAGES.apiTokenExpiryInvalid],
    });
    const none = await createToken(headers, { name: 'none', scopes: [] });
    expect(none.json.error.errors).toEqual({ scopes: [MESSAGES.apiTokenScopesRequired] });
  });

  it('works as a bearer on the routes its scopes allow, 403 elsewhere and on token routes', async () => {
    nextStep();
    const { company, headers } = await createSignedInUser(app);
    const created = await createToken(headers, { name: 'ci', scopes: ['learners:write'] });
    const token = bearer(created.json.data.token as string);
    const classroom = company.classrooms[0]!.uuid;
    const status = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
      (await call(app, { method, url, headers: token, ...(payload ? { payload } : {}) }))
        .statusCode;

    expect(await status('GET', '/api/v1/users/me')).toBe(200);
    expect(await status('GET', `/api/v1/companies/${company.uuid}/classrooms`)).toBe(200);
    expect(await status('GET', '/api/v1/learners')).toBe(200);
    expect(await status('POST', '/api/v1/learners-lists', { name: 'From CI' })).toBe(201);
    expect(await status('GET', `/api/v1/classrooms/${classroom}/courses`)).toBe(403);
    expect(await status('GET', `/api/v2/analytics/classrooms/${classroom}/statistics`)).toBe(403);
    const denied = await call(app, {
      method: 'GET',
      url: '/api/v1/users/me/tokens',
      headers: token,
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json.error.message).toBe(MESSAGES.apiTokenNotAllowed);
    expect(await status('POST', '/api/v1/users/oauth/logout')).toBe(403);
    const scoped = await call(app, {
      method: 'GET',
      url: `/api/v1/classrooms/${classroom}/courses`,
      headers: token,
    });
    expect(scoped.json.error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'This API token does not allow this call: it needs the courses:read scope.',
    });

    const listed = await call(app, { method: 'GET', url: '/api/v1/users/me/tokens', headers });
    expect(listed.json.data[0].last_used_at).toBe(app.clock.now().toISOString());
  });

  it('stops working when it expires or is revoked (401), and a revoked one is no longer listed', async () => {
    nextStep();
    const { user } = await createSignedInUser(app);
    let headers = bearer((await signIn(app, user)).access_token);
    const short = await createToken(headers, {
      name: 'short',
      scopes: ['learners:read'],
      expires_in_days: 1,
    });
    nextStep();
    const long = await createToken(headers, { name: 'long', scopes: ['learners:read'] });
    const get = (token: string) =>
      call(app, { method: 'GET', url: '/api/v1/learners', headers: bearer(token) });
    expect((await get(short.json.data.token as string)).statusCode).toBe(200);
    app.testClock.advance(DAY + 1000);
    expect((await get(short.json.data.token as string)).statusCode).toBe(401);
    expect((await get(long.json.data.token as string)).statusCode).toBe(200);

    headers = bearer((await signIn(app, user)).access_token);
    const revoke = await call(app, {
      method: 'DELETE',
      url: `/api/v1/users/me/tokens/${long.json.data.uuid as string}`,
      headers,
    });
    expect(revoke.json).toEqual({ data: { revoked: long.json.data.uuid } });
    expect((await get(long.json.data.token as string)).statusCode).toBe(401);
    const list = await call(app, { method: 'GET', url: '/api/v1/users/me/tokens', headers });
    expect((list.json.data as { name: string }[]).map((token) => token.name)).toEqual(['short']);
    const twice = await call(app, {
      method: 'DELETE',
      url: `/api/v1/users/me/tokens/${long.json.data.uuid as string}`,
      headers,
    });
    expect(twice.statusCode).toBe(404);
  });

  it('is revoked only by its own user', async () => {
    nextStep();
    const owner = await createSignedInUser(app);
    const created = await createToken(owner.headers, { name: 'mine', scopes: ['courses:read'] });
    const other = await createSignedInUser(app);
    const revoke = await call(app, {
      method: 'DELETE',
      url: `/api/v1/users/me/tokens/${created.json.data.uuid as string}`,
      headers: other.headers,
    });
    expect(revoke.statusCode).toBe(404);
  });

  /** A live courses:read token of the signed-in user: answers whether it still opens a route. */
  const liveToken = async (headers: Record<string, string>) => {
    nextStep();
    const created = await createToken(headers, { name: 'ci', scopes: ['courses:read'] });
    const token = created.json.data.token as string;
    return async () =>
      (await call(app, { method: 'GET', url: '/api/v1/languages', headers: bearer(token) }))
        .statusCode;
  };

  it('"revoke all" ends every token of the user at once (issue 30)', async () => {
    const { headers } = await createSignedInUser(app);
    const first = await liveToken(headers);
    const second = await liveToken(headers);
    expect([await first(), await second()]).toEqual([200, 200]);
    const revoked = await call(app, { method: 'DELETE', url: '/api/v1/users/me/tokens', headers });
    expect(revoked.json).toEqual({ data: { revoked: 2 } });
    expect([await first(), await second()]).toEqual([401, 401]);
  });

  it('a password reset by e-mail link and an administrator’s 2FA reset revoke the tokens (issue 30)', async () => {
    const company = await createCompany(app);
    const admin = await createUser(app, company);
    const member = await createUser(app, company, { isAdmin: false });
    const memberHeaders = bearer((await signIn(app, member)).access_token);
    const byAdmin = await liveToken(memberHeaders);
    expect(await byAdmin()).toBe(200);
    const reset2fa = await call(app, {
      method: 'POST',
      url: `/api/v1/team/members/${member.uuid}/reset-2fa`,
      headers: bearer((await signIn(app, admin)).access_token),
      payload: { code: totpCode(app) },
    });
    expect(reset2fa.statusCode).toBe(200);
    expect(await byAdmin()).toBe(401);

    const adminHeaders = bearer((await signIn(app, admin)).access_token);
    const byLink = await liveToken(adminHeaders);
    await call(app, {
      method: 'POST',
      url: '/api/v1/users/password/forgot',
      remoteAddress: nextIp(),
      payload: { email: admin.email },
    });
    await settleAfterAnswer(app);
    const token = await linkTokenIn(app, admin.email);
    const reset = await call(app, {
      method: 'POST',
      url: '/api/v1/users/password/reset',
      remoteAddress: nextIp(),
      payload: { token, password: 'A-brand-new-passphrase-7' },
    });
    expect(reset.statusCode).toBe(200);
    expect(await byLink()).toBe(401);
  });
});

describe('sign-in codes used twice', async () => {
  const app = await buildTestApp();

  it('a right code of a step already used answers CODE_ALREADY_USED, a wrong one INVALID_CODE', async () => {
    const company = await createCompany(app);
    const user = await createUser(app, company);
    const first = await login(app, user.email);
    const code = totpCode(app);
    expect((await twoFactorToken(app, first.json.data, code)).statusCode).toBe(200);
    const second = await login(app, user.email);
    const reused = await twoFactorToken(app, second.json.data, code);
    expect(reused.statusCode).toBe(422);
    expect(reused.json.error.code).toBe('CODE_ALREADY_USED');
    const wrong = await twoFactorToken(app, second.json.data, totpCode(app, undefined, 5));
    expect(wrong.json.error.code).toBe('INVALID_CODE');
    // The next step's code still signs in with the same first step.
    app.testClock.advance(30_000);
    expect((await twoFactorToken(app, second.json.data, totpCode(app))).statusCode).toBe(200);
  });
});

describe('token scopes of every route', async () => {
  const app = await buildTestApp({ webDist: false });

  it('opens what each scope names; sessions-only routes and unlisted ones are never', async () => {
    const doc = await call(app, { method: 'GET', url: '/api/docs/json' });
    const table = Object.entries(doc.json.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => {
          const pattern = path.replace(/\{(\w+)\}/g, ':$1');
          return `${method.toUpperCase()} ${path} → ${routeScope(method, pattern)}`;
        }),
      )
      .sort();
    expect(table).toMatchInlineSnapshot(`
      [
        "DELETE /api/v1/channel-connections/{channel} → never",
        "DELETE /api/v1/channels/{channel}/tokens/{tokenUuid} → never",
        "DELETE /api/v1/classrooms/{classroomUuid}/courses/{courseUuid} → courses:write",
        "DELETE /api/v1/classrooms/{classroomUuid}/courses/{courseUuid}/soft → courses:write",
        "DELETE /api/v1/learners-lists/{uuid} → learners:write",
        "DELETE /api/v1/learners/{uuid} → learners:write",
        "DELETE /api/v1/learners/{uuid}/soft → learners:write",
        "DELETE /api/v1/team/invitations/{uuid} → never",
        "DELETE /api/v1/users/me/sessions/{uuid} → never",
        "DELETE /api/v1/users/me/tokens → never",
        "DELETE /api/v1/users/me/tokens/{uuid} → never",
        "GET /api/health → never",
        "GET /api/ready → never",
        "GET /api/v1/analytics/classrooms/{classroomId}/courses/{courseId}/export → exports:read",
        "GET /api/v1/analytics/classrooms/{id} → analytics:read",
        "GET /api/v1/analytics/classrooms/{id}/distribution → analytics:read",
        "GET /api/v1/analytics/classrooms/{id}/learners → analytics:read",
        "GET /api/v1/analytics/exports/{exportId}/download → exports:read",
        "GET /api/v1/analytics/learners/{id} → analytics:read",
        "GET /api/v1/channel-connections → never",
        "GET /api/v1/channel-connections/ms-teams/app-package → never",
        "GET /api/v1/channel-connections/{channel}/setup → never",
        "GET /api/v1/channel-connections/{channel}/test-lesson → never",
        "GET /api/v1/channels → any",
        "GET /api/v1/channels/{channel}/tokens → never",
        "GET /api/v1/classrooms/{classroomUuid}/courses → courses:read",
        "GET /api/v1/classrooms/{classroomUuid}/courses/import/{jobUuid} → never",
        "GET /api/v1/classrooms/{classroomUuid}/courses/short → any",
        "GET /api/v1/classrooms/{classroomUuid}/courses/{courseUuid} → courses:read",
        "GET /api/v1/classrooms/{classroomUuid}/courses/{courseUuid}/delivery-failures → courses:read",
        "GET /api/v1/classrooms/{classroomUuid}/courses/{courseUuid}/delivery-options → courses:read",
        "GET /api/v1/companies/{companyUuid}/classrooms → any",
        "GET /api/v1/company → any",
        "GET /api/v1/company/delivery-hours → never",
        "GET /api/v1/courses/helpers/prompts → never",
        "GET /api/v1/languages → any",
        "GET /api/v1/learners → learners:read",
        "GET /api/v1/learners-lists → learners:read",
        "GET /api/v1/learners/imports → learners:read",
        "GET /api/v1/learners/imports/template → learners:read",
        "GET /api/v1/learners/imports/{jobUuid} → learners:read",
        "GET /api/v1/learners/imports/{jobUuid}/errors → learners:read",
        "GET /api/v1/learners/learners-lists/{listUuid} → learners:read",
        "GET /api/v1/learners/{uuid} → learners:read",
        "GET /api/v1/learners/{uuid}/conversation → learners:read",
        "GET /api/v1/learners/{uuid}/deliveries → learners:read",
        "GET /api/v1/learners/{uuid}/reachability → learners:read",
        "GET /api/v1/team/audit-log → never",
        "GET /api/v1/team/invitations → never",
        "GET /api/v1/team/members → never",
        "GET /api/v1/translations → any",
        "GET /api/v1/users/2fa-qrcode → never",
        "GET /api/v1/users/me → any",
        "GET /api/v1/users/me/outbox → never",
        "GET /api/v1/users/me/recovery-codes → never",
        "GET /api/v1/users/me/sessions → never",
        "GET /api/v1/users/me/subscriptions → any",
        "GET /api/v1/users/me/subscriptions/{function}/usage → any",
        "GET /api/v1/users/me/terms-and-conditions/to-accept → never",
        "GET /api/v1/users/me/tokens → never",
        "GET /api/v1/webhooks/slack/oauth → never",
        "GET /api/v1/webhooks/whatsapp → never",
        "GET /api/v2/analytics/classrooms/{id}/courses/insights → analytics:read",
        "GET /api/v2/analytics/classrooms/{id}/courses/{courseId}/learners → analytics:read",
        "GET /api/v2/analytics/classrooms/{id}/courses/{courseId}/questions → analytics:read",
        "GET /api/v2/analytics/classrooms/{id}/distribution → analytics:read",
        "GET /api/v2/analytics/classrooms/{id}/learners/status → analytics:read",
        "GET /api/v2/analytics/classrooms/{id}/statistics → analytics:read",
        "PATCH /api/v1/learners/{uuid}/learners-lists/sync → learners:write",
        "PATCH /api/v1/team/members/{uuid} → never",
        "PATCH /api/v1/users/me → never",
        "POST /api/v1/analytics/classrooms/{id}/courses/{courseId}/export → exports:read",
        "POST /api/v1/analytics/courses/{courseId}/export-delivery-statistics → exports:read",
        "POST /api/v1/analytics/courses/{courseId}/export-not-enrolled-learners → exports:read",
        "POST /api/v1/channel-connections/slack/install → never",
        "POST /api/v1/channel-connections/whatsapp/templates → never",
        "POST /api/v1/channel-connections/{channel}/test → never",
        "POST /api/v1/channel-connections/{channel}/test-lesson → never",
        "POST /api/v1/channels/{channel}/events → never",
        "POST /api/v1/channels/{channel}/tokens → never",
        "POST /api/v1/classrooms/{classroomUuid}/courses → courses:write",
        "POST /api/v1/classrooms/{classroomUuid}/courses/import → never",
        "POST /api/v1/classrooms/{classroomUuid}/courses/import/{jobUuid}/cancel → never",
        "POST /api/v1/classrooms/{classroomUuid}/courses/{courseUuid} → courses:write",
        "POST /api/v1/classrooms/{classroomUuid}/courses/{courseUuid}/cancel → courses:write",
        "POST /api/v1/classrooms/{classroomUuid}/courses/{courseUuid}/channel-preview → courses:write",
        "POST /api/v1/classrooms/{classroomUuid}/courses/{courseUuid}/clone → courses:write",
        "POST /api/v1/classrooms/{classroomUuid}/courses/{courseUuid}/resend → courses:write",
        "POST /api/v1/classrooms/{classroomUuid}/courses/{courseUuid}/restore → courses:write",
        "POST /api/v1/classrooms/{classroomUuid}/courses/{courseUuid}/resume → courses:write",
        "POST /api/v1/classrooms/{classroomUuid}/courses/{courseUuid}/translate → never",
        "POST /api/v1/courses/helpers/delivery-calendar → never",
        "POST /api/v1/courses/helpers/lessons → never",
        "POST /api/v1/invitations/accept → never",
        "POST /api/v1/invitations/preview → never",
        "POST /api/v1/learners → learners:write",
        "POST /api/v1/learners-lists → learners:write",
        "POST /api/v1/learners/imports → learners:write",
        "POST /api/v1/learners/imports/{jobUuid}/cancel → learners:write",
        "POST /api/v1/learners/learners-lists/{listUuid} → learners:write",
        "POST /api/v1/learners/{uuid}/enrollments/{enrollmentUuid}/pause → learners:write",
        "POST /api/v1/learners/{uuid}/enrollments/{enrollmentUuid}/resume → learners:write",
        "POST /api/v1/learners/{uuid}/restore → learners:write",
        "POST /api/v1/team/invitations → never",
        "POST /api/v1/team/members/{uuid}/deactivate → never",
        "POST /api/v1/team/members/{uuid}/reactivate → never",
        "POST /api/v1/team/members/{uuid}/reset-2fa → never",
        "POST /api/v1/users/2fa-verify/ → never",
        "POST /api/v1/users/me/2fa/reset → never",
        "POST /api/v1/users/me/password → never",
        "POST /api/v1/users/me/recovery-codes → never",
        "POST /api/v1/users/me/sessions/sign-out-others → never",
        "POST /api/v1/users/me/subscriptions/upgrade-request → never",
        "POST /api/v1/users/me/terms-and-conditions → never",
        "POST /api/v1/users/me/tokens → never",
        "POST /api/v1/users/oauth/2fa-token → never",
        "POST /api/v1/users/oauth/logout → never",
        "POST /api/v1/users/oauth/refresh → never",
        "POST /api/v1/users/oauth/token → never",
        "POST /api/v1/users/password/forgot → never",
        "POST /api/v1/users/password/reset → never",
        "POST /api/v1/webhooks/google-chat → never",
        "POST /api/v1/webhooks/google-chat/{connection} → never",
        "POST /api/v1/webhooks/slack → never",
        "POST /api/v1/webhooks/teams → never",
        "POST /api/v1/webhooks/webex → never",
        "POST /api/v1/webhooks/whatsapp → never",
        "PUT /api/v1/channel-connections/{channel} → never",
        "PUT /api/v1/company/delivery-hours → never",
        "PUT /api/v1/learners-lists/{uuid} → learners:write",
        "PUT /api/v1/learners/{uuid} → learners:write",
      ]
    `);
  });
});
