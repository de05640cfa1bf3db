import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

import { FINISHED_JOB_STATUSES } from '@ccp/schemas';
import type { FastifyInstance } from 'fastify';

import type { JobsTable } from '../db/types.ts';
import { isoNow } from '../lib/clock.ts';
import { defaultJobHandlers } from './handlers.ts';
import { registerWaker } from './queue.ts';
import { JobFailure, JobInterrupted } from './types.ts';
import type { JobContext, JobHandler, JobHandlers, JobOutcome } from './types.ts';

// The job runner: claims queued jobs (and running ones whose lease expired), runs them with a
// heartbeat, and finishes them. Every write a job makes is fenced by the claim's `attempts`, so a
// runner that stalled or crashed can never commit after another took its job over.

export type JobRunnerOptions = {
  handlers?: JobHandlers;
  /** A running job whose heartbeat is older than this is taken over by another runner. */
  leaseMs?: number;
  /** How often an idle runner looks for work (enqueueing wakes it at once anyway). */
  pollMs?: number;
  /**
   * Requeue every running job at start. Right for SQLite, where one server process owns the
   * database, so a running job at start was left by a crash; on Postgres other servers may be
   * running them, and the lease decides.
   */
  reclaimOnStart?: boolean;
  /** Claims after which a job that keeps being interrupted fails. */
  maxAttempts?: number;
  workerId?: string;
};

export type JobRunner = {
  /** Stops claiming, interrupts the running job at its next batch (it is requeued) and waits. */
  stop: () => Promise<void>;
  wake: () => void;
  workerId: string;
};

export const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_POLL_MS = 1000;
const DEFAULT_MAX_ATTEMPTS = 5;

type RunnerApp = FastifyInstance;

const isoAgo = (app: RunnerApp, ms: number) =>
  new Date(app.clock.now().getTime() - ms).toISOString();

/**
 * Claims the oldest queued job of the given kinds, or a running one whose heartbeat is older
 * than `staleBefore`. Postgres locks the candidate with FOR UPDATE SKIP LOCKED so concurrent
 * runners never wait on or claim the same row; SQLite serialises writers, and the re-checked
 * status makes the UPDATE conditional. Answers the claimed job or null.
 */
export const claimNextJob = async (
  app: Pick<RunnerApp, 'db' | 'dialect' | 'clock'>,
  { kinds, worker, staleBefore }: { kinds: string[]; worker: string; staleBefore: string },
): Promise<JobsTable | null> => {
  if (kinds.length === 0) return null;
  const now = isoNow(app.clock);
  const row = await app.db
    .updateTable('jobs')
    .set((eb) => ({
      status: 'running',
      attempts: eb('attempts', '+', 1),
      worker,
      heartbeat_at: now,
      started_at: eb.fn.coalesce('started_at', eb.val(now)),
    }))
    .where('uuid', '=', (eb) => {
      let candidate = eb
        .selectFrom('jobs')
        .select('uuid')
        .where('kind', 'in', kinds)
        .where((w) =>
          w.or([
            w('status', '=', 'queued'),
            w.and([w('status', '=', 'running'), w('heartbeat_at', '<', staleBefore)]),
          ]),
        )
        .orderBy('created_at')
        .orderBy('uuid')
        .limit(1);
      if (app.dialect === 'postgres') candidate = candidate.forUpdate().skipLocked();
      return candidate;
    })
    .where((w) =>
      w.or([
        w('status', '=', 'queued'),
        w.and([w('status', '=', 'running'), w('heartbeat_at', '<', staleBefore)]),
      ]),
    )
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
};

/** Sets the final status of a job we still hold; answers false when we no longer hold it. */
const finishJob = async (
  app: RunnerApp,
  job: JobsTable,
  status: 'completed' | 'failed',
  changes: JobOutcome & { error_summary?: string | null },
): Promise<boolean> => {
  const result = await app.db
    .updateTable('jobs')
    .set({ ...changes, status, finished_at: isoNow(app.clock), worker: null })
    .where('uuid', '=', job.uuid)
    .where('status', '=', 'running')
    .where('attempts', '=', job.attempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
};

/** Puts a job we hold back in the queue (the runner is stopping); its checkpoint stays. */
const requeueJob = async (app: RunnerApp, job: JobsTable): Promise<void> => {
  await app.db
    .updateTable('jobs')
    .set({ status: 'queued', worker: null, heartbeat_at: null })
    .where('uuid', '=', job.uuid)
    .where('status', '=', 'running')
    .where('attempts', '=', job.attempts)
    .execute();
};

/**
 * Runs one claimed job to its end: completed, failed (a JobFailure's message, or the handler's
 * internal-error text), or left for a later claim when interrupted.
 */
export const runClaimedJob = async (
  app: RunnerApp,
  job: JobsTable,
  handler: JobHandler,
  {
    leaseMs = DEFAULT_LEASE_MS,
    stopSignal,
    maxAttempts = DEFAULT_MAX_ATTEMPTS,
  }: { leaseMs?: number; stopSignal?: AbortSignal; maxAttempts?: number } = {},
): Promise<void> => {
  if (job.attempts > maxAttempts) {
    await finishJob(app, job, 'failed', { error_summary: handler.texts.interrupted });
    return;
  }
  const timer = app.metrics.jobDuration.startTimer({ kind: job.kind });
  const controller = new AbortController();
  const onStop = () => controller.abort();
  stopSignal?.addEventListener('abort', onStop);
  if (stopSignal?.aborted) controller.abort();

  const fence = () =>
    app.db
      .updateTable('jobs')
      .where('uuid', '=', job.uuid)
      .where('status', '=', 'running')
      .where('attempts', '=', job.attempts);
  const heartbeat = setInterval(
    () => {
      fence()
        .set({ heartbeat_at: isoNow(app.clock) })
        .executeTakeFirst()
        .then((result) => {
          // Canceled or taken over: stop at the next batch.
          if (Number(result.numUpdatedRows) !== 1) controller.abort();
        })
        .catch((error: unknown) => app.log.warn({ err: error, job: job.uuid }, 'heartbeat failed'));
    },
    Math.max(50, Math.floor(leaseMs / 3)),
  );
  heartbeat.unref();

  const context: JobContext = {
    app,
    job,
    signal: controller.signal,
    commit: async ({ checkpoint, ...counters }, work) => {
      // Stopping or lost: the batch is left for whoever resumes the job.
      if (controller.signal.aborted) throw new JobInterrupted('stopping');
      await app.db.transaction().execute(async (trx) => {
        // Lock and check the job row first: nothing of the batch is written if we lost it.
        const result = await trx
          .updateTable('jobs')
          .set({
            ...counters,
            checkpoint: JSON.stringify(checkpoint),
            heartbeat_at: isoNow(app.clock),
          })
          .where('uuid', '=', job.uuid)
          .where('status', '=', 'running')
          .where('attempts', '=', job.attempts)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) throw new JobInterrupted('lease lost');
        if (work) await work(trx);
      });
    },
  };

  try {
    const outcome = (await handler.run(context)) ?? {};
    await finishJob(app, job, 'completed', { ...outcome, error_summary: null });
    timer({ status: 'completed' });
  } catch (error) {
    if (error instanceof JobInterrupted || controller.signal.aborted) {
      if (stopSignal?.aborted) await requeueJob(app, job);
      app.log.info({ job: job.uuid, reason: (error as Error).message }, 'job interrupted');
    } else if (error instanceof JobFailure) {
      await finishJob(app, job, 'failed', { error_summary: error.message });
      timer({ status: 'failed' });
    } else {
      app.log.error({ err: error, job: job.uuid }, 'job failed');
      await finishJob(app, job, 'failed', { error_summary: handler.texts.internalError });
      timer({ status: 'failed' });
    }
  } finally {
    clearInterval(heartbeat);
    stopSignal?.removeEventListener('abort', onStop);
  }
};

/**
 * Runs the after-finish step (mail, clean-up) of finished jobs that have not had it, each once:
 * `notified_at` is claimed first, so two runners never both send.
 */
export const runAfterFinish = async (app: RunnerApp, handlers: JobHandlers): Promise<number> => {
  const kinds = Object.keys(handlers);
  if (kinds.length === 0) return 0;
  const jobs = await app.db
    .selectFrom('jobs')
    .selectAll()
    .where('status', 'in', [...FINISHED_JOB_STATUSES])
    .where('notified_at', 'is', null)
    .where('kind', 'in', kinds)
    .orderBy('created_at')
    .limit(20)
    .execute();
  let done = 0;
  for (const job of jobs) {
    const notifiedAt = isoNow(app.clock);
    const claim = await app.db
      .updateTable('jobs')
      .set({ notified_at: notifiedAt })
      .where('uuid', '=', job.uuid)
      .where('notified_at', 'is', null)
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) !== 1) continue;
    try {
      await handlers[job.kind]?.afterFinish?.(app, { ...job, notified_at: notifiedAt });
      done += 1;
    } catch (error) {
      app.log.error({ err: error, job: job.uuid }, 'job after-finish step failed');
    }
  }
  return done;
};

/**
 * Claims and runs jobs until none is left: what a runner does on each wake-up. Tests call it to
 * run the queue without timers.
 */
export const drainJobs = async (
  app: RunnerApp,
  options: JobRunnerOptions & { stopSignal?: AbortSignal; worker?: string } = {},
): Promise<number> => {
  const handlers = options.handlers ?? defaultJobHandlers;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const worker = options.worker ?? options.workerId ?? newWorkerId();
  let ran = 0;
  await runAfterFinish(app, handlers);
  while (!options.stopSignal?.aborted) {
    const job = await claimNextJob(app, {
      kinds: Object.keys(handlers),
      worker,
      staleBefore: isoAgo(app, leaseMs),
    });
    if (!job) break;
    const handler = handlers[job.kind];
    if (!handler) break;
    await runClaimedJob(app, job, handler, {
      leaseMs,
      maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      ...(options.stopSignal ? { stopSignal: options.stopSignal } : {}),
    });
    ran += 1;
    await runAfterFinish(app, handlers);
  }
  return ran;
};

const newWorkerId = () => `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

/** Starts the in-process runner; `stop()` before closing the app. */
export const startJobRunner = (app: RunnerApp, options: JobRunnerOptions = {}): JobRunner => {
  const workerId = options.workerId ?? newWorkerId();
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const reclaimOnStart = options.reclaimOnStart ?? app.dialect === 'sqlite';
  const stopController = new AbortController();
  let pendingWake = false;
  let wakeUp: (() => void) | null = null;

  const wake = () => {
    pendingWake = true;
    wakeUp?.();
  };
  const sleep = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wakeUp = null;
        pendingWake = false;
        resolve();
      };
      const timer = setTimeout(done, pollMs);
      timer.unref();
      wakeUp = done;
      if (pendingWake || stopController.signal.aborted) done();
    });
  const unregister = registerWaker({ db: app.db, wake });
  const handlers = options.handlers ?? defaultJobHandlers;
  for (const handler of Object.values(handlers)) void handler.warmUp?.();

  const loop = async () => {
    if (reclaimOnStart) {
      await app.db
        .updateTable('jobs')
        .set({ status: 'queued', worker: null, heartbeat_at: null })
        .where('status', '=', 'running')
        .execute();
    }
    while (!stopController.signal.aborted) {
      try {
        await drainJobs(app, { ...options, worker: workerId, stopSignal: stopController.signal });
      } catch (error) {
        app.log.error({ err: error }, 'job runner error');
      }
      if (!stopController.signal.aborted) await sleep();
    }
  };
  const running = loop().catch((error: unknown) =>
    app.log.error({ err: error }, 'job runner stopped'),
  );

  return {
    workerId,
    wake,
    stop: async () => {
      stopController.abort();
      wake();
      await running;
      unregister();
      await Promise.all(
        Object.values(handlers).map((handler) => handler.shutdown?.() ?? Promise.resolve()),
      );
    },
  };
};
