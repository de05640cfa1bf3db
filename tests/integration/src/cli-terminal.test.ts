import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DEMO_PASSWORD, startApi } from './api-server.ts';
import type { RunningApi } from './api-server.ts';

// `ccp login` in a real terminal (a pseudo-terminal from util-linux's `script`) that reports 0
// columns, as some embedded terminals and CI consoles do (issue 18): after the password the
// spinner used to write megabytes of cursor codes, never ask for the code, and ignore SIGTERM.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CCP = path.join(ROOT, 'apps/cli/bin/ccp.js');
const FLOOD_BYTES = 64 * 1024;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pids of a process's children (Linux). */
const childrenOf = (pid: number): number[] =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);

describe('ccp login in a terminal that reports zero columns', () => {
  let api: RunningApi;
  let configDir: string;
  beforeAll(async () => {
    api = await startApi();
    configDir = mkdtempSync(path.join(tmpdir(), 'ccp-pty-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(configDir, { recursive: true, force: true });
  });

  it('asks for the code without flooding the terminal, and stops on SIGTERM', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, TERM: 'xterm-256color' };
    for (const key of Object.keys(env)) if (key.startsWith('CCP_') || key === 'CI') delete env[key];
    Object.assign(env, { CCP_CONFIG_DIR: configDir, CCP_API_URL: api.url });
    const terminal = spawn(
      'script',
      ['-qefc', `stty cols 0 rows 0; exec ${process.execPath} ${CCP} login`, '/dev/null'],
      { env, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let screen = '';
    terminal.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => terminal.on('exit', resolve));
    const waitFor = async (text: string) => {
      for (let waited = 0; waited < 20_000; waited += 50) {
        if (screen.includes(text)) return;
        if (screen.length > FLOOD_BYTES) break;
        await sleep(50);
      }
      throw new Error(
        `no "${text}" on the terminal (${screen.length} bytes):\n${screen.slice(0, 2000)}`,
      );
    };
    try {
      await waitFor('Email');
      terminal.stdin.write('creator@example.com\r');
      await waitFor('Password');
      terminal.stdin.write(`${DEMO_PASSWORD}\r`);
      await waitFor('Code from your authenticator app');
      await sleep(500);
      // No spinner frames at all: the whole session is a few kilobytes of prompts.
      expect(screen.length).toBeLessThan(FLOOD_BYTES);
      expect(screen).not.toContain('Signing in…');

      const [ccp] = childrenOf(terminal.pid!);
      expect(ccp).toBeGreaterThan(0);
      process.kill(ccp!, 'SIGTERM');
      const code = await Promise.race([exited, sleep(10_000).then(() => 'still running')]);
      expect(code).toBe(143);
      expect(screen).toContain('Stopped.');
    } finally {
      // A ccp stuck in a flood ignores signals it cannot get to: kill it, then the terminal.
      if (terminal.exitCode === null) {
        for (const pid of childrenOf(terminal.pid!)) process.kill(pid, 'SIGKILL');
        terminal.kill('SIGKILL');
      }
    }
  }, 60_000);
});

describe('ccp learners import in a 40-column terminal (issue 31)', () => {
  let api: RunningApi;
  let configDir: string;
  beforeAll(async () => {
    api = await startApi();
    configDir = mkdtempSync(path.join(tmpdir(), 'ccp-pty-import-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(configDir, { recursive: true, force: true });
  });

  it('redraws one fitted progress line, and Ctrl-C asks before stopping the import on the server', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, TERM: 'xterm-256color' };
    for (const key of Object.keys(env)) if (key.startsWith('CCP_') || key === 'CI') delete env[key];
    Object.assign(env, { CCP_CONFIG_DIR: configDir, CCP_API_URL: api.url });
    // Not spawnSync: the API answers from this process, which must keep running.
    const login = spawn(
      process.execPath,
      [CCP, 'login', '--email', 'creator@example.com', '--password-stdin', '--otp', api.totp()],
      { env, stdio: ['pipe', 'ignore', 'ignore'] },
    );
    login.stdin.end(`${DEMO_PASSWORD}\n`);
    expect(await new Promise((resolve) => login.on('exit', resolve))).toBe(0);
    const csv = path.join(configDir, 'people.csv');
    writeFileSync(
      csv,
      `first_name,last_name,email,channels\n${Array.from({ length: 40 }, (_, i) => `Anna,Rossi,pty${i}@example.test,slack`).join('\n')}\n`,
    );
    // No job runner: the job stays queued while ccp draws its progress.
    const terminal = spawn(
      'script',
      [
        '-qefc',
        `stty cols 40 rows 20; exec ${process.execPath} ${CCP} learners import ${csv}`,
        '/dev/null',
      ],
      { env, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let screen = '';
    terminal.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => terminal.on('exit', resolve));
    const waitFor = async (text: string) => {
      for (let waited = 0; waited < 20_000; waited += 50) {
        if (screen.includes(text)) return;
        await sleep(50);
      }
      throw new Error(`no "${text}" on the terminal:\n${screen.slice(-2000)}`);
    };
    try {
      await waitFor('Importing people.csv');
      await sleep(800);
      // Each redraw clears the row and writes at most 39 columns: nothing wraps, nothing stacks.
      // (A line that ends in a newline, \r\n on a terminal, is a message that stays, not a redraw.)
      const drawn = screen
        .split('\u001B[2K')
        .slice(1)
        .filter((part) => !/^[^\r\n]*\r?\n/.test(part))
        .map((part) => part.split(/[\r\n]/)[0]!)
        .filter((line) => line !== '');
      expect(drawn.length).toBeGreaterThan(1);
      for (const line of drawn) expect(Array.from(line).length).toBeLessThanOrEqual(39);
      terminal.stdin.write('\u0003');
      await waitFor('Stop the import on the server?');
      terminal.stdin.write('y\r');
      const code = await Promise.race([exited, sleep(10_000).then(() => 'still running')]);
      expect(code).toBe(130);
      expect(screen).toContain('Stopped the import on the server (job ');
      const job = /job ([0-9a-f-]{36})/.exec(screen)![1]!;
      const stored = await api.app.db
        .selectFrom('jobs')
        .select('status')
        .where('uuid', '=', job)
        .executeTakeFirstOrThrow();
      expect(stored.status).toBe('canceled');
    } finally {
      if (terminal.exitCode === null) {
        for (const pid of childrenOf(terminal.pid!)) process.kill(pid, 'SIGKILL');
        terminal.kill('SIGKILL');
      }
    }
  }, 60_000);
});
