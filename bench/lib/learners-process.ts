import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

import type { DatabaseConfig } from '../../apps/api/src/db/index.ts';
import { buildApi, npmStartArgs } from './server.ts';

// The API of the learners benches (bench/learners.ts, bench/cli.ts list-all) in a process of its
// own (./learners-server.ts), so the load generator or the measured client shares no event loop
// with it. It runs as users run it (issue 32): the bundle apps/api/dist, built when stale, with
// the Node flags of `npm start`; BENCH_API=source runs the TypeScript source through tsx without
// them (what the benches measured before 2026-11-27).

export type LearnersServer = {
  port: number;
  token: string;
  cpuMs: () => number;
  stop: () => void;
};

/** CPU time (user + system) a process has used so far, from /proc (Linux). */
export const cpuMsOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

/** The Node flags of `npm start` (root package.json), or none for the source. */
const startFlags = (): string[] => {
  if (process.env.BENCH_API === 'source') return [];
  buildApi();
  return npmStartArgs().slice(0, -1);
};

export const startLearnersServer = (config: DatabaseConfig, dataDir: string, userUuid: string) =>
  new Promise<LearnersServer>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...startFlags(),
        // BENCH_SERVER_NODE_ARGS: e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the API.
        ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
        '--import',
        'tsx',
        new URL('./learners-server.ts', import.meta.url).pathname,
        JSON.stringify(config),
        dataDir,
        userUuid,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the API stopped (exit ${code})`)));
    let started = false;
    createInterface({ input: child.stdout }).on('line', (line) => {
      // What else the API prints (V8's traces, e.g. "--trace-gc" in BENCH_SERVER_NODE_ARGS) goes
      // to stderr; its first JSON line says where it listens.
      if (started || !line.startsWith('{')) {
        process.stderr.write(`${line}\n`);
        return;
      }
      started = true;
      const { port, token } = JSON.parse(line) as { port: number; token: string };
      resolve({
        port,
        token,
        cpuMs: () => cpuMsOf(child.pid!),
        stop: () => child.kill('SIGTERM'),
      });
    });
  });
