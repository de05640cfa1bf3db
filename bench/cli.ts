// ccp benchmarks (issue 12), against the bundled CLI (apps/cli/dist, built first):
//
//   node --import tsx bench/cli.ts startup              # ccp --version vs node -e 0 (target ≤ 1.5×)
//   node --import tsx bench/cli.ts import [--rows N]    # ccp learners import, 100,000 rows (≤ 5 s, issue 31)
//   node --import tsx bench/cli.ts list-all [--learners N] # learners list --all --jsonl, 500,000
//                                                         learners (peak RSS ≤ 150 MB)
//   node --import tsx bench/cli.ts dry-run [--mb 700]   # --dry-run on a 700 MB CSV (≥ 150,000
//                                                         rows/s, peak RSS ≤ 150 MB)
//
// Each prints its figures with the machine's load average (the machine is shared: compare runs
// made at similar loads). The import starts an API in this process on a fresh SQLite database
// with its job runner, and times the `ccp` child from its start to its exit (the job completed).

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { buildApp } from '../apps/api/src/app.ts';
import { createDatabase } from '../apps/api/src/db/index.ts';
import { warmUpImportWorker } from '../apps/api/src/imports/batches.ts';
import { startJobRunner } from '../apps/api/src/jobs/runner.ts';
import { buildDataset } from './lib/dataset.ts';
import { startLearnersServer } from './lib/learners-process.ts';
import { loadAverage, seedBenchAccount, writeLearnersCsv } from './lib/server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CCP = path.join(ROOT, 'apps/cli/bin/ccp.js');
const OUT = path.join(ROOT, 'bench/out');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rows: { type: 'string', default: '100000' },
    mb: { type: 'string', default: '700' },
    runs: { type: 'string', default: '15' },
    learners: { type: 'string', default: '500000' },
  },
});

const load = loadAverage;
/** Issue 31: a 100,000-row import, from the child's start to the job completed. */
const IMPORT_TARGET_S = 5;
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

const build = () =>
  execFileSync('npm', ['run', 'build', '-w', '@ccp/cli'], { cwd: ROOT, stdio: 'ignore' });

/** Wall time of a command, in ms, and its peak RSS (KB) from GNU time when there is one. */
const timed = (command: string, args: string[]): { ms: number; rssKb: number | null } => {
  const start = performance.now();
  const gnuTime = existsSync('/usr/bin/time');
  const result = gnuTime
    ? spawnSync('/usr/bin/time', ['-f', '%M', command, ...args], { encoding: 'utf8' })
    : spawnSync(command, args, { encoding: 'utf8' });
  const ms = performance.now() - start;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`);
  const rss = gnuTime ? Number(result.stderr.trim().split('\n').pop()) : null;
  return { ms, rssKb: rss };
};

/** A child's high-water mark of resident memory (KB), read from /proc while it runs. */
const samplePeakRss = (pid: number) => {
  let peakKb = 0;
  const read = () => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
    } catch {
      // Exited.
    }
  };
  const timer = setInterval(read, 100);
  return {
    stop: () => {
      clearInterval(timer);
      return peakKb;
    },
  };
};

const startup = () => {
  build();
  const runs = Number(values.runs);
  const node: number[] = [];
  const ccp: number[] = [];
  let rss: number | null = null;
  // Alternate, so both meet the same load; the first of each warms the file cache.
  timed(process.execPath, ['-e', '0']);
  timed(process.execPath, [CCP, '--version']);
  for (let run = 0; run < runs; run += 1) {
    node.push(timed(process.execPath, ['-e', '0']).ms);
    const measured = timed(process.execPath, [CCP, '--version']);
    ccp.push(measured.ms);
    rss = measured.rssKb;
  }
  const help: number[] = [];
  for (let run = 0; run < 5; run += 1) help.push(timed(process.execPath, [CCP, '--help']).ms);
  const ratio = median(ccp) / median(node);
  process.stdout.write(
    `${JSON.stringify({
      bench: 'ccp --version',
      runs,
      node_e0_ms: Math.round(median(node)),
      ccp_version_ms: Math.round(median(ccp)),
      ratio: Number(ratio.toFixed(2)),
      ccp_help_ms: Math.round(median(help)),
      ccp_version_peak_rss_mb: rss === null ? null : Math.round(rss / 1024),
      target: '≤ 1.5×',
      load_average: load(),
    })}\n`,
  );
  if (ratio > 2) process.exitCode = 1;
};

const importBench = async () => {
  build();
  const rows = Number(values.rows);
  const dir = mkdtempSync(path.join(tmpdir(), 'ccp-bench-cli-import-'));
  const file = path.join(dir, 'learners.csv');
  await writeLearnersCsv(file, { rows });
  const app = await buildApp({
    database: createDatabase({ dialect: 'sqlite', file: path.join(dir, 'ccp.sqlite') }),
    dataDir: dir,
    logger: false,
    webDist: false,
  });
  const { tokens } = await seedBenchAccount(app, { twoFactor: true });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const runner = startJobRunner(app, { pollMs: 50 });
  await warmUpImportWorker();
  const config = path.join(dir, 'config');
  mkdirSync(config, { mode: 0o700 });
  writeFileSync(
    path.join(config, 'credentials.json'),
    JSON.stringify({
      version: 1,
      sessions: {
        [address]: { access_token: tokens.access_token, refresh_token: tokens.refresh_token },
      },
    }),
    { mode: 0o600 },
  );
  const loadBefore = load();
  const start = performance.now();
  const child = spawn(process.execPath, [CCP, 'learners', 'import', file], {
    env: { ...process.env, CCP_CONFIG_DIR: config, CCP_API_URL: address, CI: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Its plain progress lines, timed: when the upload was accepted, when the job was seen done.
  const phases: Record<string, number> = {};
  child.stderr.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    const at = Number(((performance.now() - start) / 1000).toFixed(2));
    if (text.includes('Columns:')) phases.header_checked_s ??= at;
    if (text.includes('Uploaded')) phases.uploaded_s ??= at;
    if (text.includes('Imported')) phases.done_s ??= at;
  });
  child.stdout.on('data', () => undefined);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const seconds = (performance.now() - start) / 1000;
  const job = (
    (await (
      await fetch(`${address}/api/v1/learners/imports?per_page=1`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      })
    ).json()) as { data: Record<string, unknown>[] }
  ).data[0]!;
  process.stdout.write(
    `${JSON.stringify({
      bench: 'ccp learners import (start to job completed)',
      rows,
      mb: Number((statSync(file).size / 1e6).toFixed(1)),
      exit: code,
      status: job.status,
      created: job.created,
      seconds: Number(seconds.toFixed(2)),
      ...phases,
      server_s:
        typeof job.finished_at === 'string' && typeof job.created_at === 'string'
          ? (Date.parse(job.finished_at) - Date.parse(job.created_at)) / 1000
          : null,
      rows_per_s: Math.round(rows / seconds),
      target_s: IMPORT_TARGET_S,
      load_average_before: loadBefore,
    })}\n`,
  );
  await runner.stop();
  await app.close();
  rmSync(dir, { recursive: true, force: true });
  if (seconds > IMPORT_TARGET_S || job.status !== 'completed') process.exitCode = 1;
};

const dryRunBench = async () => {
  build();
  mkdirSync(OUT, { recursive: true });
  const target = Number(values.mb) * 1e6;
  const file = path.join(OUT, `learners-${values.mb}mb.csv`);
  if (!existsSync(file) || statSync(file).size < target) {
    process.stdout.write(`generating ${file} (${values.mb} MB)…\n`);
    await writeLearnersCsv(file, { bytes: target });
  }
  const loadBefore = load();
  const start = performance.now();
  const child = spawn(process.execPath, [CCP, 'learners', 'import', file, '--dry-run', '--json'], {
    env: { ...process.env, CI: 'true' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const peak = samplePeakRss(child.pid!);
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const peakKb = peak.stop();
  const seconds = (performance.now() - start) / 1000;
  const result = JSON.parse(stdout) as { total_rows: number; valid: number; failed: number };
  const rowsPerSecond = Math.round(result.total_rows / seconds);
  process.stdout.write(
    `${JSON.stringify({
      bench: 'ccp learners import --dry-run',
      mb: Number((statSync(file).size / 1e6).toFixed(0)),
      rows: result.total_rows,
      valid: result.valid,
      failed: result.failed,
      exit: code,
      seconds: Number(seconds.toFixed(1)),
      rows_per_s: rowsPerSecond,
      peak_rss_mb: Math.round(peakKb / 1024),
      targets: '≥ 150,000 rows/s, ≤ 150 MB',
      load_average_before: loadBefore,
      load_average_after: load(),
    })}\n`,
  );
  if (rowsPerSecond < 150_000 || peakKb / 1024 > 150) process.exitCode = 1;
};

/**
 * `ccp learners list --all --jsonl` against the real API (its own process, as bench/learners.ts
 * starts it) holding 500,000 learners: the CLI's peak RSS must not grow with the learners.
 */
const listAllBench = async () => {
  build();
  const learners = Number(values.learners);
  process.stdout.write(`building ${learners.toLocaleString('en')} learners…\n`);
  const dataset = await buildDataset({ learners, courses: [] });
  const server = await startLearnersServer(
    { dialect: 'sqlite', file: dataset.file },
    dataset.dataDir,
    dataset.userUuid,
  );
  const loadBefore = load();
  const start = performance.now();
  const child = spawn(process.execPath, [CCP, 'learners', 'list', '--all', '--jsonl'], {
    env: {
      ...process.env,
      CCP_TOKEN: server.token,
      CCP_API_URL: `http://127.0.0.1:${server.port}`,
      CI: 'true',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const peak = samplePeakRss(child.pid!);
  let lines = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    for (const byte of chunk) if (byte === 10) lines += 1;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const peakKb = peak.stop();
  const seconds = (performance.now() - start) / 1000;
  server.stop();
  rmSync(dataset.dataDir, { recursive: true, force: true });
  process.stdout.write(
    `${JSON.stringify({
      bench: 'ccp learners list --all --jsonl',
      learners,
      lines,
      exit: code,
      seconds: Number(seconds.toFixed(1)),
      peak_rss_mb: Math.round(peakKb / 1024),
      target: '≤ 150 MB',
      load_average_before: loadBefore,
      load_average_after: load(),
    })}\n`,
  );
  if (code !== 0 || lines !== learners || peakKb / 1024 > 150) process.exitCode = 1;
};

const mode = positionals[0];
if (mode === 'startup') startup();
else if (mode === 'import') await importBench();
else if (mode === 'dry-run') await dryRunBench();
else if (mode === 'list-all') await listAllBench();
else {
  process.stderr.write('usage: node --import tsx bench/cli.ts startup|import|list-all|dry-run\n');
  process.exitCode = 2;
}
