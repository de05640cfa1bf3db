import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The server `npm start` runs: apps/api/dist/server.js, built by the same stale check. Tests that
// spawn it run the production code path (no TypeScript loader, the compiled import worker).

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const COMPILED_SERVER = path.join(ROOT, 'apps/api/dist/server.js');

/** Builds apps/api/dist when it is missing or older than its sources (as `npm start` does). */
export const buildCompiledServer = () => {
  const result = spawnSync(process.execPath, ['scripts/build-if-stale.js', 'api'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`the API did not build:\n${result.stderr}`);
};

export const freePort = async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
};

export type StartedServer = { child: ChildProcess; output: () => string };

/** Spawns the compiled server and resolves once it says it listens. */
export const startCompiledServer = async (
  env: NodeJS.ProcessEnv,
  nodeArgs: string[] = [],
): Promise<StartedServer> => {
  const child = spawn(process.execPath, [...nodeArgs, COMPILED_SERVER], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const onData = () => {
      if (output.includes('CCP API listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  child.removeAllListeners('exit');
  return { child, output: () => output };
};

/** Stops a child (SIGKILL by default) and resolves when it has exited. */
export const stopped = (child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL') =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });

/** Uploads a CSV of learners to a running server's import route; the response as fetch gives it. */
export const postLearnersCsv = (
  base: string,
  headers: Record<string, string>,
  name: string,
  csv: string,
) => {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), name);
  return fetch(`${base}/api/v1/learners/imports`, { method: 'POST', headers, body: form });
};
