import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { MESSAGES } from '@ccp/schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { runInProcess } from '../../lib/test-io.ts';

const API = 'http://127.0.0.1:9';

describe('ccp logout', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ccp-cli-logout-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is not an error when not signed in', async () => {
    const result = await runInProcess(['logout'], {
      env: { CCP_CONFIG_DIR: dir, CCP_API_URL: API },
    });
    expect(result).toEqual({ code: 0, stdout: '', stderr: `Not signed in to ${API}.\n` });
  });

  it('forgets the stored tokens even when the server cannot be reached', async () => {
    const file = path.join(dir, 'credentials.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        sessions: {
          [API]: { access_token: 'a', refresh_token: 'r' },
          'https://other': { access_token: 'b', refresh_token: 's' },
        },
      }),
    );
    const result = await runInProcess(['logout'], {
      env: { CCP_CONFIG_DIR: dir, CCP_API_URL: API },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`${MESSAGES.networkError} (${API})\nSigned out of ${API}.\n`);
    expect(JSON.parse(readFileSync(file, 'utf8')).sessions).toEqual({
      'https://other': { access_token: 'b', refresh_token: 's' },
    });
  });
});
