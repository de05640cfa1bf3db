import { beforeAll, describe, expect, it } from 'vitest';

import { API_TOKEN_PREFIX, MESSAGES } from '@ccp/schemas';

import {
  buildTestApp,
  call,
  createCompany,
  createUser,
  PLATFORM,
  signIn,
  totpCode,
} from '../helper.ts';
import type { TestApp } from '../helper.ts';
import { linkTokenIn, mailsTo } from '../fixtures/accounts.ts';
import { bearer, login, me, nextIp } from '../fixtures/auth.ts';

// Issue 17: the team within the plan's creator-seats, roles, deactivation, the audit log.

const PASSWORD = 'invited-Creator-passphrase-1';

let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp();
});

/** A company on `plan` with a signed-in administrator. */
const team = async (plan = 'business') => {
  const company = await createCompany(app, { plan });
  const admin = await createUser(app, company, { isAdmin: true });
  const tokens = await signIn(app, admin);
  return { company, admin, headers: bearer(tokens.access_token) };
};

const invite = (headers: Record<string, string>, email: string, role = 'creator') =>
  call(app, { method: 'POST', url: '/api/v1/team/invitations', headers, payload: { email, role } });

const accept = (token: string, password = PASSWORD) =>
  call(app, {
    method: 'POST',
    url: '/api/v1/invitations/accept',
    remoteAddress: nextIp(),
    payload: { token, first_name: 'Ines', last_name: 'Invited', password },
  });

const setSeats = (plan: string, seats: number) =>
  app.db
    .updateTable('plan_functions')
    .set({ limit_value: seats })
    .where('plan_key', '=', plan)
    .where('function_key', '=', 'creator-seats')
    .execute();

describe('invitations', () => {
  it('invites by e-mail; the link creates the account once, which then sets up 2FA', async () => {
    const { headers } = await team();
    const created = await invite(headers, 'New.Person@Example.test');
    expect(created.statusCode).toBe(201);
    expect(created.json.data).toMatchObject({ email: 'new.person@example.test', role: 'creator' });
    const [mail] = await mailsTo(app, 'new.person@example.test');
    expect(mail?.subject).toBe('You are invited to Test Co on CCP');
    expect(mail?.text).toContain('7 days');
    const token = await linkTokenIn(app, 'new.person@example.test');

    const preview = await call(app, {
      method: 'POST',
      url: '/api/v1/invitations/preview',
      payload: { token },
    });
    expect(preview.json.data).toEqual({
      email: 'new.person@example.test',
      company_name: 'Test Co',
      role: 'creator',
    });
    expect((await accept(token, 'short')).statusCode).toBe(422);
    app.testClock.advance(1000);
    const joined = await accept(token);
    expect(joined.statusCode).toBe(201);
    expect(joined.json.data.is_2fa_enabled).toBe(false);
    // First-step tokens: only the 2FA setup opens.
    const qr = await call(app, {
      method: 'GET',
      url: '/api/v1/users/2fa-qrcode',
      headers: bearer(joined.json.data.access_token),
    });
    expect(qr.statusCode).toBe(200);
    const reused = await accept(token);
    expect(reused.statusCode).toBe(400);
    expect(reused.json.error.code).toBe('INVALID_LINK');

    const members = await call(app, { method: 'GET', url: '/api/v1/team/members', headers });
    expect(members.json.data).toEqual([
      expect.objectContaining({ role: 'admin' }),
      expect.objectContaining({
        email: 'new.person@example.test',
        first_name: 'Ines',
        role: 'creator',
        is_2fa_enabled: false,
        last_sign_in_at: null,
      }),
    ]);
    const invitations = await call(app, {
      method: 'GET',
      url: '/api/v1/team/invitations',
      headers,
    });
    expect(invitations.json.data).toEqual([]);
    const log = await call(app, { method: 'GET', url: '/api/v1/team/audit-log', headers });
    expect((log.json.data as { action: string }[]).map((entry) => entry.action)).toEqual([
      'invitation.accepted',
      'invitation.created',
    ]);
    expect(log.json.data[1]).toMatchObject({
      target: 'new.person@example.test',
      details: { role: 'creator' },
      ip: '127.0.0.1',
    });
  });

  it('refuses a link after 7 days, and a revoked one', async () => {
    const { headers } = await team();
    await invite(headers, 'late@example.test');
    const late = await linkTokenIn(app, 'late@example.test');
    const second = await invite(headers, 'revoked@example.test');
    const revokedToken = await linkTokenIn(app, 'revoked@example.test');
    const revoke = await call(app, {
      method: 'DELETE',
      url: `/api/v1/team/invitations/${second.json.data.uuid}`,
      headers,
    });
    expect(revoke.statusCode).toBe(200);
    expect((await accept(revokedToken)).json.error.code).toBe('INVALID_LINK');
    app.testClock.advance(7 * 24 * 60 * 60_000 + 1000);
    expect((await accept(late)).json.error.code).toBe('INVALID_LINK');
  });

  it('counts pending invitations against the seats: beyond them, 402', async () => {
    await app.db
      .insertInto('plans')
      .values({ key: 'three-seats', name: 'Three seats', position: 9 })
      .execute();
    await app.db
      .insertInto('plan_functions')
      .values({ plan_key: 'three-seats', function_key: 'creator-seats', limit_value: 3 })
      .execute();
    const { company, headers } = await team('three-seats');
    await createUser(app, company, { isAdmin: false });
    // Admin + creator + one pending invitation = 3 seats.
    expect((await invite(headers, 'third@example.test')).statusCode).toBe(201);
    const over = await invite(headers, 'fourth@example.test');
    expect(over.statusCode).toBe(402);
    expect(over.json.error).toMatchObject({
      code: 'PLAN_LIMIT_REACHED',
      limit: { feature: 'creator-seats', required: 4, limit: 3 },
    });
    expect(await mailsTo(app, 'fourth@example.test')).toEqual([]);
    const usage = await call(app, {
      method: 'GET',
      url: '/api/v1/users/me/subscriptions/creator-seats/usage',
      headers,
    });
    expect(usage.json.data).toMatchObject({ used: 3, limit: 3, remaining: 0 });
    // Unlimited plans never say no.
    await setSeats('three-seats', -1);
    expect((await invite(headers, 'fourth@example.test')).statusCode).toBe(201);
  });

  it('refuses an e-mail that has an account or a pending invitation', async () => {
    const { company, headers } = await team();
    const existing = await createUser(app, company);
    const taken = await invite(headers, existing.email);
    expect(taken.statusCode).toBe(422);
    expect(taken.json.error.errors).toEqual({ email: ['The email has already been taken.'] });
    expect((await invite(headers, 'twice@example.test')).statusCode).toBe(201);
    expect((await invite(headers, 'twice@example.test')).statusCode).toBe(409);
  });

  it('12 acceptances of one invitation at once: one account, the others a clear refusal (issue 30)', async () => {
    const { headers } = await team();
    expect((await invite(headers, 'race@example.test')).statusCode).toBe(201);
    const token = await linkTokenIn(app, 'race@example.test');
    const answers = await Promise.all(Array.from({ length: 12 }, () => accept(token)));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    // Those that met the spent invitation say so (409); those that came after its commit find
    // the link used (400 INVALID_LINK). Never a 500.
    for (const answer of answers.filter((one) => one.statusCode !== 201)) {
      expect([
        'This invitation has already been accepted: sign in instead.',
        'This link is invalid, was already used or has expired. Ask for a new one.',
      ]).toContain(answer.json.error.message);
    }
    const users = await app.db
      .selectFrom('users')
      .select('uuid')
      .where('email', '=', 'race@example.test')
      .execute();
    expect(users).toHaveLength(1);
  });

  it('one e-mail invited by two companies, accepted at once: one account, the other 422 (issue 30)', async () => {
    const first = await team();
    const second = await team();
    const email = 'wanted@example.test';
    expect((await invite(first.headers, email)).statusCode).toBe(201);
    expect((await invite(second.headers, email)).statusCode).toBe(201);
    const mails = await mailsTo(app, email);
    const tokens = mails.map((mail) => /token=([\w-]+)/.exec(mail.text)?.[1] ?? '');
    expect(tokens.every((token) => token !== '')).toBe(true);
    const answers = await Promise.all(tokens.map((token) => accept(token)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 422]);
    const loser = answers.find((answer) => answer.statusCode === 422)!;
    expect(loser.json.error.errors).toEqual({ email: ['The email has already been taken.'] });
    const accepted = await app.db
      .selectFrom('invitations')
      .select('accepted_at')
      .where('email', '=', email)
      .execute();
    // The losing invitation is not spent: it stays pending.
    expect(accepted.filter((row) => row.accepted_at !== null)).toHaveLength(1);
  });
});

describe('roles and deactivation', () => {
  it('never leaves the company without an administrator', async () => {
    const { company, admin, headers } = await team();
    const creator = await createUser(app, company, { isAdmin: false });
    const role = (uuid: string, to: string) =>
      call(app, {
        method: 'PATCH',
        url: `/api/v1/team/members/${uuid}`,
        headers,
        payload: { role: to },
      });
    const alone = await role(admin.uuid, 'creator');
    expect(alone.statusCode).toBe(409);
    expect(alone.json.error).toMatchObject({
      code: 'LAST_ADMINISTRATOR',
      message: 'The company needs at least one active administrator.',
    });
    expect((await role(creator.uuid, 'admin')).json.data.role).toBe('admin');
    expect((await role(admin.uuid, 'creator')).json.data.role).toBe('creator');
    // The former administrator is a creator now: the team is closed to them.
    const members = await call(app, { method: 'GET', url: '/api/v1/team/members', headers });
    expect(members.statusCode).toBe(403);
    expect(members.json.error.code).toBe('NO_PRIVILEGES');
  });

  it('refuses deactivating yourself; another administrator may', async () => {
    const { company, admin, headers } = await team();
    const self = await call(app, {
      method: 'POST',
      url: `/api/v1/team/members/${admin.uuid}/deactivate`,
      headers,
    });
    expect(self.statusCode).toBe(409);
    const other = await createUser(app, company, { isAdmin: true });
    const otherHeaders = bearer((await signIn(app, other)).access_token);
    const first = await call(app, {
      method: 'POST',
      url: `/api/v1/team/members/${admin.uuid}/deactivate`,
      headers: otherHeaders,
    });
    expect(first.statusCode).toBe(200);
    expect(first.json.data.deactivated_at).not.toBeNull();
  });

  it("ends a deactivated creator's sessions and API tokens at once; their courses stay", async () => {
    const { company, headers } = await team();
    const creator = await createUser(app, company, { isAdmin: false });
    const session = await signIn(app, creator);
    app.testClock.advance(31_000);
    const token = await call(app, {
      method: 'POST',
      url: '/api/v1/users/me/tokens',
      headers: bearer(session.access_token),
      payload: { name: 'CI', scopes: ['courses:read'], code: totpCode(app) },
    });
    expect(token.statusCode).toBe(201);
    const pat = token.json.data.token as string;
    expect(pat.startsWith(API_TOKEN_PREFIX)).toBe(true);
    expect((await me(app, pat)).statusCode).toBe(200);
    await app.db
      .insertInto('courses')
      .values({
        uuid: '0193a000-0000-7000-8000-000000000017',
        company_uuid: company.uuid,
        classroom_uuid: company.classrooms[0]!.uuid,
        name: 'Kept course',
        description: 'Stays after its creator leaves',
        image_path: null,
        category: null,
        enrollment: null,
        status: 'draft',
        distribution: null,
        creator_uuid: creator.uuid,
        created_at: app.clock.now().toISOString(),
        updated_at: app.clock.now().toISOString(),
        scheduled_at: null,
        delivered_at: null,
        deleted_at: null,
      })
      .execute();

    const off = await call(app, {
      method: 'POST',
      url: `/api/v1/team/members/${creator.uuid}/deactivate`,
      headers,
    });
    expect(off.statusCode).toBe(200);
    expect((await me(app, session.access_token)).statusCode).toBe(401);
    expect((await me(app, pat)).statusCode).toBe(401);
    const refreshed = await call(app, {
      method: 'POST',
      url: '/api/v1/users/oauth/refresh',
      payload: { refresh_token: session.refresh_token, platform: PLATFORM },
    });
    expect(refreshed.statusCode).toBe(401);
    // Refused like a wrong password.
    const again = await login(app, creator.email);
    expect(again.statusCode).toBe(400);
    expect(again.json.error.code).toBe('INVALID_CREDENTIALS');
    const course = await app.db
      .selectFrom('courses')
      .select(['name', 'creator_uuid'])
      .where('uuid', '=', '0193a000-0000-7000-8000-000000000017')
      .executeTakeFirst();
    expect(course).toEqual({ name: 'Kept course', creator_uuid: creator.uuid });

    // The seat is free again; reactivating takes it back.
    const back = await call(app, {
      method: 'POST',
      url: `/api/v1/team/members/${creator.uuid}/reactivate`,
      headers,
    });
    expect(back.json.data.deactivated_at).toBeNull();
    expect((await login(app, creator.email)).statusCode).toBe(200);
  });

  it("lets an administrator reset a creator's 2FA, recorded with who did it", async () => {
    const { company, admin, headers } = await team();
    const creator = await createUser(app, company, { isAdmin: false });
    const session = await signIn(app, creator);
    app.testClock.advance(30_000);
    const done = await call(app, {
      method: 'POST',
      url: `/api/v1/team/members/${creator.uuid}/reset-2fa`,
      headers,
      payload: { code: totpCode(app) },
    });
    expect(done.json.data.is_2fa_enabled).toBe(false);
    expect((await me(app, session.access_token)).statusCode).toBe(401);
    const first = await login(app, creator.email);
    expect(first.json.data.is_2fa_enabled).toBe(false);
    const log = await call(app, { method: 'GET', url: '/api/v1/team/audit-log', headers });
    expect(log.json.data[0]).toMatchObject({
      action: 'two_factor.reset',
      actor: { uuid: admin.uuid, email: admin.email },
      target: creator.email,
    });
  });

  it("asks a fresh code of the administrator to invite an administrator or reset another's 2FA (issue 30)", async () => {
    const { company, headers } = await team();
    app.testClock.advance(30_000);
    // A creator's invitation needs none.
    expect((await invite(headers, 'plain.creator@example.test')).statusCode).toBe(201);

    const bare = await invite(headers, 'boss@example.test', 'admin');
    expect(bare.statusCode).toBe(422);
    expect(bare.json.error.errors).toEqual({ code: [MESSAGES.freshCodeRequired] });
    const inItalian = await call(app, {
      method: 'POST',
      url: '/api/v1/team/invitations',
      headers: { ...headers, 'accept-language': 'it' },
      payload: { email: 'boss@example.test', role: 'admin' },
    });
    expect(inItalian.json.error.errors.code).toEqual([
      'Inserisci un nuovo codice dalla tua app di autenticazione per confermare che sei tu.',
    ]);
    const adminInvite = (code: string) =>
      call(app, {
        method: 'POST',
        url: '/api/v1/team/invitations',
        headers,
        payload: { email: 'boss@example.test', role: 'admin', code },
      });
    const wrong = await adminInvite(totpCode(app, undefined, 5));
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json.error.code).toBe('INVALID_CODE');
    const code = totpCode(app);
    expect((await adminInvite(code)).statusCode).toBe(201);
    const pending = await call(app, { method: 'GET', url: '/api/v1/team/invitations', headers });
    expect(
      (pending.json.data as { email: string; role: string }[])
        .map(({ email, role }) => `${email} ${role}`)
        .sort(),
    ).toEqual(['boss@example.test admin', 'plain.creator@example.test creator']);

    const creator = await createUser(app, company, { isAdmin: false });
    const reset = (payload?: Record<string, string>) =>
      call(app, {
        method: 'POST',
        url: `/api/v1/team/members/${creator.uuid}/reset-2fa`,
        headers,
        ...(payload ? { payload } : {}),
      });
    const noCode = await reset({});
    expect(noCode.statusCode).toBe(422);
    expect(noCode.json.error.errors).toEqual({ code: [MESSAGES.required] });
    // The step just spent on the invitation does not open a second action.
    const spent = await reset({ code });
    expect(spent.json.error.code).toBe('CODE_ALREADY_USED');
    expect((await login(app, creator.email)).json.data.is_2fa_enabled).toBe(true);
    app.testClock.advance(30_000);
    const done = await reset({ code: totpCode(app) });
    expect(done.statusCode).toBe(200);
    expect(done.json.data.is_2fa_enabled).toBe(false);
  });

  it('keeps the team to its own company and its administrators', async () => {
    const a = await team();
    const b = await team();
    const foreign = await call(app, {
      method: 'POST',
      url: `/api/v1/team/members/${b.admin.uuid}/deactivate`,
      headers: a.headers,
    });
    expect(foreign.statusCode).toBe(404);
    const creator = await createUser(app, a.company, { isAdmin: false });
    const creatorHeaders = bearer((await signIn(app, creator)).access_token);
    for (const [method, url] of [
      ['GET', '/api/v1/team/members'],
      ['GET', '/api/v1/team/audit-log'],
      ['POST', '/api/v1/team/invitations'],
    ] as const) {
      const refused = await call(app, {
        method,
        url,
        headers: creatorHeaders,
        ...(method === 'POST' ? { payload: { email: 'x@example.test' } } : {}),
      });
      expect(refused.statusCode).toBe(403);
    }
  });
});
