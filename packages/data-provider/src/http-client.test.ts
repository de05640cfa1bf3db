import { MESSAGES } from '@ccp/schemas';
import { describe, expect, it, vi } from 'vitest';

import { ApiError } from './api-error.ts';
import { createHttpClient } from './http-client.ts';
import type { ClientEvents } from './http-client.ts';
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
