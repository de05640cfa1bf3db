import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';

import { createDatabase } from '../../src/db/index.ts';
import type { JobsTable } from '../../src/db/types.ts';
import { enqueueJob } from '../../src/jobs/queue.ts';
import {
  claimNextJob,
  drainJobs,
  runAfterFinish,
  runClaimedJob,
  startJobRunner,
} from '../../src/jobs/runner.ts';
import { JobFailure } from '../../src/jobs/types.ts';
import type { JobContext, JobHandler, JobHandlers } from '../../src/jobs/types.ts';
import { newUuid } from '../../src/lib/ids.ts';
import { buildTestApp, createCompany, testDialect } from '../helper.ts';

// The durable job runner: one claim per job across runners (FOR UPDATE SKIP LOCKED on Postgres),
// leases and take-over, fenced commits, failures, graceful stop and the after-finish step.

const KIND = 'test_job';
const TEXTS = { interrupted: 'Interrupted too often.', internalError: 'Internal failure.' };

type App = Awaited<ReturnType<typeof buildTestApp>>;

const queue = async (app: App, companyUuid: string, extra: Partial<JobsTable> = {}) => {
  const job = await enqueueJob(
    app.db,
    {
      uuid: newUuid(),
      company_uuid: companyUuid,
      user_uuid: null,
      kind: KIND,
      total_rows: 3,
      input_path: null,
      options: '{}',
    },
    app.clock.now().toISOString(),
  );
  if (Object.keys(extra).length > 0) {
    await app.db.updateTable('jobs').set(extra).where('uuid', '=', job.uuid).execute();
  }
  return job.uuid;
};

const jobOf = (app: App, uuid: string) =>
  app.db.selectFrom('jobs').selectAll().where('uuid', '=', uuid).executeTakeFirstOrThrow();

/** A handler that commits `rows` batches of one row each, recording what it applied. */
const countingHandler = (applied: string[], rows = 3): JobHandler => ({
  texts: TEXTS,
  run: async ({ job, commit }) => {
    const start = job.checkpoint ? (JSON.parse(job.checkpoint) as { row: number }).row : 0;
    for (let row = start + 1; row <= rows; row += 1) {
      await commit({ processed_rows: row, created: row, checkpoint: { row } }, async () => {
        applied.push(`${job.uuid}:${row}`);
      });
    }
  },
});

const later = (app: App, ms: number) => new Date(app.clock.now().getTime() + ms).toISOString();

describe('job runner', async () => {
  const app = await buildTestApp();
  const company = await createCompany(app);
  const kinds = [KIND];

  it('lets exactly one of two concurrent runners claim a job', async () => {
    const uuid = await queue(app, company.uuid);
    const claims = await Promise.all(
      ['runner-a', 'runner-b'].map((worker) =>
        claimNextJob(app, { kinds, worker, staleBefore: app.clock.now().toISOString() }),
      ),
    );
    const won = claims.filter((claim) => claim !== null);
    expect(won).toHaveLength(1);
    expect(won[0]).toMatchObject({
      uuid,
      status: 'running',
      attempts: 1,
      heartbeat_at: app.clock.now().toISOString(),
      started_at: app.clock.now().toISOString(),
    });
    expect(['runner-a', 'runner-b']).toContain(won[0]!.worker);
    // Running with a fresh heartbeat: nobody else gets it.
    expect(
      await claimNextJob(app, {
        kinds,
        worker: 'runner-c',
        staleBefore: app.clock.now().toISOString(),
      }),
    ).toBeNull();
    await app.db
      .updateTable('jobs')
      .set({ status: 'completed' })
      .where('uuid', '=', uuid)
      .execute();
  });

  it.runIf(testDialect() === 'postgres')(
    'on Postgres, two runners on separate connections never claim the same job (SKIP LOCKED)',
    async () => {
      const { schema } = (
        await sql<{ schema: string }>`select current_schema() as schema`.execute(app.db)
      ).rows[0]!;
      const url = process.env.CCP_TEST_DATABASE_URL!;
      const handles = [0, 1].map(() => createDatabase({ dialect: 'postgres', url, schema }));
      try {
        const uuids = [];
        for (let n = 0; n < 10; n += 1) uuids.push(await queue(app, company.uuid));
        const claimed: string[][] = [[], []];
        await Promise.all(
          handles.map(async (handle, index) => {
            const runnerApp = { db: handle.db, dialect: handle.dialect, clock: app.clock };
            for (;;) {
              const job = await claimNextJob(runnerApp, {
                kinds,
                worker: `pg-${index}`,
                staleBefore: app.clock.now().toISOString(),
              });
              if (!job) break;
              claimed[index]!.push(job.uuid);
            }
          }),
        );
        expect([...claimed[0]!, ...claimed[1]!].sort()).toEqual([...uuids].sort());
        expect(claimed[0]!.filter((uuid) => claimed[1]!.includes(uuid))).toEqual([]);
        await app.db
          .updateTable('jobs')
          .set({ status: 'completed' })
          .where('uuid', 'in', uuids)
          .execute();
      } finally {
        await Promise.all(handles.map((handle) => handle.close()));
      }
    },
  );

  it('takes over a job whose heartbeat is older than the lease; the old claimer can no longer commit', async () => {
    const uuid = await queue(app, company.uuid);
    const first = await claimNextJob(app, {
      kinds,
      worker: 'old',
      staleBefore: app.clock.now().toISOString(),
    });
    expect(first?.uuid).toBe(uuid);

    app.testClock.advance(31_000);
    const staleBefore = new Date(app.clock.now().getTime() - 30_000).toISOString();
    const second = await claimNextJob(app, { kinds, worker: 'new', staleBefore });
    expect(second).toMatchObject({ uuid, attempts: 2, worker: 'new' });

    // The first runner wakes up and tries to commit a batch: nothing of it is written.
    const applied: string[] = [];
    await runClaimedJob(app, first!, countingHandler(applied));
    expect(applied).toEqual([]);
    expect(await jobOf(app, uuid)).toMatchObject({
      status: 'running',
      attempts: 2,
      processed_rows: 0,
    });

    // The new claimer runs it to the end.
    await runClaimedJob(app, second!, countingHandler(applied));
    expect(applied).toEqual([`${uuid}:1`, `${uuid}:2`, `${uuid}:3`]);
    expect(await jobOf(app, uuid)).toMatchObject({
      status: 'completed',
      processed_rows: 3,
      created: 3,
      checkpoint: JSON.stringify({ row: 3 }),
      finished_at: app.clock.now().toISOString(),
      worker: null,
    });
  });

  it('resumes from the checkpoint: committed rows are not applied again', async () => {
    const uuid = await queue(app, company.uuid, {
      checkpoint: JSON.stringify({ row: 2 }),
      processed_rows: 2,
    });
    const applied: string[] = [];
    await drainJobs(app, { handlers: { [KIND]: countingHandler(applied, 4) } });
    expect(applied).toEqual([`${uuid}:3`, `${uuid}:4`]);
    expect(await jobOf(app, uuid)).toMatchObject({ status: 'completed', processed_rows: 4 });
  });

  it('fails a job with the JobFailure message, or the handler’s text for anything else', async () => {
    const readable = await queue(app, company.uuid);
    const handlers: JobHandlers = {
      [KIND]: {
        texts: TEXTS,
        run: async ({ job }) => {
          if (job.uuid === readable) throw new JobFailure('The list is gone.');
          throw new Error('disk on fire');
        },
      },
    };
    await drainJobs(app, { handlers });
    const internal = await queue(app, company.uuid);
    await drainJobs(app, { handlers });
    expect(await jobOf(app, readable)).toMatchObject({
      status: 'failed',
      error_summary: 'The list is gone.',
    });
    expect(await jobOf(app, internal)).toMatchObject({
      status: 'failed',
      error_summary: 'Internal failure.',
    });
  });

  it('fails a job interrupted more than the allowed number of times', async () => {
    const uuid = await queue(app, company.uuid, { attempts: 5 });
    const applied: string[] = [];
    await drainJobs(app, { handlers: { [KIND]: countingHandler(applied) }, maxAttempts: 5 });
    expect(applied).toEqual([]);
    expect(await jobOf(app, uuid)).toMatchObject({
      status: 'failed',
      attempts: 6,
      error_summary: TEXTS.interrupted,
    });
  });

  it('stops a running job that gets canceled at its next batch, keeping what it committed', async () => {
    const uuid = await queue(app, company.uuid);
    const applied: string[] = [];
    const handler: JobHandler = {
      texts: TEXTS,
      run: async (context: JobContext) => {
        await context.commit({ processed_rows: 1, checkpoint: { row: 1 } }, async () => {
          applied.push('1');
        });
        await app.db
          .updateTable('jobs')
          .set({ status: 'canceled' })
          .where('uuid', '=', uuid)
          .execute();
        await context.commit({ processed_rows: 2, checkpoint: { row: 2 } }, async () => {
          applied.push('2');
        });
      },
    };
    await drainJobs(app, { handlers: { [KIND]: handler } });
    expect(applied).toEqual(['1']);
    expect(await jobOf(app, uuid)).toMatchObject({ status: 'canceled', processed_rows: 1 });
  });

  it('runs the after-finish step once per finished job', async () => {
    const uuid = await queue(app, company.uuid);
    const finished: string[] = [];
    const handlers: JobHandlers = {
      [KIND]: {
        ...countingHandler([]),
        afterFinish: async (_app, job) => {
          finished.push(`${job.uuid}:${job.status}`);
        },
      },
    };
    await drainJobs(app, { handlers });
    await runAfterFinish(app, handlers);
    await drainJobs(app, { handlers });
    expect(finished.filter((entry) => entry.startsWith(uuid))).toEqual([`${uuid}:completed`]);
    expect((await jobOf(app, uuid)).notified_at).toBe(app.clock.now().toISOString());
  });

  it('a started runner picks a new job up at once, and on stop requeues the job it holds', async () => {
    let release: () => void = () => undefined;
    const started: string[] = [];
    const handlers: JobHandlers = {
      [KIND]: {
        texts: TEXTS,
        run: async ({ job, commit, signal }) => {
          const from = job.checkpoint ? (JSON.parse(job.checkpoint) as { row: number }).row : 0;
          started.push(`${job.uuid}@${from}`);
          await commit({ processed_rows: from + 1, checkpoint: { row: from + 1 } });
          // Wait for the stop signal, like a long import between two batches.
          await new Promise<void>((resolve) => {
            release = resolve;
            if (signal.aborted) resolve();
            signal.addEventListener('abort', () => resolve());
          });
          await commit({ processed_rows: from + 2, checkpoint: { row: from + 2 } });
        },
      },
    };
    const runner = startJobRunner(app, {
      handlers,
      pollMs: 60_000,
      reclaimOnStart: false,
    });
    const uuid = await queue(app, company.uuid);
    for (let tries = 0; tries < 1000 && started.length === 0; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(started).toEqual([`${uuid}@0`]);
    await runner.stop();
    // The handler's second commit came after the stop: refused, and the job went back to the queue.
    expect(await jobOf(app, uuid)).toMatchObject({
      status: 'queued',
      processed_rows: 1,
      checkpoint: JSON.stringify({ row: 1 }),
      worker: null,
      heartbeat_at: null,
    });
    release();

    // Started again (as after a restart), it resumes after row 1.
    const again = startJobRunner(app, { handlers, pollMs: 60_000, reclaimOnStart: false });
    for (let tries = 0; tries < 1000 && started.length < 2; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(started).toEqual([`${uuid}@0`, `${uuid}@1`]);
    await again.stop();
    await app.db.updateTable('jobs').set({ status: 'canceled' }).where('uuid', '=', uuid).execute();
  });

  it('on SQLite requeues at start what a crashed process left running', async () => {
    const uuid = await queue(app, company.uuid, {
      status: 'running',
      attempts: 1,
      worker: 'dead-host:1:abc',
      heartbeat_at: later(app, 0),
      checkpoint: JSON.stringify({ row: 1 }),
    });
    const applied: string[] = [];
    const runner = startJobRunner(app, {
      handlers: { [KIND]: countingHandler(applied) },
      pollMs: 60_000,
      reclaimOnStart: true,
    });
    for (let tries = 0; tries < 1000; tries += 1) {
      if ((await jobOf(app, uuid)).status === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await runner.stop();
    expect(applied).toEqual([`${uuid}:2`, `${uuid}:3`]);
    expect(await jobOf(app, uuid)).toMatchObject({ status: 'completed', attempts: 2 });
  });
});
