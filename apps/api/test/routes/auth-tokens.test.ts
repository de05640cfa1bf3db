import { MESSAGES } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { REFRESH_REUSE_GRACE_SECONDS } from '../../src/lib/tokens.ts';
import { authOf } from '../../src/plugins/auth.ts';
import {
  bearer,
  errorBody,
  login,
  me,
  nextIp,
  refresh,
  signInWithCode,
  twoFactorToken,
  wrongCode,
} from '../fixtures/auth.ts';
import {
  buildTestApp,
  call,
  createCompany,
  createUser,
  PLATFORM,
  TEST_TOTP_SECRET,
  totpCode,
} from '../helper.ts';

const unauthenticated = errorBody(401, 'UNAUTHENTICATED', 'Unauthenticated.');
const invalidRefresh = errorBody(401, 'INVALID_REFRESH_TOKEN', 'The refresh token is invalid.');
const invalidCode = errorBody(422, 'INVALID_CODE', 'Invalid code.');

describe('the two sign-in steps and the token lifecycle', async () => {
  const app = await buildTestApp();
  // Probe routes (the app is not ready until the first request): one needs a full token, the
  // other also takes a first-step token, as the auth plugin decides from the route config.
  app.get('/api/v1/__probe/full', async (request) => ({ stage: authOf(request).stage }));
  app.get('/api/v1/__probe/otp', { config: { auth: 'otp' } }, async (request) => ({
    stage: authOf(request).stage,
  }));
  const probe = (which: 'full' | 'otp', token: string) =>
    call(app, { method: 'GET', url: `/api/v1/__probe/${which}`, headers: bearer(token) });

  const company = await createCompany(app, { name: 'Acme Training' });
  const firstStep = async (email: string) => {
    const response = await login(app, email);
    expect(response.statusCode).toBe(200);
    return response.json.data as { access_token: string; refresh_token: string };
  };

  describe('POST /api/v1/users/oauth/2fa-token', () => {
    it('exchanges the first-step pair and a code for full tokens and the user', async () => {
      const user = await createUser(app, company, { email: 'two.steps@example.test' });
      const first = await firstStep(user.email);

      // The first-step token opens only the routes that allow it.
      const refused = await probe('full', first.access_token);
      expect(refused.statusCode).toBe(403);
      expect(refused.json).toEqual(
        errorBody(403, 'TWO_FACTOR_REQUIRED', 'Two-factor authentication is required.'),
      );
      expect((await probe('otp', first.access_token)).json).toEqual({ stage: 'otp' });
      expect((await me(app, first.access_token)).statusCode).toBe(200);

      const response = await twoFactorToken(app, first, totpCode(app));
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.json).toEqual({
        data: {
          access_token: expect.any(String),
          refresh_token: expect.any(String),
          token_type: 'Bearer',
          expires_in: 900,
          is_2fa_enabled: true,
          user: {
            uuid: user.uuid,
            email: 'two.steps@example.test',
            first_name: 'Test',
            last_name: 'User',
            avatar: null,
            locale: 'en',
            is_admin: true,
            is_2fa_enabled: true,
            company: { uuid: company.uuid, name: 'Acme Training' },
          },
        },
      });
      const full = response.json.data;
      expect((await probe('full', full.access_token)).json).toEqual({ stage: 'full' });
      expect((await me(app, full.access_token)).json.data.uuid).toBe(user.uuid);

      // The first step is over: its tokens no longer work.
      expect((await me(app, first.access_token)).statusCode).toBe(401);
      const again = await twoFactorToken(app, first, totpCode(app, TEST_TOTP_SECRET, 1));
      expect(again.statusCode).toBe(401);
    });

    it('refuses a wrong code with 422 and keeps the first step usable', async () => {
      const user = await createUser(app, company);
      const first = await firstStep(user.email);
      const wrong = await twoFactorToken(app, first, wrongCode(app));
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json).toEqual(invalidCode);
      expect((await twoFactorToken(app, first, totpCode(app))).statusCode).toBe(200);
    });

    it('refuses a malformed code as a validation error', async () => {
      const user = await createUser(app, company);
      const first = await firstStep(user.email);
      const response = await twoFactorToken(app, first, '12345');
      expect(response.statusCode).toBe(422);
      expect(response.json).toEqual(
        errorBody(422, 'VALIDATION_FAILED', 'Invalid code.', { code: ['Invalid code.'] }),
      );
    });

    it('accepts a code once only', async () => {
      const user = await createUser(app, company);
      const code = totpCode(app);
      await twoFactorToken(app, await firstStep(user.email), code);
      const replayed = await twoFactorToken(app, await firstStep(user.email), code);
      expect(replayed.statusCode).toBe(422);
      // A right code whose step was spent says so, so a client with the secret waits a step.
      expect(replayed.json).toEqual(errorBody(422, 'CODE_ALREADY_USED', MESSAGES.codeAlreadyUsed));
      // A replay counts as a failed attempt; the next right code clears the count.
      const otpFailures = () =>
        app.db
          .selectFrom('auth_failures')
          .selectAll()
          .where('key', '=', `otp:${user.uuid}`)
          .execute();
      expect(await otpFailures()).toHaveLength(1);
      app.testClock.advance(30_000);
      const next = await twoFactorToken(app, await firstStep(user.email), totpCode(app));
      expect(next.statusCode).toBe(200);
      expect(await otpFailures()).toHaveLength(0);
    });

    it.each([
      [-1, 200],
      [1, 200],
      [-2, 422],
      [2, 422],
    ])('with a code %i steps off answers %i', async (offset, status) => {
      const user = await createUser(app, company);
      const first = await firstStep(user.email);
      const response = await twoFactorToken(app, first, totpCode(app, TEST_TOTP_SECRET, offset));
      expect(response.statusCode).toBe(status);
    });

    it('wants the first-step refresh token of the same sign-in', async () => {
      const user = await createUser(app, company);
      const one = await firstStep(user.email);
      const other = await firstStep(user.email);
      const mixed = await twoFactorToken(
        app,
        { access_token: one.access_token, refresh_token: other.refresh_token },
        totpCode(app),
      );
      expect(mixed.statusCode).toBe(401);
      expect(mixed.json).toEqual(invalidRefresh);
      const unknown = await twoFactorToken(
        app,
        { access_token: one.access_token, refresh_token: 'nope' },
        totpCode(app),
      );
      expect(unknown.json).toEqual(invalidRefresh);
      // A full pair cannot go through the second step again.
      const full = await twoFactorToken(app, one, totpCode(app));
      expect(full.statusCode).toBe(200);
      const fullAgain = await twoFactorToken(app, full.json.data, totpCode(app, undefined, 1));
      expect(fullAgain.json).toEqual(invalidRefresh);
    });

    it('needs the first-step bearer and the platform', async () => {
      const user = await createUser(app, company);
      const first = await firstStep(user.email);
      const noBearer = await call(app, {
        method: 'POST',
        url: '/api/v1/users/oauth/2fa-token',
        payload: { refresh_token: first.refresh_token, platform: PLATFORM, code: totpCode(app) },
      });
      expect(noBearer.statusCode).toBe(401);
      expect(noBearer.json).toEqual(unauthenticated);
      const wrongPlatform = await twoFactorToken(app, first, totpCode(app), { platform: 'lp' });
      expect(wrongPlatform.statusCode).toBe(422);
      expect(wrongPlatform.json.error.errors).toEqual({ platform: [MESSAGES.invalidPlatform] });
    });

    it('answers 403 for a user who has not set up 2FA', async () => {
      const user = await createUser(app, company, { twoFactor: false });
      const first = await firstStep(user.email);
      const response = await twoFactorToken(app, first, '123456');
      expect(response.statusCode).toBe(403);
      expect(response.json).toEqual(
        errorBody(403, 'TWO_FACTOR_REQUIRED', MESSAGES.twoFactorNotEnabled),
      );
    });

    it('locks the user after 5 wrong codes, even across new password logins', async () => {
      const user = await createUser(app, company);
      let first = await firstStep(user.email);
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        // A new login between guesses must not reset the count.
        if (attempt === 3) first = await firstStep(user.email);
        const response = await twoFactorToken(app, first, wrongCode(app));
        expect(response.statusCode).toBe(422);
      }
      const locked = await twoFactorToken(app, first, totpCode(app));
      expect(locked.statusCode).toBe(429);
      expect(locked.json).toEqual(errorBody(429, 'TOO_MANY_ATTEMPTS', 'Too Many Attempts.'));
      expect(locked.headers['retry-after']).toBe('60');
      const relogged = await firstStep(user.email);
      expect((await twoFactorToken(app, relogged, totpCode(app))).statusCode).toBe(429);

      app.testClock.advance(60_000);
      // The first-step access token lives 15 minutes, so the same pair can finish now.
      expect((await twoFactorToken(app, relogged, totpCode(app))).statusCode).toBe(200);
    });

    it('counts wrong codes against the address too', async () => {
      const ip = nextIp();
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        const user = await createUser(app, company);
        const first = await firstStep(user.email);
        expect((await twoFactorToken(app, first, wrongCode(app), { ip })).statusCode).toBe(422);
      }
      const user = await createUser(app, company);
      expect((await login(app, user.email, { ip })).statusCode).toBe(429);
    });
  });

  describe('access token expiry', () => {
    it('expires 15 minutes after issue', async () => {
      const user = await createUser(app, company);
      const full = await signInWithCode(app, user.email);
      app.testClock.advance(15 * 60_000 - 1_000);
      expect((await me(app, full.access_token)).statusCode).toBe(200);
      app.testClock.advance(2_000);
      const expired = await me(app, full.access_token);
      expect(expired.statusCode).toBe(401);
      expect(expired.json).toEqual(unauthenticated);
      // The refresh token still gets a new pair.
      expect((await refresh(app, full.refresh_token)).statusCode).toBe(200);
    });

    it('answers 401 for a missing, malformed or unknown bearer', async () => {
      for (const headers of [{}, { authorization: 'Basic abc' }, bearer('unknown')]) {
        const response = await call(app, { method: 'GET', url: '/api/v1/users/me', headers });
        expect(response.statusCode).toBe(401);
        expect(response.json).toEqual(unauthenticated);
      }
    });
  });

  describe('POST /api/v1/users/oauth/refresh', () => {
    it('rotates: a new pair works and the used refresh token does not', async () => {
      const user = await createUser(app, company);
      const full = await signInWithCode(app, user.email);
      const rotated = await refresh(app, full.refresh_token);
      expect(rotated.statusCode).toBe(200);
      expect(rotated.headers['cache-control']).toBe('no-store');
      expect(rotated.json).toEqual({
        data: {
          access_token: expect.any(String),
          refresh_token: expect.any(String),
          token_type: 'Bearer',
          expires_in: 900,
        },
      });
      const next = rotated.json.data;
      expect(next.refresh_token).not.toBe(full.refresh_token);
      expect((await probe('full', next.access_token)).statusCode).toBe(200);

      // Reusing the spent token after the grace revokes the whole family, the newest pair
      // included.
      app.testClock.advance(REFRESH_REUSE_GRACE_SECONDS * 1000 + 1);
      const reused = await refresh(app, full.refresh_token);
      expect(reused.statusCode).toBe(401);
      expect(reused.json).toEqual(invalidRefresh);
      expect((await me(app, next.access_token)).statusCode).toBe(401);
      expect((await refresh(app, next.refresh_token)).json).toEqual(invalidRefresh);
    });

    it('leaves other sign-ins of the user alone when a family is revoked', async () => {
      const user = await createUser(app, company);
      const one = await signInWithCode(app, user.email);
      app.testClock.advance(30_000);
      const two = await signInWithCode(app, user.email);
      await refresh(app, one.refresh_token);
      app.testClock.advance(REFRESH_REUSE_GRACE_SECONDS * 1000 + 1);
      expect((await refresh(app, one.refresh_token)).statusCode).toBe(401);
      expect((await me(app, two.access_token)).statusCode).toBe(200);
      expect((await refresh(app, two.refresh_token)).statusCode).toBe(200);
    });

    it('a spent token presented again within the grace answers the same pair: the user stays signed in', async () => {
      const user = await createUser(app, company);
      const full = await signInWithCode(app, user.email);
      // The answer to this call is lost (a tab closed, the connection dropped)…
      const lost = (await refresh(app, full.refresh_token)).json.data;
      app.testClock.advance(10_000);
      // …so the client presents the spent token again and gets the very same pair.
      const again = await refresh(app, full.refresh_token);
      expect(again.statusCode).toBe(200);
      expect(again.json).toEqual({
        data: {
          access_token: lost.access_token,
          refresh_token: lost.refresh_token,
          token_type: 'Bearer',
          expires_in: 890,
        },
      });
      expect((await me(app, again.json.data.access_token)).statusCode).toBe(200);
      app.testClock.advance(REFRESH_REUSE_GRACE_SECONDS * 1000 - 10_000);
      expect((await refresh(app, full.refresh_token)).json.data).toMatchObject({
        access_token: lost.access_token,
        refresh_token: lost.refresh_token,
        expires_in: 870,
      });
      // The sign-in goes on from there, and the session stays listed once.
      const next = await refresh(app, lost.refresh_token);
      expect(next.statusCode).toBe(200);
      expect((await me(app, next.json.data.access_token)).statusCode).toBe(200);
      const sessions = await call(app, {
        method: 'GET',
        url: '/api/v1/users/me/sessions',
        headers: bearer(next.json.data.access_token),
      });
      expect(sessions.json.data).toHaveLength(1);
    });

    it('never answers an older token: once its successor is spent, the grace is over and the sign-in ends', async () => {
      const user = await createUser(app, company);
      const full = await signInWithCode(app, user.email);
      const second = (await refresh(app, full.refresh_token)).json.data;
      const third = (await refresh(app, second.refresh_token)).json.data;
      app.testClock.advance(1_000);
      const replayed = await refresh(app, full.refresh_token);
      expect(replayed.statusCode).toBe(401);
      expect(replayed.json).toEqual(invalidRefresh);
      expect((await me(app, third.access_token)).statusCode).toBe(401);
      expect((await refresh(app, third.refresh_token)).json).toEqual(invalidRefresh);
      // A grace does not outlive the sign-in either: after a sign-out nothing comes back.
      app.testClock.advance(30_000);
      const other = await signInWithCode(app, user.email);
      await refresh(app, other.refresh_token);
      await call(app, {
        method: 'POST',
        url: '/api/v1/users/oauth/logout',
        headers: bearer(other.access_token),
      });
      expect((await refresh(app, other.refresh_token)).json).toEqual(invalidRefresh);
    });

    it(`ends the sign-in when a spent token comes back after ${REFRESH_REUSE_GRACE_SECONDS} s`, async () => {
      const user = await createUser(app, company);
      const full = await signInWithCode(app, user.email);
      const rotated = (await refresh(app, full.refresh_token)).json.data;
      app.testClock.advance(REFRESH_REUSE_GRACE_SECONDS * 1000);
      expect((await refresh(app, full.refresh_token)).json.data).toEqual(
        expect.objectContaining({ refresh_token: rotated.refresh_token }),
      );
      app.testClock.advance(1);
      expect((await refresh(app, full.refresh_token)).json).toEqual(invalidRefresh);
      expect((await me(app, rotated.access_token)).statusCode).toBe(401);
      expect((await refresh(app, rotated.refresh_token)).json).toEqual(invalidRefresh);
    });

    it('parallel refreshes of one token all answer one pair, with one live successor', async () => {
      const user = await createUser(app, company);
      const full = await signInWithCode(app, user.email);
      const answers = await Promise.all(
        Array.from({ length: 16 }, () => refresh(app, full.refresh_token)),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array(16).fill(200));
      const pairs = new Set(answers.map((answer) => JSON.stringify(answer.json.data)));
      expect(pairs.size).toBe(1);
      const live = await app.db
        .selectFrom('auth_tokens')
        .select('kind')
        .where('user_uuid', '=', user.uuid)
        .where('stage', '=', 'full')
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', app.clock.now().toISOString())
        .execute();
      expect(live.filter((token) => token.kind === 'refresh')).toHaveLength(1);
      const { access_token, refresh_token } = answers[0]!.json.data as {
        access_token: string;
        refresh_token: string;
      };
      expect((await me(app, access_token)).statusCode).toBe(200);
      // Parallel again from the successor: the same, one step on.
      const next = await Promise.all(Array.from({ length: 16 }, () => refresh(app, refresh_token)));
      expect(next.map((answer) => answer.statusCode)).toEqual(Array(16).fill(200));
      expect(new Set(next.map((answer) => JSON.stringify(answer.json.data))).size).toBe(1);
    });

    it('refuses an unknown, a first-step and an expired refresh token', async () => {
      const user = await createUser(app, company);
      expect((await refresh(app, 'not-a-token')).json).toEqual(invalidRefresh);

      const first = await firstStep(user.email);
      const firstStepRefresh = await refresh(app, first.refresh_token);
      expect(firstStepRefresh.statusCode).toBe(401);
      expect(firstStepRefresh.json).toEqual(invalidRefresh);
      // Refused, not treated as reuse: the first step can still be completed.
      expect((await twoFactorToken(app, first, totpCode(app))).statusCode).toBe(200);

      app.testClock.advance(30_000);
      const full = await signInWithCode(app, user.email);
      app.testClock.advance(30 * 24 * 60 * 60_000);
      const expired = await refresh(app, full.refresh_token);
      expect(expired.statusCode).toBe(401);
      expect(expired.json).toEqual(invalidRefresh);
    });

    it('needs the platform and a refresh token', async () => {
      const response = await call(app, {
        method: 'POST',
        url: '/api/v1/users/oauth/refresh',
        payload: { refresh_token: '', platform: 'other' },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json.error.errors).toEqual({
        refresh_token: [MESSAGES.required],
        platform: [MESSAGES.invalidPlatform],
      });
    });
  });

  describe('POST /api/v1/users/oauth/logout', () => {
    it('revokes the access and refresh tokens of the sign-in', async () => {
      const user = await createUser(app, company);
      const full = await signInWithCode(app, user.email);
      app.testClock.advance(30_000);
      const other = await signInWithCode(app, user.email);
      const response = await call(app, {
        method: 'POST',
        url: '/api/v1/users/oauth/logout',
        headers: bearer(full.access_token),
      });
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({ data: { status: 'logged_out' } });
      expect((await me(app, full.access_token)).json).toEqual(unauthenticated);
      expect((await refresh(app, full.refresh_token)).json).toEqual(invalidRefresh);
      // Only this sign-in ends.
      expect((await me(app, other.access_token)).statusCode).toBe(200);
    });

    it('works with a first-step token and ends the first step', async () => {
      const user = await createUser(app, company);
      const first = await firstStep(user.email);
      const response = await call(app, {
        method: 'POST',
        url: '/api/v1/users/oauth/logout',
        headers: bearer(first.access_token),
      });
      expect(response.statusCode).toBe(200);
      expect((await twoFactorToken(app, first, totpCode(app))).statusCode).toBe(401);
    });

    it('answers 401 without a token', async () => {
      const response = await call(app, { method: 'POST', url: '/api/v1/users/oauth/logout' });
      expect(response.statusCode).toBe(401);
      expect(response.json).toEqual(unauthenticated);
    });
  });
});
