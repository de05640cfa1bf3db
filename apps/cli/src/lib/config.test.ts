import path from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  configDir,
  credentialsFile,
  DEFAULT_API_URL,
  envFlag,
  resolveApiUrl,
  resolveTimeoutMs,
} from './config.ts';
import { UsageError } from './errors.ts';

const base = { platform: 'linux' as const, homedir: '/home/ada' };

describe('configDir', () => {
  it('prefers CCP_CONFIG_DIR, then $XDG_CONFIG_HOME/ccp, then ~/.config/ccp', () => {
    expect(
      configDir({ ...base, env: { CCP_CONFIG_DIR: '/tmp/ccp', XDG_CONFIG_HOME: '/xdg' } }),
    ).toBe(path.resolve('/tmp/ccp'));
    expect(configDir({ ...base, env: { XDG_CONFIG_HOME: '/xdg' } })).toBe(path.join('/xdg', 'ccp'));
    expect(configDir({ ...base, env: {} })).toBe(path.join('/home/ada', '.config', 'ccp'));
  });

  it('uses %APPDATA%\\ccp on Windows', () => {
    expect(
      configDir({ platform: 'win32', homedir: 'C:\\Users\\ada', env: { APPDATA: 'C:\\AppData' } }),
    ).toBe(path.join('C:\\AppData', 'ccp'));
  });

  it('keeps the credentials in credentials.json there', () => {
    expect(credentialsFile({ ...base, env: { CCP_CONFIG_DIR: '/c' } })).toBe(
      path.join(path.resolve('/c'), 'credentials.json'),
    );
  });
});

describe('resolveApiUrl', () => {
  it('takes the flag over CCP_API_URL over the default', () => {
    expect(resolveApiUrl('http://flag:1', { env: { CCP_API_URL: 'http://env:2' } })).toBe(
      'http://flag:1',
    );
    expect(resolveApiUrl(undefined, { env: { CCP_API_URL: 'http://env:2' } })).toBe('http://env:2');
    expect(resolveApiUrl(undefined, { env: {} })).toBe(DEFAULT_API_URL);
  });

  it('normalises trailing slashes and keeps a path prefix, so one server has one session', () => {
    expect(resolveApiUrl('http://127.0.0.1:8080/', { env: {} })).toBe('http://127.0.0.1:8080');
    expect(resolveApiUrl('https://host/ccp//', { env: {} })).toBe('https://host/ccp');
  });

  it.each(['not a url', 'ftp://host', 'file:///etc/passwd'])(
    'refuses %j as a usage error',
    (raw) => {
      expect(() => resolveApiUrl(raw, { env: {} })).toThrow(UsageError);
    },
  );
});

describe('envFlag', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['0', false],
    ['false', false],
    ['1', true],
    ['true', true],
    ['yes', true],
  ])('%j → %s', (value, expected) => {
    expect(envFlag(value)).toBe(expected);
  });
});

describe('resolveApiUrl: the URL remembered with the credentials, and URLs that cannot be right', () => {
  it('uses the URL last signed in to when neither --api-url nor CCP_API_URL is given', () => {
    expect(resolveApiUrl(undefined, { env: {} }, 'https://ccp.example.com')).toBe(
      'https://ccp.example.com',
    );
    expect(resolveApiUrl(undefined, { env: { CCP_API_URL: 'http://env:2' } }, 'http://x')).toBe(
      'http://env:2',
    );
  });

  it.each(['https://ccp.example.com/api', 'https://ccp.example.com/api/', 'http://h/api/v1'])(
    'refuses %s, saying what an API URL looks like (exit 2)',
    (raw) => {
      expect(() => resolveApiUrl(raw, { env: {} })).toThrow(/without \/api/);
    },
  );
});

describe('resolveTimeoutMs', () => {
  it('is --timeout, else CCP_TIMEOUT, else 60 s; 0 means none', () => {
    expect(resolveTimeoutMs(2.5, { env: { CCP_TIMEOUT: '9' } })).toBe(2500);
    expect(resolveTimeoutMs(undefined, { env: { CCP_TIMEOUT: '9' } })).toBe(9000);
    expect(resolveTimeoutMs(undefined, { env: {} })).toBe(60_000);
    expect(resolveTimeoutMs(0, { env: {} })).toBe(0);
    expect(() => resolveTimeoutMs(undefined, { env: { CCP_TIMEOUT: 'soon' } })).toThrow(UsageError);
  });
});
