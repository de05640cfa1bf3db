import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, openAsBlob, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { describe, expect, it, onTestFinished } from 'vitest';

import { createDatabase } from '../../src/db/index.ts';
import { startFakeS3 } from '../fakes/s3.ts';
import { startFakeSlack } from '../fakes/slack.ts';
import { call } from '../helper.ts';
import {
  authHeaders,
  createWorld,
  learnersList,
  openApp,
  publishCourse,
  sharedDatabase,
} from '../fixtures/delivery.ts';
import {
  buildCompiledServer,
  freePort,
  startCompiledServer,
  stopped,
} from '../support/compiled-server.ts';

// The scale-out path (issue 18): two compiled servers on one PostgreSQL database, each with its
// own data directory as two machines would have, sharing only the database and S3-compatible
// object storage (CCP_STORAGE_URL, a fake on 127.0.0.1 that checks SigV4). Both schedulers run
// and send each due lesson once. Then a 100,000-row import starts on the first, which is killed
// with SIGKILL mid-way; the second takes the job over once the lease expires and finishes it
// from the bucket: exactly the file's learners, none twice, one completion e-mail. PostgreSQL
// only (SQLite is one process's).

const ROWS = 100_000;
const SCHEDULED_LEARNERS = 100;
const url = process.env.CCP_TEST_DATABASE_URL;

/** Polls `read` until `done` says so, every `everyMs`, at most `tries` times. */
const pollUntil = async <T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  { everyMs, tries }: { everyMs: number; tries: number },
): Promise<T> => {
  let value = await read();
  for (let attempt = 0; attempt < tries && !done(value); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, everyMs));
    value = await read();
  }
  return value;
};

describe.skipIf(!url)('two servers on one PostgreSQL, files in object storage', () => {
  it(
    'both schedulers send each lesson once; the second server finishes an import the first was killed in, exactly once',
    { timeout: 300_000 },
    async () => {
      buildCompiledServer();
      const work = mkdtempSync(path.join(tmpdir(), 'ccp-two-servers-'));
      const credentials = { accessKeyId: 'AKIDTWOSERVERS', secretAccessKey: 'two-servers-secret' };
      const s3 = await startFakeS3({ bucket: 'ccp-shared', ...credentials });
      // The course's channel is a Slack workspace (a fake): a lesson counts as sent only once a
      // provider accepted it (issue 25), so each send is seen where it lands.
      const slack = await startFakeSlack();
      const secretsKey = randomBytes(32).toString('base64');
      const children: ChildProcess[] = [];
      onTestFinished(async () => {
        await Promise.all(children.map((child) => stopped(child)));
        await s3.close();
        await slack.close();
        rmSync(work, { recursive: true, force: true });
      });

      // The database: a company on the Enterprise plan, and a published course whose lessons
      // the schedulers will find due.
      const shared = await sharedDatabase();
      const database = shared.config;
      // The course fixture's dates are the test clock's (22 November 2026).
      const seeder = await openApp(shared, '2026-11-22T09:00:00.000Z', {
        secretsKey,
        channels: { slack: { apiUrl: slack.apiUrl } },
      });
      const world = await createWorld(seeder, 'enterprise');
      const { list, learners } = await learnersList(
        seeder,
        world,
        Array.from({ length: SCHEDULED_LEARNERS }, () => ({})),
      );
      for (const learner of learners) slack.addUser(learner.email!);
      const connected = await call(seeder, {
        method: 'PUT',
        url: '/api/v1/channel-connections/slack',
        headers: await authHeaders(seeder, world),
        payload: { fields: { bot_token: slack.token, signing_secret: slack.signingSecret } },
      });
      expect(connected.json.data.status).toBe('connected');
      const course = await publishCourse(seeder, world, {
        lists: [list.uuid],
        distribution: { disabled_enrolment_opt_in: true },
      });
      // A token the servers accept: signed in now, by their clock.
      seeder.testClock.set(new Date());
      const headers = await authHeaders(seeder, world);
      await seeder.close();

      const serverEnv = (name: string) => ({
        HOST: '127.0.0.1',
        CCP_DATA_DIR: path.join(work, name),
        CCP_STORAGE_URL: s3.storageUrl('ccp'),
        ...s3.env,
        CCP_SEED: 'none',
        LOG_LEVEL: 'info',
        CCP_JOB_LEASE_SECONDS: '3',
        CCP_SCHEDULER_TICK_SECONDS: '1',
        CCP_SECRETS_KEY: secretsKey,
        CCP_SLACK_API_URL: slack.apiUrl,
        DATABASE_URL: database.dialect === 'postgres' ? database.url : '',
        DATABASE_SCHEMA: database.dialect === 'postgres' ? database.schema : '',
      });
      const servers = [];
      for (const name of ['first', 'second']) {
        const port = await freePort();
        const server = await startCompiledServer({ ...serverEnv(name), PORT: String(port) });
        children.push(server.child);
        servers.push({ ...server, port });
      }
      const [first, second] = servers as [(typeof servers)[0], (typeof servers)[0]];

      // Both servers are up: every lesson of the course falls due at once.
      const watcher = createDatabase(database);
      onTestFinished(() => watcher.close());
      await watcher.db
        .updateTable('lesson_deliveries')
        .set({ scheduled_for: new Date(Date.now() - 60_000).toISOString() })
        .where('course_uuid', '=', course)
        .execute();
      const deliveries = () =>
        watcher.db
          .selectFrom('lesson_deliveries')
          .select(['uuid', 'status'])
          .where('course_uuid', '=', course)
          .execute();
      const delivered = await pollUntil(
        deliveries,
        (rows) => rows.every((row) => row.status !== 'scheduled' && row.status !== 'sending'),
        { everyMs: 100, tries: 300 },
      );
      expect(delivered.length).toBe(SCHEDULED_LEARNERS * 2);
      expect(delivered.filter((row) => row.status !== 'sent')).toEqual([]);
      const lessonMessages = await watcher.db
        .selectFrom('outbox_messages')
        .select(['delivery_uuid'])
        .where(
          'delivery_uuid',
          'in',
          delivered.map((row) => row.uuid),
        )
        .execute();
      expect(lessonMessages.length).toBe(delivered.length);
      expect(new Set(lessonMessages.map((row) => row.delivery_uuid)).size).toBe(delivered.length);
      // Slack received each lesson once: two days for each learner, none twice.
      expect(slack.messages.length).toBe(delivered.length);
      const perLearner = new Map<string, number>();
      for (const message of slack.messages) {
        perLearner.set(message.userId, (perLearner.get(message.userId) ?? 0) + 1);
      }
      expect(perLearner.size).toBe(SCHEDULED_LEARNERS);
      expect([...perLearner.values()].every((count) => count === 2)).toBe(true);
      // What each scheduler said it sent (logged once its tick ends) adds up to every lesson once.
      const sentBy = (output: string) =>
        [...output.matchAll(/"sent":(\d+)[^\n]*"msg":"scheduler tick"/g)].reduce(
          (sum, match) => sum + Number(match[1]),
          0,
        );
      const perServer = await pollUntil(
        async () => [sentBy(first.output()), sentBy(second.output())] as const,
        ([one, two]) => one + two >= delivered.length,
        { everyMs: 100, tries: 100 },
      );
      expect(perServer[0] + perServer[1]).toBe(delivered.length);
      console.info(`lessons sent by each server: ${perServer.join(' + ')}`);

      // The import: uploaded to the first server, kept in the bucket.
      const lines = ['first_name,last_name,email,phone,channels,locale'];
      for (let n = 1; n <= ROWS; n += 1) lines.push(`Ada,Lovelace,two${n}@example.test,,slack,en`);
      const file = path.join(work, 'learners.csv');
      writeFileSync(file, `${lines.join('\n')}\n`);
      const form = new FormData();
      form.append('file', await openAsBlob(file), 'learners.csv');
      const upload = await fetch(`http://127.0.0.1:${first.port}/api/v1/learners/imports`, {
        method: 'POST',
        headers,
        body: form,
      });
      expect(upload.status).toBe(202);
      const { data } = (await upload.json()) as { data: { uuid: string } };

      const jobRow = () =>
        watcher.db
          .selectFrom('jobs')
          .selectAll()
          .where('uuid', '=', data.uuid)
          .executeTakeFirstOrThrow();
      // Kill the server running the job once it committed a tenth of the file.
      await pollUntil(jobRow, (job) => job.processed_rows >= ROWS / 10, {
        everyMs: 20,
        tries: 6000,
      });
      await stopped(first.child);
      const atCrash = await jobRow();
      expect(atCrash.status).toBe('running');
      expect(atCrash.processed_rows).toBeGreaterThan(0);
      expect(atCrash.processed_rows).toBeLessThan(ROWS);
      // The upload is in the bucket, in neither server's data dir.
      expect(s3.object(`ccp/${atCrash.input_path}`)?.size).toBeGreaterThan(0);

      const finished = await pollUntil(
        jobRow,
        (job) => job.status !== 'running' && job.status !== 'queued' && job.notified_at !== null,
        { everyMs: 100, tries: 2400 },
      );
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
        .where('company_uuid', '=', world.company.uuid)
        .where('email', 'like', 'two%@example.test')
        .executeTakeFirstOrThrow();
      expect(Number(emails.count)).toBe(ROWS);
      expect(Number(emails.distinct)).toBe(ROWS);
      const mails = await watcher.db
        .selectFrom('outbox_messages')
        .select(['subject'])
        .where('recipient', '=', world.user.email)
        .execute();
      expect(mails).toEqual([{ subject: 'Your learners import is complete: learners.csv' }]);
      // The finished import left nothing behind: its upload is gone from the bucket, and the
      // second server's scratch folder is empty.
      expect(s3.keys().filter((key) => key.startsWith('ccp/imports/'))).toEqual([]);
      expect(readdirSync(path.join(work, 'second', 'tmp', 'files'))).toEqual([]);
    },
  );
});
