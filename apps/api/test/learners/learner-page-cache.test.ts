import { afterEach, describe, expect, it, vi } from 'vitest';

import { VersionedCache } from '../../src/learners/learner-page-cache.ts';

describe('VersionedCache', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lets a value go once it has not been asked for idleMs, and keeps one asked since', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const cache = new VersionedCache<string>(() => 1, 10, 1000);
    const computed: string[] = [];
    const get = (key: string) =>
      cache.get(key, 1, () => {
        computed.push(key);
        return Promise.resolve(key);
      });
    await get('a');
    await get('b');
    vi.advanceTimersByTime(600);
    await get('b');
    vi.advanceTimersByTime(600);
    // "a" idle for 1.2 s is gone, "b" (0.6 s) is kept.
    expect(cache.size).toBe(1);
    await get('b');
    expect(computed).toEqual(['a', 'b']);
    vi.advanceTimersByTime(3000);
    expect(cache.size).toBe(0);
    await get('a');
    expect(computed).toEqual(['a', 'b', 'a']);
  });
});
