import { REFRESH_PATH, createHttpClient, memoryTokenStore } from '@ccp/data-provider';
import { CSRF_HEADER, MESSAGES } from '@ccp/schemas';
import { describe, expect, it, vi } from 'vitest';

import { LEGACY_TOKENS_STORAGE_KEY, SESSION_FLAG_STORAGE_KEY } from '../config.ts';
import { flaggedTokenStore, sessionResumer } from './cookie-session.ts';
import { forgetLegacyTokens, sessionFlag } from './session-flag.ts';

// Issue 30: the web keeps its access token in memory and its refresh token in the server's
// HttpOnly cookie; the "maybe signed in" flag decides whether a page load asks the cookie.

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** localStorage as a Map. */
const fakeStorage = (entries: Record<string, string> = {}) => {
  const items = new Map(Object.entries(entries));
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => {
      items.set(key, value);
    },
    removeItem: (key: string) => {
      items.delete(key);
    },
  };
};

type TCookie = 'valid' | 'missing' | 'offline';

/**
 * The web's client over a fake server holding (or not) the browser's refresh cookie, as
 * providers/create.ts builds it: memory tokens behind the flag, cookie mode on.
 */
const webClient = (cookie: TCookie, stored: Record<string, string> = {}) => {
  const storage = fakeStorage(stored);
  const flag = sessionFlag(() => storage);
  const refreshCalls: Record<string, string>[] = [];
  const events = { toast: vi.fn(), errorModal: vi.fn(), logout: vi.fn() };
  const fetch: typeof globalThis.fetch = (input, init) => {
    const path = new URL(input instanceof Request ? input.url : input.toString()).pathname;
    if (path !== REFRESH_PATH) return Promise.resolve(json(200, { data: {} }));
    refreshCalls.push({ ...(init?.headers as Record<string, string>) });
    if (cookie === 'offline') return Promise.reject(new TypeError('Failed to fetch'));
    if (cookie === 'missing') {
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
    return Promise.resolve(
      json(200, { data: { access_token: 'access-from-cookie', refresh_token: '' } }),
    );
  };
  const client = createHttpClient({
    apiUrl: 'http://app.test',
    tokens: flaggedTokenStore(memoryTokenStore(), flag),
    refreshCookie: true,
    fetch,
    events,
  });
  return { client, storage, flag, refreshCalls, events, resume: sessionResumer(client, flag) };
};

describe('resuming the session on a page load', () => {
  it('sends nothing for a stranger (no flag)', async () => {
    const web = webClient('valid');
    expect(await web.resume()).toBe(false);
    expect(web.refreshCalls).toEqual([]);
  });

  it('with the flag, asks the cookie once for all callers, with the CSRF header; no token is stored', async () => {
    const web = webClient('valid', { [SESSION_FLAG_STORAGE_KEY]: '1' });
    const answers = await Promise.all([web.resume(), web.resume(), web.resume()]);
    expect(answers).toEqual([true, true, true]);
    expect(web.refreshCalls).toHaveLength(1);
    expect(web.refreshCalls[0]).toMatchObject({ [CSRF_HEADER]: '1' });
    expect(web.client.tokens.get()).toEqual({
      access_token: 'access-from-cookie',
      refresh_token: '',
    });
    // Web Storage holds the flag alone.
    expect([...web.storage.items]).toEqual([[SESSION_FLAG_STORAGE_KEY, '1']]);
    // Signed in, a later check sends nothing.
    expect(await web.resume()).toBe(true);
    expect(web.refreshCalls).toHaveLength(1);
  });

  it('a flag left without its cookie ends quietly signed out, and the next load sends nothing', async () => {
    const web = webClient('missing', { [SESSION_FLAG_STORAGE_KEY]: '1' });
    expect(await web.resume()).toBe(false);
    expect(web.storage.items.has(SESSION_FLAG_STORAGE_KEY)).toBe(false);
    expect(web.events.toast).not.toHaveBeenCalled();
    expect(web.events.errorModal).not.toHaveBeenCalled();
    expect(web.events.logout).not.toHaveBeenCalled();
    expect(await web.resume()).toBe(false);
    expect(web.refreshCalls).toHaveLength(1);
  });

  it('offline, keeps the flag: the next load tries again', async () => {
    const web = webClient('offline', { [SESSION_FLAG_STORAGE_KEY]: '1' });
    expect(await web.resume()).toBe(false);
    expect(web.flag.isSet()).toBe(true);
    expect(await web.resume()).toBe(false);
    expect(web.refreshCalls).toHaveLength(2);
  });
});

describe('the flag follows the tokens', () => {
  it('is raised by a sign-in and cleared by a sign-out (which other tabs hear)', () => {
    const storage = fakeStorage();
    const tokens = flaggedTokenStore(
      memoryTokenStore(),
      sessionFlag(() => storage),
    );
    tokens.set({ access_token: 'a', refresh_token: '' });
    expect(storage.getItem(SESSION_FLAG_STORAGE_KEY)).toBe('1');
    expect(tokens.get()?.access_token).toBe('a');
    tokens.clear();
    expect(storage.getItem(SESSION_FLAG_STORAGE_KEY)).toBeNull();
    expect(tokens.get()).toBeNull();
  });

  it('reads as unset where the browser refuses storage, and refusing to write costs nothing', () => {
    const refused = () => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    };
    const flag = sessionFlag(refused);
    expect(flag.isSet()).toBe(false);
    expect(() => flag.set()).not.toThrow();
    expect(() => flag.clear()).not.toThrow();
  });
});

describe('tokens an earlier version stored', () => {
  it('are removed on start without being read, and do not raise the flag', () => {
    const storage = fakeStorage({
      [LEGACY_TOKENS_STORAGE_KEY]: JSON.stringify({ access_token: 'a', refresh_token: 'r' }),
      'ccp.language': 'de',
    });
    forgetLegacyTokens(() => storage);
    expect([...storage.items]).toEqual([['ccp.language', 'de']]);
    expect(sessionFlag(() => storage).isSet()).toBe(false);
  });
});
