import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openAsBlob, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { sql } from 'kysely';
import { describe, expect, it, onTestFinished } from 'vitest';

import { buildApp } from '../../src/app.ts';
import { createDatabase } from '../../src/db/index.ts';
import type { DatabaseConfig } from '../../src/db/index.ts';
import { newUuid } from '../../src/lib/ids.ts';
import { createCompany, createUser, signIn } from '../helper.ts';
import {
  buildCompiledServer,
  freePort,
  startCompiledServer,
  stopped,
} from '../support/compiled-server.ts';

// The scale-out path (issue 18): two servers on one PostgreSQL database, each with its own data
// directory as two machines would have, sharing one files folder (CCP_FILES_DIR, a shared
// filesystem). A 100,000-row import starts on the first, which is killed with SIGKILL mid-way;
// the second takes the job over once the lease expires and finishes it: exactly the file's
// learners, none twice, one completion e-mail. PostgreSQL only (SQLite is one process's).

const ROWS = 100_000;
const url = process.env.CCP_TEST_DATABASE_URL;

describe.skipIf(!url)('two servers on one PostgreSQL, shared files', () => {
  it(
    'the second server finishes an import the first was killed in, exactly once',
    { timeout: 300_000 },
    async () => {
      buildCompiledServer();
      const work = mkdtempSync(path.join(tmpdir(), 'ccp-two-servers-'));
      const shared = path.join(work, 'shared-files');
      const schema = `two_${newUuid().replace(/-/g, '').slice(0, 12)}`;
      const database: DatabaseConfig = { dialect: 'postgres', url: url!, schema };
      const admin = createDatabase({ dialect: 'postgres', url: url! });
      await sql`create schema ${sql.id(schema)}`.execute(admin.db);
      await admin.close();
      const children: ChildProcess[] = [];
      onTestFinished(async () => {
        await Promise.all(children.map((child) => stopped(child)));
        const cleanup = createDatabase({ dialect: 'postgres', url: url! });
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(cleanup.db);
        await cleanup.close();
        rmSync(work, { recursive: true, force: true });
      });

      const seeder = await buildApp({ database, dataDir: shared, webDist: false });
      const company = await createCompany(seeder, { plan: 'enterprise' });
      const user = await createUser(seeder, company);
      const tokens = await signIn(seeder, user);
      await seeder.close();

      const lines = ['first_name,last_name,email,phone,channels,locale'];
      for (let n = 1; n <= ROWS; n += 1) lines.push(`Ada,Lovelace,two${n}@example.test,,slack,en`);
      const file = path.join(work, 'learners.csv');
      writeFileSync(file, `${lines.join('\n')}\n`);

      const serverEnv = (name: string) => ({
        HOST: '127.0.0.1',
        CCP_DATA_DIR: path.join(work, name),
        CCP_FILES_DIR: shared,
        CCP_SEED: 'none',
        LOG_LEVEL: 'warn',
        CCP_JOB_LEASE_SECONDS: '3',
        DATABASE_URL: url,
        DATABASE_SCHEMA: schema,
      });
      const firstPort = await freePort();
      const first = await startCompiledServer({ ...serverEnv('first'), PORT: String(firstPort) });
      children.push(first.child);
      const secondPort = await freePort();
      const second = await startCompiledServer({
        ...serverEnv('second'),
        PORT: String(secondPort),
      });
      children.push(second.child);

      const form = new FormData();
      form.append('file', await openAsBlob(file), 'learners.csv');
      const upload = await fetch(`http://127.0.0.1:${firstPort}/api/v1/learners/imports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.access_token}` },
        body: form,
      });
      expect(upload.status).toBe(202);
      const { data } = (await upload.json()) as { data: { uuid: string } };

      const watcher = createDatabase(database);
      const jobRow = () =>
        watcher.db
          .selectFrom('jobs')
          .selectAll()
          .where('uuid', '=', data.uuid)
          .executeTakeFirstOrThrow();
      // Kill the server running the job once it committed a tenth of the file.
      let atCrash = await jobRow();
      for (let tries = 0; tries < 6000 && atCrash.processed_rows < ROWS / 10; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        atCrash = await jobRow();
      }
      await stopped(first.child);
      atCrash = await jobRow();
      expect(atCrash.status).toBe('running');
      expect(atCrash.processed_rows).toBeGreaterThan(0);
      expect(atCrash.processed_rows).toBeLessThan(ROWS);
      // The upload is in the shared folder, not in the first server's data dir.
      expect(atCrash.input_path).toBeTruthy();
      expect(existsSync(path.join(shared, atCrash.input_path!))).toBe(true);
      expect(existsSync(path.join(work, 'first', atCrash.input_path!))).toBe(false);

      let finished = atCrash;
      for (let tries = 0; tries < 2400; tries += 1) {
        finished = await jobRow();
        if (finished.status !== 'running' && finished.status !== 'queued' && finished.notified_at)
          break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(finished).toMatchObject({
        status: 'completed',
        processed_rows: ROWS,
        created: ROWS,
        failed: 0,
        attempts: 2,
      });

      const emails = await watcher.db
        .selectFrom('learners')
        .select((eb) => [
          eb.fn.countAll().as('count'),
          eb.fn.count('email').distinct().as('distinct'),
        ])
        .where('company_uuid', '=', company.uuid)
        .executeTakeFirstOrThrow();
      expect(Number(emails.count)).toBe(ROWS);
      expect(Number(emails.distinct)).toBe(ROWS);
      const mails = await watcher.db
        .selectFrom('outbox_messages')
        .select(['subject'])
        .where('recipient', '=', user.email)
        .execute();
      expect(mails).toEqual([{ subject: 'Your learners import is complete: learners.csv' }]);
      await watcher.close();
    },
  );
});
