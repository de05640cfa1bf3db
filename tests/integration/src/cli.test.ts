import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { MESSAGES } from '@ccp/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DEMO_PASSWORD, DEMO_TOTP_SECRET, startApi } from './api-server.ts';
import type { RunningApi } from './api-server.ts';

// The real `ccp` launcher in a child process, against the real API on a temporary database: what
// a CI job does. Every run gets its own config dir and runs from a directory outside the repo.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CCP = path.join(ROOT, 'apps/cli/bin/ccp.js');

type Run = { code: number | null; stdout: string; stderr: string; ms: number };

type RunOptions = {
  /** Written to stdin, which is then closed. Without it stdin stays an open, silent pipe. */
  input?: string;
  env?: Record<string, string>;
  cwd?: string;
  command?: string[];
};

let configDir: string;
let workDir: string;

const ccp = (args: string[], api: RunningApi | null, options: RunOptions = {}): Promise<Run> => {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) {
    // The language too: the expected texts are English unless a test sets one.
    if (
      key.startsWith('CCP_') ||
      key.startsWith('LC_') ||
      ['CI', 'NO_COLOR', 'FORCE_COLOR', 'LANG'].includes(key)
    ) {
      delete env[key];
    }
  }
  Object.assign(env, {
    TERM: 'xterm-256color',
    CCP_CONFIG_DIR: configDir,
    ...(api ? { CCP_API_URL: api.url } : {}),
    ...options.env,
  });
  const [command, ...prefix] = options.command ?? [process.execPath, CCP];
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command!, [...prefix, ...args], {
      cwd: options.cwd ?? workDir,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // A hang fails the test instead of the run.
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
    if (options.input !== undefined) child.stdin.end(options.input);
  });
};

/** Forwards to `target`, holding each token refresh `delayMs` before passing it on. */
const slowRefreshProxy = async (target: string, delayMs: number) => {
  let refreshes = 0;
  const server = createServer((request, response) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      if (request.url === '/api/v1/users/oauth/refresh') {
        refreshes += 1;
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string' && name !== 'host') headers.set(name, value);
      }
      const answer = await fetch(new URL(request.url ?? '/', target), {
        method: request.method,
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      });
      response.writeHead(answer.status, {
        'content-type': answer.headers.get('content-type') ?? 'application/json',
      });
      response.end(Buffer.from(await answer.arrayBuffer()));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refreshes: () => refreshes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

const credentialsPath = () => path.join(configDir, 'credentials.json');
const storedSessions = (): Record<string, { access_token: string; refresh_token: string }> =>
  (JSON.parse(readFileSync(credentialsPath(), 'utf8')) as { sessions: Record<string, never> })
    .sessions;

const login = (api: RunningApi, email: string, code: string) =>
  ccp(['login', '--email', email, '--password-stdin', '--otp', code], api, {
    input: `${DEMO_PASSWORD}\n`,
  });

/** What the API itself answers, with the given bearer. */
const apiGet = async <T = unknown>(api: RunningApi, url: string, token: string): Promise<T> => {
  const response = await api.app.inject({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ data: T }>().data;
};

const firstClassroomCourses = async (api: RunningApi, token: string, archived: boolean) => {
  const company = await apiGet<{ uuid: string }>(api, '/api/v1/company', token);
  const [classroom] = await apiGet<{ uuid: string }[]>(
    api,
    `/api/v1/companies/${company.uuid}/classrooms`,
    token,
  );
  return apiGet(
    api,
    `/api/v1/classrooms/${classroom!.uuid}/courses?archived=${archived}&per_page=30`,
    token,
  );
};

beforeAll(() => {
  workDir = mkdtempSync(path.join(tmpdir(), 'ccp-cli-cwd-'));
});
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe('ccp: sign in, list courses, sign out (spawned, non-interactive)', () => {
  let api: RunningApi;

  beforeAll(async () => {
    api = await startApi();
    configDir = mkdtempSync(path.join(tmpdir(), 'ccp-cli-config-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(configDir, { recursive: true, force: true });
  });

  it('logs in with --email, --password-stdin and --otp, and stores the tokens 0600', async () => {
    const run = await login(api, 'creator@example.com', api.totp());
    expect(run.stderr).toBe('Signed in as creator@example.com (Acme Training)\n');
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect(Object.keys(storedSessions())).toEqual([api.url]);
  });

  it.skipIf(process.platform === 'win32')(
    'keeps the credentials owner-only (0600, dir 0700)',
    () => {
      expect(statSync(credentialsPath()).mode & 0o777).toBe(0o600);
      expect(statSync(configDir).mode & 0o777).toBe(0o700);
    },
  );

  it('courses list --json prints the first classroom’s courses exactly as the API answers them', async () => {
    const run = await ccp(['courses', 'list', '--json'], api);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout) as { name: string; deleted_at: string | null }[];
    const expected = await firstClassroomCourses(
      api,
      storedSessions()[api.url]!.access_token,
      false,
    );
    expect(printed).toEqual(expected);
    expect(printed.length).toBeGreaterThan(1);
    expect(printed.every((course) => course.deleted_at === null)).toBe(true);
  });

  it('courses list --archived shows only the archived demo course', async () => {
    const run = await ccp(['courses', 'list', '--archived', '--json'], api);
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout) as { name: string; deleted_at: string | null }[];
    const expected = await firstClassroomCourses(
      api,
      storedSessions()[api.url]!.access_token,
      true,
    );
    expect(printed).toEqual(expected);
    expect(printed.map((course) => course.name)).toEqual(['Account Planning']);
    expect(printed[0]!.deleted_at).not.toBeNull();

    const text = await ccp(['courses', 'list', '--archived'], api);
    expect(text.stdout.trimEnd().split('\n')).toHaveLength(2);
    expect(text.stdout).toContain('Account Planning');
  });

  it('prints an aligned table without colour codes when stdout is a pipe', async () => {
    const run = await ccp(['courses', 'list'], api);
    expect(run.code).toBe(0);
    expect(run.stdout + run.stderr).not.toContain('\u001B');
    const [header, ...rows] = run.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^NAME +STATUS +LESSONS +ENROLMENTS +UPDATED$/);
    const live = JSON.parse((await ccp(['courses', 'list', '--json'], api)).stdout) as {
      name: string;
      status: string;
    }[];
    expect(rows).toHaveLength(live.length);
    live.forEach((course, index) => {
      expect(rows[index]).toMatch(
        new RegExp(
          `^${course.name} +${course.status} +\\d+ +\\d+ +\\d{2}-\\d{2}-\\d{4} \\d{2}:\\d{2}$`,
        ),
      );
    });
  });

  it('--limit pages through the data provider and says how many are left', async () => {
    const run = await ccp(['courses', 'list', '--limit', '2'], api);
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(3);
    expect(run.stderr).toMatch(
      /^Showing 2 of \d+ courses\. Use --limit <n> or --all for more\.\n$/,
    );
    const all = JSON.parse(
      (await ccp(['courses', 'list', '--all', '--json'], api)).stdout,
    ) as unknown[];
    const limited = JSON.parse(
      (await ccp(['courses', 'list', '--limit', '2', '--json'], api)).stdout,
    );
    expect(limited).toEqual(all.slice(0, 2));
  });

  it('whoami --json prints the API’s user; whoami prints it for people', async () => {
    const run = await ccp(['whoami', '--json'], api);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(
      await apiGet(api, '/api/v1/users/me', storedSessions()[api.url]!.access_token),
    );
    const text = await ccp(['whoami'], api);
    expect(text.stdout).toContain('Email:   creator@example.com\n');
    expect(text.stdout).toContain('Company: Acme Training\n');
    expect(text.stdout).toContain('2FA:     on\n');
  });

  it('refreshes an expired access token on its own and stores the new pair', async () => {
    const before = storedSessions()[api.url]!;
    api.clock.advance(16 * 60 * 1000);
    const run = await ccp(['courses', 'list', '--json'], api);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const after = storedSessions()[api.url]!;
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(after.access_token).not.toBe(before.access_token);
  });

  it('ccp processes started side by side with an expired token all succeed and keep the session', async () => {
    // A spent refresh token presented again ends the whole session (reuse detection). A proxy
    // holds each refresh for a while, so every process meets the expired token before the first
    // refresh is answered: they must take turns (a lock file) and reuse the first one's new pair.
    const proxy = await slowRefreshProxy(api.url, 1_500);
    try {
      const signedIn = storedSessions()[api.url]!;
      writeFileSync(
        credentialsPath(),
        JSON.stringify({ version: 1, sessions: { [api.url]: signedIn, [proxy.url]: signedIn } }),
        { mode: 0o600 },
      );
      api.clock.advance(16 * 60 * 1000);
      const runs = await Promise.all(
        Array.from({ length: 3 }, () =>
          ccp(['courses', 'list', '--json'], api, { env: { CCP_API_URL: proxy.url } }),
        ),
      );
      for (const run of runs) expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(proxy.refreshes()).toBe(1);
      const after = storedSessions()[proxy.url]!;
      expect(after.refresh_token).not.toBe(signedIn.refresh_token);
      await apiGet(api, '/api/v1/users/me', after.access_token);
      expect(existsSync(`${credentialsPath()}.lock`)).toBe(false);
      // The later tests go on with the rotated session.
      writeFileSync(
        credentialsPath(),
        JSON.stringify({ version: 1, sessions: { [api.url]: after } }),
        { mode: 0o600 },
      );
    } finally {
      await proxy.close();
    }
  });

  it('logout revokes the session on the server and forgets it; whoami then exits 4', async () => {
    const { refresh_token } = storedSessions()[api.url]!;
    const run = await ccp(['logout'], api);
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: `Signed out of ${api.url}.\n` });
    expect(storedSessions()).toEqual({});
    const refresh = await api.app.inject({
      method: 'POST',
      url: '/api/v1/users/oauth/refresh',
      payload: { refresh_token, platform: 'content_creators_platform' },
    });
    expect(refresh.statusCode).toBe(401);

    const whoami = await ccp(['whoami'], api);
    expect(whoami).toMatchObject({
      code: 4,
      stdout: '',
      stderr: `Not signed in to ${api.url}. Run: ccp login\n`,
    });
    const courses = await ccp(['courses', 'list', '--json'], api);
    expect(courses).toMatchObject({ code: 4, stdout: '' });
  });

  it('a session the server no longer knows: "Session expired", exit 4, tokens forgotten', async () => {
    writeFileSync(
      credentialsPath(),
      JSON.stringify({
        version: 1,
        sessions: { [api.url]: { access_token: 'x', refresh_token: 'y' } },
      }),
      { mode: 0o600 },
    );
    const run = await ccp(['courses', 'list', '--json'], api);
    expect(run).toMatchObject({ code: 4, stdout: '', stderr: 'Session expired. Run: ccp login\n' });
    expect(storedSessions()).toEqual({});
  });
});

describe('ccp login: failures and CCP_TOTP_SECRET (spawned)', () => {
  let api: RunningApi;

  beforeAll(async () => {
    api = await startApi();
    configDir = mkdtempSync(path.join(tmpdir(), 'ccp-cli-config-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(configDir, { recursive: true, force: true });
  });

  it('missing --email with no terminal exits 2 at once, even with stdin left open', async () => {
    const run = await ccp(['login'], api);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Missing --email <email>');
    expect(run.stderr).toContain('ccp cannot prompt here');
    // Well under the 20 s kill timer: it did not wait on stdin.
    expect(run.ms).toBeLessThan(10_000);
    expect(existsSync(credentialsPath())).toBe(false);
  });

  it('a wrong password exits 4 with the API’s message and stores nothing', async () => {
    const run = await ccp(
      ['login', '--email', 'creator@example.com', '--password-stdin', '--otp', api.totp()],
      api,
      { input: 'not-the-password\n' },
    );
    expect(run).toMatchObject({ code: 4, stdout: '', stderr: `${MESSAGES.invalidCredentials}\n` });
    expect(existsSync(credentialsPath())).toBe(false);
  });

  it('a wrong password in the language of LANG, or of --lang over it', async () => {
    const wrongPassword = (args: string[]) =>
      ccp(
        [
          'login',
          '--email',
          'creator@example.com',
          '--password-stdin',
          '--otp',
          api.totp(),
          ...args,
        ],
        api,
        { input: 'not-the-password\n', env: { LANG: 'it_IT.UTF-8' } },
      );
    expect(await wrongPassword([])).toMatchObject({
      code: 4,
      stderr: "Le credenziali dell'utente non sono corrette.\n",
    });
    expect(await wrongPassword(['--lang', 'de'])).toMatchObject({
      code: 4,
      stderr: 'Die Anmeldedaten sind nicht korrekt.\n',
    });
  });

  it('a wrong code exits 4 with "Invalid OTP"', async () => {
    // Five steps away: outside the ±1 step the API accepts.
    const run = await login(api, 'creator@example.com', api.totp(5));
    expect(run).toMatchObject({ code: 4, stdout: '', stderr: `${MESSAGES.otpInvalid}\n` });
    expect(existsSync(credentialsPath())).toBe(false);
  });

  it('an account without 2FA exits 4 and points to the web app’s setup', async () => {
    const run = await login(api, 'new.creator@example.com', '123456');
    expect(run.code).toBe(4);
    expect(run.stderr).toBe(
      'Two-factor authentication is not set up for new.creator@example.com. Finish the 2FA setup in the web app, then run: ccp login\n',
    );
  });

  it('CCP_TOTP_SECRET computes the code', async () => {
    // The CLI computes the code at the real time; bring the server's manual clock there.
    api.clock.set(new Date());
    const run = await ccp(['login', '--email', 'creator@example.com', '--password-stdin'], api, {
      input: `${DEMO_PASSWORD}\n`,
      env: { CCP_TOTP_SECRET: DEMO_TOTP_SECRET },
    });
    expect(run).toMatchObject({
      code: 0,
      stdout: '',
      stderr: 'Signed in as creator@example.com (Acme Training)\n',
    });
    const whoami = await ccp(['whoami', '--json'], api);
    expect(JSON.parse(whoami.stdout)).toMatchObject({ email: 'creator@example.com' });
  });

  // Last in this block: it locks the loopback address out of sign-in for a (frozen) minute.
  it('too many attempts exits 1 with the spec’s slow-down text', async () => {
    const wrong = () =>
      api.app.inject({
        method: 'POST',
        url: '/api/v1/users/oauth/token',
        payload: {
          username: 'free@example.com',
          password: 'wrong',
          platform: 'content_creators_platform',
        },
      });
    for (let attempt = 0; attempt < 5; attempt += 1) await wrong();
    const run = await ccp(
      ['login', '--email', 'free@example.com', '--password-stdin', '--otp', '123456'],
      api,
      { input: `${DEMO_PASSWORD}\n` },
    );
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: `${MESSAGES.slowDown}\n` });
  });

  it('keeps sessions per API URL; an unreachable API exits 1 naming the URL', async () => {
    const run = await ccp(['whoami'], null, { env: { CCP_API_URL: 'http://127.0.0.1:9' } });
    // Signed in only for the test API's URL: this URL has no session.
    expect(run).toMatchObject({
      code: 4,
      stderr: 'Not signed in to http://127.0.0.1:9. Run: ccp login\n',
    });
    const login = await ccp(
      ['login', '--email', 'creator@example.com', '--password-stdin', '--otp', '123456'],
      null,
      { input: 'x\n', env: { CCP_API_URL: 'http://127.0.0.1:9' } },
    );
    expect(login).toMatchObject({
      code: 1,
      stderr: `${MESSAGES.networkError} (http://127.0.0.1:9)\n`,
    });
  });
});

describe('ccp launcher', () => {
  beforeAll(() => {
    configDir = mkdtempSync(path.join(tmpdir(), 'ccp-cli-config-'));
  });
  afterAll(() => rmSync(configDir, { recursive: true, force: true }));

  it.each([
    ['the repo root', ROOT],
    ['another directory', tmpdir()],
  ])('runs from %s: --help documents the exit codes', async (_where, cwd) => {
    const run = await ccp(['--help'], null, { cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: ccp');
    expect(run.stdout).toContain('Exit codes:');
    expect(run.stdout).toMatch(/ 4 +authentication/);
  });

  it('exits 2 on an unknown option', async () => {
    const run = await ccp(['--nope'], null);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown option '--nope'");
  });

  // `npm install` links the bin; until then there is no node_modules/.bin/ccp to run.
  it.skipIf(!existsSync(path.join(ROOT, 'node_modules/.bin/ccp')))(
    'npx ccp --help works from the repo root',
    async () => {
      const run = await ccp(['--help'], null, {
        cwd: ROOT,
        command: ['npx', '--no-install', 'ccp'],
      });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Exit codes:');
    },
  );
});
