import { describe, expect, it } from 'vitest';

import { REFERENCE_CACHE_TTL_HOURS, createReferenceCache } from './reference-cache.ts';
import { fakeClient } from './test/fake-client.ts';

const HOUR = 60 * 60 * 1000;
const channel = { uuid: 'c1', key: 'slack', name: 'Slack', contact: 'email' };

const setup = () => {
  let time = 1_000_000;
  const clock = { now: () => time, advance: (ms: number) => (time += ms) };
  let version = 0;
  const fake = fakeClient({
    'GET /api/v1/channels': () => ({ data: [{ ...channel, name: `Slack v${++version}` }] }),
    'GET /api/v1/languages': { data: [{ uuid: 'l1', name: 'English', short_name: 'en' }] },
    'GET /api/v1/translations': (call: { options: { query?: unknown } }) => ({
      data: [{ locale: 'en', key: `k:${JSON.stringify(call.options.query ?? null)}`, value: 'v' }],
    }),
    'GET /api/v1/company': { data: { uuid: 'co', name: 'Acme' } },
    'GET /api/v1/users/me/subscriptions': { data: { plan: { key: 'free' } } },
  });
  const cache = createReferenceCache(fake.client, { now: clock.now });
  const count = (path: string) => fake.calls.filter((call) => call.path === path).length;
  return { cache, clock, count, calls: fake.calls };
};

describe('reference cache', () => {
  it('records the spec expiry values in hours', () => {
    expect(REFERENCE_CACHE_TTL_HOURS).toEqual({
      channels: 1,
      languages: 72,
      translations: 72,
      company: 1,
      subscription: 1,
    });
  });

  it('shares one request between concurrent reads', async () => {
    const { cache, count } = setup();
    const [a, b] = await Promise.all([cache.channels(), cache.channels()]);
    expect(count('/api/v1/channels')).toBe(1);
    expect(a).toBe(b);
  });

  it('keeps channels, company and subscription for one hour', async () => {
    const { cache, clock, count } = setup();
    await Promise.all([cache.channels(), cache.company(), cache.subscription()]);
    clock.advance(HOUR - 1);
    const kept = await cache.channels();
    await Promise.all([cache.company(), cache.subscription()]);
    expect(kept[0]?.name).toBe('Slack v1');
    expect([count('/api/v1/channels'), count('/api/v1/company')]).toEqual([1, 1]);
    expect(count('/api/v1/users/me/subscriptions')).toBe(1);

    clock.advance(1);
    const renewed = await cache.channels();
    await Promise.all([cache.company(), cache.subscription()]);
    expect(renewed[0]?.name).toBe('Slack v2');
    expect([count('/api/v1/channels'), count('/api/v1/company')]).toEqual([2, 2]);
    expect(count('/api/v1/users/me/subscriptions')).toBe(2);
  });

  it('keeps languages and translations for 72 hours, translations per locale', async () => {
    const { cache, clock, count, calls } = setup();
    await Promise.all([cache.languages(), cache.translations('en'), cache.translations()]);
    expect(calls.filter((call) => call.path === '/api/v1/translations')).toEqual([
      { method: 'GET', path: '/api/v1/translations', options: { query: { locale: 'en' } } },
      { method: 'GET', path: '/api/v1/translations', options: {} },
    ]);
    clock.advance(72 * HOUR - 1);
    await Promise.all([cache.languages(), cache.translations('en'), cache.translations()]);
    expect([count('/api/v1/languages'), count('/api/v1/translations')]).toEqual([1, 2]);
    clock.advance(1);
    await Promise.all([cache.languages(), cache.translations('en')]);
    expect([count('/api/v1/languages'), count('/api/v1/translations')]).toEqual([2, 3]);
  });

  it('does not keep a failure', async () => {
    let fail = true;
    const fake = fakeClient({
      'GET /api/v1/company': () => {
        if (fail) throw new Error('offline');
        return { data: { uuid: 'co', name: 'Acme' } };
      },
    });
    const cache = createReferenceCache(fake.client);
    await expect(cache.company()).rejects.toThrow('offline');
    fail = false;
    await expect(cache.company()).resolves.toEqual({ uuid: 'co', name: 'Acme' });
    expect(fake.calls).toHaveLength(2);
  });

  it('invalidate() forgets everything, and a read started before it is not kept', async () => {
    let release: () => void = () => {};
    let answered = 0;
    const fake = fakeClient({
      'GET /api/v1/company': () =>
        new Promise((resolve) => {
          answered += 1;
          const body = { data: { uuid: `co${answered}`, name: 'Acme' } };
          release = () => resolve(body);
        }),
    });
    const cache = createReferenceCache(fake.client);
    const before = cache.company();
    cache.invalidate();
    release();
    await expect(before).resolves.toEqual({ uuid: 'co1', name: 'Acme' });
    const after = cache.company();
    release();
    await expect(after).resolves.toEqual({ uuid: 'co2', name: 'Acme' });
    await expect(cache.company()).resolves.toEqual({ uuid: 'co2', name: 'Acme' });
    expect(fake.calls).toHaveLength(2);
  });

  it('invalidate(key) forgets only that kind', async () => {
    const { cache, count } = setup();
    await Promise.all([cache.channels(), cache.subscription()]);
    cache.invalidate('subscription');
    await Promise.all([cache.channels(), cache.subscription()]);
    expect([count('/api/v1/channels'), count('/api/v1/users/me/subscriptions')]).toEqual([1, 2]);
  });
});
