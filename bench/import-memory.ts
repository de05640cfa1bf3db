import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { buildApp } from '../apps/api/src/app.ts';
import {
  buildApi,
  loadAverage,
  npmStartArgs,
  procCpuSeconds,
  procStatusMb,
  seedBenchAccount,
  sleep,
  startServer,
  uploadImport,
  waitForImport,
  writeLearnersCsv,
} from './lib/server.ts';

// The server's memory during a bulk import (issue 18): the compiled server, started as `npm start`
// starts it, imports a 10,000-row and then a 100,000-row CSV uploaded over HTTP; its RSS is read
// from /proc every 25 ms (the server only: the client is this process), with the CPU seconds the
// server used (a fairer time than the wall clock on a shared machine). Targets: peak ≤ 300 MB at
// 100,000 rows, and flat: the 100,000-row peak close to the 10,000-row one.
// Run: npx tsx bench/import-memory.ts  (BENCH_SIZES=10000,100000)

const TARGET_PEAK_MB = 300;
const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);

type Result = { rows: number; before: number; peak: number; seconds: number; cpu: number };

const main = async () => {
  const loadBefore = loadAverage();
  buildApi();
  const dir = mkdtempSync(path.join(tmpdir(), 'ccp-bench-import-memory-'));
  try {
    // The account is written before the server starts (the server opens the same SQLite file).
    const seeder = await buildApp({
      database: { dialect: 'sqlite', file: path.join(dir, 'ccp.sqlite') },
      dataDir: dir,
      webDist: false,
    });
    const { tokens } = await seedBenchAccount(seeder);
    await seeder.close();

    const server = await startServer({ CCP_DATA_DIR: dir, CCP_SEED: 'none' });
    try {
      await sleep(2000);
      const results: Result[] = [];
      let offset = 0;
      for (const rows of SIZES) {
        const file = path.join(dir, `learners-${rows}.csv`);
        await writeLearnersCsv(file, { rows, offset });
        offset += rows;
        const before = procStatusMb(server.pid, 'VmRSS');
        let peak = before;
        const sampler = setInterval(() => {
          peak = Math.max(peak, procStatusMb(server.pid, 'VmRSS'));
        }, 25);
        const cpuBefore = procCpuSeconds(server.pid);
        const started = performance.now();
        const uuid = await uploadImport(server.base, tokens.access_token, file);
        const job = await waitForImport(server.base, tokens.access_token, uuid, 100);
        clearInterval(sampler);
        if (job.status !== 'completed') throw new Error(`the import ended ${String(job.status)}`);
        const result = {
          rows,
          before,
          peak,
          seconds: (performance.now() - started) / 1000,
          cpu: procCpuSeconds(server.pid) - cpuBefore,
        };
        results.push(result);
        process.stdout.write(
          `${rows.toLocaleString('en')} rows: RSS before ${before.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, ${result.seconds.toFixed(1)} s, server CPU ${result.cpu.toFixed(1)} s\n`,
        );
        rmSync(file, { force: true });
        await sleep(1000);
      }
      const largest = results.at(-1)!;
      const smallest = results[0]!;
      process.stdout.write(
        [
          '',
          `peak at ${largest.rows.toLocaleString('en')} rows: ${largest.peak.toFixed(0)} MB (target ≤ ${TARGET_PEAK_MB}) ${largest.peak <= TARGET_PEAK_MB ? 'OK' : 'OVER'}`,
          `growth ${smallest.rows.toLocaleString('en')} → ${largest.rows.toLocaleString('en')} rows: ${(largest.peak - smallest.peak).toFixed(0)} MB`,
          `node ${process.version}, server: node ${npmStartArgs().join(' ')}`,
          `load average before ${loadBefore}, after ${loadAverage()}`,
          '',
        ].join('\n'),
      );
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

await main();
