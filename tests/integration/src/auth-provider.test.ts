import {
  ApiError,
  authProvider,
  createHttpClient,
  createSession,
  dataProvider,
  memoryTokenStore,
} from '@ccp/data-provider';
import type { ClientEvents } from '@ccp/data-provider';
import { MESSAGES } from '@ccp/schemas';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { DEMO_PASSWORD, startApi } from './api-server.ts';
import type { RunningApi } from './api-server.ts';

// The auth provider against the real API: both login steps with the demo TOTP, the first-time
// 2FA setup, logout clearing the session, and onError after a failed shared refresh.

let api: RunningApi;

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api.close();
});

type Events = Required<ClientEvents>;

/** A client whose requests are recorded with the bearer they carried. */
const setup = () => {
  const sent: { path: string; authorization: string | null }[] = [];
  const events = {
    toast: vi.fn<Events['toast']>(),
    errorModal: vi.fn<Events['errorModal']>(),
    upgrade: vi.fn<Events['upgrade']>(),
    logout: vi.fn<Events['logout']>(),
  };
  const tokens = memoryTokenStore();
  const client = createHttpClient({
    apiUrl: api.url,
    tokens,
    events,
    fetch: (input, init) => {
      const headers = new Headers(init?.headers);
      sent.push({
        path: new URL(input instanceof Request ? input.url : String(input)).pathname,
        authorization: headers.get('authorization'),
      });
      return globalThis.fetch(input, init);
    },
  });
  const session = createSession(client);
  const auth = authProvider(client, { session });
  const provider = dataProvider(client, { session });
  return { client, tokens, events, sent, session, auth, provider };
};

const nextCode = () => {
  // Each code signs in once per user: move the server clock to the next step first.
  api.clock.advance(30_000);
  return api.totp();
};

describe('two-step login', () => {
  it('holds the first step in memory, refuses a wrong code, then signs in', async () => {
    const { auth, tokens, events, sent } = setup();
    const step = await auth.passwordStep({
      email: 'creator@example.com',
      password: DEMO_PASSWORD,
    });
    expect(step).toEqual({ success: true, next: 'otp' });
    expect(auth.pendingStep()).toBe('otp');
    expect(tokens.get()).toBeNull();
    expect(await auth.check()).toEqual({ authenticated: false, redirectTo: '/login' });

    const code = nextCode();
    const wrong = code === '000000' ? '111111' : '000000';
    const refused = await auth.login({ code: wrong });
    expect(refused.success).toBe(false);
    expect(refused.error?.message).toBe(MESSAGES.otpInvalid);
    expect(events.errorModal).not.toHaveBeenCalled();
    expect(tokens.get()).toBeNull();

    expect(await auth.login({ code })).toEqual({ success: true, redirectTo: '/dashboard' });
    expect(tokens.get()?.access_token).toEqual(expect.any(String));
    expect(await auth.check()).toEqual({ authenticated: true });
    expect(await auth.getIdentity()).toMatchObject({
      email: 'creator@example.com',
      is_2fa_enabled: true,
      company: { name: 'Acme Training' },
    });
    // The identity came with the second step: no /users/me call.
    expect(sent.map((request) => request.path)).toEqual([
      '/api/v1/users/oauth/token',
      '/api/v1/users/oauth/2fa-token',
      '/api/v1/users/oauth/2fa-token',
    ]);
  });

  it('wrong credentials fail quietly with the server text (the login page shows it)', async () => {
    const { auth, events } = setup();
    const result = await auth.passwordStep({ email: 'creator@example.com', password: 'nope' });
    expect(result.success).toBe(false);
    expect(!result.success && result.error.message).toBe(MESSAGES.invalidCredentials);
    expect(events.toast).not.toHaveBeenCalled();
    expect(events.errorModal).not.toHaveBeenCalled();
    expect(auth.pendingStep()).toBeNull();
  });
});

describe('first-time 2FA setup', () => {
  it('sends new.creator to /2fa, then signs in with two consecutive codes', async () => {
    const { auth, tokens } = setup();
    expect(
      await auth.passwordStep({ email: 'new.creator@example.com', password: DEMO_PASSWORD }),
    ).toEqual({ success: true, next: 'setup', redirectTo: '/2fa' });
    expect(await auth.check()).toEqual({ authenticated: false, redirectTo: '/2fa' });
    expect(await auth.getIdentity()).toMatchObject({
      email: 'new.creator@example.com',
      is_2fa_enabled: false,
    });

    const { secret } = await auth.twoFactorQrCode();
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) });
    const at = (step: number) =>
      totp.generate({ timestamp: api.clock.now().getTime() + step * 30_000 });
    const wrong = await auth.verifyTwoFactorSetup([at(0), at(0)]);
    expect(wrong.error?.message).toBe(MESSAGES.otpWrongSetup);
    expect(tokens.get()).toBeNull();

    expect(await auth.verifyTwoFactorSetup([at(0), at(1)])).toEqual({
      success: true,
      redirectTo: '/dashboard',
    });
    expect(tokens.get()).not.toBeNull();
    expect(await auth.check()).toEqual({ authenticated: true });
    expect(await auth.getIdentity()).toMatchObject({ is_2fa_enabled: true });
  });
});

describe('logout and errors', () => {
  it('logout ends the server session, clears the session state, and later calls carry no token', async () => {
    const { auth, provider, session, tokens, sent, events } = setup();
    await auth.login({ email: 'creator@example.com', password: DEMO_PASSWORD, code: nextCode() });
    const before = tokens.get()!.access_token;
    expect((await session.currentClassroom()).name).toBe('Sales Academy');
    await provider.getList({ resource: 'learners-lists' });

    expect(await auth.logout({})).toEqual({ success: true, redirectTo: '/login' });
    expect(tokens.get()).toBeNull();
    expect(session.knownIdentity()).toBeNull();
    expect(await auth.getIdentity()).toBeNull();
    expect(await auth.check()).toEqual({ authenticated: false, redirectTo: '/login' });

    // The old access token is dead on the server.
    const probe = await fetch(`${api.url}/api/v1/users/me`, {
      headers: { authorization: `Bearer ${before}` },
    });
    expect(probe.status).toBe(401);

    const later: unknown = await provider
      .getList({ resource: 'learners' })
      .catch((error: unknown) => error);
    expect(later).toMatchObject({ statusCode: 401, reaction: { type: 'logout' } });
    expect(sent.at(-1)).toEqual({ path: '/api/v1/learners', authorization: null });
    expect(events.logout).toHaveBeenCalledTimes(1);

    // Signing in as someone else does not reuse the first user's classroom.
    await auth.login({ email: 'free@example.com', password: DEMO_PASSWORD, code: api.totp() });
    expect((await session.currentClassroom()).name).toBe('My Workshops');
  });

  it('onError logs out only when the shared refresh failed', async () => {
    const { auth, provider, tokens, events } = setup();
    await auth.login({ email: 'creator@example.com', password: DEMO_PASSWORD, code: nextCode() });

    const invalid: unknown = await provider
      .create({ resource: 'learners-lists', variables: { name: '' } })
      .catch((error: unknown) => error);
    expect(invalid).toMatchObject({ statusCode: 422 });
    expect(await auth.onError(invalid)).toEqual({});

    tokens.set({ access_token: 'expired', refresh_token: 'revoked' });
    const refreshFailed: unknown = await provider
      .getList({ resource: 'learners-lists' })
      .catch((error: unknown) => error);
    expect(refreshFailed).toBeInstanceOf(ApiError);
    expect(tokens.get()).toBeNull();
    expect(events.logout).toHaveBeenCalledTimes(1);
    expect(await auth.onError(refreshFailed)).toEqual({ logout: true, redirectTo: '/login' });
  });
});
