import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { fileTokenStore, writeFileAtomic } from './credentials-store.ts';

const API = 'http://127.0.0.1:8080';
const tokens = { access_token: 'a1', refresh_token: 'r1', expires_at: 1_900_000_000_000 };
const mode = (file: string) => statSync(file).mode & 0o777;

describe('fileTokenStore', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ccp-cli-store-'));
    // A config dir that does not exist yet: the store creates it.
    file = path.join(dir, 'config', 'ccp', 'credentials.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads as signed out when there is no file', () => {
    expect(fileTokenStore({ file, apiUrl: API }).get()).toBeNull();
  });

  it.skipIf(process.platform === 'win32')(
    'creates the directory 0700 and the file 0600, owner-only',
    () => {
      fileTokenStore({ file, apiUrl: API }).set(tokens);
      expect(mode(path.dirname(file))).toBe(0o700);
      expect(mode(file)).toBe(0o600);
    },
  );

  it.skipIf(process.platform === 'win32')(
    'tightens a file that was readable by others when it rewrites it',
    () => {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify({ version: 1, sessions: {} }), { mode: 0o644 });
      fileTokenStore({ file, apiUrl: API }).set(tokens);
      expect(mode(file)).toBe(0o600);
    },
  );

  it('keeps one session per API URL and clears only its own', () => {
    const local = fileTokenStore({ file, apiUrl: API });
    const other = fileTokenStore({ file, apiUrl: 'https://ccp.example.com' });
    local.set(tokens);
    other.set({ access_token: 'a2', refresh_token: 'r2' });
    expect(local.get()).toEqual(tokens);
    expect(other.get()).toEqual({ access_token: 'a2', refresh_token: 'r2' });
    local.clear();
    expect(local.get()).toBeNull();
    expect(other.get()?.access_token).toBe('a2');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      version: 1,
      sessions: { 'https://ccp.example.com': { access_token: 'a2', refresh_token: 'r2' } },
    });
  });

  it('sees a refresh written by another process (reads the file on every get)', () => {
    const store = fileTokenStore({ file, apiUrl: API });
    store.set(tokens);
    fileTokenStore({ file, apiUrl: API }).set({ access_token: 'a3', refresh_token: 'r3' });
    expect(store.get()?.access_token).toBe('a3');
  });

  it('writes atomically: no temporary file is left next to it', () => {
    const store = fileTokenStore({ file, apiUrl: API });
    store.set(tokens);
    store.set({ ...tokens, access_token: 'a4' });
    expect(readdirSync(path.dirname(file))).toEqual(['credentials.json']);
  });

  it('treats a corrupt file as signed out, warns once, and replaces it on the next sign-in', () => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '{"version":1,"sessions":{"http://127.0.0.1:8080":{"access_t');
    const warn = vi.fn();
    const store = fileTokenStore({ file, apiUrl: API, warn });
    expect(store.get()).toBeNull();
    expect(store.get()).toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toBe(
      `Warning: ${file} is corrupt and was ignored; you are signed out. Run: ccp login`,
    );
    store.set(tokens);
    expect(store.get()).toEqual(tokens);
  });

  it('ignores a session entry without tokens', () => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ version: 1, sessions: { [API]: { access_token: 1 } } }));
    expect(fileTokenStore({ file, apiUrl: API }).get()).toBeNull();
  });
});

describe('writeFileAtomic', () => {
  it('leaves the target untouched and removes its temporary file when the rename fails', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ccp-cli-atomic-'));
    try {
      // A directory in the way makes the rename fail after the temporary file was written.
      const target = path.join(dir, 'credentials.json');
      mkdirSync(target);
      writeFileSync(path.join(target, 'keep'), 'x');
      expect(() => writeFileAtomic(target, '{}')).toThrow();
      expect(readdirSync(dir)).toEqual(['credentials.json']);
      expect(readFileSync(path.join(target, 'keep'), 'utf8')).toBe('x');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
