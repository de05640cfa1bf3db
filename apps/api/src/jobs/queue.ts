import type { Db } from '../db/index.ts';
import type { JobsTable } from '../db/types.ts';

// Enqueueing and cancelling jobs, and waking the runners of the same database so a new job
// starts at once instead of at the next poll.

type Waker = { db: Db; wake: () => void };
const wakers = new Set<Waker>();

/** Called by a runner while it runs; answers the unregister function. */
export const registerWaker = (waker: Waker): (() => void) => {
  wakers.add(waker);
  return () => wakers.delete(waker);
};

/** Wakes every runner of this process that works on `db`. */
export const wakeJobRunners = (db: Db): void => {
  for (const waker of wakers) if (waker.db === db) waker.wake();
};

export type NewJob = Pick<
  JobsTable,
  'uuid' | 'company_uuid' | 'user_uuid' | 'kind' | 'total_rows' | 'input_path' | 'options'
> &
  Partial<Pick<JobsTable, 'error_report_path'>>;

/** Stores a queued job and wakes the runners. */
export const enqueueJob = async (db: Db, job: NewJob, now: string): Promise<JobsTable> => {
  const row: JobsTable = {
    processed_rows: 0,
    created: 0,
    updated: 0,
    skipped: 0,
    failed: 0,
    checkpoint: null,
    error_summary: null,
    error_report_path: null,
    attempts: 0,
    worker: null,
    started_at: null,
    finished_at: null,
    heartbeat_at: null,
    notified_at: null,
    ...job,
    status: 'queued',
    created_at: now,
  };
  await db.insertInto('jobs').values(row).execute();
  wakeJobRunners(db);
  return row;
};

/**
 * Cancels a queued or running job; a running one stops at its next batch (its commit is fenced
 * on the status) and keeps the rows it already committed. Answers whether it was cancelable.
 */
export const cancelJob = async (db: Db, uuid: string, now: string): Promise<boolean> => {
  const result = await db
    .updateTable('jobs')
    .set({ status: 'canceled', finished_at: now, worker: null })
    .where('uuid', '=', uuid)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  const canceled = Number(result.numUpdatedRows) === 1;
  if (canceled) wakeJobRunners(db);
  return canceled;
};
