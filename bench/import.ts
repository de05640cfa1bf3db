// Bulk learner import benchmark: generates a CSV of learners, uploads it over real HTTP to an
// in-process API on a fresh database, lets the job runner import it, and prints rows/s and the
// peak RSS of the process (server and client share it, so the figure is an upper bound).
//
//   node --import tsx bench/import.ts [--rows 100000] [--postgres postgres://…] [--inline] [--list]
//     [--keep]
//
// --list imports into a learners list (every learner also joins it).
//
// Server time is measured from the first byte of the upload to the job's `completed`. With
// --postgres on this machine it also prints the CPU the database's backends used meanwhile
// (db_cpu_s): the server shares the cores with the API.

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { sql } from 'kysely';

import { buildApp } from '../apps/api/src/app.ts';
import { createDatabase } from '../apps/api/src/db/index.ts';
import type { DatabaseConfig, Db } from '../apps/api/src/db/index.ts';
import { newUuid } from '../apps/api/src/lib/ids.ts';
import { stopImportWorker, warmUpImportWorker } from '../apps/api/src/imports/batches.ts';
import { startJobRunner } from '../apps/api/src/jobs/runner.ts';
import { insertListRows } from '../apps/api/src/learners/learners-lists-repository.ts';
import {
  procCpuSeconds,
  seedBenchAccount,
  uploadImport,
  waitForImport,
  writeLearnersCsv,
} from './lib/server.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    postgres: { type: 'string' },
    keep: { type: 'boolean', default: false },
    inline: { type: 'boolean', default: false },
    list: { type: 'boolean', default: false },
  },
});
const rows = Number(values.rows);

/**
 * CPU seconds used so far by each backend of the database, read from /proc: only for a server
 * on this machine (others answer nothing).
 */
const backendCpu = async (db: Db): Promise<Map<number, number>> => {
  const { rows: backends } = await sql<{ pid: number }>`
    select pid from pg_stat_activity where datname = current_database()`.execute(db);
  const seconds = new Map<number, number>();
  for (const { pid } of backends) {
    try {
      seconds.set(pid, procCpuSeconds(pid));
    } catch {
      // Not on this machine, or the backend exited.
    }
  }
  return seconds;
};

const main = async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ccp-bench-import-'));
  const file = path.join(dir, 'learners.csv');
  let schema: string | undefined;
  let database: DatabaseConfig = { dialect: 'sqlite', file: path.join(dir, 'ccp.sqlite') };
  if (values.postgres) {
    schema = `bench_${newUuid().replace(/-/g, '').slice(0, 12)}`;
    const admin = createDatabase({ dialect: 'postgres', url: values.postgres });
    await sql`create schema ${sql.id(schema)}`.execute(admin.db);
    await admin.close();
    database = { dialect: 'postgres', url: values.postgres, schema };
  }

  const genStart = performance.now();
  await writeLearnersCsv(file, { rows });
  const bytes = statSync(file).size;
  process.stdout.write(
    `generated ${rows.toLocaleString('en')} rows, ${(bytes / 1e6).toFixed(1)} MB in ${((performance.now() - genStart) / 1000).toFixed(2)} s\n`,
  );

  const handle = createDatabase(database);
  const app = await buildApp({ database: handle, dataDir: dir, logger: false });
  const { companyUuid, tokens } = await seedBenchAccount(app);
  const listUuid = values.list ? newUuid() : null;
  if (listUuid) {
    const now = new Date().toISOString();
    await insertListRows(app.db, [
      {
        uuid: listUuid,
        company_uuid: companyUuid,
        name: 'Bench',
        created_at: now,
        updated_at: now,
      },
    ]);
  }
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const runner = startJobRunner(app, { pollMs: 50 });
  // As in a server that has been up a few seconds: the import worker thread is ready.
  // --inline stops it, so rows are read and validated on the job's thread.
  const worker = values.inline ? (await stopImportWorker(), false) : await warmUpImportWorker();

  const rssBefore = process.memoryUsage().rss;
  let peakRss = rssBefore;
  let peakHeap = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    const memory = process.memoryUsage();
    peakRss = Math.max(peakRss, memory.rss);
    peakHeap = Math.max(peakHeap, memory.heapUsed);
  }, 20);

  // The machine's 1-minute load when the upload starts: figures are comparable when it is low.
  const loadBefore = loadavg()[0]!;
  const dbCpuBefore = values.postgres ? await backendCpu(app.db) : null;
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const uuid = await uploadImport(
    address,
    tokens.access_token,
    file,
    listUuid ? { list_uuid: listUuid } : {},
  );
  const accepted = performance.now();
  // Polled as a client does, through the API (every 50 ms: the figure is ±50 ms).
  const job = await waitForImport(address, tokens.access_token, uuid, 50);
  const done = performance.now();
  const cpu = process.cpuUsage(cpuStart);
  clearInterval(sampler);
  let dbCpu: number | null = null;
  if (dbCpuBefore) {
    const after = await backendCpu(app.db);
    let seconds = 0;
    for (const [pid, used] of after) seconds += used - (dbCpuBefore.get(pid) ?? 0);
    dbCpu = after.size > 0 ? Number(seconds.toFixed(2)) : null;
  }
  const learners = await app.db
    .selectFrom('learners')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('company_uuid', '=', companyUuid)
    .executeTakeFirstOrThrow();
  const members = listUuid
    ? await app.db
        .selectFrom('learners_list_members')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('list_uuid', '=', listUuid)
        .executeTakeFirstOrThrow()
    : null;

  const total = (done - start) / 1000;
  const result = {
    database: database.dialect,
    worker_thread: worker,
    rows,
    file_mb: Number((bytes / 1e6).toFixed(1)),
    status: job.status,
    created: job.created,
    failed: job.failed,
    learners_in_db: Number(learners.count),
    ...(members ? { list_members: Number(members.count) } : {}),
    upload_and_check_s: Number(((accepted - start) / 1000).toFixed(2)),
    job_s: Number(((done - accepted) / 1000).toFixed(2)),
    total_s: Number(total.toFixed(2)),
    rows_per_s: Math.round(rows / total),
    // CPU of both threads over the same window: a fair figure when other work shares the machine.
    cpu_s: Number(((cpu.user + cpu.system) / 1e6).toFixed(2)),
    ...(dbCpu === null ? {} : { db_cpu_s: dbCpu }),
    load_average_before: Number(loadBefore.toFixed(2)),
    rss_before_mb: Math.round(rssBefore / 1e6),
    peak_rss_mb: Math.round(Math.max(peakRss, process.resourceUsage().maxRSS * 1024) / 1e6),
    peak_main_heap_mb: Math.round(peakHeap / 1e6),
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);

  await runner.stop();
  await app.close();
  await handle.close();
  if (schema && values.postgres) {
    const admin = createDatabase({ dialect: 'postgres', url: values.postgres });
    await sql`drop schema ${sql.id(schema)} cascade`.execute(admin.db);
    await admin.close();
  }
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
  else process.stdout.write(`kept ${dir}\n`);
};

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
