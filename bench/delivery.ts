import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { sql } from 'kysely';

import { buildApp } from '../apps/api/src/app.ts';
import { createDatabase } from '../apps/api/src/db/index.ts';
import type { DatabaseConfig } from '../apps/api/src/db/index.ts';
import { WHATSAPP_MESSAGES_PER_SECOND } from '../apps/api/src/delivery/channels/whatsapp/client.ts';
import {
  insertListRows,
  insertMemberRows,
} from '../apps/api/src/learners/learners-lists-repository.ts';
import { insertLearnerRows } from '../apps/api/src/learners/learners-repository.ts';
import { createManualClock } from '../apps/api/src/lib/clock.ts';
import { newUuid } from '../apps/api/src/lib/ids.ts';
import { startFakeWhatsApp } from '../apps/api/test/fakes/whatsapp.ts';
import type { WhatsAppMessage } from '../apps/api/test/fakes/whatsapp.ts';
import { validCourseBody } from '../apps/api/test/fixtures/courses.ts';
import { benchApi, createBenchAccount } from './lib/account.ts';
import type { WorkerConfig, WorkerReport } from './lib/delivery-worker.ts';

// Real delivery at volume (issue 16): 10 000 lessons due at once on one WhatsApp connection,
// sent by the scheduler in its own process to the fake Cloud API on 127.0.0.1 (the test fake,
// which validates every message). Two runs on two fresh databases built through the API
// (learners, the connection, a published course):
//  1. undisturbed: the scheduler's own work (claim, render, bookkeeping: the tick's wall time
//     less the time in calls to the provider and less the time waiting for the connection's
//     pace) against the pacing-bound minimum (lessons / the connection's rate). Target ≤ 10 %.
//  2. kill -9: the scheduler process is killed with SIGKILL once a share of the lessons arrived,
//     then started again; the fake counts what it received per lesson send: nothing may arrive
//     twice, and the lesson in flight at the kill is never sent again (scheduler.ts).
// Run: npx tsx bench/delivery.ts [--lessons 10000] [--kill-at 0.4] [--postgres postgres://…]
//      [--skip-clean | --skip-kill]

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WORKER = path.join(REPO, 'bench/lib/delivery-worker.ts');
const TARGET_SHARE = 0.1;
const SETUP_AT = '2026-11-22T09:00:00.000Z';
/** Day 1 at 09:30 Europe/Rome, when every lesson is due. */
const DUE_AT = '2026-11-23T08:30:00.000Z';

const { values } = parseArgs({
  options: {
    lessons: { type: 'string', default: '10000' },
    'kill-at': { type: 'string', default: '0.4' },
    postgres: { type: 'string' },
    'skip-clean': { type: 'boolean', default: false },
    'skip-kill': { type: 'boolean', default: false },
  },
});
const LESSONS = Number(values.lessons);
const KILL_AT = Number(values['kill-at']);

const seconds = (ms: number) => Number((ms / 1000).toFixed(2));
const load = () => Number(loadavg()[0]!.toFixed(2));

type Fake = Awaited<ReturnType<typeof startFakeWhatsApp>>;

/** The lesson send a message belongs to: the delivery uuid its Start reply carries back. */
const deliveryOf = (message: WhatsAppMessage): string => {
  const template = message.template as
    { components?: { type: string; parameters?: { payload?: string }[] }[] } | undefined;
  const components = template?.components ?? [];
  const payload = components.find((component) => component.type === 'button')?.parameters?.[0]
    ?.payload;
  return (JSON.parse(payload ?? '{}') as { delivery_uuid?: string }).delivery_uuid ?? '';
};

type Bench = {
  database: DatabaseConfig;
  dataDir: string;
  secretsKey: string;
  drop: () => Promise<void>;
};

/** A fresh database (SQLite file, or a Postgres schema) with the bench's world built through the API. */
const prepare = async (fake: Fake): Promise<Bench> => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ccp-bench-delivery-'));
  let database: DatabaseConfig = { dialect: 'sqlite', file: path.join(dataDir, 'ccp.sqlite') };
  let dropSchema = async () => {};
  if (values.postgres) {
    const url = values.postgres;
    const schema = `bench_${newUuid().replace(/-/g, '').slice(0, 12)}`;
    const admin = createDatabase({ dialect: 'postgres', url });
    await sql`create schema ${sql.id(schema)}`.execute(admin.db);
    await admin.close();
    database = { dialect: 'postgres', url, schema };
    dropSchema = async () => {
      const cleanup = createDatabase({ dialect: 'postgres', url });
      await sql`drop schema ${sql.id(schema)} cascade`.execute(cleanup.db);
      await cleanup.close();
    };
  }
  const secretsKey = randomBytes(32).toString('base64');
  const app = await buildApp({
    database,
    dataDir,
    clock: createManualClock(SETUP_AT),
    secretsKey,
    channels: { whatsapp: { apiUrl: fake.apiUrl } },
    logger: false,
  });
  const now = SETUP_AT;
  const { companyUuid, classroomUuid, headers } = await createBenchAccount(app);
  const listUuid = newUuid();
  await insertListRows(app.db, [
    { uuid: listUuid, company_uuid: companyUuid, name: 'Bench', created_at: now, updated_at: now },
  ]);
  const learners = Array.from({ length: LESSONS }, (_, index) => ({
    uuid: newUuid(),
    company_uuid: companyUuid,
    first_name: 'Learner',
    last_name: String(index),
    email: `learner${index}@example.test`,
    phone: `+3933${String(index).padStart(8, '0')}`,
    locale: 'en',
    active: 1,
    reachability: 'unknown',
    channels: JSON.stringify(['whatsapp']),
    created_at: now,
    updated_at: now,
    deleted_at: null,
  }));
  await insertLearnerRows(app.db, learners);
  await insertMemberRows(
    app.db,
    learners.map((learner) => ({ list_uuid: listUuid, learner_uuid: learner.uuid })),
  );
  const ask = benchApi(app, headers);
  const connection = await ask('PUT', '/api/v1/channel-connections/whatsapp', {
    fields: {
      business_account_id: fake.businessAccountId,
      phone_number_id: fake.phoneNumberId,
      template_name: fake.templateName,
      access_token: fake.token,
      app_secret: fake.appSecret,
      verify_token: 'bench-verify-token',
    },
  });
  if (connection.data.status !== 'connected')
    throw new Error(`the connection is ${String(connection.data.status)}`);
  const courses = `/api/v1/classrooms/${classroomUuid}/courses`;
  const draft = await ask('POST', courses, { name: 'Bench', description: 'Delivery bench.' });
  const body = validCourseBody({
    languages: ['en'],
    days: 1,
    channels: ['whatsapp'],
    lists: [listUuid],
    status: 'scheduled',
  });
  await ask('POST', `${courses}/${String(draft.data.uuid)}`, {
    ...body,
    distribution: { ...body.distribution, disabled_enrolment_opt_in: true },
  });
  const due = await app.db
    .selectFrom('lesson_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('status', '=', 'scheduled')
    .where('scheduled_for', '<=', DUE_AT)
    .executeTakeFirstOrThrow();
  if (Number(due.count) !== LESSONS) throw new Error(`${due.count} lessons due, not ${LESSONS}`);
  await app.close();
  return {
    database,
    dataDir,
    secretsKey,
    drop: async () => {
      await dropSchema();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

type Worker = { child: ChildProcess; done: Promise<WorkerReport | null> };

/** Starts the scheduler process on the bench's database; `done` answers its report (null if killed). */
const startWorker = (bench: Bench, fake: Fake): Worker => {
  const config: WorkerConfig = {
    database: bench.database,
    dataDir: bench.dataDir,
    secretsKey: bench.secretsKey,
    channels: { whatsapp: { apiUrl: fake.apiUrl } },
    at: DUE_AT,
  };
  // BENCH_WORKER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the scheduler process.
  const nodeArgs = (process.env.BENCH_WORKER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', WORKER], {
    cwd: REPO,
    env: { ...process.env, BENCH_DELIVERY_WORKER: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  const done = new Promise<WorkerReport | null>((resolve, reject) => {
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') return resolve(null);
      if (code !== 0) return reject(new Error(`the scheduler process exited with ${code}`));
      const line = out.trim().split('\n').at(-1) ?? '';
      resolve(JSON.parse(line) as WorkerReport);
    });
  });
  return { child, done };
};

/** What the database says of the lesson sends. */
const statuses = async (bench: Bench) => {
  const handle = createDatabase(bench.database);
  const rows = await handle.db.selectFrom('lesson_deliveries').select(['uuid', 'status']).execute();
  await handle.close();
  const by = new Map<string, string[]>();
  for (const row of rows) by.set(row.status, [...(by.get(row.status) ?? []), row.uuid]);
  return by;
};

/** How many times the fake received each lesson send. */
const receivedCounts = (fake: Fake) => {
  const counts = new Map<string, number>();
  for (const message of fake.messages) {
    const delivery = deliveryOf(message);
    counts.set(delivery, (counts.get(delivery) ?? 0) + 1);
  }
  return counts;
};

const cleanRun = async (fake: Fake) => {
  const bench = await prepare(fake);
  fake.messages.length = 0;
  const loadBefore = load();
  const worker = startWorker(bench, fake);
  const report = (await worker.done)!;
  const counts = receivedCounts(fake);
  const db = await statuses(bench);
  await bench.drop();
  const minimumMs = (LESSONS / WHATSAPP_MESSAGES_PER_SECOND) * 1000;
  const ownMs = report.tick_ms - report.provider_ms - report.pacing_wait_ms;
  return {
    lessons: LESSONS,
    rate_per_second: WHATSAPP_MESSAGES_PER_SECOND,
    pacing_minimum_s: seconds(minimumMs),
    tick_s: seconds(report.tick_ms),
    provider_s: seconds(report.provider_ms),
    provider_calls: report.provider_calls,
    pacing_wait_s: seconds(report.pacing_wait_ms),
    own_work_s: seconds(ownMs),
    own_work_share: Number((ownMs / minimumMs).toFixed(3)),
    own_work_per_lesson_ms: Number((ownMs / LESSONS).toFixed(2)),
    cpu_s: seconds(report.cpu_ms),
    sent: report.sent,
    failed: report.failed,
    received: fake.messages.length,
    received_twice: [...counts.values()].filter((count) => count > 1).length,
    db_sent: db.get('sent')?.length ?? 0,
    load_before: loadBefore,
    load_after: load(),
    ok: ownMs / minimumMs <= TARGET_SHARE && report.sent === LESSONS && counts.size === LESSONS,
  };
};

const killRun = async (fake: Fake) => {
  const bench = await prepare(fake);
  fake.messages.length = 0;
  const loadBefore = load();
  // Killed the moment the fake takes lesson `killAt`, before its answer goes back: the worst
  // moment, a lesson the provider has but the scheduler never heard was sent.
  const killAt = Math.floor(LESSONS * KILL_AT);
  const first = startWorker(bench, fake);
  onMessage = () => {
    if (fake.messages.length === killAt) first.child.kill('SIGKILL');
  };
  await first.done;
  onMessage = () => {};
  const atKill = fake.messages.length;
  const afterKill = await statuses(bench);
  const second = startWorker(bench, fake);
  const report = await second.done;
  const counts = receivedCounts(fake);
  const db = await statuses(bench);
  const inFlight = afterKill.get('sending') ?? [];
  await bench.drop();
  const twice = [...counts.values()].filter((count) => count > 1).length;
  const sent = db.get('sent') ?? [];
  return {
    lessons: LESSONS,
    received_at_kill: atKill,
    sent_at_kill: afterKill.get('sent')?.length ?? 0,
    in_flight_at_kill: inFlight.length,
    in_flight_received: inFlight.filter((uuid) => counts.has(uuid)).length,
    second_run_sent: report?.sent ?? 0,
    received: fake.messages.length,
    received_twice: twice,
    db_sent: sent.length,
    db_sending: db.get('sending')?.length ?? 0,
    sent_not_received: sent.filter((uuid) => !counts.has(uuid)).length,
    load_before: loadBefore,
    load_after: load(),
    // Nothing twice, every lesson once (the one in flight too), none marked sent unreceived.
    ok: twice === 0 && counts.size === LESSONS && sent.every((uuid) => counts.get(uuid) === 1),
  };
};

/** What the fake does with each message it takes (the kill -9 run sets it). */
let onMessage: (message: WhatsAppMessage) => void = () => {};

const main = async () => {
  const fake = await startFakeWhatsApp({ onMessage: (message) => onMessage(message) });
  const machine = `${cpus().length} cores, Node ${process.versions.node}, ${values.postgres ? 'PostgreSQL' : 'SQLite'}`;
  process.stdout.write(
    `delivery bench: ${LESSONS} lessons on one WhatsApp connection (${machine})\n`,
  );
  let ok = true;
  try {
    if (!values['skip-clean']) {
      const clean = await cleanRun(fake);
      process.stdout.write(`undisturbed run ${JSON.stringify(clean, null, 2)}\n`);
      ok &&= clean.ok;
    }
    if (!values['skip-kill']) {
      const killed = await killRun(fake);
      process.stdout.write(`kill -9 run ${JSON.stringify(killed, null, 2)}\n`);
      ok &&= killed.ok;
    }
    if (fake.refused.length > 0) {
      process.stdout.write(`the fake refused ${fake.refused.length} messages\n`);
      ok = false;
    }
  } finally {
    await fake.close();
  }
  process.exit(ok ? 0 : 1);
};

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
