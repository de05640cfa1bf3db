import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { buildApp } from '../apps/api/src/app.ts';
import {
  insertListRows,
  insertMemberRows,
} from '../apps/api/src/learners/learners-lists-repository.ts';
import { insertLearnerRows } from '../apps/api/src/learners/learners-repository.ts';
import { createManualClock } from '../apps/api/src/lib/clock.ts';
import { newUuid } from '../apps/api/src/lib/ids.ts';
import { validCourseBody } from '../apps/api/test/fixtures/courses.ts';
import { benchApi, createBenchAccount } from './lib/account.ts';

// Planning at volume with the learner's hours (issue 28): publishing a 10-lesson course to 10,000
// learners (one lesson_deliveries row each per day) under CET as before, and under each learner's
// own zone with quiet hours and holidays, learners spread over five zones and a fifth without one.
// The publish request's time is the planner's (enrolments, slots, 100,000 rows written); the
// hours may cost a few schedules per zone, not one per learner. Target: within 1.25× of CET.
// Run: npx tsx bench/planning.ts [--learners 10000] [--runs 3]

const { values } = parseArgs({
  options: {
    learners: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '3' },
  },
});
const LEARNERS = Number(values.learners);
const RUNS = Number(values.runs);
const TARGET_RATIO = 1.25;
const NOW = '2026-11-22T09:00:00.000Z';
const ZONES = [null, 'America/New_York', 'Europe/Berlin', 'Asia/Tokyo', 'America/Los_Angeles'];

type Setting = {
  name: string;
  hours: Record<string, unknown> | null;
  distribution: Record<string, unknown>;
};
const SETTINGS: Setting[] = [
  { name: 'CET (spec §9), no delivery hours', hours: null, distribution: {} },
  {
    name: 'learner zones, quiet hours 20:00–08:00, holidays IT',
    hours: { quiet_hours: { start: '20:00', end: '08:00' }, holiday_country: 'IT' },
    distribution: { learner_time_zone: true },
  },
];

/** One publish on a fresh database: the save that plans, in ms. */
const publishOnce = async (setting: Setting): Promise<number> => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ccp-bench-planning-'));
  const app = await buildApp({
    database: { dialect: 'sqlite', file: path.join(dataDir, 'ccp.sqlite') },
    dataDir,
    clock: createManualClock(NOW),
    logger: false,
  });
  try {
    const { companyUuid, classroomUuid, headers } = await createBenchAccount(app);
    const listUuid = newUuid();
    await insertListRows(app.db, [
      {
        uuid: listUuid,
        company_uuid: companyUuid,
        name: 'Bench',
        created_at: NOW,
        updated_at: NOW,
      },
    ]);
    const learners = Array.from({ length: LEARNERS }, (_, index) => ({
      uuid: newUuid(),
      company_uuid: companyUuid,
      first_name: 'Learner',
      last_name: String(index),
      email: `learner${index}@example.test`,
      phone: null,
      locale: 'en',
      time_zone: ZONES[index % ZONES.length]!,
      active: 1,
      reachability: 'unknown',
      channels: JSON.stringify(['slack']),
      created_at: NOW,
      updated_at: NOW,
      deleted_at: null,
    }));
    await insertLearnerRows(app.db, learners);
    await insertMemberRows(
      app.db,
      learners.map((learner) => ({ list_uuid: listUuid, learner_uuid: learner.uuid })),
    );
    const ask = benchApi(app, headers);
    if (setting.hours) await ask('PUT', '/api/v1/company/delivery-hours', setting.hours);
    const courses = `/api/v1/classrooms/${classroomUuid}/courses`;
    const draft = await ask('POST', courses, { name: 'Bench', description: 'Planning bench.' });
    const body = validCourseBody({
      languages: ['en'],
      days: 10,
      channels: ['slack'],
      lists: [listUuid],
      status: 'scheduled',
    });
    const started = performance.now();
    await ask('POST', `${courses}/${String(draft.data.uuid)}`, {
      ...body,
      distribution: {
        ...body.distribution,
        disabled_enrolment_opt_in: true,
        ...setting.distribution,
      },
    });
    const elapsed = performance.now() - started;
    const planned = await app.db
      .selectFrom('lesson_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    if (Number(planned.count) !== LEARNERS * 10) {
      throw new Error(`${planned.count} lessons planned, not ${LEARNERS * 10}`);
    }
    return elapsed;
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
};

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const loadBefore = loadavg()[0]!;
const medians: number[] = [];
for (const setting of SETTINGS) {
  const times: number[] = [];
  // Alternating would share the machine's load better; runs are long enough to be stable here.
  for (let run = 0; run < RUNS; run += 1) times.push(await publishOnce(setting));
  const ms = median(times);
  medians.push(ms);
  console.log(
    `${setting.name}: publish ${(ms / 1000).toFixed(2)} s median of ${RUNS} ` +
      `(${times.map((time) => (time / 1000).toFixed(2)).join(', ')}), ` +
      `${((ms * 1000) / LEARNERS).toFixed(0)} µs a learner`,
  );
}
const ratio = medians[1]! / medians[0]!;
console.log(
  `ratio ${ratio.toFixed(2)} (target ≤ ${TARGET_RATIO}); load ${loadBefore.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}`,
);
process.exitCode = ratio <= TARGET_RATIO ? 0 : 1;
