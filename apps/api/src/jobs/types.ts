import type { TJobStatus, TLimitPayload } from '@ccp/schemas';
import type { FastifyInstance } from 'fastify';
import type { Transaction } from 'kysely';

import type { Database, JobsTable } from '../db/types.ts';

export type { TJobStatus };

/** The counters a job reports while it runs. */
export type JobCounters = Pick<
  JobsTable,
  'total_rows' | 'processed_rows' | 'created' | 'updated' | 'skipped' | 'failed'
>;

/** What a batch commit saves with the batch: the counters so far and where to resume. */
export type JobProgress = Partial<JobCounters> & { checkpoint: unknown };

export type JobContext = {
  app: FastifyInstance;
  /** The job as claimed: its counters and checkpoint are those of the last committed batch. */
  job: JobsTable;
  /** Aborted when the runner stops or the lease is lost: stop at the next batch boundary. */
  signal: AbortSignal;
  /**
   * Runs `work` and saves `progress` in one transaction, fenced by the claim: if the runner is
   * stopping, another runner took the job over or it was canceled, nothing is written and
   * JobInterrupted is thrown.
   */
  commit: (
    progress: JobProgress,
    work?: (trx: Transaction<Database>) => Promise<void>,
  ) => Promise<void>;
};

/** Columns a handler may set when its job completes. */
export type JobOutcome = Partial<Pick<JobsTable, 'error_report_path' | 'total_rows'>>;

export type JobHandler = {
  run: (context: JobContext) => Promise<JobOutcome | void>;
  /**
   * Runs once after the job reached completed, failed or canceled (also after a crash right
   * there): e-mail the requester, delete the input file.
   */
  afterFinish?: (app: FastifyInstance, job: JobsTable) => Promise<void>;
  /** Texts of the failures the runner itself decides. */
  texts: { interrupted: string; internalError: string };
  /** Called when a runner starts: prepare what the kind's jobs use (a worker thread…). */
  warmUp?: () => unknown;
  /** Called when a runner stops. */
  shutdown?: () => Promise<void>;
};

export type JobHandlers = Record<string, JobHandler>;

/** A failure the requester should read (error_summary): the job ends `failed`. */
export class JobFailure extends Error {
  readonly limit: TLimitPayload | undefined;
  constructor(message: string, limit?: TLimitPayload) {
    super(message);
    this.name = 'JobFailure';
    this.limit = limit;
  }
}

/** The runner is stopping or lost the job: leave it for a later claim, write nothing more. */
export class JobInterrupted extends Error {
  constructor(message = 'job interrupted') {
    super(message);
    this.name = 'JobInterrupted';
  }
}

export const isJobStatus = (value: string, statuses: readonly TJobStatus[]): boolean =>
  (statuses as readonly string[]).includes(value);
