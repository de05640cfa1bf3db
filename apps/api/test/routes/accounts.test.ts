import { beforeAll, describe, expect, it, vi } from 'vitest';

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
import { settleAfterAnswer } from '../../src/lib/after-response.ts';
import { linkTokenIn, mailsTo } from '../fixtures/accounts.ts';
import {
  bearer,
  login,
  me,
  nextIp,
  refresh,
  signInWithCode,
  twoFactorToken,
} from '../fixtures/auth.ts';

// Issue 17: password reset by e-mail, 2FA recovery codes, profile, password and sessions.

const NEW_PASSWORD = 'a-much-Better-passphrase-42';

let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp({ publicUrl: 'https://ccp.example.test/' });
});

/** Asks for a reset link, then waits for the work the answer does not wait for (the mail). */
const forgot = async (email: string, ip = nextIp()) => {
  const response = await call(app, {
    method: 'POST',
    url: '/api/v1/users/password/forgot',
    remoteAddress: ip,
    payload: { email },
  });
  await settleAfterAnswer(app);
  return response;
};

const reset = (token: string, password: string, ip = nextIp()) =>
  call(app, {
    method: 'POST',
    url: '/api/v1/users/password/reset',
    remoteAddress: ip,
    payload: { token, password },
  });

const auditActions = async (companyUuid: string) =>
  (
    await app.db
      .selectFrom('audit_log')
      .select(['action', 'actor_email', 'target', 'ip'])
      .where('company_uuid', '=', companyUuid)
      .orderBy('created_at', 'asc')
      .execute()
  ).map((row) => row.action);

describe('password reset', () => {
  it('answers the same for known and unknown e-mails, and mails only the account', async () => {
    const company = await createCompany(app);
    const user = await createUser(app, company);
    const known = await forgot(user.email);
    const unknown = await forgot('nobody.here@example.test');
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.body).toBe(unknown.body);
    expect(known.json).toEqual({ data: { status: 'sent' } });
    expect(await mailsTo(app, 'nobody.here@example.test')).toEqual([]);
    const [mail] = await mailsTo(app, user.email);
    expect(mail?.subject).toBe('Reset your CCP password');
    expect(mail?.text).toMatch(/https:\/\/ccp\.example\.test\/reset-password#token=[\w-]{43}\n/);
    expect(mail?.text).toContain('60 minutes');
    expect(mail?.html).toContain('<a href="https://ccp.example.test/reset-password#token=');
  });

  it('takes about as long for an unknown e-mail as for a known one', async () => {
    const company = await createCompany(app);
    const users = await Promise.all(Array.from({ length: 6 }, () => createUser(app, company)));
    const time = async (email: string) => {
      const start = performance.now();
      expect((await forgot(email)).statusCode).toBe(202);
      return performance.now() - start;
    };
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (const [index, user] of users.entries()) {
      knownTimes.push(await time(user.email));
      unknownTimes.push(await time(`ghost${index}.${user.uuid}@example.test`));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
    // Both are a few database statements; no scrypt, no mail server in the answer's time.
    expect(Math.abs(median(knownTimes) - median(unknownTimes))).toBeLessThan(40);
  });

  it('writes the e-mail in the language the user chose', async () => {
    const company = await createCompany(app);
    const user = await createUser(app, company);
    await app.db.updateTable('users').set({ locale: 'de' }).where('uuid', '=', user.uuid).execute();
    await forgot(user.email);
    const [mail] = await mailsTo(app, user.email);
    expect(mail?.subject).toBe('Setzen Sie Ihr CCP-Passwort zurück');
    expect(mail?.text).toContain('60 Minuten');
  });

  it('sets a new password once, ends every session, and still asks for the 2FA code', async () => {
    const company = await createCompany(app);
    const user = await createUser(app, company);
    const session = await signInWithCode(app, user.email);
    await forgot(user.email);
    const token = await linkTokenIn(app, user.email);
    // The mail never carries a password or a code.
    const [mail] = await mailsTo(app, user.email);
    expect(mail?.text).not.toMatch(/\b\d{6}\b/);

    const done = await reset(token, NEW_PASSWORD);
    expect(done.statusCode).toBe(200);
    expect(done.json).toEqual({ data: { status: 'password_reset' } });
    expect((await me(app, session.access_token)).statusCode).toBe(401);
    expect((await login(app, user.email)).statusCode).toBe(400);
    const first = await login(app, user.email, { password: NEW_PASSWORD });
    expect(first.statusCode).toBe(200);
    expect(first.json.data.is_2fa_enabled).toBe(true);
    // First-step tokens only: the code is still needed.
    const outbox = await call(app, {
      method: 'GET',
      url: '/api/v1/users/me/outbox',
      headers: bearer(first.json.data.access_token),
    });
    expect(outbox.statusCode).toBe(403);

    const again = await reset(token, 'another-Long-passphrase-7');
    expect(again.statusCode).toBe(400);
    expect(again.json.error.code).toBe('INVALID_LINK');
    expect(await auditActions(company.uuid)).toEqual([
      'password.reset_requested',
      'password.reset',
    ]);
  });

  it('refuses a link after 60 minutes', async () => {
    const company = await createCompany(app);
    const user = await createUser(app, company);
    await forgot(user.email);
    const token = await linkTokenIn(app, user.email);
    app.testClock.advance(60 * 60_000 + 1000);
    const late = await reset(token, NEW_PASSWORD);
    expect(late.statusCode).toBe(400);
    expect(late.json.error).toMatchObject({ code: 'INVALID_LINK' });
    expect((await login(app, user.email)).statusCode).toBe(200);
  });

  it('refuses short, e-mail-like and common passwords without spending the link', async () => {
    const company = await createCompany(app);
    const user = await createUser(app, company, { email: 'ada.lovelace.long@example.test' });
    await forgot(user.email);
    const token = await linkTokenIn(app, user.email);
    const cases: [string, string][] = [
      ['short-pw', 'The password must be at least 12 characters.'],
      ['ada.lovelace.long@example.test', 'The password may not be your e-mail address.'],
      ['Password1234', 'This password is too common. Choose one that is harder to guess.'],
    ];
    for (const [password, message] of cases) {
      const refused = await reset(token, password);
      expect(refused.statusCode).toBe(422);
      expect(refused.json.error.errors).toEqual({ password: [message] });
    }
    const italian = await call(app, {
      method: 'POST',
      url: '/api/v1/users/password/reset',
      headers: { 'accept-language': 'it' },
      payload: { token, password: 'short' },
    });
    expect(italian.json.error.errors.password).toEqual([
      'La password deve avere almeno 12 caratteri.',
    ]);
    expect((await reset(token, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('limits requests per address and per client, known or not', async () => {
    const company = await createCompany(app);
    const user = await createUser(app, company);
    for (const email of [user.email, 'unknown.limit@example.test']) {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        expect((await forgot(email)).statusCode).toBe(202);
      }
      const limited = await forgot(email);
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBeDefined();
    }
    expect(await mailsTo(app, user.email)).toHaveLength(3);
    const ip = nextIp();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await forgot(`client${attempt}@example.test`, ip)).statusCode).toBe(202);
    }
    expect((await forgot('client5@example.test', ip)).statusCode).toBe(429);
  });

  it('sends nothing to a deactivated creator', async () => {
    const company = await createCompany(app);
    const user = await createUser(app, company);
    await app.db
      .updateTable('users')
      .set({ deactivated_at: app.clock.now().toISOString() })
      .where('uuid', '=', user.uuid)
      .execute();
    expect((await forgot(user.email)).statusCode).toBe(202);
    expect(await mailsTo(app, user.email)).toEqual([]);
  });
});

describe('recovery codes', () => {
  const regenerate = async (accessToken: string, code: string) =>
    call(app, {
      method: 'POST',
      url: '/api/v1/users/me/recovery-codes',
      headers: bearer(accessToken),
      payload: { code },
    });

  it('signs in once with each code and says how many remain', async () => {
    const company = await createCompany(app);
    const user = await createUser(app, company);
    const session = await signIn(app, user);
    app.testClock.advance(31_000);
    const made = await regenerate(session.access_token, totpCode(app));
    expect(made.statusCode).toBe(201);
    const codes = made.json.data.codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    // Stored hashed: no code appears in the database.
    const stored = await app.db.selectFrom('recovery_codes').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(codes[0]!.replace('-', ''));

    const first = await login(app, user.email);
    const withCode = await call(app, {
      method: 'POST',
      url: '/api/v1/users/oauth/2fa-token',
      headers: bearer(first.json.data.access_token),
      payload: {
        refresh_token: first.json.data.refresh_token,
        platform: PLATFORM,
        recovery_code: ` ${codes[0]!.toUpperCase()} `,
      },
    });
    expect(withCode.statusCode).toBe(200);
    expect(withCode.json.data.recovery_codes_remaining).toBe(9);
    expect((await me(app, withCode.json.data.access_token)).statusCode).toBe(200);

    const second = await login(app, user.email);
    const reused = await call(app, {
      method: 'POST',
      url: '/api/v1/users/oauth/2fa-token',
      headers: bearer(second.json.data.access_token),
      payload: {
        refresh_token: second.json.data.refresh_token,
        platform: PLATFORM,
        recovery_code: codes[0],
      },
    });
    expect(reused.statusCode).toBe(422);
    expect(reused.json.error).toMatchObject({
      code: 'INVALID_CODE',
      message: 'Invalid recovery code.',
    });

    const status = await call(app, {
      method: 'GET',
      url: '/api/v1/users/me/recovery-codes',
      headers: bearer(withCode.json.data.access_token),
    });
    expect(status.json.data).toEqual({ remaining: 9, total: 10 });
    expect(await auditActions(company.uuid)).toContain('two_factor.recovery_code_used');
  });

  it('ends the old codes when new ones are made, and needs a right code to make them', async () => {
    const company = await createCompany(app);
    const user = await createUser(app, company);
    const session = await signIn(app, user);
    app.testClock.advance(31_000);
    const old = (await regenerate(session.access_token, totpCode(app))).json.data.codes as string[];
    app.testClock.advance(31_000);
    expect((await regenerate(session.access_token, '000000')).statusCode).toBe(422);
    const fresh = await regenerate(session.access_token, totpCode(app));
    expect(fresh.statusCode).toBe(201);
    const first = await login(app, user.email);
    const refused = await call(app, {
      method: 'POST',
      url: '/api/v1/users/oauth/2fa-token',
      headers: bearer(first.json.data.access_token),
      payload: {
        refresh_token: first.json.data.refresh_token,
        platform: PLATFORM,
        recovery_code: old[1],
      },
    });
    expect(refused.statusCode).toBe(422);
  });

  it('asks for a code or a recovery code, not both', async () => {
    const company = await createCompany(app);
    const user = await createUser(app, company);
    const first = await login(app, user.email);
    const codeOnly = await twoFactorToken(app, first.json.data, totpCode(app));
    expect(codeOnly.statusCode).toBe(200);
    const next = await login(app, user.email);
    const neither = await call(app, {
      method: 'POST',
      url: '/api/v1/users/oauth/2fa-token',
      headers: bearer(next.json.data.access_token),
      payload: { refresh_token: next.json.data.refresh_token, platform: PLATFORM },
    });
    expect(neither.statusCode).toBe(422);
    expect(neither.json.error.errors.code).toEqual([
      'Enter a code from your authenticator app or a recovery code.',
    ]);
  });
});

describe('account settings', () => {
  it('changes the name and language, and e-mails follow the language', async () => {
    const company = await createCompany(app);
    const user = await createUser(app, company);
    const session = await signIn(app, user);
    const saved = await call(app, {
      method: 'PATCH',
      url: '/api/v1/users/me',
      headers: bearer(session.access_token),
      payload: { first_name: ' Grace ', last_name: 'Hopper', locale: 'it' },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json.data).toMatchObject({
      first_name: 'Grace',
      last_name: 'Hopper',
      locale: 'it',
    });
    await forgot(user.email);
    expect((await mailsTo(app, user.email))[0]?.subject).toBe('Reimposta la password di CCP');
    const bad = await call(app, {
      method: 'PATCH',
      url: '/api/v1/users/me',
      headers: bearer(session.access_token),
      payload: { first_name: '', last_name: 'Hopper', locale: 'fr' },
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json.error.errors).sort()).toEqual(['first_name', 'locale']);
  });

  it('changes the password with the current one and ends the other sessions only', async () => {
    const company = await createCompany(app);
    const user = await createUser(app, company);
    const other = await signInWithCode(app, user.email);
    app.testClock.advance(31_000);
    const current = await signInWithCode(app, user.email);
    const change = (currentPassword: string, password: string) =>
      call(app, {
        method: 'POST',
        url: '/api/v1/users/me/password',
        headers: bearer(current.access_token),
        payload: { current_password: currentPassword, password },
      });
    const wrong = await change('not-my-password', NEW_PASSWORD);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json.error.errors).toEqual({
      current_password: ['The current password is not correct.'],
    });
    expect((await change('Correct-Horse-9!', 'tiny')).statusCode).toBe(422);
    expect((await change('Correct-Horse-9!', NEW_PASSWORD)).statusCode).toBe(200);
    expect((await me(app, current.access_token)).statusCode).toBe(200);
    expect((await me(app, other.access_token)).statusCode).toBe(401);
    expect((await login(app, user.email, { password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('lists sessions with browser and address, and signs out everywhere else', async () => {
    const company = await createCompany(app);
    const user = await createUser(app, company);
    const sessionFrom = async (agent: string, ip: string) => {
      const first = await call(app, {
        method: 'POST',
        url: '/api/v1/users/oauth/token',
        remoteAddress: ip,
        headers: { 'user-agent': agent },
        payload: { username: user.email, password: 'Correct-Horse-9!', platform: PLATFORM },
      });
      app.testClock.advance(31_000);
      const second = await call(app, {
        method: 'POST',
        url: '/api/v1/users/oauth/2fa-token',
        remoteAddress: ip,
        headers: { ...bearer(first.json.data.access_token), 'user-agent': agent },
        payload: {
          refresh_token: first.json.data.refresh_token,
          platform: PLATFORM,
          code: totpCode(app),
        },
      });
      return second.json.data as { access_token: string };
    };
    const laptop = await sessionFrom('Firefox on Linux', '10.9.0.1');
    const phone = await sessionFrom('Safari on iPhone', '10.9.0.2');
    const list = await call(app, {
      method: 'GET',
      url: '/api/v1/users/me/sessions',
      headers: bearer(phone.access_token),
    });
    expect(list.json.data).toEqual([
      expect.objectContaining({ user_agent: 'Safari on iPhone', ip: '10.9.0.2', current: true }),
      expect.objectContaining({ user_agent: 'Firefox on Linux', ip: '10.9.0.1', current: false }),
    ]);
    const members = await app.db
      .selectFrom('users')
      .select('last_sign_in_at')
      .where('uuid', '=', user.uuid)
      .executeTakeFirstOrThrow();
    expect(members.last_sign_in_at).toBe(app.clock.now().toISOString());

    const out = await call(app, {
      method: 'POST',
      url: '/api/v1/users/me/sessions/sign-out-others',
      headers: bearer(phone.access_token),
    });
    expect(out.json.data).toEqual({ signed_out: 1 });
    expect((await me(app, laptop.access_token)).statusCode).toBe(401);
    expect((await me(app, phone.access_token)).statusCode).toBe(200);
  });

  it('notes a session’s use once a minute, with no write between', async () => {
    const company = await createCompany(app);
    const user = await createUser(app, company);
    const session = await signInWithCode(app, user.email);
    const signedInAt = app.clock.now().toISOString();
    const lastUsed = async () =>
      (
        await app.db
          .selectFrom('auth_sessions')
          .select('last_used_at')
          .where('user_uuid', '=', user.uuid)
          .executeTakeFirstOrThrow()
      ).last_used_at;
    const statements = vi.spyOn(app.db, 'executeQuery');
    const sessionWrites = () =>
      statements.mock.calls.filter(([query]) =>
        /^update "auth_sessions"/i.test((query as { sql: string }).sql),
      ).length;
    try {
      app.testClock.advance(30_000);
      expect((await me(app, session.access_token)).statusCode).toBe(200);
      expect(await lastUsed()).toBe(signedInAt);
      // Not due: the stored last use, read with the access token, says so without a statement.
      expect(sessionWrites()).toBe(0);
      app.testClock.advance(31_000);
      expect((await me(app, session.access_token)).statusCode).toBe(200);
      const noted = app.clock.now().toISOString();
      expect(await lastUsed()).toBe(noted);
      expect(sessionWrites()).toBe(1);
      app.testClock.advance(59_000);
      expect((await me(app, session.access_token)).statusCode).toBe(200);
      expect(await lastUsed()).toBe(noted);
      expect(sessionWrites()).toBe(1);
    } finally {
      statements.mockRestore();
    }
  });

  it('re-enrols the authenticator: 2FA is off until set up again', async () => {
    const company = await createCompany(app);
    const user = await createUser(app, company);
    const session = await signIn(app, user);
    app.testClock.advance(31_000);
    const done = await call(app, {
      method: 'POST',
      url: '/api/v1/users/me/2fa/reset',
      headers: bearer(session.access_token),
      payload: { code: totpCode(app) },
    });
    expect(done.statusCode).toBe(200);
    expect(done.json.data.is_2fa_enabled).toBe(false);
    const qr = await call(app, {
      method: 'GET',
      url: '/api/v1/users/2fa-qrcode',
      headers: bearer(session.access_token),
    });
    expect(qr.statusCode).toBe(200);
  });

  it('after a 2FA reset the sign-in may only set 2FA up again (issue 30)', async () => {
    const company = await createCompany(app);
    const user = await createUser(app, company);
    const session = await signIn(app, user);
    app.testClock.advance(31_000);
    const reset = await call(app, {
      method: 'POST',
      url: '/api/v1/users/me/2fa/reset',
      headers: bearer(session.access_token),
      payload: { code: totpCode(app) },
    });
    expect(reset.statusCode).toBe(200);
    // The same access token no longer reads the company's data...
    const learners = await call(app, {
      method: 'GET',
      url: '/api/v1/learners',
      headers: bearer(session.access_token),
    });
    expect(learners.statusCode).toBe(403);
    expect(learners.json.error.code).toBe('TWO_FACTOR_REQUIRED');
    // ...its refresh token mints nothing...
    expect((await refresh(app, session.refresh_token)).statusCode).toBe(401);
    // ...and it still reaches the setup, whose verify starts a full sign-in again.
    expect((await me(app, session.access_token)).statusCode).toBe(200);
    const qr = await call(app, {
      method: 'GET',
      url: '/api/v1/users/2fa-qrcode',
      headers: bearer(session.access_token),
    });
    const secret: string = qr.json.data.secret;
    const verified = await call(app, {
      method: 'POST',
      url: '/api/v1/users/2fa-verify/',
      headers: bearer(session.access_token),
      payload: { code: [totpCode(app, secret), totpCode(app, secret, 1)] },
    });
    expect(verified.statusCode).toBe(200);
    const again = await call(app, {
      method: 'GET',
      url: '/api/v1/learners',
      headers: bearer(verified.json.data.access_token),
    });
    expect(again.statusCode).toBe(200);
  });
});
