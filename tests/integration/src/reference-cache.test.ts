import {
  authProvider,
  createHttpClient,
  createReferenceCache,
  createSession,
  memoryTokenStore,
} from '@ccp/data-provider';
import {
  ZChannelSchema,
  ZCompanySchema,
  ZLanguageSchema,
  ZSubscriptionSchema,
  ZTranslationSchema,
} from '@ccp/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DEMO_PASSWORD, startApi } from './api-server.ts';
import type { RunningApi } from './api-server.ts';

// The reference data cache against the real API: the answers parse with the shared schemas,
// concurrent reads share one request, entries expire after their hours, logout forgets them.

const HOUR = 60 * 60 * 1000;
let api: RunningApi;

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api.close();
});

const setup = async () => {
  const paths: string[] = [];
  const client = createHttpClient({
    apiUrl: api.url,
    tokens: memoryTokenStore(),
    fetch: (input, init) => {
      paths.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
      return globalThis.fetch(input, init);
    },
  });
  let time = 0;
  const clock = { now: () => time, advance: (ms: number) => (time += ms) };
  const cache = createReferenceCache(client, { now: clock.now });
  const session = createSession(client, { cache });
  const auth = authProvider(client, { session });
  api.clock.advance(30_000);
  const login = await auth.login({
    email: 'creator@example.com',
    password: DEMO_PASSWORD,
    code: api.totp(),
  });
  expect(login.success).toBe(true);
  paths.length = 0;
  const count = (path: string) => paths.filter((seen) => seen === path).length;
  return { cache, clock, auth, count, paths };
};

describe('reference cache against the API', () => {
  it('answers the API’s reference data, one request for concurrent reads', async () => {
    const { cache, paths } = await setup();
    const [channels, again, languages, translations, company, subscription] = await Promise.all([
      cache.channels(),
      cache.channels(),
      cache.languages(),
      cache.translations('de'),
      cache.company(),
      cache.subscription(),
    ]);
    expect(again).toBe(channels);
    expect(channels.map((channel) => ZChannelSchema.parse(channel).key)).toHaveLength(5);
    expect(languages.map((language) => ZLanguageSchema.parse(language).short_name)).toEqual([
      'en',
      'it',
      'de',
    ]);
    expect(translations.length).toBeGreaterThan(0);
    expect(translations.every((text) => ZTranslationSchema.parse(text).locale === 'de')).toBe(true);
    expect(ZCompanySchema.parse(company).name).toBe('Acme Training');
    expect(ZSubscriptionSchema.parse(subscription).plan.key).toEqual(expect.any(String));
    expect(paths.sort()).toEqual([
      '/api/v1/channels',
      '/api/v1/company',
      '/api/v1/languages',
      '/api/v1/translations',
      '/api/v1/users/me/subscriptions',
    ]);
  });

  it('refetches channels, company and subscription after 1 hour; languages and translations after 72', async () => {
    const { cache, clock, count } = await setup();
    const readAll = () =>
      Promise.all([
        cache.channels(),
        cache.company(),
        cache.subscription(),
        cache.languages(),
        cache.translations(),
      ]);
    const counts = () =>
      [
        '/api/v1/channels',
        '/api/v1/company',
        '/api/v1/users/me/subscriptions',
        '/api/v1/languages',
        '/api/v1/translations',
      ].map(count);

    await readAll();
    clock.advance(HOUR - 1);
    await readAll();
    expect(counts()).toEqual([1, 1, 1, 1, 1]);
    clock.advance(1);
    await readAll();
    expect(counts()).toEqual([2, 2, 2, 1, 1]);
    clock.advance(71 * HOUR);
    await readAll();
    expect(counts()).toEqual([3, 3, 3, 2, 2]);
  });

  it('logout forgets the cached data', async () => {
    const { cache, auth, count } = await setup();
    await cache.company();
    await auth.logout({});
    api.clock.advance(30_000);
    await auth.login({ email: 'free@example.com', password: DEMO_PASSWORD, code: api.totp() });
    expect((await cache.company()).name).toBe('Freelance Trainer');
    expect(count('/api/v1/company')).toBe(2);
  });
});
