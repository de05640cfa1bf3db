import { fork } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildApp } from '../apps/api/src/app.ts';
import { createManualClock } from '../apps/api/src/lib/clock.ts';
import { issueTokenPair } from '../apps/api/src/lib/tokens.ts';
import { BENCH_NOW, buildDataset } from './lib/dataset.ts';
import type { Dataset } from './lib/dataset.ts';

// The delivery statistics export of a 100 000-learner course (issue 5: done in 5 s or less, with
// flat memory). Run: npx tsx bench/export.ts  (BENCH_LEARNERS to change).
//
// The dataset is built first; each export then runs in a fresh child process, whose resident
// size is sampled while the export runs (getrusage's maxRSS would not do: Linux carries it over
// from the parent through fork). Flat memory: the peak barely moves from 10 000 to 100 000.

const TARGET_SECONDS = 5;
const MEASURE = '--measure';

type Measurement = {
  seconds: number;
  rows: number;
  bytes: number;
  rssBeforeMb: number;
  /** Sampled while the export runs. */
  peakRssMb: number;
};

/** In the child: one export through the API, timed, with the process's peak memory. */
const measure = async (dataset: Dataset): Promise<Measurement> => {
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
  const rssBeforeMb = process.memoryUsage().rss / 2 ** 20;
  let sampledPeak = process.memoryUsage().rss;
  // The export yields between pages, so this sees the resident size as it goes.
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, process.memoryUsage().rss);
  }, 10);
  const started = performance.now();
  const response = await app.inject({
    method: 'POST',
    url: `/api/v1/analytics/courses/${dataset.courseUuids[0]}/export-delivery-statistics`,
    headers: { authorization: `Bearer ${tokens.access_token}` },
  });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  if (response.statusCode !== 201)
    throw new Error(`export answered ${response.statusCode}: ${response.body}`);
  const exportId = response.json<{ data: { export_id: string } }>().data.export_id;
  const row = await app.db
    .selectFrom('exports')
    .select(['rows', 'file_path'])
    .where('uuid', '=', exportId)
    .executeTakeFirstOrThrow();
  const bytes = statSync(path.join(dataset.dataDir, row.file_path ?? '')).size;
  await app.close();
  return {
    seconds,
    rows: row.rows,
    bytes,
    rssBeforeMb,
    peakRssMb: sampledPeak / 2 ** 20,
  };
};

const inChild = (dataset: Dataset) =>
  new Promise<Measurement>((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [MEASURE, JSON.stringify(dataset)], {
      execArgv: process.execArgv,
    });
    child.once('message', (message) => resolve(message as Measurement));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the export child exited with ${code}`));
    });
  });

const run = async (learners: number) => {
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
    ],
  });
  try {
    return { learners, built: dataset.seconds, ...(await inChild(dataset)) };
  } finally {
    rmSync(dataset.dataDir, { recursive: true, force: true });
  }
};

const main = async () => {
  const learners = Number(process.env.BENCH_LEARNERS ?? 100_000);
  const results = [];
  for (const size of [Math.max(1, Math.round(learners / 10)), learners]) {
    process.stdout.write(`Exporting ${size.toLocaleString('en')} learners…\n`);
    results.push(await run(size));
  }
  process.stdout.write(
    `\n${'learners'.padStart(9)} ${'rows'.padStart(8)} ${'file'.padStart(9)} ${'time'.padStart(8)} ${'RSS before'.padStart(11)} ${'peak RSS'.padStart(9)}\n`,
  );
  for (const result of results) {
    process.stdout.write(
      `${result.learners.toLocaleString('en').padStart(9)} ${String(result.rows).padStart(8)} ${(result.bytes / 2 ** 20).toFixed(1).padStart(6)} MB ${result.seconds.toFixed(2).padStart(6)} s ${result.rssBeforeMb.toFixed(0).padStart(8)} MB ${result.peakRssMb.toFixed(0).padStart(6)} MB\n`,
    );
  }
  const big = results[results.length - 1]!;
  const small = results[0]!;
  const ok = big.seconds <= TARGET_SECONDS;
  process.stdout.write(
    `\nTarget: ≤ ${TARGET_SECONDS} s (${ok ? 'ok' : 'OVER'}); peak RSS grows ${(big.peakRssMb - small.peakRssMb).toFixed(0)} MB for ${(big.learners - small.learners).toLocaleString('en')} more learners.\n`,
  );
  if (!ok) process.exitCode = 1;
};

if (process.argv[2] === MEASURE) {
  measure(JSON.parse(process.argv[3] ?? '{}') as Dataset)
    .then((result) => process.send?.(result, () => process.exit(0)))
    .catch((error: unknown) => {
      process.stderr.write(
        `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    });
} else {
  main().catch((error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
