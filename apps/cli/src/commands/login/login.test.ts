import { MESSAGES } from '@ccp/schemas';
import * as OTPAuth from 'otpauth';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { describe, expect, it, vi } from 'vitest';

import { UsageError } from '../../lib/errors.ts';
import { CODE_USED_WAITING } from '../../lib/otp.ts';
import { runInProcess } from '../../lib/test-io.ts';
import { passwordFromStdin, totpCode } from './index.ts';

const SECRET = 'JBSWY3DPEHPK3PXP';
const terminal = { stdinIsTTY: true, stdoutIsTTY: true, stderrIsTTY: true };
// Nothing listens on port 9: a test that reached the network would fail differently.
const offline = { CCP_API_URL: 'http://127.0.0.1:9', CCP_CONFIG_DIR: '/nonexistent/ccp' };

describe('ccp login (without a terminal)', () => {
  it('exits 2 at once, naming every missing flag, with stdin an open pipe that never writes', async () => {
    const started = Date.now();
    const result = await runInProcess(['login'], { env: offline });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'Missing --email <email>, --password-stdin, --otp <code> (or CCP_TOTP_SECRET): ccp cannot prompt here (not a terminal, --no-input or CI).\n',
    );
    expect(result.stdout).toBe('');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('names only what is missing', async () => {
    const result = await runInProcess(['login', '--email', 'a@example.com', '--password-stdin'], {
      env: offline,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Missing --otp <code> (or CCP_TOTP_SECRET):');
  });

  it('accepts CCP_TOTP_SECRET instead of --otp', async () => {
    const result = await runInProcess(['login', '--password-stdin'], {
      env: { ...offline, CCP_TOTP_SECRET: 'JBSWY3DPEHPK3PXP' },
    });
    expect(result.stderr).toContain('Missing --email <email>:');
    expect(result.stderr).not.toContain('--otp');
  });

  it.each([
    ['--no-input', ['--no-input'], {}],
    ['CCP_NO_INPUT', [], { CCP_NO_INPUT: '1' }],
    ['CI', [], { CI: 'true' }],
  ])('does not prompt on a terminal with %s', async (_name, flags, env) => {
    const result = await runInProcess(['login', ...flags], {
      ...terminal,
      env: { ...offline, ...env },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Missing --email <email>');
  });

  it('exits 2 on an invalid --email or --otp before contacting the server', async () => {
    const email = await runInProcess(
      ['login', '--email', 'not-an-email', '--password-stdin', '--otp', '123456'],
      { env: offline, stdin: 'secret\n' },
    );
    expect(email).toMatchObject({ code: 2, stderr: `--email: ${MESSAGES.emailInvalid}\n` });
    const otp = await runInProcess(
      ['login', '--email', 'a@example.com', '--password-stdin', '--otp', '12ab'],
      { env: offline, stdin: 'secret\n' },
    );
    expect(otp).toMatchObject({
      code: 2,
      stderr: '--otp: expected the 6-digit code from your authenticator app.\n',
    });
  });

  it('exits 2 on a CCP_TOTP_SECRET that is not base32, before contacting the server', async () => {
    const result = await runInProcess(['login', '--email', 'a@example.com', '--password-stdin'], {
      env: { ...offline, CCP_TOTP_SECRET: 'not base32 !!!' },
      stdin: 'secret\n',
    });
    expect(result).toMatchObject({
      code: 2,
      stderr: 'CCP_TOTP_SECRET is not a valid base32 secret.\n',
    });
  });

  it('exits 2 when stdin carries no password', async () => {
    const result = await runInProcess(
      ['login', '--email', 'a@example.com', '--password-stdin', '--otp', '123456'],
      { env: offline, stdin: '\n' },
    );
    expect(result).toMatchObject({ code: 2, stderr: 'No password on stdin (--password-stdin).\n' });
  });

  it('exits 1 with the network error and the API URL when the server is unreachable', async () => {
    const result = await runInProcess(
      ['login', '--email', 'a@example.com', '--password-stdin', '--otp', '123456'],
      { env: offline, stdin: 'secret\n' },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`${MESSAGES.networkError} (http://127.0.0.1:9)\n`);
  });
});

describe('login helpers', () => {
  it('drops only the trailing newline of a piped password', () => {
    expect(passwordFromStdin('p4ss word\n')).toBe('p4ss word');
    expect(passwordFromStdin('p4ss\r\n')).toBe('p4ss');
    expect(passwordFromStdin('  spaced  ')).toBe('  spaced  ');
    expect(passwordFromStdin('two\n\n')).toBe('two\n');
  });

  it('computes the current TOTP code from a base32 secret (spaces and case ignored)', () => {
    const expected = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32('JBSWY3DPEHPK3PXP') });
    const code = totpCode('jbsw y3dp ehpk 3pxp');
    // The code may roll over between the two calls; one of the two windows matches.
    expect([expected.generate(), expected.generate({ timestamp: Date.now() - 30_000 })]).toContain(
      code,
    );
    expect(code).toMatch(/^\d{6}$/);
  });

  it('refuses a secret that is not base32', () => {
    expect(() => totpCode('not base32 !!!')).toThrow(UsageError);
  });
});

describe('ccp login with CCP_TOTP_SECRET when the code of this step was already used', () => {
  const user = { uuid: 'u1', email: 'ada@example.com', company: { name: 'Acme' } };
  const answer = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  it('says so, waits for the next 30-second step once, and signs in with its code', async () => {
    const codes: string[] = [];
    vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
    vi.setSystemTime(new Date('2026-11-23T10:00:10Z'));
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      const path = new URL(url).pathname;
      if (path === '/api/v1/users/oauth/token') {
        return answer(200, {
          data: { access_token: 'a0', refresh_token: 'r0', is_2fa_enabled: true },
        });
      }
      if (path === '/api/v1/users/oauth/2fa-token') {
        codes.push((JSON.parse(init.body as string) as { code: string }).code);
        if (codes.length === 1) {
          return answer(422, {
            error: { status: 422, code: 'CODE_ALREADY_USED', message: MESSAGES.codeAlreadyUsed },
          });
        }
        return answer(200, { data: { access_token: 'a1', refresh_token: 'r1', user } });
      }
      return answer(404, { error: { status: 404, code: 'NOT_FOUND', message: 'x' } });
    });
    const dir = mkdtempSync(path.join(tmpdir(), 'ccp-login-used-'));
    try {
      const run = runInProcess(['login', '--email', 'ada@example.com', '--password-stdin'], {
        env: { CCP_API_URL: 'http://127.0.0.1:9', CCP_CONFIG_DIR: dir, CCP_TOTP_SECRET: SECRET },
        stdin: 'secret\n',
      });
      await vi.advanceTimersByTimeAsync(25_000);
      const result = await run;
      expect(result).toMatchObject({ code: 0, stdout: '' });
      expect(result.stderr).toBe(`${CODE_USED_WAITING}\nSigned in as ada@example.com (Acme)\n`);
      const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(SECRET) });
      expect(codes).toEqual([
        totp.generate({ timestamp: Date.parse('2026-11-23T10:00:10Z') }),
        totp.generate({ timestamp: Date.parse('2026-11-23T10:00:31Z') }),
      ]);
    } finally {
      vi.useRealTimers();
      vi.unstubAllGlobals();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
