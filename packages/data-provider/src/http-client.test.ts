import { CSRF_HEADER, MESSAGES, PLATFORM, REFRESH_COOKIE_HEADER } from '@ccp/schemas';
import { describe, expect, it, vi } from 'vitest';

import { ApiError } from './api-error.ts';
import { signOut } from './auth-api.ts';
import { LOGOUT_PATH, REFRESH_PATH, createHttpClient } from './http-client.ts';
import type { ClientEvents, RefreshLock } from './http-client.ts';
import { memoryTokenStore } from './token-store.ts';

// The client with a fake fetch: the user's language goes out as Accept-Language on every
// request, and the reactions reach the host with the key of the client's own texts.

type Sent = { url: string; headers: Record<string, string> };

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

const setup = (answer: () => Response, language?: () => string | undefined) => {
  const sent: Sent[] = [];
  const events = { toast: vi.fn(), errorModal: vi.fn(), upgrade: vi.fn(), logout: vi.fn() };
  const client = createHttpClient({
    apiUrl: 'http://api.test',
    tokens: memoryTokenStore({ access_token: 'access', refresh_token: 'refresh' }),
    events: events satisfies ClientEvents,
    ...(language ? { language } : {}),
    fetch: (input, init) => {
      sent.push({
        url: input instanceof Request ? input.url : input.toString(),
        headers: { ...(init?.headers as Record<string, string>) },
      });
      return Promise.resolve(answer());
    },
  });
  return { client, sent, events };
};

const failureOf = async (promise: Promise<unknown>): Promise<ApiError> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
};

describe('createHttpClient: the language', () => {
  it('sends the current language as Accept-Language, read on every request', async () => {
    let language = 'it';
    const { client, sent } = setup(
      () => json(200, { data: [] }),
      () => language,
    );
    await client.get('/api/v1/channels');
    language = 'de';
    await client.get('/api/v1/channels');
    expect(sent.map((request) => request.headers['accept-language'])).toEqual(['it', 'de']);
  });

  it('sends no Accept-Language without a language (the server answers English)', async () => {
    const { client, sent } = setup(() => json(200, { data: [] }));
    await client.get('/api/v1/channels');
    expect(sent[0]?.headers).not.toHaveProperty('accept-language');
  });
});

describe('createHttpClient: reactions reach the host with their text', () => {
  it('shows a translated server message as sent', async () => {
    const { client, events } = setup(
      () => json(404, { error: { status: 404, code: 'NOT_FOUND', message: 'Non trovato.' } }),
      () => 'it',
    );
    const error = await failureOf(client.get('/api/v1/learners/x'));
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'Non trovato.' });
    expect(events.toast).toHaveBeenCalledWith('Non trovato.', {
      type: 'toast',
      message: 'Non trovato.',
    });
  });

  it('opens the slow-down modal for TOO_MANY_ATTEMPTS in any language, with its key', async () => {
    const { client, events } = setup(
      () =>
        json(429, {
          error: { status: 429, code: 'TOO_MANY_ATTEMPTS', message: 'Zu viele Versuche.' },
        }),
      () => 'de',
    );
    await failureOf(client.post('/api/v1/users/oauth/token', {}, { auth: false }));
    expect(events.errorModal).toHaveBeenCalledWith(MESSAGES.slowDown, {
      type: 'errorModal',
      message: MESSAGES.slowDown,
      key: 'slowDown',
    });
  });

  it('keys its own network error text', async () => {
    const { client, events } = setup(() => {
      throw new TypeError('fetch failed');
    });
    const error = await failureOf(client.get('/api/v1/channels'));
    expect(error.code).toBe('NETWORK_ERROR');
    expect(events.toast).toHaveBeenCalledWith(MESSAGES.networkError, {
      type: 'toast',
      message: MESSAGES.networkError,
      key: 'networkError',
    });
  });

  it('reads the text of an error body without a code, and reacts to it by the spec text', async () => {
    const { client, events } = setup(() =>
      json(429, { error: { status: 429, message: MESSAGES.tooManyAttempts } }),
    );
    const error = await failureOf(client.get('/api/v1/channels'));
    expect(error).toMatchObject({ code: 'HTTP_429', message: MESSAGES.tooManyAttempts });
    expect(events.errorModal).toHaveBeenCalledWith(
      MESSAGES.slowDown,
      expect.objectContaining({ key: 'slowDown' }),
    );
  });
});

describe('bodies the caller encoded, and text answers', () => {
  it('sends a raw body with its content type and length, and answers CSV as text', async () => {
    const inits: RequestInit[] = [];
    const client = createHttpClient({
      apiUrl: 'http://api.test',
      tokens: memoryTokenStore({ access_token: 'access', refresh_token: 'refresh' }),
      fetch: (_input, init) => {
        inits.push(init ?? {});
        return Promise.resolve(new Response('line,errors\r\n', { status: 200 }));
      },
    });
    const text = await client.post<string>('/api/v1/learners/imports', undefined, {
      raw: { body: 'multipart…', contentType: 'multipart/form-data; boundary=x', length: 10 },
      responseType: 'text',
    });
    expect(text).toBe('line,errors\r\n');
    expect(inits[0]).toMatchObject({
      method: 'POST',
      body: 'multipart…',
      duplex: 'half',
      headers: {
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': '10',
        authorization: 'Bearer access',
      },
    });
  });
});

describe('timeouts and retries (the CLI’s --timeout)', () => {
  const client = (answers: (() => Response)[], extra: Record<string, unknown> = {}) => {
    const methods: string[] = [];
    const waits: number[] = [];
    const events = { toast: vi.fn() };
    const http = createHttpClient({
      apiUrl: 'http://api.test',
      tokens: memoryTokenStore({ access_token: 'access', refresh_token: 'refresh' }),
      events,
      retry: {
        attempts: 3,
        baseDelayMs: 100,
        maxDelayMs: 5000,
        sleep: (ms) => {
          waits.push(ms);
          return Promise.resolve();
        },
      },
      fetch: (_input, init) => {
        methods.push(init?.method ?? 'GET');
        const next = answers.shift();
        if (!next) throw new Error('no more answers');
        return Promise.resolve(next());
      },
      ...extra,
    });
    return { http, methods, waits, events };
  };
  const refused = () => {
    throw new TypeError('fetch failed');
  };

  it('retries a GET after a refused connection and a 503, waiting as Retry-After asks', async () => {
    const { http, waits } = client([
      refused,
      () => new Response('busy', { status: 503, headers: { 'retry-after': '2' } }),
      () => json(200, { data: 'ok' }),
    ]);
    expect(await http.get('/api/v1/channels')).toEqual({ data: 'ok' });
    expect(waits).toEqual([100, 2000]);
  });

  it('gives up after the attempts with the network error, backing off exponentially', async () => {
    const { http, waits, events } = client([refused, refused, refused, refused]);
    expect((await failureOf(http.get('/api/v1/channels'))).code).toBe('NETWORK_ERROR');
    expect(waits).toEqual([100, 200, 400]);
    expect(events.toast).toHaveBeenCalledTimes(1);
  });

  it('never retries a POST (it may have been done)', async () => {
    const { http, methods } = client([() => json(502, {}), () => json(200, {})]);
    expect((await failureOf(http.post('/api/v1/learners', {}))).status).toBe(502);
    expect(methods).toEqual(['POST']);
  });

  it('fails with TIMEOUT when the server accepts and never answers', async () => {
    const http = createHttpClient({
      apiUrl: 'http://api.test',
      tokens: memoryTokenStore(),
      timeoutMs: 50,
      events: { toast: vi.fn() },
      fetch: (_input, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error));
        }),
    });
    const started = Date.now();
    const error = await failureOf(http.get('/api/v1/channels'));
    expect(error).toMatchObject({ code: 'TIMEOUT', message: MESSAGES.responseTimeout });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('says so when another server answers (a web page instead of the API’s JSON)', async () => {
    const page = () =>
      new Response('<!doctype html><title>Hi</title>', {
        status: 200,
        headers: { 'content-type': 'text/html' },
      });
    const { http, events } = client([
      page,
      () => new Response('<html>', { status: 404, headers: { 'content-type': 'text/html' } }),
    ]);
    expect((await failureOf(http.get('/api/v1/users/me'))).code).toBe('NOT_CCP_API');
    expect((await failureOf(http.get('/api/v1/users/me'))).code).toBe('NOT_CCP_API');
    expect(events.toast).toHaveBeenCalledWith(
      MESSAGES.notCcpApi,
      expect.objectContaining({ key: 'notCcpApi' }),
    );
  });
});

describe('the refresh token in the browser’s cookie (issue 30)', () => {
  /**
   * A fake server whose refresh call answers only with the CSRF header and no body token; without
   * a cookie (`cookie: false`) it answers as the API does when neither token is there.
   */
  const cookieServer = ({ cookie = true } = {}) => {
    const sent: {
      path: string;
      headers: Record<string, string>;
      body: unknown;
      keepalive?: boolean;
    }[] = [];
    let issued = 0;
    const fetch: typeof globalThis.fetch = (input, init) => {
      const path = new URL(input instanceof Request ? input.url : input.toString()).pathname;
      const headers = { ...(init?.headers as Record<string, string>) };
      const body = init?.body ? (JSON.parse(init.body as string) as unknown) : undefined;
      sent.push({ path, headers, body, ...(init?.keepalive ? { keepalive: true } : {}) });
      if (path === REFRESH_PATH) {
        if (headers[CSRF_HEADER] !== '1') {
          return Promise.resolve(
            json(403, { error: { code: 'FORBIDDEN', message: MESSAGES.csrfHeaderMissing } }),
          );
        }
        if (!cookie) {
          return Promise.resolve(
            json(422, {
              error: {
                code: 'VALIDATION_FAILED',
                message: MESSAGES.invalidDataNoInfo,
                errors: { refresh_token: [MESSAGES.required] },
              },
            }),
          );
        }
        issued += 1;
        return Promise.resolve(
          json(200, { data: { access_token: `access-${issued}`, refresh_token: '' } }),
        );
      }
      const fresh = headers.authorization === `Bearer access-${issued}` && issued > 0;
      return Promise.resolve(
        fresh
          ? json(200, { data: { ok: true } })
          : json(401, { error: { code: 'UNAUTHENTICATED', message: MESSAGES.unauthenticated } }),
      );
    };
    return { sent, fetch };
  };

  /** A client in cookie mode on `server`, with its token store and event spies. */
  const inCookieMode = (server: ReturnType<typeof cookieServer>, tokens = memoryTokenStore()) => {
    const events = { toast: vi.fn(), errorModal: vi.fn(), logout: vi.fn() };
    const client = createHttpClient({
      apiUrl: 'http://api.test',
      tokens,
      events,
      fetch: server.fetch,
      refreshCookie: true,
    });
    return { client, tokens, events };
  };

  it('after a reload (no tokens held) refreshes from the cookie with the CSRF header, no body token', async () => {
    const server = cookieServer();
    const tokens = memoryTokenStore();
    const client = createHttpClient({
      apiUrl: 'http://api.test',
      tokens,
      fetch: server.fetch,
      refreshCookie: true,
    });
    await expect(client.get('/api/v1/users/me')).resolves.toEqual({ data: { ok: true } });
    const refreshCall = server.sent.find((call) => call.path === REFRESH_PATH)!;
    expect(refreshCall.headers).toMatchObject({ [CSRF_HEADER]: '1', [REFRESH_COOKIE_HEADER]: '1' });
    expect(refreshCall.body).toEqual({ platform: PLATFORM });
    // A reload during the refresh does not lose the rotated cookie (the browser keeps the request).
    expect(refreshCall.keepalive).toBe(true);
    // Only the access token is held: nothing a script could take for a month.
    expect(tokens.get()).toEqual({ access_token: 'access-1', refresh_token: '' });
    // Concurrent expired calls share one refresh.
    tokens.set({ access_token: 'expired', refresh_token: '' });
    await Promise.all([client.get('/api/v1/a'), client.get('/api/v1/b')]);
    expect(server.sent.filter((call) => call.path === REFRESH_PATH)).toHaveLength(2);
  });

  it('asks for the cookie on sign-in calls; without cookie mode the body flow is unchanged', async () => {
    const server = cookieServer();
    const cookieClient = createHttpClient({
      apiUrl: 'http://api.test',
      tokens: memoryTokenStore(),
      fetch: server.fetch,
      refreshCookie: true,
    });
    await cookieClient
      .post('/api/v1/users/oauth/2fa-token', {}, { quiet: () => true })
      .catch(() => undefined);
    expect(server.sent.at(-1)!.headers[REFRESH_COOKIE_HEADER]).toBe('1');

    const bodyClient = createHttpClient({
      apiUrl: 'http://api.test',
      tokens: memoryTokenStore({ access_token: 'old', refresh_token: 'refresh-1' }),
      fetch: server.fetch,
    });
    const refused = await failureOf(bodyClient.refresh());
    expect(refused.status).toBe(403);
    const last = server.sent.at(-1)!;
    expect(last.body).toEqual({ refresh_token: 'refresh-1', platform: PLATFORM });
    expect(last.headers[CSRF_HEADER]).toBeUndefined();
    expect(last.headers[REFRESH_COOKIE_HEADER]).toBeUndefined();
  });

  it('signs out after a long pause: the expired access token is refreshed from the cookie first, so the server clears the cookie', async () => {
    const server = cookieServer();
    const { client, tokens, events } = inCookieMode(
      server,
      memoryTokenStore({ access_token: 'expired', refresh_token: '' }),
    );
    await signOut(client);
    expect(server.sent.map((call) => call.path)).toEqual([LOGOUT_PATH, REFRESH_PATH, LOGOUT_PATH]);
    expect(server.sent.at(-1)!.headers.authorization).toBe('Bearer access-1');
    expect(tokens.get()).toBeNull();
    expect(events.logout).not.toHaveBeenCalled();
  });

  it('a sign-out whose cookie is gone already ends quietly, signed out', async () => {
    const server = cookieServer({ cookie: false });
    const { client, tokens, events } = inCookieMode(
      server,
      memoryTokenStore({ access_token: 'expired', refresh_token: '' }),
    );
    await signOut(client);
    expect(server.sent.map((call) => call.path)).toEqual([LOGOUT_PATH, REFRESH_PATH]);
    expect(tokens.get()).toBeNull();
    expect(events.errorModal).not.toHaveBeenCalled();
    expect(events.toast).not.toHaveBeenCalled();
    expect(events.logout).not.toHaveBeenCalled();
  });

  it('a call with no session at all (no token held, no cookie) ends as a sign-out, not as invalid data', async () => {
    const server = cookieServer({ cookie: false });
    const { client, events } = inCookieMode(server);
    const error = await failureOf(client.get('/api/v1/learners'));
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect(events.logout).toHaveBeenCalledTimes(1);
    expect(events.errorModal).not.toHaveBeenCalled();
  });
});

describe('holders of the same tokens refresh once (tabs, ccp processes)', () => {
  /**
   * A server that rotates refresh tokens like the API: each refresh spends the presented token,
   * and a spent one answers 401 (where the API, after its grace, also ends the sign-in).
   */
  const rotatingServer = () => {
    let issued = 0;
    const refreshes: string[] = [];
    const fetch: typeof globalThis.fetch = (input, init) => {
      const path = new URL(input instanceof Request ? input.url : input.toString()).pathname;
      const headers = init?.headers as Record<string, string>;
      if (path === REFRESH_PATH) {
        const { refresh_token: presented } = JSON.parse(init!.body as string) as {
          refresh_token: string;
        };
        refreshes.push(presented);
        if (presented !== `refresh-${issued}`) {
          return Promise.resolve(
            json(401, {
              error: { code: 'INVALID_REFRESH_TOKEN', message: MESSAGES.invalidRefreshToken },
            }),
          );
        }
        issued += 1;
        return Promise.resolve(
          json(200, {
            data: { access_token: `access-${issued}`, refresh_token: `refresh-${issued}` },
          }),
        );
      }
      return Promise.resolve(
        headers.authorization === `Bearer access-${issued}` && issued > 0
          ? json(200, { data: { ok: true } })
          : json(401, { error: { code: 'UNAUTHENTICATED', message: MESSAGES.unauthenticated } }),
      );
    };
    return { fetch, refreshes };
  };

  /** One lock shared by the holders, as the Web Lock or the CLI's lock file is. */
  const sharedLock = (): RefreshLock => {
    let tail: Promise<unknown> = Promise.resolve();
    return <T>(task: () => Promise<T>) => {
      const run = tail.then(task);
      tail = run.catch(() => undefined);
      return run;
    };
  };

  it('concurrent expired calls of one client share one refresh', async () => {
    const server = rotatingServer();
    const client = createHttpClient({
      apiUrl: 'http://api.test',
      tokens: memoryTokenStore({ access_token: 'expired', refresh_token: 'refresh-0' }),
      fetch: server.fetch,
    });
    const answers = await Promise.all(
      ['/a', '/b', '/c', '/d'].map((path) => client.get(`/api/v1${path}`)),
    );
    expect(answers).toEqual(Array(4).fill({ data: { ok: true } }));
    expect(server.refreshes).toEqual(['refresh-0']);
  });

  it('two holders of one store taking turns: the second uses the first one’s new pair, never the spent token', async () => {
    const server = rotatingServer();
    const tokens = memoryTokenStore({ access_token: 'expired', refresh_token: 'refresh-0' });
    const refreshLock = sharedLock();
    const holders = [1, 2].map(() =>
      createHttpClient({ apiUrl: 'http://api.test', tokens, fetch: server.fetch, refreshLock }),
    );
    const answers = await Promise.all(holders.map((client) => client.get('/api/v1/learners')));
    expect(answers).toEqual([{ data: { ok: true } }, { data: { ok: true } }]);
    expect(server.refreshes).toEqual(['refresh-0']);
    expect(tokens.get()).toMatchObject({ access_token: 'access-1', refresh_token: 'refresh-1' });
  });
});
