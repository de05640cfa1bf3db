import { MESSAGES, PLATFORM } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { ApiError } from './api-error.ts';
import { authProvider } from './auth-provider.ts';
import type { TStoredFirstStep } from './auth-provider.ts';
import { createSession } from './session.ts';
import { fakeClient } from './test/fake-client.ts';
import type { FakeAnswer, RecordedCall } from './test/fake-client.ts';

const USER = {
  uuid: 'u1',
  email: 'creator@example.com',
  first_name: 'Giulia',
  last_name: 'Rossi',
  avatar: null,
  locale: 'en',
  is_admin: true,
  is_2fa_enabled: true,
  company: { uuid: 'co-1', name: 'Acme' },
};
const FIRST = { access_token: 'first-access', refresh_token: 'first-refresh', expires_in: 900 };
const FULL = { access_token: 'full-access', refresh_token: 'full-refresh', expires_in: 900 };

const invalidCode = () => {
  throw new ApiError({ status: 422, code: 'INVALID_CODE', message: MESSAGES.invalidCode });
};

const setup = (routes: Record<string, FakeAnswer> = {}, is2fa = true) => {
  const fake = fakeClient(
    {
      'POST /api/v1/users/oauth/token': { data: { ...FIRST, is_2fa_enabled: is2fa } },
      'POST /api/v1/users/oauth/2fa-token': (call: RecordedCall) =>
        (call.options.body as { code: string }).code === '123456'
          ? { data: { ...FULL, is_2fa_enabled: true, user: USER } }
          : invalidCode(),
      'POST /api/v1/users/oauth/logout': { data: { status: 'logged_out' } },
      'GET /api/v1/users/me': { data: USER },
      'GET /api/v1/company': { data: { uuid: 'co-1', name: 'Acme' } },
      'GET /api/v1/companies/co-1/classrooms': { data: [{ uuid: 'room-1', name: 'Sales' }] },
      'GET /api/v1/learners-lists': { data: [] },
      ...routes,
    },
    null,
  );
  const session = createSession(fake.client);
  const auth = authProvider(fake.client, { session });
  return { ...fake, session, auth };
};

const credentials = { email: 'creator@example.com', password: 'ChangeMe-2026!' };

describe('authProvider: two-step login', () => {
  it('keeps the first step’s tokens in memory only, then signs in with the code', async () => {
    const { auth, client, calls } = setup();
    expect(auth.pendingStep()).toBeNull();

    expect(await auth.passwordStep(credentials)).toEqual({ success: true, next: 'otp' });
    expect(auth.pendingStep()).toBe('otp');
    expect(client.tokens.get()).toBeNull();
    expect(await auth.check()).toEqual({ authenticated: false, redirectTo: '/login' });

    expect(await auth.login({ code: '123456' })).toEqual({
      success: true,
      redirectTo: '/dashboard',
    });
    expect(auth.pendingStep()).toBeNull();
    expect(client.tokens.get()).toMatchObject({
      access_token: 'full-access',
      refresh_token: 'full-refresh',
    });
    expect(await auth.check()).toEqual({ authenticated: true });
    expect(await auth.getIdentity()).toEqual(USER);

    expect(calls).toEqual([
      {
        method: 'POST',
        path: '/api/v1/users/oauth/token',
        options: {
          auth: false,
          body: { username: credentials.email, password: credentials.password, platform: PLATFORM },
        },
      },
      {
        method: 'POST',
        path: '/api/v1/users/oauth/2fa-token',
        options: {
          bearer: 'first-access',
          quiet: expect.any(Function),
          body: { refresh_token: 'first-refresh', platform: PLATFORM, code: '123456' },
        },
      },
    ]);
  });

  it('answers "Invalid OTP" for a wrong code and keeps the step for another try', async () => {
    const { auth, client } = setup();
    await auth.passwordStep(credentials);
    const result = await auth.login({ code: '000000' });
    expect(result.success).toBe(false);
    expect(result.error?.message).toBe('Invalid OTP');
    expect(result.error).toHaveProperty('code', 'INVALID_CODE');
    expect(auth.pendingStep()).toBe('otp');
    expect(client.tokens.get()).toBeNull();
    expect((await auth.login({ code: '123456' })).success).toBe(true);
  });

  it('takes a wrong code said in Italian, or a malformed one, for a wrong code too', async () => {
    const refusals = [
      new ApiError({ status: 422, code: 'INVALID_CODE', message: 'Codice non valido.' }),
      new ApiError({
        status: 422,
        code: 'VALIDATION_FAILED',
        message: 'Codice non valido.',
        errors: { code: ['Codice non valido.'] },
      }),
    ];
    for (const refusal of refusals) {
      const { auth } = setup({
        'POST /api/v1/users/oauth/2fa-token': () => {
          throw refusal;
        },
      });
      await auth.passwordStep(credentials);
      const result = await auth.login({ code: '000000' });
      expect(result).toMatchObject({ success: false, error: { code: 'INVALID_CODE' } });
      expect(auth.pendingStep()).toBe('otp');
    }
  });

  it('runs both steps from one call (the CLI)', async () => {
    const { auth, calls } = setup();
    expect(await auth.login({ ...credentials, code: '123456' })).toEqual({
      success: true,
      redirectTo: '/dashboard',
    });
    expect(calls.map((call) => call.path)).toEqual([
      '/api/v1/users/oauth/token',
      '/api/v1/users/oauth/2fa-token',
    ]);
  });

  it('reports wrong credentials and a code without a password step', async () => {
    const wrong = new ApiError({
      status: 400,
      code: 'INVALID_CREDENTIALS',
      message: MESSAGES.invalidCredentials,
    });
    const { auth } = setup({
      'POST /api/v1/users/oauth/token': () => {
        throw wrong;
      },
    });
    expect(await auth.passwordStep(credentials)).toEqual({ success: false, error: wrong });
    expect(auth.pendingStep()).toBeNull();
    const early = await auth.login({ code: '123456' });
    expect(early).toMatchObject({ success: false, redirectTo: '/login' });
    expect(early.error?.message).toBe('Sign in with your e-mail and password first.');
    const noCode = await auth.login(credentials);
    expect(noCode.success).toBe(false);
    expect(noCode.error?.message).toMatch(/^login\(\) needs \{ code \}/);
  });
});

describe('authProvider: first-time 2FA setup', () => {
  it('sends the user to /2fa and signs in once two right codes arrive', async () => {
    const { auth, client, calls } = setup(
      {
        'GET /api/v1/users/2fa-qrcode': {
          data: { qr_code: 'data:x', secret: 'S', otpauth_url: 'o' },
        },
        'POST /api/v1/users/2fa-verify/': (call: RecordedCall) =>
          (call.options.body as { code: string[] }).code[0] === '111111'
            ? { data: { ...FULL, status: 'confirmed', user: USER } }
            : invalidCode(),
      },
      false,
    );
    expect(await auth.passwordStep(credentials)).toEqual({
      success: true,
      next: 'setup',
      redirectTo: '/2fa',
    });
    expect(auth.pendingStep()).toBe('setup');
    expect(await auth.check()).toEqual({ authenticated: false, redirectTo: '/2fa' });
    expect(await auth.login({ code: '123456' })).toMatchObject({
      success: false,
      redirectTo: '/2fa',
    });
    expect(await auth.getIdentity()).toEqual(USER);
    expect((await auth.twoFactorQrCode()).secret).toBe('S');

    const wrong = await auth.verifyTwoFactorSetup(['000000', '000001']);
    expect(wrong.error?.message).toBe('Entered codes are wrong');
    expect(client.tokens.get()).toBeNull();
    expect(await auth.verifyTwoFactorSetup(['111111', '222222'])).toEqual({
      success: true,
      redirectTo: '/dashboard',
    });
    expect(client.tokens.get()?.access_token).toBe('full-access');
    expect(await auth.check()).toEqual({ authenticated: true });

    const firstStepCalls = calls.filter((call) => call.options.bearer === 'first-access');
    expect(firstStepCalls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'GET /api/v1/users/me',
      'GET /api/v1/users/2fa-qrcode',
      'POST /api/v1/users/2fa-verify/',
      'POST /api/v1/users/2fa-verify/',
    ]);
  });
});

describe('authProvider: a 2FA setup survives a reload', () => {
  const memoryStore = () => {
    let value: TStoredFirstStep | null = null;
    return { get: () => value, set: (next: TStoredFirstStep | null) => (value = next) };
  };

  it('keeps the setup step in the store until the first-step token expires', async () => {
    let clock = 1_000_000;
    const store = memoryStore();
    const first = setup({ 'GET /api/v1/users/2fa-qrcode': { data: { secret: 'S' } } }, false);
    const auth = authProvider(first.client, { pendingStore: store, now: () => clock });
    await auth.passwordStep(credentials);
    expect(store.get()).toMatchObject({
      access_token: 'first-access',
      is_2fa_enabled: false,
      expires_at: 1_000_000 + 900_000,
    });

    // A reload: a new provider over the same store still knows the setup and its token.
    const reloaded = authProvider(first.client, { pendingStore: store, now: () => clock });
    expect(reloaded.pendingStep()).toBe('setup');
    expect(await reloaded.check()).toEqual({ authenticated: false, redirectTo: '/2fa' });
    expect((await reloaded.twoFactorQrCode()).secret).toBe('S');

    // After the token's lifetime the reload starts signed out, and the store is emptied.
    clock += 900_000;
    const late = authProvider(first.client, { pendingStore: store, now: () => clock });
    expect(late.pendingStep()).toBeNull();
    expect(await late.check()).toEqual({ authenticated: false, redirectTo: '/login' });
    expect(store.get()).toBeNull();
  });

  it('never stores a code step, and forgets the setup on logout', async () => {
    const store = memoryStore();
    const withCode = setup();
    await authProvider(withCode.client, { pendingStore: store }).passwordStep(credentials);
    expect(store.get()).toBeNull();

    const withSetup = setup({}, false);
    const auth = authProvider(withSetup.client, { pendingStore: store });
    await auth.passwordStep(credentials);
    expect(store.get()).not.toBeNull();
    await auth.logout({});
    expect(store.get()).toBeNull();
  });
});

describe('authProvider: session, logout and errors', () => {
  it('logout ends the session on the server and clears user, company, classrooms and lists', async () => {
    const { auth, client, session, calls } = setup();
    await auth.login({ ...credentials, code: '123456' });
    await Promise.all([session.currentClassroom(), session.learnersLists()]);
    expect(session.knownIdentity()).toEqual(USER);

    expect(await auth.logout({})).toEqual({ success: true, redirectTo: '/login' });
    expect(client.tokens.get()).toBeNull();
    expect(session.knownIdentity()).toBeNull();
    expect(await auth.check()).toEqual({ authenticated: false, redirectTo: '/login' });
    expect(await auth.getIdentity()).toBeNull();

    client.tokens.set({ access_token: 'next', refresh_token: 'next' });
    const before = calls.length;
    await Promise.all([session.currentClassroom(), session.learnersLists()]);
    expect(calls.slice(before).map((call) => call.path)).toEqual([
      '/api/v1/company',
      '/api/v1/learners-lists',
      '/api/v1/companies/co-1/classrooms',
    ]);
    expect(calls.filter((call) => call.path === '/api/v1/users/oauth/logout')).toHaveLength(1);
  });

  it('logout during a half-done login signs the first step out', async () => {
    const { auth, calls } = setup();
    await auth.passwordStep(credentials);
    await auth.logout({});
    expect(auth.pendingStep()).toBeNull();
    expect(calls.at(-1)).toMatchObject({
      path: '/api/v1/users/oauth/logout',
      options: { bearer: 'first-access' },
    });
  });

  it('getIdentity fetches the user once after a reload (tokens stored, nothing cached)', async () => {
    const { auth, client, calls } = setup();
    client.tokens.set({ access_token: 'stored', refresh_token: 'stored' });
    const [a, b] = await Promise.all([auth.getIdentity(), auth.getIdentity()]);
    expect([a, b]).toEqual([USER, USER]);
    expect(calls.map((call) => call.path)).toEqual(['/api/v1/users/me']);
  });

  it('onError logs out only when the shared refresh failed', async () => {
    const { auth } = setup();
    const refreshFailed = new ApiError({
      status: 401,
      code: 'INVALID_REFRESH_TOKEN',
      message: MESSAGES.invalidRefreshToken,
    });
    refreshFailed.reaction = { type: 'logout' };
    const invalid = new ApiError({ status: 422, code: 'VALIDATION_FAILED', message: 'x' });
    invalid.reaction = { type: 'errorModal', message: 'x' };
    expect(await auth.onError(refreshFailed)).toEqual({ logout: true, redirectTo: '/login' });
    expect(await auth.onError(invalid)).toEqual({});
    expect(await auth.onError(new Error('boom'))).toEqual({});
    expect(await auth.onError(undefined)).toEqual({});
  });

  it('takes other routes from the host', async () => {
    const fake = fakeClient({ 'POST /api/v1/users/oauth/logout': { data: {} } }, null);
    const auth = authProvider(fake.client, {
      routes: { login: '/sign-in', afterLogin: '/home', twoFactorSetup: '/setup' },
    });
    expect(await auth.check()).toEqual({ authenticated: false, redirectTo: '/sign-in' });
    expect(await auth.logout({})).toEqual({ success: true, redirectTo: '/sign-in' });
  });
});
