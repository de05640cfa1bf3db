import { rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';

import autocannon from 'autocannon';
import { sql } from 'kysely';

import { createDatabase, migrateToLatest } from '../apps/api/src/db/index.ts';
import type { DatabaseConfig } from '../apps/api/src/db/index.ts';
import { buildDataset } from './lib/dataset.ts';
import { startLearnersServer } from './lib/learners-process.ts';
import type { LearnersServer as Server } from './lib/learners-process.ts';

// The learners list at scale (issue 14): 100 000 learners of one company (created in one instant,
// as one import makes them; a third with a phone; all in one list), asked as the web app asks:
// page 1, a deep page, "load more" through the pages in turn, pages picked at random, a search by
// name, by e-mail and by phone, a list's members, the lists with their counts — and, to show what
// nothing remembered costs, a search for a new term on every request. Target: p95 ≤ 50 ms at
// 500 req/s over 50 connections (each case is offered 500 req/s: autocannon's overall rate), then
// the most it answers when every connection asks again as soon as answered (closed loop), with the
// API's CPU time per request (what a core would need, whatever share of it the API got). The API
// runs in a child process, so the load generator does not share its event loop (it still shares
// the machine's two cores).
//
//   node --import tsx bench/learners.ts [--postgres postgres://…] [--learners 100000]
//     [--seconds 8] [--connections 50] [--rate 500] [--only "page 1,search"] [--warm-up 8]
//
// The first case asked of the fresh API process also pays its warm-up (V8 compiling the request
// path: bench/README.md, issue 32): each row prints the API's CPU per request at the offered rate
// and in its first 2 s beside the closed loop's. --warm-up N asks the first case untimed for N
// seconds first (closed loop), so that every case is measured on a warm process.

const { values } = parseArgs({
  options: {
    postgres: { type: 'string' },
    learners: { type: 'string', default: process.env.BENCH_LEARNERS ?? '100000' },
    seconds: { type: 'string', default: process.env.BENCH_SECONDS ?? '8' },
    connections: { type: 'string', default: process.env.BENCH_CONNECTIONS ?? '50' },
    rate: { type: 'string', default: '500' },
    only: { type: 'string' },
    'warm-up': { type: 'string', default: '0' },
  },
});
const LEARNERS = Number(values.learners);
const SECONDS = Number(values.seconds);
const WARM_UP_SECONDS = Number(values['warm-up']);
const CONNECTIONS = Number(values.connections);
const TARGET_P95_MS = 50;
const TARGET_RPS = Number(values.rate);
const PER_PAGE = 25;

/** The SQLite dataset copied into a fresh schema of the Postgres database. */
const copyToPostgres = async (file: string, url: string) => {
  const schema = `bench_learners_${Date.now()}`;
  const admin = createDatabase({ dialect: 'postgres', url });
  await sql`create schema ${sql.id(schema)}`.execute(admin.db);
  await admin.close();
  const config: DatabaseConfig = { dialect: 'postgres', url, schema };
  const target = createDatabase(config);
  await migrateToLatest(target);
  const source = createDatabase({ dialect: 'sqlite', file });
  for (const table of [
    'companies',
    'classrooms',
    'users',
    'learners',
    'learners_lists',
    'learners_list_members',
  ] as const) {
    const rows = await source.db.selectFrom(table).selectAll().execute();
    for (let start = 0; start < rows.length; start += 2000) {
      await target.db
        .insertInto(table)
        // The same tables on both sides: the rows go across as read.
        .values(rows.slice(start, start + 2000))
        .execute();
    }
  }
  // As autovacuum leaves a table some time after an import (index-only scans need it).
  await sql`vacuum analyze`.execute(target.db);
  await source.close();
  await target.close();
  return {
    config,
    drop: async () => {
      const handle = createDatabase({ dialect: 'postgres', url });
      await sql`drop schema ${sql.id(schema)} cascade`.execute(handle.db);
      await handle.close();
    },
  };
};

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

type Run = {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  bad: number;
  /** The API process's CPU per answered request. */
  cpuMs: number;
  /** The same over the run's first 2 s (a fresh process's warm-up shows here). */
  firstCpuMs: number;
};

/** The window of a run's start whose CPU per request is printed apart. */
const FIRST_MS = 2000;

/** One autocannon run; `rate` 0 is a closed loop. Percentiles from every response time. */
const load = async (server: Server, path: () => string, rate: number, seconds = SECONDS) => {
  const { port, token } = server;
  const latencies: number[] = [];
  const cpuBefore = server.cpuMs();
  let firstCpuMs = NaN;
  const first = setTimeout(() => {
    firstCpuMs = (server.cpuMs() - cpuBefore) / Math.max(1, latencies.length);
  }, FIRST_MS);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections: CONNECTIONS,
        duration: seconds,
        headers: { authorization: `Bearer ${token}` },
        ...(rate > 0 ? { overallRate: rate } : {}),
        requests: [
          {
            method: 'GET',
            setupRequest: (request: autocannon.Request) => ({ ...request, path: path() }),
          },
        ],
      },
      (error, done) =>
        error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(done),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      latencies.push(responseTime);
    });
  });
  clearTimeout(first);
  latencies.sort((a, b) => a - b);
  const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(latencies, p));
  return {
    rps: result.requests.average,
    p50: p50!,
    p95: p95!,
    p99: p99!,
    bad: result.non2xx + result.errors + result.timeouts,
    cpuMs: (server.cpuMs() - cpuBefore) / Math.max(1, latencies.length),
    firstCpuMs,
  } satisfies Run;
};

const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(9);

const main = async () => {
  process.stdout.write(`Building ${LEARNERS.toLocaleString('en')} learners…\n`);
  const dataset = await buildDataset({ learners: LEARNERS, courses: [] });
  const postgres = values.postgres ? await copyToPostgres(dataset.file, values.postgres) : null;
  const config: DatabaseConfig = postgres?.config ?? { dialect: 'sqlite', file: dataset.file };
  const server = await startLearnersServer(config, dataset.dataDir, dataset.userUuid);
  const lastPage = Math.ceil(LEARNERS / PER_PAGE);
  const deepPage = Math.floor(lastPage / 2);
  const list = `/api/v1/learners`;
  let walked = 0;
  let fresh = 0;
  const cases: [label: string, path: () => string][] = [
    ['page 1', () => `${list}?page=1&per_page=${PER_PAGE}`],
    [
      `page ${deepPage.toLocaleString('en')}`,
      () => `${list}?page=${deepPage}&per_page=${PER_PAGE}`,
    ],
    // Pages 1, 2, 3… in turn across the connections, as "load more" asks them.
    [
      'load more (pages in turn)',
      () => `${list}?page=${(walked++ % lastPage) + 1}&per_page=${PER_PAGE}`,
    ],
    [
      'random pages',
      () => `${list}?page=${1 + Math.floor(Math.random() * lastPage)}&per_page=${PER_PAGE}`,
    ],
    ['search name "Chiara"', () => `${list}?search=Chiara&per_page=${PER_PAGE}`],
    ['search e-mail "learner4711"', () => `${list}?search=learner4711&per_page=${PER_PAGE}`],
    ['search phone "333 100 47"', () => `${list}?search=333%20100%2047&per_page=${PER_PAGE}`],
    ['search page 100 "Chiara"', () => `${list}?search=Chiara&page=100&per_page=${PER_PAGE}`],
    [
      `list members page ${deepPage.toLocaleString('en')}`,
      () => `${list}/learners-lists/${dataset.listUuid}?page=${deepPage}&per_page=${PER_PAGE}`,
    ],
    ['lists with counts', () => `/api/v1/learners-lists`],
    // Nothing remembered: every request a term never asked before (a full read of the learners).
    [
      'search, a new term each time',
      () => `${list}?search=learner${fresh++}x&per_page=${PER_PAGE}`,
    ],
  ];
  const only = values.only?.split(',').map((part) => part.trim());
  const rows: string[] = [];
  let failed = false;
  const loadBefore = loadavg()[0]!;
  const picked = cases.filter(([label]) => !only || only.some((part) => label.startsWith(part)));
  if (WARM_UP_SECONDS > 0 && picked[0]) await load(server, picked[0][1], 0, WARM_UP_SECONDS);
  for (const [label, path] of picked) {
    const atRate = await load(server, path, TARGET_RPS);
    const closed = await load(server, path, 0);
    const ok = atRate.bad === 0 && atRate.rps >= TARGET_RPS * 0.98 && atRate.p95 <= TARGET_P95_MS;
    if (!ok) failed = true;
    rows.push(
      `${ok ? 'PASS' : 'FAIL'}  ${label.padEnd(30)} ${atRate.rps.toFixed(0).padStart(5)} req/s p50 ${ms(atRate.p50)} p95 ${ms(atRate.p95)} p99 ${ms(atRate.p99)}` +
        `, API CPU ${atRate.cpuMs.toFixed(2)} ms/req (first 2 s ${atRate.firstCpuMs.toFixed(2)})` +
        ` | closed loop ${closed.rps.toFixed(0).padStart(5)} req/s p95 ${ms(closed.p95)}, API CPU ${closed.cpuMs.toFixed(2)} ms/req` +
        (atRate.bad + closed.bad > 0 ? `  failed ${atRate.bad + closed.bad}` : ''),
    );
  }
  server.stop();
  await postgres?.drop();
  rmSync(dataset.dataDir, { recursive: true, force: true });
  process.stdout.write(
    `\n${LEARNERS.toLocaleString('en')} learners on ${config.dialect}, ${CONNECTIONS} connections, ${SECONDS} s each${WARM_UP_SECONDS > 0 ? ` after ${WARM_UP_SECONDS} s of warm-up` : ''}; offered ${TARGET_RPS} req/s (target p95 ≤ ${TARGET_P95_MS} ms), then a closed loop:\n${rows.join('\n')}\n` +
      `\nMachine: ${cpus().length} CPUs, load average ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after (the client runs on the same cores).\n`,
  );
  if (failed) process.exitCode = 1;
};

await main();
