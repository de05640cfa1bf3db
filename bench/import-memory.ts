import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, openAsBlob, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildApp } from '../apps/api/src/app.ts';
import { createBenchAccount } from './lib/account.ts';

// The server's memory during a bulk import (issue 18): the compiled server, started as `npm start`
// starts it, imports a 10,000-row and then a 100,000-row CSV uploaded over HTTP; its RSS is read
// from /proc every 25 ms (the server only: the client is this process). Targets: peak ≤ 300 MB
// at 100,000 rows, and flat: the 100,000-row peak close to the 10,000-row one.
// Run: npx tsx bench/import-memory.ts  (BENCH_SIZES=10000,100000)

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGET_PEAK_MB = 300;
const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);

const freePort = async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

const writeCsv = async (file: string, rows: number, offset: number) => {
  const out = createWriteStream(file, { highWaterMark: 1 << 20 });
  out.write('first_name,last_name,email,phone,channels,locale\n');
  for (let n = offset; n < offset + rows; n += 1) {
    const line = `Ada,Lovelace,mem${n}@example.org,,slack,${['en', 'it', 'de'][n % 3]}\n`;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
};

/** `node <flags> apps/api/dist/server.js` as `npm start` runs it. */
const startArgs = (): string[] => {
  const scripts = (
    JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  return scripts.start!.split('&&').at(-1)!.trim().split(/\s+/).slice(1);
};

const main = async () => {
  const loadBefore = loadavg();
  const build = spawnSync(process.execPath, ['scripts/build-if-stale.js', 'api'], {
    cwd: REPO,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the API did not build');
  const dir = mkdtempSync(path.join(tmpdir(), 'ccp-bench-import-memory-'));
  try {
    // A company on the plan without a learner limit, and a token, written before the server starts.
    const seeder = await buildApp({
      database: { dialect: 'sqlite', file: path.join(dir, 'ccp.sqlite') },
      dataDir: dir,
      webDist: false,
    });
    const { accessToken } = await createBenchAccount(seeder);
    await seeder.close();

    const port = await freePort();
    const server = spawn(process.execPath, startArgs(), {
      cwd: REPO,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        CCP_DATA_DIR: dir,
        CCP_SEED: 'none',
        DATABASE_URL: '',
        LOG_LEVEL: 'warn',
        CCP_SKIP_WEB_BUILD: '1',
      },
      stdio: 'ignore',
    });
    const base = `http://127.0.0.1:${port}`;
    const auth = { authorization: `Bearer ${accessToken}` };
    try {
      for (let tries = 0; ; tries += 1) {
        if (tries > 600) throw new Error('the server did not start');
        if (
          await fetch(`${base}/api/health`).then(
            (r) => r.ok,
            () => false,
          )
        )
          break;
        await sleep(50);
      }
      await sleep(2000);
      const results: { rows: number; before: number; peak: number; seconds: number }[] = [];
      let offset = 0;
      for (const rows of SIZES) {
        const file = path.join(dir, `learners-${rows}.csv`);
        await writeCsv(file, rows, offset);
        offset += rows;
        const before = rssMb(server.pid!);
        let peak = before;
        const sampler = setInterval(() => {
          peak = Math.max(peak, rssMb(server.pid!));
        }, 25);
        const started = performance.now();
        const form = new FormData();
        form.append('file', await openAsBlob(file), 'learners.csv');
        const upload = await fetch(`${base}/api/v1/learners/imports`, {
          method: 'POST',
          headers: auth,
          body: form,
        });
        if (upload.status !== 202) throw new Error(`upload answered ${upload.status}`);
        const { data } = (await upload.json()) as { data: { uuid: string } };
        for (;;) {
          const job = (await (
            await fetch(`${base}/api/v1/learners/imports/${data.uuid}`, { headers: auth })
          ).json()) as { data: { status: string; created: number } };
          if (job.data.status === 'completed') break;
          if (job.data.status === 'failed') throw new Error('the import failed');
          await sleep(100);
        }
        clearInterval(sampler);
        const seconds = (performance.now() - started) / 1000;
        results.push({ rows, before, peak, seconds });
        process.stdout.write(
          `${rows.toLocaleString('en')} rows: RSS before ${before.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, ${seconds.toFixed(1)} s\n`,
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
          `node ${process.version}, server: node ${startArgs().join(' ')}`,
          `load average before ${loadBefore.map((v) => v.toFixed(2)).join(' ')}, after ${loadavg()
            .map((v) => v.toFixed(2))
            .join(' ')}`,
          '',
        ].join('\n'),
      );
    } finally {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

await main();
