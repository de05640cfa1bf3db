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
import type { ChannelAdapters } from '../apps/api/src/delivery/channels.ts';
import { createConnectedAdapters } from '../apps/api/src/delivery/connected-adapters.ts';
import { answerCallback } from '../apps/api/src/delivery/render-common.ts';
import { runFeedback, runSchedulerTick } from '../apps/api/src/delivery/scheduler.ts';
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
// With --conversation (issue 28) the undisturbed run is day 2 of a course with feedback, reminders
// and repeats on: day 1 went out (unpaced, while preparing); a third of the learners answered it
// wrong that morning (told so then: their question comes back with day 2), a third answer it right
// minutes before day 2 (their feedback waits for the tick), a third never read it (reminded after
// 24 hours). The tick sends day 2's lessons, the feedback, the reminders and the repeats; the
// pacing minimum is every message the fake received / the connection's rate.
// Run: npx tsx bench/delivery.ts [--lessons 10000] [--kill-at 0.4] [--postgres postgres://…]
//      [--skip-clean | --skip-kill] [--conversation]

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WORKER = path.join(REPO, 'bench/lib/delivery-worker.ts');
const TARGET_SHARE = 0.1;
const SETUP_AT = '2026-11-22T09:00:00.000Z';
/** Day 1 at 09:30 Europe/Rome, when every lesson is due. */
const DUE_AT = '2026-11-23T08:30:00.000Z';
/** --conversation: day 2, when the measured tick runs, and when day 1's answers came in. */
const DAY2_AT = '2026-11-24T08:30:00.000Z';
const WRONG_ANSWERS_AT = '2026-11-23T09:30:00.000Z';
const RIGHT_ANSWERS_AT = '2026-11-24T08:25:00.000Z';

const { values } = parseArgs({
  options: {
    lessons: { type: 'string', default: '10000' },
    'kill-at': { type: 'string', default: '0.4' },
    postgres: { type: 'string' },
    'skip-clean': { type: 'boolean', default: false },
    'skip-kill': { type: 'boolean', default: false },
    conversation: { type: 'boolean', default: false },
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
  /** When the measured tick runs. */
  at: string;
  database: DatabaseConfig;
  dataDir: string;
  secretsKey: string;
  drop: () => Promise<void>;
};

/** Every adapter without its pace: day 1 of --conversation is setup, not measured. */
const unpaced = (adapters: ChannelAdapters): ChannelAdapters =>
  Object.fromEntries(
    Object.entries(adapters).map(([key, adapter]) => [key, { ...adapter, rateLimitPerSecond: 0 }]),
  ) as ChannelAdapters;

/** The conversation's course: two days, reminders every 24 hours, repeats at 90 % retention. */
const CONVERSATION_DISTRIBUTION = {
  reminder_count: 2,
  reminder_interval_hours: 24,
  auto_pause_after: 0,
  repeat_questions: true,
  target_retention: 90,
};

/**
 * --conversation's day 1, through the real code (the WhatsApp connector against the fake,
 * unpaced; answers as taps posted to the webhook): every lesson sent, a third answered
 * wrong an hour later and told so, a third answered right five minutes before day 2 (their
 * feedback waits for the measured tick), a third never read.
 */
const playDayOne = async (
  app: Awaited<ReturnType<typeof buildApp>>,
  clock: ReturnType<typeof createManualClock>,
  fake: Fake,
) => {
  const adapters = unpaced(
    createConnectedAdapters({
      db: app.db,
      clock: app.clock,
      secretBox: app.secretBox,
      channelSettings: app.channelSettings,
    }),
  );
  clock.set(DUE_AT);
  const day1 = await runSchedulerTick(app, { adapters });
  if (day1.sent !== LESSONS) throw new Error(`day 1 sent ${day1.sent} lessons, not ${LESSONS}`);
  const sends = await app.db
    .selectFrom('lesson_deliveries as d')
    .innerJoin('learner_channel_identities as i', (join) =>
      join.onRef('i.learner_uuid', '=', 'd.learner_uuid').onRef('i.channel', '=', 'd.channel'),
    )
    .select(['d.uuid', 'i.provider_user_id'])
    .where('d.day', '=', 1)
    .orderBy('d.uuid')
    .execute();
  // A tap on an answer button, as Meta posts it to the webhook (the fake signs it, and opens the
  // learner's window as Meta would).
  const answer = async (index: number, answerIndex: number) => {
    const send = sends[index]!;
    const reply = { id: answerCallback(send.uuid, answerIndex), title: 'Answer' };
    const { body, headers } = fake.inbound(send.provider_user_id, {
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: reply },
    });
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/whatsapp',
      headers,
      payload: body,
    });
    if (response.statusCode !== 200) throw new Error(`an answer got ${response.statusCode}`);
  };
  // The course's answers: Right (0, correct), Wrong (1), Maybe (2).
  clock.set(WRONG_ANSWERS_AT);
  for (let index = 0; index < sends.length; index += 3) await answer(index, 1);
  await runFeedback(app, { adapters });
  clock.set(RIGHT_ANSWERS_AT);
  for (let index = 1; index < sends.length; index += 3) await answer(index, 0);
};

/** A fresh database (SQLite file, or a Postgres schema) with the bench's world built through the API. */
const prepare = async (fake: Fake, conversation = false): Promise<Bench> => {
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
  const clock = createManualClock(SETUP_AT);
  const app = await buildApp({
    database,
    dataDir,
    clock,
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
    days: conversation ? 2 : 1,
    channels: ['whatsapp'],
    lists: [listUuid],
    status: 'scheduled',
  });
  await ask('POST', `${courses}/${String(draft.data.uuid)}`, {
    ...body,
    distribution: {
      ...body.distribution,
      disabled_enrolment_opt_in: true,
      ...(conversation ? CONVERSATION_DISTRIBUTION : {}),
    },
  });
  if (conversation) await playDayOne(app, clock, fake);
  const at = conversation ? DAY2_AT : DUE_AT;
  const due = await app.db
    .selectFrom('lesson_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('status', '=', 'scheduled')
    .where('scheduled_for', '<=', at)
    .executeTakeFirstOrThrow();
  if (Number(due.count) !== LESSONS) throw new Error(`${due.count} lessons due, not ${LESSONS}`);
  await app.close();
  return {
    at,
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
    at: bench.at,
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

/**
 * The tick's time, split: the provider's, the pace's, and the scheduler's own work (the rest),
 * against the pacing-bound minimum of `messages` at the connection's rate.
 */
const timingsOf = (report: WorkerReport, messages: number) => {
  const minimumMs = (messages / WHATSAPP_MESSAGES_PER_SECOND) * 1000;
  const ownMs = report.tick_ms - report.provider_ms - report.pacing_wait_ms;
  return {
    minimumMs,
    ownMs,
    timings: {
      pacing_minimum_s: seconds(minimumMs),
      tick_s: seconds(report.tick_ms),
      provider_s: seconds(report.provider_ms),
      provider_calls: report.provider_calls,
      pacing_wait_s: seconds(report.pacing_wait_ms),
      own_work_s: seconds(ownMs),
      own_work_share: Number((ownMs / minimumMs).toFixed(3)),
    },
  };
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
  const { minimumMs, ownMs, timings } = timingsOf(report, LESSONS);
  return {
    lessons: LESSONS,
    rate_per_second: WHATSAPP_MESSAGES_PER_SECOND,
    ...timings,
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

/** How many repeats went (each once in this bench: the first time their question came back). */
const repeatsSent = async (bench: Bench) => {
  const handle = createDatabase(bench.database);
  const row = await handle.db
    .selectFrom('question_repeats')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('sends', '>', 0)
    .executeTakeFirstOrThrow();
  await handle.close();
  return Number(row.count);
};

/**
 * --conversation's measured tick: day 2 with feedback, reminders and repeats. Its pacing minimum
 * is every message the fake took during it (a lesson inside the 24-hour window is its text and
 * its question) at the connection's rate.
 */
const conversationRun = async (fake: Fake) => {
  const bench = await prepare(fake, true);
  fake.messages.length = 0;
  const loadBefore = load();
  const report = (await startWorker(bench, fake).done)!;
  const repeats = await repeatsSent(bench);
  await bench.drop();
  const messages = fake.messages.length;
  const { minimumMs, ownMs, timings } = timingsOf(report, messages);
  const third = Math.floor(LESSONS / 3);
  return {
    learners: LESSONS,
    messages,
    rate_per_second: WHATSAPP_MESSAGES_PER_SECOND,
    ...timings,
    own_work_per_message_ms: Number((ownMs / messages).toFixed(2)),
    cpu_s: seconds(report.cpu_ms),
    lessons_sent: report.sent,
    feedback_sent: report.feedback,
    reminders_sent: report.reminders,
    repeats_sent: repeats,
    failed: report.failed,
    load_before: loadBefore,
    load_after: load(),
    ok:
      ownMs / minimumMs <= TARGET_SHARE &&
      report.sent === LESSONS &&
      report.failed === 0 &&
      Math.min(report.feedback, report.reminders, repeats) >= third,
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
    if (!values['skip-clean'] && values.conversation) {
      const conversation = await conversationRun(fake);
      process.stdout.write(`conversation run ${JSON.stringify(conversation, null, 2)}\n`);
      ok &&= conversation.ok;
    } else if (!values['skip-clean']) {
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
