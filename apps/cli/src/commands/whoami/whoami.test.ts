import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { TUser } from '@ccp/schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { runInProcess } from '../../lib/test-io.ts';
import { describeUser } from './index.ts';

const user: TUser = {
  uuid: 'f711986c-6caa-4f8a-b2f1-0a7dd43e4904',
  email: 'creator@example.com',
  first_name: 'Chiara',
  last_name: 'Colombo',
  avatar: null,
  locale: 'en',
  is_admin: true,
  is_2fa_enabled: true,
  company: { uuid: '49cfb165-133d-404c-855d-2e6cf09c5e53', name: 'Acme Training' },
};

describe('ccp whoami', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ccp-cli-whoami-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 4 without stored tokens, before any request', async () => {
    const result = await runInProcess(['whoami', '--json'], {
      env: { CCP_CONFIG_DIR: dir, CCP_API_URL: 'http://127.0.0.1:9' },
    });
    expect(result).toEqual({
      code: 4,
      stdout: '',
      stderr: 'Not signed in to http://127.0.0.1:9. Run: ccp login\n',
    });
  });

  it('reads a session stored for another API URL as signed out', async () => {
    writeFileSync(
      path.join(dir, 'credentials.json'),
      JSON.stringify({
        version: 1,
        sessions: { 'https://other': { access_token: 'a', refresh_token: 'r' } },
      }),
    );
    const result = await runInProcess(['whoami'], {
      env: { CCP_CONFIG_DIR: dir, CCP_API_URL: 'http://127.0.0.1:9' },
    });
    expect(result.code).toBe(4);
  });

  it('warns about a corrupt credentials file and exits 4 as signed out', async () => {
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'credentials.json');
    writeFileSync(file, 'not json');
    const result = await runInProcess(['whoami'], { env: { CCP_CONFIG_DIR: dir } });
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(
      `Warning: ${file} is corrupt and was ignored; you are signed out. Run: ccp login\nNot signed in to http://127.0.0.1:8080. Run: ccp login\n`,
    );
  });

  it('describes the user as aligned lines', () => {
    expect(describeUser(user, 'http://127.0.0.1:8080')).toBe(
      [
        'Email:   creator@example.com',
        'Name:    Chiara Colombo',
        'Company: Acme Training',
        'Admin:   yes',
        '2FA:     on',
        'API:     http://127.0.0.1:8080',
      ].join('\n'),
    );
  });
});
