import { PLATFORM } from '@ccp/schemas';

import type { HttpClient, RequestOptions } from '../http-client.ts';
import { memoryTokenStore } from '../token-store.ts';
import type { TTokens } from '../token-store.ts';

// A stand-in HttpClient for unit tests: it records every call exactly as the providers make it
// and answers from a route table ("GET /api/v1/learners" → body, or a function of the call).

export type RecordedCall = { method: string; path: string; options: RequestOptions };
/** A body, or a function of the call answering one (it may throw an ApiError). */
export type FakeAnswer = unknown;

export const FAKE_API_URL = 'http://api.test';

export const fakeClient = (
  routes: Record<string, FakeAnswer>,
  tokens: TTokens | null = { access_token: 'access', refresh_token: 'refresh' },
) => {
  const calls: RecordedCall[] = [];
  const request = async <T>(method: string, path: string, options: RequestOptions = {}) => {
    const call = { method: method.toUpperCase(), path, options };
    calls.push(call);
    const key = `${call.method} ${path}`;
    if (!(key in routes)) throw new Error(`Unexpected call ${key}`);
    const answer = routes[key];
    const body: unknown =
      typeof answer === 'function'
        ? await (answer as (call: RecordedCall) => unknown)(call)
        : answer;
    return body as T;
  };
  const client: HttpClient = {
    apiUrl: FAKE_API_URL,
    tokens: memoryTokenStore(tokens),
    platform: PLATFORM,
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, body, options) => request('POST', path, { ...options, body }),
    put: (path, body, options) => request('PUT', path, { ...options, body }),
    patch: (path, body, options) => request('PATCH', path, { ...options, body }),
    delete: (path, options) => request('DELETE', path, options),
    refresh: () => Promise.reject(new Error('The fake client does not refresh.')),
  };
  return { client, calls };
};
