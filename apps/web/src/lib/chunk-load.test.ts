import { describe, expect, it, vi } from 'vitest';

import { ChunkLoadError, isChunkFailure, loadChunk } from './chunk-load.ts';
import type { TChunkEnvironment } from './chunk-load.ts';

const gone = () =>
  Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/list-x.js'));

const environment = (overrides: Partial<TChunkEnvironment> = {}) => {
  const stored = new Map<string, string>();
  return {
    online: () => true,
    serverAnswers: async () => true,
    reload: vi.fn(),
    storage: {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
    },
    now: () => 1_000_000,
    ...overrides,
  };
};

describe('loading a lazy chunk', () => {
  it('answers the module when it loads', async () => {
    expect(await loadChunk(async () => ({ Page: 'page' }), environment())).toEqual({
      Page: 'page',
    });
  });

  it('reloads once to the new build when the file is gone and the server answers', async () => {
    const env = environment();
    void loadChunk(gone, env);
    await vi.waitFor(() => expect(env.reload).toHaveBeenCalledTimes(1));
    // A second failure within the minute does not loop: it shows an error.
    await expect(loadChunk(gone, env)).rejects.toMatchObject({
      name: 'ChunkLoadError',
      offline: false,
    });
    expect(env.reload).toHaveBeenCalledTimes(1);
  });

  it('names a lost network instead of reloading: offline, or the server does not answer', async () => {
    for (const env of [
      environment({ online: () => false }),
      environment({ serverAnswers: async () => false }),
    ]) {
      await expect(loadChunk(gone, env)).rejects.toMatchObject({ offline: true });
      expect(env.reload).not.toHaveBeenCalled();
    }
  });

  it('leaves other errors alone', async () => {
    const env = environment();
    await expect(loadChunk(() => Promise.reject(new Error('boom')), env)).rejects.toThrow('boom');
    expect(env.reload).not.toHaveBeenCalled();
    expect(isChunkFailure(new Error('Importing a module script failed.'))).toBe(true);
    expect(isChunkFailure(new ChunkLoadError(true, null))).toBe(true);
    expect(isChunkFailure(new Error('x'))).toBe(false);
  });
});
