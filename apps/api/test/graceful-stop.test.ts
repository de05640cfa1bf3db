import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';

import { buildApp } from '../src/app.ts';
import { createDatabase } from '../src/db/index.ts';
import { createLocalFileStore } from '../src/storage/file-store.ts';
import { multipart } from './fixtures/imports.ts';
import { buildTestApp, call, createCompany, createUser, signIn } from './helper.ts';
import {
  buildCompiledServer,
  freePort,
  postLearnersCsv,
  startCompiledServer,
  stopped,
} from './support/compiled-server.ts';

// Issue 32: /api/ready tells a load balancer whether to send traffic here, and SIGTERM stops the
// built server gracefully: no new connections, the request in flight finished, the running job
// handed back (queued again, its lease released), all within 10 s.

describe('GET /api/ready', () => {
  it('answers 200 when the database, its migrations and the storage are usable', async () => {
    const app = await buildTestApp();
    const response = await call(app, { method: 'GET', url: '/api/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json).toEqual({ status: 'ready' });
  });

  it('answers 503 with the reasons: a migration not run, storage that refuses writes, stopping', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ccp-ready-'));
    const files = {
      ...createLocalFileStore(dataDir),
      putBytes: () => Promise.reject(new Error('read-only file system')),
    };
    const app = await buildTestApp({ files });
    // As if this code were newer than the database: its last migration not run.
    await sql`delete from kysely_migration where name = (select max(name) from kysely_migration)`.execute(
      app.db,
    );
    const notReady = await call(app, { method: 'GET', url: '/api/ready' });
    expect(notReady.statusCode).toBe(503);
    expect(notReady.json).toEqual({
      status: 'not_ready',
      reasons: ['migrations_pending', 'storage_not_writable'],
    });

    app.lifecycle.stopping = true;
    expect((await call(app, { method: 'GET', url: '/api/ready' })).json).toEqual({
      status: 'not_ready',
      reasons: ['stopping'],
    });
    // The liveness probe still answers: the process is alive, only not taking traffic.
    expect((await call(app, { method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    rmSync(dataDir, { recursive: true, force: true });
  });
});

const ROWS = 100_000;

/** GET on a new connection (no keep-alive pool): the status, or 'refused'. */
const freshGet = (url: string) =>
  new Promise<number | 'refused'>((resolve) => {
    request(url, { agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    })
      .on('error', () => resolve('refused'))
      .end();
  });

describe('SIGTERM on the built server (apps/api/dist)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ccp-stop-'));
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child) await stopped(child);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes the request in flight, hands the running job back and exits 0 within 10 s', async () => {
    buildCompiledServer();
    const database = { dialect: 'sqlite' as const, file: path.join(dataDir, 'ccp.sqlite') };
    const seeder = await buildApp({ database, dataDir });
    const user = await createUser(seeder, await createCompany(seeder, { plan: 'enterprise' }));
    const auth = { authorization: `Bearer ${(await signIn(seeder, user)).access_token}` };
    await seeder.close();

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    ({ child } = await startCompiledServer({
      HOST: '127.0.0.1',
      PORT: String(port),
      CCP_DATA_DIR: dataDir,
      CCP_SEED: 'none',
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
    }));
    const exited = new Promise<number | null>((resolve) => child?.once('exit', resolve));
    expect(await (await fetch(`${base}/api/ready`)).json()).toEqual({ status: 'ready' });

    // A big import, running.
    const rows = ['first_name,last_name,email,channels,locale'];
    for (let n = 1; n <= ROWS; n += 1) rows.push(`Grace,Hopper,stop${n}@example.test,slack,en`);
    const upload = await postLearnersCsv(base, auth, 'big.csv', `${rows.join('\n')}\n`);
    expect(upload.status).toBe(202);
    const job = ((await upload.json()) as { data: { uuid: string } }).data;
    const watcher = createDatabase(database);
    const jobRow = () =>
      watcher.db
        .selectFrom('jobs')
        .selectAll()
        .where('uuid', '=', job.uuid)
        .executeTakeFirstOrThrow();
    for (let tries = 0; tries < 6000 && (await jobRow()).processed_rows === 0; tries += 1) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await jobRow()).status).toBe('running');

    // A second upload in flight: its body is half sent when SIGTERM arrives.
    const small = multipart(
      {},
      {
        name: 'small.csv',
        content:
          'first_name,last_name,email,channels,locale\nAda,Lovelace,ada@example.test,slack,en\n',
      },
    );
    const half = Math.floor(small.payload.length / 2);
    const inFlight = request(`${base}/api/v1/learners/imports`, {
      method: 'POST',
      headers: {
        ...auth,
        ...small.headers,
        'content-length': String(small.payload.length),
        // The server answers 100 Continue once it has the headers: the request is then in flight
        // (without it, SIGTERM could overtake headers the server has not read yet).
        expect: '100-continue',
      },
    });
    const continued = new Promise<void>((resolve) => inFlight.once('continue', () => resolve()));
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      inFlight.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      inFlight.on('error', reject);
    });
    inFlight.flushHeaders();
    await continued;
    await new Promise<void>((resolve) =>
      inFlight.write(small.payload.subarray(0, half), () => resolve()),
    );

    const signalledAt = Date.now();
    child?.kill('SIGTERM');
    // From then on a new connection is refused (a load balancer polling /api/ready on a kept
    // connection reads 503 until it closes).
    // The signal reaches the server a moment later: until then it is still ready.
    let fresh = await freshGet(`${base}/api/ready`);
    for (let tries = 0; tries < 1000 && fresh === 200; tries += 1) {
      fresh = await freshGet(`${base}/api/ready`);
    }
    for (let tries = 0; tries < 1000 && fresh !== 'refused'; tries += 1) {
      expect(fresh).toBe(503);
      fresh = await freshGet(`${base}/api/ready`);
    }
    expect(fresh).toBe('refused');
    inFlight.end(small.payload.subarray(half));
    const { status } = await answered;
    expect(status).toBe(202);

    expect(await exited).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
    const handedBack = await jobRow();
    expect(handedBack).toMatchObject({ status: 'queued', worker: null, heartbeat_at: null });
    expect(handedBack.processed_rows).toBeLessThan(ROWS);
    await watcher.close();
  }, 120_000);
});
