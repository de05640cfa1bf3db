import { MESSAGES } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { bearer, errorBody, login, me, nextIp, twoFactorToken } from '../fixtures/auth.ts';
import {
  buildTestApp,
  call,
  createCompany,
  createUser,
  TEST_TOTP_SECRET,
  totpCode,
} from '../helper.ts';

describe('the user and two-factor setup', async () => {
  const app = await buildTestApp();
  const company = await createCompany(app, { name: 'Setup Co' });

  const firstStep = async (email: string) => {
    const response = await login(app, email);
    expect(response.statusCode).toBe(200);
    return response.json.data as { access_token: string; refresh_token: string };
  };
  const qrcode = (token: string) =>
    call(app, { method: 'GET', url: '/api/v1/users/2fa-qrcode', headers: bearer(token) });
  const verify = (token: string, code: unknown, url = '/api/v1/users/2fa-verify/', ip = nextIp()) =>
    call(app, {
      method: 'POST',
      url,
      remoteAddress: ip,
      headers: bearer(token),
      payload: { code },
    });
  const userRow = (uuid: string) =>
    app.db.selectFrom('users').selectAll().where('uuid', '=', uuid).executeTakeFirstOrThrow();
  // A user without 2FA, signed in with the first step and shown a QR code.
  const startSetup = async () => {
    const user = await createUser(app, company, { twoFactor: false });
    const first = await firstStep(user.email);
    const qr = await qrcode(first.access_token);
    expect(qr.statusCode).toBe(200);
    return { user, first, secret: qr.json.data.secret as string };
  };

  describe('GET /api/v1/users/me', () => {
    it('answers the public user and nothing secret', async () => {
      const user = await createUser(app, company, { email: 'me@example.test', isAdmin: false });
      await app.db
        .updateTable('users')
        .set({ first_name: 'Zoë', last_name: "O'Neil", locale: 'it', avatar: '/avatars/me.png' })
        .where('uuid', '=', user.uuid)
        .execute();
      const first = await firstStep(user.email);
      const response = await me(app, first.access_token);
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({
        data: {
          uuid: user.uuid,
          email: 'me@example.test',
          first_name: 'Zoë',
          last_name: "O'Neil",
          avatar: '/avatars/me.png',
          locale: 'it',
          is_admin: false,
          is_2fa_enabled: true,
          company: { uuid: company.uuid, name: 'Setup Co' },
        },
      });
      const row = await userRow(user.uuid);
      expect(response.body).not.toContain(row.password_hash);
      expect(response.body).not.toContain(TEST_TOTP_SECRET);
      expect(response.body).not.toMatch(/password|totp|secret/);
    });

    it('answers 401 without a token', async () => {
      const response = await call(app, { method: 'GET', url: '/api/v1/users/me' });
      expect(response.json).toEqual(errorBody(401, 'UNAUTHENTICATED', 'Unauthenticated.'));
    });
  });

  describe('GET /api/v1/users/2fa-qrcode', () => {
    it('gives a new pending secret as an SVG QR code, a base32 secret and an otpauth URL', async () => {
      const user = await createUser(app, company, { twoFactor: false, email: 'qr@example.test' });
      const first = await firstStep(user.email);
      const response = await qrcode(first.access_token);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const {
        qr_code: qrCode,
        secret,
        otpauth_url: url,
      } = response.json.data as {
        qr_code: string;
        secret: string;
        otpauth_url: string;
      };
      expect(Object.keys(response.json.data).sort()).toEqual(['otpauth_url', 'qr_code', 'secret']);
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(url).toBe(
        `otpauth://totp/CCP:qr%40example.test?issuer=CCP&secret=${secret}&algorithm=SHA1&digits=6&period=30`,
      );
      expect(qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
      const svg = Buffer.from(qrCode.split(',')[1] ?? '', 'base64').toString('utf8');
      expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);

      const row = await userRow(user.uuid);
      expect(row).toMatchObject({
        totp_pending_secret: secret,
        totp_secret: null,
        is_2fa_enabled: 0,
      });

      // Asking again replaces the pending secret.
      const again = await qrcode(first.access_token);
      expect(again.json.data.secret).not.toBe(secret);
      expect((await userRow(user.uuid)).totp_pending_secret).toBe(again.json.data.secret);
    });

    it('answers 409 once 2FA is enabled', async () => {
      const user = await createUser(app, company);
      const first = await firstStep(user.email);
      const response = await qrcode(first.access_token);
      expect(response.statusCode).toBe(409);
      expect(response.json).toEqual(
        errorBody(409, 'CONFLICT', 'Two-factor authentication is already enabled.'),
      );
      expect((await userRow(user.uuid)).totp_pending_secret).toBeNull();
    });
  });

  describe('POST /api/v1/users/2fa-verify/', () => {
    it('sets up 2FA end to end and signs the user in fully', async () => {
      const user = await createUser(app, company, { twoFactor: false });
      const first = await firstStep(user.email);
      // Until 2FA is set up, the second login step is closed.
      expect((await twoFactorToken(app, first, '123456')).statusCode).toBe(403);
      const secret = (await qrcode(first.access_token)).json.data.secret as string;

      const response = await verify(first.access_token, [
        totpCode(app, secret),
        totpCode(app, secret, 1),
      ]);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.json).toEqual({
        data: {
          status: 'confirmed',
          access_token: expect.any(String),
          refresh_token: expect.any(String),
          token_type: 'Bearer',
          expires_in: 900,
          user: expect.objectContaining({ uuid: user.uuid, is_2fa_enabled: true }),
          recovery_codes: expect.arrayContaining([
            expect.stringMatching(/^[a-z2-9]{5}-[a-z2-9]{5}$/),
          ]),
        },
      });
      expect(response.json.data.recovery_codes).toHaveLength(10);
      expect(await userRow(user.uuid)).toMatchObject({
        totp_secret: secret,
        totp_pending_secret: null,
        is_2fa_enabled: 1,
      });
      // The first step ended; the new pair is a full sign-in.
      expect((await me(app, first.access_token)).statusCode).toBe(401);
      const full = response.json.data;
      expect((await me(app, full.access_token)).json.data.is_2fa_enabled).toBe(true);
      const refreshed = await call(app, {
        method: 'POST',
        url: '/api/v1/users/oauth/refresh',
        payload: { refresh_token: full.refresh_token, platform: 'content_creators_platform' },
      });
      expect(refreshed.statusCode).toBe(200);

      // Set up once: the QR code and a second verify are refused.
      expect((await qrcode(full.access_token)).statusCode).toBe(409);
      expect((await verify(full.access_token, '000000000000')).statusCode).toBe(409);

      // The next login needs a code; the setup's codes cannot be replayed.
      const next = await login(app, user.email);
      expect(next.json.data.is_2fa_enabled).toBe(true);
      const replayed = await twoFactorToken(app, next.json.data, totpCode(app, secret, 1));
      expect(replayed.statusCode).toBe(422);
      expect(replayed.json).toEqual(errorBody(422, 'CODE_ALREADY_USED', MESSAGES.codeAlreadyUsed));
      app.testClock.advance(60_000);
      expect((await twoFactorToken(app, next.json.data, totpCode(app, secret))).statusCode).toBe(
        200,
      );
    });

    it('refuses wrong codes with 422 "Invalid code." and keeps the secret pending', async () => {
      const { user, first, secret } = await startSetup();
      const now = totpCode(app, secret);
      const nextCode = totpCode(app, secret, 1);
      const cases = [
        [nextCode, now], // swapped
        [now, now], // the same code twice
        [now, totpCode(app, secret, 2)], // not consecutive
        [totpCode(app, TEST_TOTP_SECRET), totpCode(app, TEST_TOTP_SECRET, 1)], // another secret
      ].filter(([a, b]) => !(a === now && b === nextCode));
      for (const code of cases) {
        const response = await verify(first.access_token, code);
        expect(response.statusCode).toBe(422);
        expect(response.json).toEqual(errorBody(422, 'INVALID_CODE', 'Invalid code.'));
      }
      expect(await userRow(user.uuid)).toMatchObject({
        totp_pending_secret: secret,
        totp_secret: null,
        is_2fa_enabled: 0,
      });
      expect((await verify(first.access_token, [now, nextCode])).statusCode).toBe(200);
    });

    it('locks the setup after 5 wrong pairs a minute with 429, then lets a right pair through', async () => {
      const { user, first, secret } = await startSetup();
      const wrong = [totpCode(app, secret, 1), totpCode(app, secret)];
      for (let attempt = 0; attempt < 5; attempt += 1) {
        expect((await verify(first.access_token, wrong)).statusCode).toBe(422);
      }
      const locked = await verify(first.access_token, [
        totpCode(app, secret),
        totpCode(app, secret, 1),
      ]);
      expect(locked.statusCode).toBe(429);
      expect(locked.json).toEqual(errorBody(429, 'TOO_MANY_ATTEMPTS', 'Too Many Attempts.'));
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      expect((await userRow(user.uuid)).is_2fa_enabled).toBe(0);

      app.testClock.advance(61_000);
      const right = await verify(first.access_token, [
        totpCode(app, secret),
        totpCode(app, secret, 1),
      ]);
      expect(right.statusCode).toBe(200);
    });

    it('refuses codes of a secret that a newer QR code replaced', async () => {
      const { first, secret } = await startSetup();
      await qrcode(first.access_token);
      const response = await verify(first.access_token, [
        totpCode(app, secret),
        totpCode(app, secret, 1),
      ]);
      expect(response.statusCode).toBe(422);
      expect(response.json.error.code).toBe('INVALID_CODE');
    });

    it.each([
      ['two steps back', -2, 200],
      ['three steps back', -3, 422],
      ['one step ahead', 1, 200],
      ['two steps ahead', 2, 422],
    ])('accepts a first code from %s: %i → %i', async (_name, offset, status) => {
      const { first, secret } = await startSetup();
      const response = await verify(first.access_token, [
        totpCode(app, secret, offset),
        totpCode(app, secret, offset + 1),
      ]);
      expect(response.statusCode).toBe(status);
    });

    it.each([
      ['one string of 12 digits', (a: string, b: string) => `${a}${b}`],
      ['two groups with a space', (a: string, b: string) => `${a} ${b}`],
      ['two groups with a comma', (a: string, b: string) => `${a}, ${b}`],
    ])('accepts the codes as %s', async (_name, format) => {
      const { first, secret } = await startSetup();
      const response = await verify(
        first.access_token,
        format(totpCode(app, secret), totpCode(app, secret, 1)),
      );
      expect(response.statusCode).toBe(200);
      expect(response.json.data.status).toBe('confirmed');
    });

    it('also answers without the trailing slash', async () => {
      const { first, secret } = await startSetup();
      const response = await verify(
        first.access_token,
        [totpCode(app, secret), totpCode(app, secret, 1)],
        '/api/v1/users/2fa-verify',
      );
      expect(response.statusCode).toBe(200);
    });

    it('refuses a malformed code field with 422 on the code field', async () => {
      const { first } = await startSetup();
      for (const code of [['123456'], '12345', '123456-654321', 123456654321]) {
        const response = await verify(first.access_token, code);
        expect(response.statusCode).toBe(422);
        expect(response.json).toEqual(
          errorBody(422, 'VALIDATION_FAILED', MESSAGES.twoFactorCodesFormat, {
            code: [MESSAGES.twoFactorCodesFormat],
          }),
        );
      }
    });

    it('answers 422 when no QR code was requested', async () => {
      const user = await createUser(app, company, { twoFactor: false });
      const first = await firstStep(user.email);
      const response = await verify(first.access_token, '123456654321');
      expect(response.statusCode).toBe(422);
      expect(response.json).toEqual(
        errorBody(
          422,
          'VALIDATION_FAILED',
          'Request a QR code before confirming two-factor authentication.',
        ),
      );
    });

    it('answers 401 without a token', async () => {
      const response = await call(app, {
        method: 'POST',
        url: '/api/v1/users/2fa-verify/',
        payload: { code: '123456654321' },
      });
      expect(response.statusCode).toBe(401);
    });
  });

  it('documents the auth paths in the OpenAPI document', async () => {
    const response = await call(app, { method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json.paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/v1/users/oauth/token',
        '/api/v1/users/oauth/2fa-token',
        '/api/v1/users/oauth/refresh',
        '/api/v1/users/oauth/logout',
        '/api/v1/users/me',
        '/api/v1/users/2fa-qrcode',
        '/api/v1/users/2fa-verify/',
      ]),
    );
    expect(paths).not.toContain('/api/v1/users/2fa-verify');
    expect(response.json.paths['/api/v1/users/oauth/token'].post.security).toEqual([]);
  });
});
