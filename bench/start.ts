import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// What `npm start` costs an operator (issue 18): the compiled server's time from spawn to its
// first healthy answer, and its resident memory once idle, on a database with the demo already
// seeded. Targets: health ≤ 2 s, idle RSS ≤ 120 MB. The server runs exactly as `npm start` runs
// it (the node flags are read from the root package.json's start script).
// Run: npx tsx bench/start.ts  (BENCH_RUNS=5 starts, BENCH_IDLE_SECONDS=10 before reading RSS).

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGET_HEALTH_MS = 2_000;
const TARGET_RSS_MB = 120;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 10);

/** `node <flags> apps/api/dist/server.js` as written in `npm start`. */
const startCommand = (): string[] => {
  const scripts = (
    JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  const serve = scripts.start?.split('&&').at(-1)?.trim().split(/\s+/) ?? [];
  if (serve[0] !== 'node' || !serve.at(-1)?.endsWith('dist/server.js'))
    throw new Error(`npm start does not run the compiled server: "${scripts.start}"`);
  return serve.slice(1);
};

const freePort = async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const statusKb = (pid: number, field: 'VmRSS' | 'VmHWM'): number =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);

type Run = { healthMs: number; rssMb: number; peakMb: number };

const startOnce = async (dataDir: string, seed: 'demo' | 'none'): Promise<Run> => {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, startCommand(), {
    cwd: REPO,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      CCP_DATA_DIR: dataDir,
      CCP_SEED: seed,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  try {
    let healthMs = 0;
    while (!healthMs) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      if (performance.now() - started > 60_000) throw new Error('no health answer in 60 s');
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (response.ok) healthMs = performance.now() - started;
      } catch {
        await sleep(20);
      }
    }
    await sleep(IDLE_SECONDS * 1000);
    const pid = child.pid!;
    return {
      healthMs,
      rssMb: statusKb(pid, 'VmRSS') / 1024,
      peakMb: statusKb(pid, 'VmHWM') / 1024,
    };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

const main = async () => {
  const loadBefore = loadavg();
  const build = spawnSync(process.execPath, ['scripts/build-if-stale.js', 'api'], {
    cwd: REPO,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the API did not build');
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
    const loadAfter = loadavg();
    process.stdout.write(
      [
        '',
        `node ${process.version}, ${cpus().length} cores, ${startCommand().join(' ')}`,
        `health after start: median ${health.toFixed(0)} ms (target ≤ ${TARGET_HEALTH_MS}) ${health <= TARGET_HEALTH_MS ? 'OK' : 'OVER'}`,
        `idle RSS after ${IDLE_SECONDS} s: median ${rss.toFixed(1)} MB (target ≤ ${TARGET_RSS_MB}) ${rss <= TARGET_RSS_MB ? 'OK' : 'OVER'}`,
        `load average before ${loadBefore.map((value) => value.toFixed(2)).join(' ')}, after ${loadAfter.map((value) => value.toFixed(2)).join(' ')}`,
        '',
      ].join('\n'),
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
};

await main();
