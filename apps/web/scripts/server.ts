import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// Helpers for the web scripts (screenshots, route size): the real server on a temporary database
// with the demo seed, and TOTP codes for the demo accounts.

const REPO = path.resolve(import.meta.dirname, '../../..');

export const DEMO = {
  password: 'ChangeMe-2026!',
  totpSecret: 'JBSWY3DPEHPK3PXP',
  creator: 'creator@example.com',
  newCreator: 'new.creator@example.com',
  member: 'member@example.com',
} as const;

export type RunningServer = { url: string; stop: () => Promise<void> };

/** `npm start`'s server (serving apps/web/dist) on a fresh temporary data directory. */
export const startServer = async (port = 18090): Promise<RunningServer> => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ccp-web-script-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(REPO, 'node_modules/tsx/dist/cli.mjs'), 'apps/api/src/server.ts'],
    {
      cwd: REPO,
      env: { ...process.env, CCP_DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error('The server did not start.');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

const base32 = (secret: string): Buffer => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secret.replace(/=+$/, '').toUpperCase()) {
    bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((byte) => parseInt(byte, 2)));
};

/** RFC 6238 (SHA-1, 6 digits, 30 s) at `time` plus `stepOffset` periods. */
export const totp = (secret: string, stepOffset = 0, time = Date.now()): string => {
  const counter = Math.floor(time / 30_000) + stepOffset;
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac('sha1', base32(secret)).update(message).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const value = (digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return value.toString().padStart(6, '0');
};

export const CHROMIUM = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--headless',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
