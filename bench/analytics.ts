import { rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

import { buildApp } from '../apps/api/src/app.ts';
import { createManualClock } from '../apps/api/src/lib/clock.ts';
import { issueTokenPair } from '../apps/api/src/lib/tokens.ts';
import { BENCH_NOW, buildDataset, summary } from './lib/dataset.ts';

// The analytics endpoints at 100 000 learners and 30-lesson courses (issue 5: each answers in
// 200 ms or less). Run: npx tsx bench/analytics.ts  (BENCH_LEARNERS, BENCH_RUNS to change).
//
// Dataset: one classroom, 100 000 learners, all in a delivered course whose 30 lessons were all
// sent (about 2.9 million lesson sends) and in an active 30-lesson course 5 lessons in.

const TARGET_MS = 200;
const learners = Number(process.env.BENCH_LEARNERS ?? 100_000);
const runs = Number(process.env.BENCH_RUNS ?? 7);

const main = async () => {
  process.stdout.write(`Building ${learners.toLocaleString('en')} learners…\n`);
  const dataset = await buildDataset({
    learners,
    courses: [
      {
        name: 'Delivered',
        status: 'delivered',
        startDate: '2026-10-01',
        lessonDays: 30,
        sentDays: 30,
      },
      { name: 'Active', status: 'active', startDate: '2026-11-17', lessonDays: 30, sentDays: 5 },
    ],
  });
  process.stdout.write(
    `Built ${dataset.deliveries.toLocaleString('en')} lesson sends in ${dataset.seconds.toFixed(1)} s\n\n`,
  );

  const clock = createManualClock(BENCH_NOW);
  const app = await buildApp({
    database: { dialect: 'sqlite', file: dataset.file },
    dataDir: dataset.dataDir,
    clock,
  });
  const tokens = await issueTokenPair(
    { db: app.db, clock, settings: app.authSettings },
    dataset.userUuid,
    'full',
  );
  const headers = { authorization: `Bearer ${tokens.access_token}` };
  const v1 = `/api/v1/analytics/classrooms/${dataset.classroomUuid}`;
  const v2 = `/api/v2/analytics/classrooms/${dataset.classroomUuid}`;
  const endpoints: [label: string, url: string][] = [
    ['v2 courses/insights', `${v2}/courses/insights`],
    ['v2 statistics', `${v2}/statistics`],
    ['v1 classroom analytics', v1],
    ['v1 classroom analytics, 7 days', `${v1}?start_date=2026-11-16&end_date=2026-11-22`],
    ['v1 classroom analytics, whole year', `${v1}?start_date=2026-01-01&end_date=2026-12-31`],
    ['v1 learners', `${v1}/learners`],
    ['v2 learners/status', `${v2}/learners/status`],
    [
      'v2 learners/status, 7 days',
      `${v2}/learners/status?start_date=2026-11-16&end_date=2026-11-22`,
    ],
    ['v2 distribution (15 days)', `${v2}/distribution`],
    ['v1 distribution, 2 months', `${v1}/distribution?start_date=2026-10-01&end_date=2026-11-30`],
    ['v1 learners/{id}', `/api/v1/analytics/learners/${dataset.sampleLearnerUuid}`],
    ['v2 courses/{id}/questions', `${v2}/courses/${dataset.courseUuids[0]}/questions`],
  ];

  const rows: string[] = [];
  let failures = 0;
  for (const [label, url] of endpoints) {
    const times: number[] = [];
    const cpuTimes: number[] = [];
    for (let run = 0; run <= runs; run += 1) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      const response = await app.inject({ method: 'GET', url, headers });
      const elapsed = performance.now() - started;
      const used = process.cpuUsage(cpu);
      if (response.statusCode !== 200) {
        throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
      }
      // The first run warms the caches.
      if (run > 0) {
        times.push(elapsed);
        cpuTimes.push((used.user + used.system) / 1000);
      }
    }
    const { median, max } = summary(times);
    const cpu = summary(cpuTimes).median;
    const ok = median <= TARGET_MS;
    if (!ok) failures += 1;
    rows.push(
      `${label.padEnd(38)} ${median.toFixed(1).padStart(8)} ms ${max.toFixed(1).padStart(8)} ms ${cpu.toFixed(1).padStart(8)} ms  ${ok ? 'ok' : 'OVER'}`,
    );
  }
  const [load] = loadavg();
  process.stdout.write(
    `${'endpoint'.padEnd(38)} ${'median'.padStart(11)} ${'max'.padStart(11)} ${'CPU'.padStart(11)}\n`,
  );
  process.stdout.write(
    `${rows.join('\n')}\n\nTarget: median ≤ ${TARGET_MS} ms; ${failures} over. (${runs} runs each after a warm-up; load average ${load?.toFixed(1)} on ${cpus().length} CPUs; CPU = this process's CPU time.)\n`,
  );

  await app.close();
  rmSync(dataset.dataDir, { recursive: true, force: true });
  if (failures > 0) process.exitCode = 1;
};

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
