import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DEMO_PASSWORD } from '../src/seed/demo.ts';
import {
  ROOT,
  buildCompiledServer,
  freePort,
  postLearnersCsv,
  startCompiledServer,
  stopped,
} from './support/compiled-server.ts';

// Issue 18: `npm start` runs the API compiled to JavaScript. The compiled server seeds the demo,
// signs a user in with 2FA, serves its API docs and imports a file through its worker thread.

const TOTP_SECRET = 'JBSWY3DPEHPK3PXP';
const PLATFORM = 'content_creators_platform';
const BUILT_MARK = path.join(ROOT, 'apps/api/dist/BUILT');

describe('npm start: the compiled server (apps/api/dist)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ccp-compiled-'));
  let child: ChildProcess | undefined;
  let base = '';

  beforeAll(async () => {
    buildCompiledServer();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    ({ child } = await startCompiledServer({
      HOST: '127.0.0.1',
      PORT: String(port),
      CCP_DATA_DIR: dataDir,
      CCP_SEED: 'demo',
      CCP_DEMO_TOTP_SECRET: TOTP_SECRET,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
    }));
  }, 120_000);
  afterAll(async () => {
    if (child) await stopped(child);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('builds only when a source changed: a second start reuses the build', () => {
    const builtAt = statSync(BUILT_MARK).mtimeMs;
    buildCompiledServer();
    expect(statSync(BUILT_MARK).mtimeMs).toBe(builtAt);
  });

  // The server finds its import worker, its PDF reader and the web app beside its own file
  // (import.meta.url). Code moved into a shared chunk under dist/ would look for them there and
  // silently lose the worker and the web app (seen when a second entry shared the server's code).
  it('keeps the code that finds files beside itself in dist/server.js, not in a chunk', () => {
    const dist = path.join(ROOT, 'apps/api/dist');
    const chunks = ['chunks', 'lib'].flatMap((folder) =>
      readdirSync(path.join(dist, folder), { withFileTypes: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
        .map((entry) => path.join(dist, folder, entry.name)),
    );
    const server = readFileSync(path.join(dist, 'server.js'), 'utf8');
    for (const beside of ['./row-worker.ts', './pdf-reader.js', '../../web/dist']) {
      // `new URL("./x", import.meta.url)`, with or without the space (the server's bundle has no
      // whitespace to spare, issue 32).
      const besideUrl = new RegExp(`"${beside.replace(/[./]/g, '\\$&')}",\\s*import\\.meta\\.url`);
      expect(server).toMatch(besideUrl);
      const misplaced = chunks.filter((file) => besideUrl.test(readFileSync(file, 'utf8')));
      expect(misplaced.map((file) => path.relative(dist, file))).toEqual([]);
    }
  });

  it('signs the demo administrator in with password and TOTP, and imports a CSV', async () => {
    const first = await fetch(`${base}/api/v1/users/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username: 'creator@example.com',
        password: DEMO_PASSWORD,
        platform: PLATFORM,
      }),
    });
    expect(first.status).toBe(200);
    const otp = ((await first.json()) as { data: { access_token: string; refresh_token: string } })
      .data;
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(TOTP_SECRET) }).generate();
    const second = await fetch(`${base}/api/v1/users/oauth/2fa-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${otp.access_token}` },
      body: JSON.stringify({ refresh_token: otp.refresh_token, platform: PLATFORM, code }),
    });
    expect(second.status).toBe(200);
    const token = ((await second.json()) as { data: { access_token: string } }).data.access_token;
    const auth = { authorization: `Bearer ${token}` };

    const rows = ['first_name,last_name,email,channels,locale'];
    for (let n = 1; n <= 500; n += 1) rows.push(`Grace,Hopper,compiled${n}@example.test,slack,en`);
    rows.push('Bad,Row,not-an-email,slack,en');
    const upload = await postLearnersCsv(base, auth, 'people.csv', `${rows.join('\n')}\n`);
    expect(upload.status).toBe(202);
    const job = ((await upload.json()) as { data: { uuid: string } }).data;
    let status: { status: string; created: number; failed: number } | undefined;
    for (let tries = 0; tries < 600; tries += 1) {
      const poll = await fetch(`${base}/api/v1/learners/imports/${job.uuid}`, { headers: auth });
      status = ((await poll.json()) as { data: typeof status }).data;
      if (status?.status === 'completed' || status?.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toMatchObject({ status: 'completed', created: 500, failed: 1 });
  }, 90_000);

  it('serves the API documentation (Swagger UI and its static files)', async () => {
    const spec = await fetch(`${base}/api/docs/json`);
    expect(spec.status).toBe(200);
    expect(((await spec.json()) as { openapi: string }).openapi).toMatch(/^3\./);
    const ui = await fetch(`${base}/api/docs/static/index.html`);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('swagger');
  });
});
