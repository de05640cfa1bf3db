import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
  ApiError,
  createHttpClient,
  currentUser,
  memoryTokenStore,
  otpStep,
  passwordStep,
  signOut,
} from '@ccp/data-provider';
import type { ClientEvents } from '@ccp/data-provider';
import { MESSAGES } from '@ccp/schemas';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { DEMO_PASSWORD, startApi } from './api-server.ts';
import type { RunningApi } from './api-server.ts';

// The shared HTTP client against the real API: the spec §7 reaction to each answer, one refresh
// for any number of concurrent 401s, and logout when that refresh fails.

let api: RunningApi;

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api.close();
});

type Events = Required<ClientEvents>;

const setup = (apiUrl = api.url, language?: string) => {
  const calls: string[] = [];
  const events = {
    toast: vi.fn<Events['toast']>(),
    errorModal: vi.fn<Events['errorModal']>(),
    upgrade: vi.fn<Events['upgrade']>(),
    logout: vi.fn<Events['logout']>(),
  };
  const tokens = memoryTokenStore();
  const client = createHttpClient({
    apiUrl,
    tokens,
    events,
    ...(language ? { language: () => language } : {}),
    fetch: (input, init) => {
      calls.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
      return globalThis.fetch(input, init);
    },
  });
  return { client, tokens, events, calls };
};

/** Both sign-in steps; each sign-in moves the server clock one TOTP step so codes never repeat. */
const signIn = async (
  client: ReturnType<typeof setup>['client'],
  username = 'creator@example.com',
) => {
  api.clock.advance(30_000);
  const first = await passwordStep(client, { username, password: DEMO_PASSWORD });
  const user = await otpStep(client, first, api.totp());
  if (!user) throw new Error('sign-in failed');
  return user;
};

const rejection = async (promise: Promise<unknown>): Promise<ApiError> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
};

describe('401: refresh once, shared by concurrent calls', () => {
  it('answers five concurrent calls with an expired access token after exactly one refresh', async () => {
    const { client, tokens, events, calls } = setup();
    await signIn(client);
    const signedIn = tokens.get()!;
    tokens.set({ ...signedIn, access_token: 'expired-or-revoked' });

    const users = await Promise.all(Array.from({ length: 5 }, () => currentUser(client)));

    expect(users.map((user) => user.email)).toEqual(Array(5).fill('creator@example.com'));
    expect(calls.filter((path) => path === '/api/v1/users/oauth/refresh')).toHaveLength(1);
    expect(tokens.get()!.refresh_token).not.toBe(signedIn.refresh_token);
    expect(Object.values(events).every((event) => event.mock.calls.length === 0)).toBe(true);
  });

  it('two holders presenting one refresh token at the same instant (no lock: a reload, two tabs) both stay signed in', async () => {
    const one = setup();
    await signIn(one.client);
    const signedIn = one.tokens.get()!;
    const two = setup();
    for (const holder of [one, two]) holder.tokens.set({ ...signedIn, access_token: 'expired' });

    const users = await Promise.all([currentUser(one.client), currentUser(two.client)]);

    expect(users.map((user) => user.email)).toEqual(Array(2).fill('creator@example.com'));
    // The server answered both with the one pair the token was rotated into.
    const pair = one.tokens.get()!;
    expect(two.tokens.get()).toMatchObject({
      access_token: pair.access_token,
      refresh_token: pair.refresh_token,
    });
    expect(pair.refresh_token).not.toBe(signedIn.refresh_token);
    for (const { events } of [one, two]) {
      expect(Object.values(events).every((event) => event.mock.calls.length === 0)).toBe(true);
    }
    // The sign-in goes on from that pair.
    const next = await one.client.refresh();
    expect(next.refresh_token).not.toBe(pair.refresh_token);
    expect((await currentUser(one.client)).email).toBe('creator@example.com');
  });

  it('logs out once when the shared refresh fails, and rejects every waiting call', async () => {
    const { client, tokens, events, calls } = setup();
    await signIn(client);
    tokens.set({ access_token: 'expired', refresh_token: 'revoked-refresh-token' });

    const errors = await Promise.all(
      Array.from({ length: 3 }, () => rejection(currentUser(client))),
    );

    expect(calls.filter((path) => path === '/api/v1/users/oauth/refresh')).toHaveLength(1);
    expect(errors.map((error) => error.reaction?.type)).toEqual(['logout', 'logout', 'logout']);
    expect(errors[0]!.message).toBe(MESSAGES.invalidRefreshToken);
    expect(tokens.get()).toBeNull();
    expect(events.logout).toHaveBeenCalledTimes(1);
    expect(events.toast).not.toHaveBeenCalled();
  });

  it('logs out without calling refresh when there is no refresh token', async () => {
    const { client, events, calls } = setup();
    const error = await rejection(currentUser(client));
    expect(error.status).toBe(401);
    expect(calls).not.toContain('/api/v1/users/oauth/refresh');
    expect(events.logout).toHaveBeenCalledTimes(1);
  });

  it('ignores a 401 on logout', async () => {
    const { client, tokens, events } = setup();
    tokens.set({ access_token: 'dead', refresh_token: 'dead' });
    await signOut(client);
    expect(tokens.get()).toBeNull();
    expect(Object.values(events).every((event) => event.mock.calls.length === 0)).toBe(true);
  });
});

describe('the reaction to each answer (spec §7)', () => {
  it('wrong credentials: silent (the login page says so)', async () => {
    const { client, events } = setup();
    const error = await rejection(
      passwordStep(client, { username: 'creator@example.com', password: 'wrong-password' }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toBe('The user credentials were incorrect.');
    expect(error.reaction).toEqual({ type: 'silent' });
    expect(Object.values(events).every((event) => event.mock.calls.length === 0)).toBe(true);
  });

  it('404: a toast with the server message', async () => {
    const { client, events } = setup();
    await signIn(client);
    await rejection(client.get('/api/v1/learners/00000000-0000-4000-8000-000000000000'));
    expect(events.toast).toHaveBeenCalledWith('Not found.', {
      type: 'toast',
      message: 'Not found.',
    });
  });

  it('422: the error modal with the server text and the field errors on the error', async () => {
    const { client, events } = setup();
    await signIn(client);
    const error = await rejection(
      client.post('/api/v1/learners', {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'not-an-email',
        channels: ['slack'],
        locale: 'en',
      }),
    );
    expect(error.statusCode).toBe(422);
    expect(error.errors?.email).toEqual(['The email must be valid.']);
    expect(events.errorModal).toHaveBeenCalledWith('The email must be valid.', {
      type: 'errorModal',
      message: 'The email must be valid.',
    });
  });

  it('403: the error modal with the server text', async () => {
    const { client, events } = setup();
    const first = await passwordStep(client, {
      username: 'creator@example.com',
      password: DEMO_PASSWORD,
    });
    // A first-step token on a route that needs a full sign-in.
    await rejection(client.get('/api/v1/company', { bearer: first.access_token }));
    expect(events.errorModal).toHaveBeenCalledWith(MESSAGES.twoFactorRequired, {
      type: 'errorModal',
      message: MESSAGES.twoFactorRequired,
    });
  });

  it('"Too Many Attempts.": the slow-down modal', async () => {
    const { client, events } = setup();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await rejection(passwordStep(client, { username: 'member@example.com', password: 'nope' }));
    }
    const error = await rejection(
      passwordStep(client, { username: 'member@example.com', password: DEMO_PASSWORD }),
    );
    expect(error.status).toBe(429);
    expect(events.errorModal).toHaveBeenCalledWith(
      'Wow, slow down. Too many requests. Please wait and try again.',
      {
        type: 'errorModal',
        message: 'Wow, slow down. Too many requests. Please wait and try again.',
        key: 'slowDown',
      },
    );
    api.clock.advance(61_000);
  });

  it('no response: a toast with the network error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { client, events } = setup(`http://127.0.0.1:${port}`);
    const error = await rejection(client.get('/api/v1/company', { auth: false }));
    expect(error.isNetworkError).toBe(true);
    expect(events.toast).toHaveBeenCalledWith(
      'Network error. Failed to receive response from server.',
      {
        type: 'toast',
        message: 'Network error. Failed to receive response from server.',
        key: 'networkError',
      },
    );
  });

  it('5xx: a toast with the internal server error text, and the call still settles', async () => {
    // The real API never fails on purpose; a local server answers 503 in the API's error shape.
    const failing = createServer((_request, response) => {
      response.writeHead(503, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { status: 503, code: 'SERVICE_UNAVAILABLE', message: 'down' } }),
      );
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    const { port } = failing.address() as AddressInfo;
    const { client, events } = setup(`http://127.0.0.1:${port}`);
    const error = await rejection(client.get('/api/v1/company', { auth: false }));
    expect(error.status).toBe(503);
    expect(events.toast).toHaveBeenCalledWith(
      'Internal server error happened. Please try again later.',
      {
        type: 'toast',
        message: 'Internal server error happened. Please try again later.',
        key: 'internalServerError',
      },
    );
    await new Promise<void>((resolve) => failing.close(() => resolve()));
  });
});

describe('the language: the API answers in the one the client sends', () => {
  it('an Italian client gets the 404 and the field errors of a 422 in Italian', async () => {
    const { client, events } = setup(api.url, 'it');
    await signIn(client);
    const missing = await rejection(
      client.get('/api/v1/learners/00000000-0000-4000-8000-000000000000'),
    );
    expect(missing).toMatchObject({ code: 'NOT_FOUND', message: 'Non trovato.' });
    expect(events.toast).toHaveBeenCalledWith('Non trovato.', {
      type: 'toast',
      message: 'Non trovato.',
    });
    const invalid = await rejection(
      client.post('/api/v1/learners', {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'not-an-email',
        channels: ['slack'],
        locale: 'en',
      }),
    );
    expect(invalid.errors).toEqual({ email: ["L'indirizzo e-mail deve essere valido."] });
  });

  it('a German client still gets the slow-down modal: it is decided by code', async () => {
    const { client, events } = setup(api.url, 'de');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await rejection(passwordStep(client, { username: 'member@example.com', password: 'nope' }));
    }
    const error = await rejection(
      passwordStep(client, { username: 'member@example.com', password: DEMO_PASSWORD }),
    );
    expect(error.code).toBe('TOO_MANY_ATTEMPTS');
    expect(error.message).not.toBe(MESSAGES.tooManyAttempts);
    expect(events.errorModal).toHaveBeenCalledWith(MESSAGES.slowDown, {
      type: 'errorModal',
      message: MESSAGES.slowDown,
      key: 'slowDown',
    });
    api.clock.advance(61_000);
  });
});
