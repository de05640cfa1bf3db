import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createWriteStream, openAsBlob, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { FastifyInstance } from 'fastify';

import { createBenchAccount } from './account.ts';

// What the server benches share: the compiled server started as `npm start` starts it, a bench
// account with a token, learner CSVs, an import uploaded and followed to its end, and readings of
// a process from /proc (RSS, CPU) and of the machine (load).

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const freePort = async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
};

/** The 1-, 5- and 15-minute load averages, as printed with every figure. */
export const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** A field of /proc/<pid>/status in MB (VmRSS now, VmHWM the peak so far). */
export const procStatusMb = (pid: number, field: 'VmRSS' | 'VmHWM'): number =>
  Number(
    new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0,
  ) / 1024;

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
export const procCpuSeconds = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command: state is the first, utime the 12th and stime the 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

/** Builds apps/api/dist when its sources changed, as `npm start` does. */
export const buildApi = () => {
  const build = spawnSync(process.execPath, ['scripts/build-if-stale.js', 'api'], {
    cwd: REPO,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the API did not build');
};

/** `<node flags> apps/api/dist/server.js`, read from the root package.json's start script. */
export const npmStartArgs = (): string[] => {
  const { scripts } = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const serve = scripts.start?.split('&&').at(-1)?.trim().split(/\s+/) ?? [];
  if (serve[0] !== 'node' || !serve.at(-1)?.endsWith('dist/server.js'))
    throw new Error(`npm start does not run the compiled server: "${scripts.start}"`);
  return serve.slice(1);
};

export type StartedServer = {
  child: ChildProcess;
  pid: number;
  base: string;
  /** From spawn to the first healthy answer of /api/health. */
  healthMs: number;
  /** SIGTERM, resolved once the process has exited. */
  stop: () => Promise<void>;
};

/**
 * The Node binary the server runs on: BENCH_NODE (e.g. a node@22 from the registry, to compare
 * Node versions with one bench), else the bench's own.
 */
export const serverNode = (): string => process.env.BENCH_NODE || process.execPath;

/** `node --version` of the server's binary. */
export const serverNodeVersion = (): string =>
  spawnSync(serverNode(), ['--version'], { encoding: 'utf8' }).stdout.trim();

/** Spawns the compiled server as `npm start` runs it and waits for its health answer. */
export const startServer = async (env: NodeJS.ProcessEnv): Promise<StartedServer> => {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(serverNode(), npmStartArgs(), {
    cwd: REPO,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      CCP_SKIP_WEB_BUILD: '1',
      ...env,
    },
    stdio: 'ignore',
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  const base = `http://127.0.0.1:${port}`;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      if (performance.now() - started > 60_000) throw new Error('no health answer in 60 s');
      const healthy = await fetch(`${base}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (healthy) break;
      await sleep(20);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, pid: child.pid!, base, healthMs: performance.now() - started, stop };
};

/**
 * A company on the plan without a learners limit and its administrator, written straight into
 * the database, with a token pair for the API.
 */
/** The bench account (lib/account.ts) with its tokens as the API answers them. */
export const seedBenchAccount = async (
  app: Pick<FastifyInstance, 'db' | 'clock' | 'authSettings'>,
  options: { twoFactor?: boolean } = {},
) => {
  const account = await createBenchAccount(app, options);
  return {
    ...account,
    tokens: { access_token: account.accessToken, refresh_token: account.refreshToken },
  };
};

const FIRST = ['Giulia', 'Marco', 'Zoë', 'Jürgen', 'Ana', 'Seán', 'Chloé', 'Luca', 'Émilie', 'Ada'];
const LAST = ['Rossi', 'Müller', "O'Brien", 'García', 'Bianchi', 'Dubois', 'Novák', 'Esposito'];
const CHANNELS = ['slack', 'ms-teams', '"slack,whatsapp"', 'webex', 'google-chat', 'whatsapp'];

/**
 * A learner-like CSV of `rows` rows (or of about `bytes` bytes): accents, a quoted multi-channel
 * cell, a third with phones; e-mails `learner<n>@example.org` from `offset`, so files written
 * with different offsets create different learners.
 */
export const writeLearnersCsv = async (
  file: string,
  { rows, bytes, offset = 0 }: { rows?: number; bytes?: number; offset?: number },
) => {
  const out = createWriteStream(file, { highWaterMark: 1 << 20 });
  out.write('first_name,last_name,email,phone,channels,locale\n');
  let written = 0;
  for (let n = offset; rows !== undefined ? n < offset + rows : written < bytes!; n += 1) {
    const channels = CHANNELS[n % CHANNELS.length]!;
    const phone = channels.includes('whatsapp')
      ? `+39 333 ${String(1_000_000 + (n % 8_999_999))}`
      : '';
    const line = `${FIRST[n % FIRST.length]},${LAST[n % LAST.length]},learner${n}@example.org,${phone},${channels},${['en', 'it', 'de'][n % 3]}\n`;
    written += Buffer.byteLength(line);
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
};

/** Polls an import through the API (every `everyMs`) until it ends; answers the job. */
export const waitForImport = async (
  base: string,
  accessToken: string,
  uuid: string,
  everyMs = 50,
): Promise<Record<string, unknown>> => {
  for (;;) {
    const response = await fetch(`${base}/api/v1/learners/imports/${uuid}`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    const job = ((await response.json()) as { data: Record<string, unknown> }).data;
    if (['completed', 'failed', 'canceled'].includes(String(job.status))) return job;
    await sleep(everyMs);
  }
};

/** Uploads a CSV to POST /api/v1/learners/imports over HTTP; answers the queued job's uuid. */
export const uploadImport = async (
  base: string,
  accessToken: string,
  file: string,
  fields: Record<string, string> = {},
): Promise<string> => {
  const form = new FormData();
  form.append('file', await openAsBlob(file), path.basename(file));
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const response = await fetch(`${base}/api/v1/learners/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}` },
    body: form,
  });
  const body = (await response.json()) as { data: { uuid: string } };
  if (response.status !== 202)
    throw new Error(`upload answered ${response.status}: ${JSON.stringify(body)}`);
  return body.data.uuid;
};
