import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';

import {
  buildApi,
  loadAverage,
  npmStartArgs,
  procStatusMb,
  serverNodeVersion,
  sleep,
  startServer,
} from './lib/server.ts';

// What `npm start` costs an operator (issue 18): the compiled server's time from spawn to its
// first healthy answer, and its resident memory once idle, on a database with the demo already
// seeded. Targets: health ≤ 2 s, idle RSS ≤ 120 MB. The server runs exactly as `npm start` runs
// it (the node flags are read from the root package.json's start script).
// Run: npx tsx bench/start.ts  (BENCH_RUNS=5 starts, BENCH_IDLE_SECONDS=10 before reading RSS;
// BENCH_NODE=/path/to/node runs the server on another Node, e.g. 22 or 24 from the registry).

const TARGET_HEALTH_MS = 2_000;
const TARGET_RSS_MB = 120;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 10);

type Run = { healthMs: number; rssMb: number; peakMb: number };

const startOnce = async (dataDir: string, seed: 'demo' | 'none'): Promise<Run> => {
  const server = await startServer({ CCP_DATA_DIR: dataDir, CCP_SEED: seed });
  try {
    await sleep(IDLE_SECONDS * 1000);
    return {
      healthMs: server.healthMs,
      rssMb: procStatusMb(server.pid, 'VmRSS'),
      peakMb: procStatusMb(server.pid, 'VmHWM'),
    };
  } finally {
    await server.stop();
  }
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

const main = async () => {
  const loadBefore = loadAverage();
  buildApi();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ccp-bench-start-'));
  try {
    process.stdout.write(`Seeding the demo (first start)…\n`);
    const seeded = await startOnce(dataDir, 'demo');
    process.stdout.write(
      `  first start (migrate + seed): health ${seeded.healthMs.toFixed(0)} ms\n`,
    );
    const runs: Run[] = [];
    for (let run = 1; run <= RUNS; run += 1) {
      const result = await startOnce(dataDir, 'demo');
      runs.push(result);
      process.stdout.write(
        `  start ${run}: health ${result.healthMs.toFixed(0)} ms, idle RSS ${result.rssMb.toFixed(1)} MB (peak ${result.peakMb.toFixed(1)} MB)\n`,
      );
    }
    const health = median(runs.map((run) => run.healthMs));
    const rss = median(runs.map((run) => run.rssMb));

    process.stdout.write(
      [
        '',
        `server on node ${serverNodeVersion()}, ${cpus().length} cores, ${npmStartArgs().join(' ')}`,
        `health after start: median ${health.toFixed(0)} ms (target ≤ ${TARGET_HEALTH_MS}) ${health <= TARGET_HEALTH_MS ? 'OK' : 'OVER'}`,
        `idle RSS after ${IDLE_SECONDS} s: median ${rss.toFixed(1)} MB (target ≤ ${TARGET_RSS_MB}) ${rss <= TARGET_RSS_MB ? 'OK' : 'OVER'}`,
        `load average before ${loadBefore}, after ${loadAverage()}`,
        '',
      ].join('\n'),
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
};

await main();
