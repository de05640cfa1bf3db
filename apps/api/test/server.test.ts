import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { DEMO_PASSWORD } from '../src/seed/demo.ts';

const apiRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });

describe('npm start (src/server.ts)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ccp-server-test-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts on HOST/PORT, answers the health probe and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: apiRoot,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        CCP_DATA_DIR: dataDir,
        CCP_SEED: 'none',
        DATABASE_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );

    // A start through tsx compiles the whole source: on a busy machine that took longer than the
    // 100 polls (about 20 s) this loop used to allow, so it is bounded by time, within the test's.
    const deadline = Date.now() + 50_000;
    let healthy = false;
    while (!healthy && Date.now() < deadline) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/health`);
        healthy = response.ok && ((await response.json()) as { status: string }).status === 'ok';
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    if (!healthy) throw new Error(`server never became healthy:\n${output}`);
    expect(output).toContain(`listening on http://127.0.0.1:${port}`);
    // Issue 11 §11: without the demo there is no demo password or TOTP secret to print.
    expect(output).not.toContain(DEMO_PASSWORD);
    expect(output).not.toContain('JBSWY3DPEHPK3PXP');
    expect(output).not.toMatch(/password|TOTP secret/i);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);

  it('refuses a bad PORT with a message naming it', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: apiRoot,
      env: { ...process.env, PORT: 'eighty', CCP_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('PORT must be a positive whole number, got "eighty"');
  }, 30_000);
});
