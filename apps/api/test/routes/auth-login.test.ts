import { MESSAGES } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { hashToken } from '../../src/lib/ids.ts';
import { errorBody, login, nextIp } from '../fixtures/auth.ts';
import { buildTestApp, createCompany, createUser, PLATFORM, TEST_PASSWORD } from '../helper.ts';

describe('POST /api/v1/users/oauth/token', async () => {
  const app = await buildTestApp();
  const company = await createCompany(app);
  const failuresOf = (key: string) =>
    app.db.selectFrom('auth_failures').select('created_at').where('key', '=', key).execute();

  it('answers first-step tokens and the 2FA flag, stored hashed and uncacheable', async () => {
    const user = await createUser(app, company);
    const response = await login(app, user.email);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const { data } = response.json;
    expect(data).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 900,
      is_2fa_enabled: true,
    });
    expect(data.access_token).not.toBe(data.refresh_token);
    const rows = await app.db
      .selectFrom('auth_tokens')
      .selectAll()
      .where('user_uuid', '=', user.uuid)
      .orderBy('kind')
      .execute();
    expect(rows.map((row) => [row.kind, row.stage])).toEqual([
      ['access', 'otp'],
      ['refresh', 'otp'],
    ]);
    expect(rows[0]?.token_hash).toBe(hashToken(data.access_token));
    expect(rows[1]?.token_hash).toBe(hashToken(data.refresh_token));
    expect(rows[0]?.family_uuid).toBe(rows[1]?.family_uuid);
    expect(rows[0]?.expires_at).toBe('2026-11-22T09:15:00.000Z');
  });

  it('says when the user has not set up 2FA yet', async () => {
    const user = await createUser(app, company, { twoFactor: false });
    const response = await login(app, user.email);
    expect(response.statusCode).toBe(200);
    expect(response.json.data.is_2fa_enabled).toBe(false);
  });

  it('matches the email case-insensitively', async () => {
    const user = await createUser(app, company, { email: 'Mixed.Case@Example.test' });
    const response = await login(app, '  MIXED.case@EXAMPLE.TEST ');
    expect(response.statusCode).toBe(200);
    const tokens = await app.db
      .selectFrom('auth_tokens')
      .select('user_uuid')
      .where('token_hash', '=', hashToken(response.json.data.access_token))
      .executeTakeFirst();
    expect(tokens?.user_uuid).toBe(user.uuid);
  });

  it('answers 400 with the same body for a wrong password and an unknown email', async () => {
    const user = await createUser(app, company);
    const ip = nextIp();
    const wrongPassword = await login(app, user.email, { password: 'Wrong-Password-1!', ip });
    const unknownEmail = await login(app, 'nobody@example.test', { ip });
    for (const response of [wrongPassword, unknownEmail]) {
      expect(response.statusCode).toBe(400);
      expect(response.json).toEqual(
        errorBody(400, 'INVALID_CREDENTIALS', 'The user credentials were incorrect.'),
      );
    }
    expect(await failuresOf(`user:${user.email}`)).toHaveLength(1);
    expect(await failuresOf('user:nobody@example.test')).toHaveLength(1);
    expect(await failuresOf(`ip:${ip}`)).toHaveLength(2);
  });

  it('refuses another platform with a 422 on the platform field', async () => {
    const user = await createUser(app, company);
    const response = await login(app, user.email, { platform: 'learners_platform' });
    expect(response.statusCode).toBe(422);
    expect(response.json).toEqual(
      errorBody(422, 'VALIDATION_FAILED', 'The selected platform is invalid.', {
        platform: ['The selected platform is invalid.'],
      }),
    );
  });

  it('requires the username, as a valid email', async () => {
    const missing = await app.inject({
      method: 'POST',
      url: '/api/v1/users/oauth/token',
      payload: { password: TEST_PASSWORD, platform: PLATFORM },
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toEqual(
      errorBody(422, 'VALIDATION_FAILED', MESSAGES.required, { username: [MESSAGES.required] }),
    );
    const notEmail = await login(app, 'creator');
    expect(notEmail.statusCode).toBe(422);
    expect(notEmail.json.error.errors).toEqual({ username: ['The email must be valid.'] });
  });

  describe('rate limit', () => {
    const tooMany = errorBody(429, 'TOO_MANY_ATTEMPTS', 'Too Many Attempts.');

    // Issue 11 §6: five wrong passwords a minute from anywhere used to lock the owner out. A
    // username is locked only together with the address its failures came from.
    it('locks a username from one address after 5 failures within a minute', async () => {
      const user = await createUser(app, company);
      const ip = nextIp();
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        const response = await login(app, user.email, { password: `wrong-${attempt}`, ip });
        expect(response.statusCode).toBe(400);
      }
      // The 6th attempt from that address is refused even with the right password.
      const locked = await login(app, user.email, { ip });
      expect(locked.statusCode).toBe(429);
      expect(locked.json).toEqual(tooMany);
      expect(locked.headers['retry-after']).toBe('60');

      app.testClock.advance(59_000);
      const stillLocked = await login(app, user.email, { ip });
      expect(stillLocked.statusCode).toBe(429);
      expect(stillLocked.headers['retry-after']).toBe('1');

      app.testClock.advance(1_000);
      expect((await login(app, user.email, { ip })).statusCode).toBe(200);
    });

    // Every attempt runs scrypt: generous time for a loaded machine.
    it(
      'never locks the owner out: failures from many addresses only slow attempts down',
      { timeout: 90_000 },
      async () => {
        const user = await createUser(app, company);
        const waits: number[] = [];
        const sleep = app.authSettings.sleep;
        app.authSettings.sleep = async (ms) => {
          waits.push(ms);
        };
        try {
          // Ten wrong passwords a minute (twice the old lock), each from a new address, minute
          // after minute.
          for (let minute = 0; minute < 3; minute += 1) {
            for (let attempt = 1; attempt <= 10; attempt += 1) {
              expect((await login(app, user.email, { password: 'wrong' })).statusCode).toBe(400);
            }
            // The owner, from a fresh address, signs in: slowed, not refused.
            waits.length = 0;
            expect((await login(app, user.email)).statusCode).toBe(200);
            expect(waits).toEqual([app.authSettings.accountDelayMaxMs]);
            app.testClock.advance(60_000);
          }
        } finally {
          app.authSettings.sleep = sleep;
        }
      },
    );

    it(
      'slows attempts at an account after 5 failures, doubling up to the cap',
      { timeout: 60_000 },
      async () => {
        const user = await createUser(app, company);
        const waits: number[] = [];
        const sleep = app.authSettings.sleep;
        app.authSettings.sleep = async (ms) => {
          waits.push(ms);
        };
        try {
          for (let attempt = 1; attempt <= 12; attempt += 1) {
            await login(app, user.email, { password: 'wrong' });
          }
          expect(waits).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
          // A success clears the account's failures: the next attempt is not slowed.
          waits.length = 0;
          expect((await login(app, user.email)).statusCode).toBe(200);
          expect((await login(app, user.email)).statusCode).toBe(200);
          expect(waits).toEqual([10_000]);
        } finally {
          app.authSettings.sleep = sleep;
        }
      },
    );

    it('allows 4 failures and counts only the last minute', async () => {
      const user = await createUser(app, company);
      const ip = nextIp();
      for (let attempt = 1; attempt <= 4; attempt += 1) {
        expect((await login(app, user.email, { password: 'wrong', ip })).statusCode).toBe(400);
      }
      app.testClock.advance(30_000);
      // Failures 1-4 are 30 s old: the 5th failure is allowed, then the lock starts.
      expect((await login(app, user.email, { password: 'wrong', ip })).statusCode).toBe(400);
      const locked = await login(app, user.email, { ip });
      expect(locked.statusCode).toBe(429);
      // It lifts when the first four age out, 30 s from now.
      expect(locked.headers['retry-after']).toBe('30');
      app.testClock.advance(30_000);
      expect((await login(app, user.email, { ip })).statusCode).toBe(200);
    });

    it('does not extend the lock with attempts made while locked', async () => {
      const user = await createUser(app, company);
      const ip = nextIp();
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        await login(app, user.email, { password: 'wrong', ip });
      }
      app.testClock.advance(30_000);
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        expect((await login(app, user.email, { password: 'wrong', ip })).statusCode).toBe(429);
      }
      app.testClock.advance(30_000);
      expect((await login(app, user.email, { ip })).statusCode).toBe(200);
    });

    it('locks an address after 5 failures for any usernames', async () => {
      const user = await createUser(app, company);
      const ip = nextIp();
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        const response = await login(app, `someone${attempt}@example.test`, { ip });
        expect(response.statusCode).toBe(400);
      }
      const locked = await login(app, user.email, { ip });
      expect(locked.statusCode).toBe(429);
      expect(locked.json).toEqual(tooMany);
      expect(locked.headers['retry-after']).toBe('60');
      // The same user from another address is not affected.
      expect((await login(app, user.email)).statusCode).toBe(200);
    });

    it('clears the username counters on success but not the address counter', async () => {
      const user = await createUser(app, company);
      const ip = nextIp();
      for (let attempt = 1; attempt <= 4; attempt += 1) {
        await login(app, user.email, { password: 'wrong', ip: attempt === 1 ? ip : nextIp() });
      }
      expect((await login(app, user.email, { ip })).statusCode).toBe(200);
      expect(await failuresOf(`user:${user.email}`)).toHaveLength(0);
      expect(await failuresOf(`pair:${user.email}|${ip}`)).toHaveLength(0);
      // Four more failures from that address are allowed again: the pair counter restarted.
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        expect((await login(app, user.email, { password: 'wrong', ip })).statusCode).toBe(400);
      }
      // The address kept its first failure: with these three and one more it has five.
      expect((await login(app, 'other@example.test', { ip })).statusCode).toBe(400);
      expect((await login(app, user.email, { ip })).statusCode).toBe(429);
    });

    it('prunes failures older than the 15 minutes an account remembers them', async () => {
      const ip = nextIp();
      await login(app, 'pruned@example.test', { ip });
      expect(await failuresOf('user:pruned@example.test')).toHaveLength(1);
      app.testClock.advance(15 * 60_000 + 1);
      await login(app, 'later@example.test', { ip: nextIp() });
      expect(await failuresOf('user:pruned@example.test')).toHaveLength(0);
      expect(await failuresOf(`ip:${ip}`)).toHaveLength(0);
      expect(await failuresOf('user:later@example.test')).toHaveLength(1);
    });
  });
});
