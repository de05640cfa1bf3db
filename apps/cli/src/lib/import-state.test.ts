import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { importStateStore } from './import-state.ts';
import { createTestIo } from './test-io.ts';

const entry = (job: string, startedAt: string) => ({
  job,
  file: '/x.csv',
  file_name: 'x.csv',
  started_at: startedAt,
  api_url: 'http://api',
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('importStateStore', () => {
  it('works in memory when the config dir cannot be written (HOME=/dev/null)', () => {
    const { io } = createTestIo({ env: { CCP_CONFIG_DIR: '/dev/null/ccp' } });
    const store = importStateStore(io, { persist: true });
    expect(() => store.set('k', entry('j1', '2026-01-01T00:00:00Z'))).not.toThrow();
    expect(store.get('k')?.job).toBe('j1');
  });

  it('writes nothing for a token run, and finds the newest job of an API URL', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ccp-state-'));
    dirs.push(dir);
    const { io } = createTestIo({ env: { CCP_CONFIG_DIR: dir } });
    const memory = importStateStore(io, { persist: false });
    memory.set('a', entry('j1', '2026-01-01T00:00:00Z'));
    expect(existsSync(path.join(dir, 'imports.json'))).toBe(false);

    const disk = importStateStore(io, { persist: true });
    disk.set('a', entry('j1', '2026-01-01T00:00:00Z'));
    disk.set('b', entry('j2', '2026-01-02T00:00:00Z'));
    expect(disk.latest('http://api')?.job).toBe('j2');
    expect(disk.latest('http://other')).toBeUndefined();
    expect(Object.keys(JSON.parse(readFileSync(path.join(dir, 'imports.json'), 'utf8')))).toEqual([
      'b',
      'a',
    ]);
  });
});
