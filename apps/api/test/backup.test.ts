import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import * as OTPAuth from 'otpauth';
import { afterAll, describe, expect, it } from 'vitest';

import { buildApp } from '../src/app.ts';
import { DEMO_PASSWORD, seedDemo } from '../src/seed/demo.ts';

// npm run backup / npm run restore (issue 18): a backup taken while the server runs, restored
// into a fresh data directory, opens as the same installation: the demo administrator signs in
// with password and TOTP, the learners are there, and so is an uploaded cover image.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const TOTP_SECRET = 'JBSWY3DPEHPK3PXP';
const PLATFORM = 'content_creators_platform';
const COVER = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

type Run = { code: number | null; stdout: string; stderr: string };

/** The backup tool as `npm run backup|restore` runs it. */
const tool = (args: string[], dataDir: string): Promise<Run> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'apps/api/src/tools/backup-main.ts', ...args],
      {
        cwd: ROOT,
        env: { ...process.env, CCP_DATA_DIR: dataDir, DATABASE_URL: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

const openInstallation = (dataDir: string) =>
  buildApp({
    database: { dialect: 'sqlite', file: path.join(dataDir, 'ccp.sqlite') },
    dataDir,
    webDist: false,
  });

describe('backup and restore of an SQLite installation', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'ccp-backup-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('restores a backup taken while the server runs into a fresh data dir, and signs in', async () => {
    const original = path.join(work, 'data');
    const running = await openInstallation(original);
    await seedDemo(running.db, { totpSecret: TOTP_SECRET, now: new Date() });
    mkdirSync(path.join(original, 'uploads/covers'), { recursive: true });
    writeFileSync(path.join(original, 'uploads/covers/cover-test.png'), COVER);
    const learners = async (app: typeof running) =>
      Number(
        (
          await app.db
            .selectFrom('learners')
            .select((eb) => eb.fn.countAll().as('count'))
            .executeTakeFirstOrThrow()
        ).count,
      );
    const learnersBefore = await learners(running);
    expect(learnersBefore).toBeGreaterThan(0);

    const file = path.join(work, 'backups/ccp-backup.tar.gz');
    // Online: the server holds the database open (WAL) while the backup reads it.
    const backup = await tool(['backup', file], original);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain(`to ${file}`);
    expect(existsSync(file)).toBe(true);
    await running.close();

    const fresh = path.join(work, 'restored');
    const restore = await tool(['restore', file], fresh);
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);

    const restored = await openInstallation(fresh);
    try {
      expect(await learners(restored)).toBe(learnersBefore);
      const first = await restored.inject({
        method: 'POST',
        url: '/api/v1/users/oauth/token',
        payload: { username: 'creator@example.com', password: DEMO_PASSWORD, platform: PLATFORM },
      });
      expect(first.statusCode).toBe(200);
      const otp = first.json<{ data: { access_token: string; refresh_token: string } }>().data;
      const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(TOTP_SECRET) }).generate();
      const second = await restored.inject({
        method: 'POST',
        url: '/api/v1/users/oauth/2fa-token',
        headers: { authorization: `Bearer ${otp.access_token}` },
        payload: { refresh_token: otp.refresh_token, platform: PLATFORM, code },
      });
      expect(second.statusCode).toBe(200);
      const cover = await restored.inject({ method: 'GET', url: '/uploads/covers/cover-test.png' });
      expect(cover.statusCode).toBe(200);
      expect(cover.rawPayload.equals(COVER)).toBe(true);
    } finally {
      await restored.close();
    }

    // A second restore onto it refuses without --force, and with it keeps the old data aside.
    const again = await tool(['restore', file], fresh);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already holds a database');
    const forced = await tool(['restore', file, '--force'], fresh);
    expect(forced.code).toBe(0);
    expect(
      readdirSync(work).filter((name) => name.startsWith('restored.before-restore-')),
    ).toHaveLength(1);
  }, 120_000);

  it('refuses a file that is not a backup and leaves the data dir as it was', async () => {
    const target = path.join(work, 'untouched');
    const bogus = path.join(work, 'bogus.tar.gz');
    writeFileSync(bogus, 'not a backup');
    const result = await tool(['restore', bogus], target);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('is not a CCP backup, or it is damaged');
    expect(existsSync(path.join(target, 'ccp.sqlite'))).toBe(false);
  });
});
