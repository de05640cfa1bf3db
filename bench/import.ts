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

import {
  createWriteStream,
  mkdtempSync,
  openAsBlob,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
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
import { createBenchAccount } from './lib/account.ts';

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

const FIRST = ['Giulia', 'Marco', 'Zoë', 'Jürgen', 'Ana', 'Seán', 'Chloé', 'Luca', 'Émilie', 'Ada'];
const LAST = ['Rossi', 'Müller', "O'Brien", 'García', 'Bianchi', 'Dubois', 'Novák', 'Esposito'];
const CHANNELS = ['slack', 'ms-teams', '"slack,whatsapp"', 'webex', 'google-chat', 'whatsapp'];
const LOCALES = ['en', 'it', 'de'];

/** A learner-like CSV: accents, a quoted multi-channel cell, a third with phones. */
const generate = async (file: string, count: number) => {
  const out = createWriteStream(file, { highWaterMark: 1 << 20 });
  out.write('first_name,last_name,email,phone,channels,locale\n');
  for (let n = 0; n < count; n += 1) {
    const channels = CHANNELS[n % CHANNELS.length]!;
    const needsPhone = channels.includes('whatsapp');
    const line = `${FIRST[n % FIRST.length]},${LAST[n % LAST.length]},learner${n}@example.org,${needsPhone ? `+39 333 ${String(1_000_000 + n)}` : ''},${channels},${LOCALES[n % 3]}\n`;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
};

/**
 * CPU ticks (1/100 s) used so far by each backend of the database, read from /proc: only for a
 * server on this machine (others answer nothing).
 */
const backendTicks = async (db: Db): Promise<Map<number, number>> => {
  const { rows: backends } = await sql<{ pid: number }>`
    select pid from pg_stat_activity where datname = current_database()`.execute(db);
  const ticks = new Map<number, number>();
  for (const { pid } of backends) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command: state is the first, utime the 12th and stime the 13th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // Not on this machine, or the backend exited.
    }
  }
  return ticks;
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
  await generate(file, rows);
  const bytes = statSync(file).size;
  process.stdout.write(
    `generated ${rows.toLocaleString('en')} rows, ${(bytes / 1e6).toFixed(1)} MB in ${((performance.now() - genStart) / 1000).toFixed(2)} s\n`,
  );

  const handle = createDatabase(database);
  const app = await buildApp({ database: handle, dataDir: dir, logger: false });
  const { companyUuid, accessToken } = await createBenchAccount(app);
  const now = new Date().toISOString();
  const listUuid = values.list ? newUuid() : null;
  if (listUuid) {
    await app.db
      .insertInto('learners_lists')
      .values({
        uuid: listUuid,
        company_uuid: companyUuid,
        name: 'Bench',
        created_at: now,
        updated_at: now,
      })
      .execute();
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

  const form = new FormData();
  form.append('file', await openAsBlob(file), 'learners.csv');
  if (listUuid) form.append('list_uuid', listUuid);
  // The machine's 1-minute load when the upload starts: figures are comparable when it is low.
  const loadBefore = loadavg()[0]!;
  const dbTicksBefore = values.postgres ? await backendTicks(app.db) : null;
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const response = await fetch(`${address}/api/v1/learners/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}` },
    body: form,
  });
  const accepted = performance.now();
  const body = (await response.json()) as { data: { uuid: string } };
  if (response.status !== 202)
    throw new Error(`upload answered ${response.status}: ${JSON.stringify(body)}`);

  let job: Record<string, unknown> = {};
  // Poll the job as a client does, through the API (every 50 ms: the figure is ±50 ms).
  for (;;) {
    const status = await fetch(`${address}/api/v1/learners/imports/${body.data.uuid}`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    job = ((await status.json()) as { data: Record<string, unknown> }).data;
    if (['completed', 'failed', 'canceled'].includes(String(job.status))) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const done = performance.now();
  const cpu = process.cpuUsage(cpuStart);
  clearInterval(sampler);
  let dbCpu: number | null = null;
  if (dbTicksBefore) {
    const after = await backendTicks(app.db);
    let ticks = 0;
    for (const [pid, used] of after) ticks += used - (dbTicksBefore.get(pid) ?? 0);
    dbCpu = after.size > 0 ? ticks / 100 : null;
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
