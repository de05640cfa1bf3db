import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, openAsBlob, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { sql } from 'kysely';
import { describe, expect, it, onTestFinished } from 'vitest';

import { buildApp } from '../../src/app.ts';
import { createDatabase } from '../../src/db/index.ts';
import type { DatabaseConfig } from '../../src/db/index.ts';
import { newUuid } from '../../src/lib/ids.ts';
import { createCompany, createUser, signIn } from '../helper.ts';

// Durability: a real server process is killed with SIGKILL in the middle of a big import, twice,
// and started again on the same data each time: the job resumes from its checkpoint and ends with
// exactly the file's learners and list members, each applied once, and one error report line per
// bad row (issue 11: "kill -9 twice during a 100 000-row import").

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const ROWS = 100_000;
const BAD_EVERY = 10_000;

const freePort = async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
};

const startServer = async (env: NodeJS.ProcessEnv): Promise<ChildProcess> => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('CCP API listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  child.removeAllListeners('exit');
  return child;
};

const killed = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });

describe('bulk learner import: crash and resume', () => {
  it(
    'two kill -9 mid-import, each followed by a restart, end with exactly the file’s learners and members',
    { timeout: 180_000 },
    async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'ccp-crash-'));
      const url = process.env.CCP_TEST_DATABASE_URL;
      const schema = url ? `crash_${newUuid().replace(/-/g, '').slice(0, 12)}` : undefined;
      const database: DatabaseConfig =
        url && schema
          ? { dialect: 'postgres', url, schema }
          : { dialect: 'sqlite', file: path.join(dataDir, 'ccp.sqlite') };
      if (url && schema) {
        const admin = createDatabase({ dialect: 'postgres', url });
        await sql`create schema ${sql.id(schema)}`.execute(admin.db);
        await admin.close();
      }
      const children: ChildProcess[] = [];
      onTestFinished(async () => {
        await Promise.all(children.map((child) => killed(child, 'SIGKILL')));
        if (url && schema) {
          const admin = createDatabase({ dialect: 'postgres', url });
          await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
          await admin.close();
        }
        rmSync(dataDir, { recursive: true, force: true });
      });

      // Seed a company and a signed-in user through the app (it migrates), then let it go.
      const seeder = await buildApp({ database, dataDir });
      const company = await createCompany(seeder, { plan: 'enterprise' });
      const user = await createUser(seeder, company);
      const tokens = await signIn(seeder, user);
      const listUuid = newUuid();
      const seededAt = seeder.clock.now().toISOString();
      await seeder.db
        .insertInto('learners_lists')
        .values({
          uuid: listUuid,
          company_uuid: company.uuid,
          name: 'Everyone',
          created_at: seededAt,
          updated_at: seededAt,
        })
        .execute();
      await seeder.close();

      const lines = ['first_name,last_name,email,phone,channels,locale'];
      for (let n = 1; n <= ROWS; n += 1) {
        if (n % BAD_EVERY === 0) lines.push(`Bad,Row,not-an-email-${n},,slack,en`);
        else lines.push(`Ada,Lovelace,crash${n}@example.test,,slack,en`);
      }
      // The last row repeats the first e-mail: reported as a duplicate even after the resume.
      lines[ROWS] = 'Ada,Again,crash1@example.test,,slack,en';
      const file = path.join(dataDir, 'learners.csv');
      writeFileSync(file, `${lines.join('\n')}\n`);
      const badRows = ROWS / BAD_EVERY;

      const env = {
        CCP_DATA_DIR: dataDir,
        CCP_SEED: 'none',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        // On Postgres the restarted server takes the job over when its lease runs out.
        CCP_JOB_LEASE_SECONDS: '2',
        ...(url && schema ? { DATABASE_URL: url, DATABASE_SCHEMA: schema } : {}),
      };
      const port = await freePort();
      const first = await startServer({ ...env, PORT: String(port) });
      children.push(first);

      const form = new FormData();
      form.append('file', await openAsBlob(file), 'learners.csv');
      form.append('list_uuid', listUuid);
      const upload = await fetch(`http://127.0.0.1:${port}/api/v1/learners/imports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.access_token}` },
        body: form,
      });
      expect(upload.status).toBe(202);
      const { data } = (await upload.json()) as { data: { uuid: string; total_rows: number } };
      expect(data.total_rows).toBe(ROWS);

      // Watch the job from here and kill the server as soon as a batch is committed.
      const watcher = createDatabase(database);
      const jobRow = () =>
        watcher.db
          .selectFrom('jobs')
          .selectAll()
          .where('uuid', '=', data.uuid)
          .executeTakeFirstOrThrow();
      for (let tries = 0; tries < 6000; tries += 1) {
        if ((await jobRow()).processed_rows > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await killed(first, 'SIGKILL');

      const atCrash = await jobRow();
      expect(atCrash.status).toBe('running');
      expect(atCrash.processed_rows).toBeGreaterThan(0);
      expect(atCrash.processed_rows).toBeLessThan(ROWS);
      const countLearners = async () =>
        Number(
          (
            await watcher.db
              .selectFrom('learners')
              .select((eb) => eb.fn.countAll().as('count'))
              .where('company_uuid', '=', company.uuid)
              .executeTakeFirstOrThrow()
          ).count,
        );
      // What was committed is exactly what the checkpoint says.
      expect(await countLearners()).toBe(atCrash.created);
      expect(atCrash.created + atCrash.failed).toBe(atCrash.processed_rows);

      // A second server takes the job up; it is killed too, as soon as it committed a batch.
      const second = await startServer({ ...env, PORT: String(await freePort()) });
      children.push(second);
      let resumed = atCrash;
      for (let tries = 0; tries < 6000; tries += 1) {
        resumed = await jobRow();
        if (resumed.processed_rows > atCrash.processed_rows) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await killed(second, 'SIGKILL');
      const atSecondCrash = await jobRow();
      expect(atSecondCrash.status).toBe('running');
      expect(atSecondCrash.processed_rows).toBeGreaterThan(atCrash.processed_rows);
      expect(atSecondCrash.processed_rows).toBeLessThan(ROWS);
      expect(await countLearners()).toBe(atSecondCrash.created);

      const secondPort = await freePort();
      const third = await startServer({ ...env, PORT: String(secondPort) });
      children.push(third);
      let finished = atSecondCrash;
      for (let tries = 0; tries < 1200; tries += 1) {
        finished = await jobRow();
        if (finished.status === 'completed' && finished.notified_at) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(finished).toMatchObject({
        status: 'completed',
        total_rows: ROWS,
        processed_rows: ROWS,
        created: ROWS - badRows,
        updated: 0,
        skipped: 0,
        failed: badRows,
        attempts: 3,
      });

      const emails = await watcher.db
        .selectFrom('learners')
        .select((eb) => [
          eb.fn.countAll().as('count'),
          eb.fn.count('email').distinct().as('distinct'),
        ])
        .where('company_uuid', '=', company.uuid)
        .executeTakeFirstOrThrow();
      expect(Number(emails.count)).toBe(ROWS - badRows);
      expect(Number(emails.distinct)).toBe(ROWS - badRows);
      const members = await watcher.db
        .selectFrom('learners_list_members')
        .select((eb) => [
          eb.fn.countAll().as('count'),
          eb.fn.count('learner_uuid').distinct().as('distinct'),
        ])
        .where('list_uuid', '=', listUuid)
        .executeTakeFirstOrThrow();
      expect(Number(members.count)).toBe(ROWS - badRows);
      expect(Number(members.distinct)).toBe(ROWS - badRows);

      // One report line per bad row, none twice, though a batch may have been written twice.
      const report = await fetch(
        `http://127.0.0.1:${secondPort}/api/v1/learners/imports/${data.uuid}/errors`,
        { headers: { authorization: `Bearer ${tokens.access_token}` } },
      );
      expect(report.status).toBe(200);
      const reportText = await report.text();
      const reportLines = reportText.trim().split('\r\n');
      expect(reportLines).toHaveLength(1 + badRows);
      expect(reportLines.at(-1)).toBe(
        `${ROWS + 1},email: The email is already on line 2 of this file.,Ada,Again,crash1@example.test,,slack,en`,
      );

      // The requester got one summary mail.
      const mails = await watcher.db
        .selectFrom('outbox_messages')
        .select(['subject'])
        .where('recipient', '=', user.email)
        .execute();
      expect(mails).toEqual([{ subject: 'Your learners import is complete: learners.csv' }]);

      await watcher.close();
      await killed(third, 'SIGTERM');
    },
  );
});
