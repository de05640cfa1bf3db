import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

import { MESSAGES, limitReachedMessage } from '@ccp/schemas';
import { sql } from 'kysely';
import type { Transaction } from 'kysely';

import type { Db, Dialect } from '../db/index.ts';
import type { Database } from '../db/types.ts';
import { localizeReason } from '../i18n/messages.ts';
import { isoNow } from '../lib/clock.ts';
import { lockCompany } from '../lib/company-lock.ts';
import { gcEveryRows } from '../lib/gc.ts';
import { usageOf } from '../lib/usage.ts';
import { JobFailure, JobInterrupted } from '../jobs/types.ts';
import type { JobContext, JobHandler } from '../jobs/types.ts';
import { listExists } from '../learners/learners-lists-repository.ts';
import { addCounters, planBatch } from './batch-plan.ts';
import type { Counters, PlannedBatch } from './batch-plan.ts';
import { writeBatch } from './batch-writer.ts';
import type { BatchTarget, WriteMode } from './batch-writer.ts';
import {
  errorReportHeader,
  errorReportLines,
  openErrorReport,
  removeErrorReport,
} from './error-report.ts';
import type { ErrorRow } from './error-report.ts';
import { learnersLimitOf } from './existing.ts';
import {
  importPaths,
  importRowOptions,
  parseImportCheckpoint,
  parseImportOptions,
} from './options.ts';
import type { LearnersImportCheckpoint, LearnersImportOptions } from './options.ts';
import {
  holdImportWorker,
  importBatches,
  importWorkerAvailable,
  releaseImportWorker,
} from './batches.ts';
import { ImportFileError } from './reader.ts';
import type { PreparedRow } from './row-source.ts';
import { sendImportSummary } from './summary-mail.ts';

// The learners import job: the orchestration. Rows are read from the stored file (batches.ts),
// each batch is planned (batch-plan.ts: looked up, every row decided) and written (batch-writer.ts:
// through the learners repositories); each batch (its learners, list memberships, counters and
// checkpoint) commits in one transaction, and a resumed job skips the rows up to its checkpoint,
// so no row is ever applied twice.

/**
 * Rows per transaction. SQLite: 10 parameters each keep its insert under 32,766. Postgres:
 * measured on 100,000 learners, the upsert alone took 3.2 s in batches of 2,000, 2.5 s in
 * batches of 5,000 and 2.9 s in batches of 10,000 or 25,000.
 */
export const IMPORT_BATCH_ROWS: Record<Dialect, number> = { sqlite: 1000, postgres: 5000 };

/**
 * SQLite: checkpoint the write-ahead log once after the import rather than every 1,000 pages
 * during it (each checkpoint syncs the disk twice, and pages a later batch changes again would be
 * copied again). Answers the function that restores the setting.
 */
const deferCheckpoints = async (db: Db): Promise<() => Promise<void>> => {
  const current = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db);
  const previous = Number(current.rows[0]?.wal_autocheckpoint ?? 1000);
  // Bounded: about 200 MB of log at most.
  await sql`pragma wal_autocheckpoint = 50000`.execute(db);
  return async () => {
    await sql.raw(`pragma wal_autocheckpoint = ${previous}`).execute(db);
  };
};

const isUniqueViolation = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';

/** The job's failures for the error report, in the language the import was started in. */
const failuresIn = (failures: ErrorRow[], options: LearnersImportOptions): ErrorRow[] => {
  const lang = options.language ?? 'en';
  return lang === 'en'
    ? failures
    : failures.map((failure) => ({
        ...failure,
        reasons: failure.reasons.map((reason) => localizeReason(reason, lang)),
      }));
};

/** The target list must still be the company's (it may have been deleted since the upload). */
const checkTargetList = async (db: Db, companyUuid: string, options: LearnersImportOptions) => {
  if (options.list && !(await listExists(db, companyUuid, options.list.uuid))) {
    throw new JobFailure(MESSAGES.learnersListUnknown);
  }
};

/**
 * Commits one planned batch: checks the plan limit, appends the error report, then writes the
 * batch with its counters and checkpoint in one transaction. Postgres batches try a plain INSERT
 * first and are done again as an upsert when another request created one of the e-mails.
 */
const commitPlannedBatch = async (
  { app, job, signal, commit }: JobContext,
  step: {
    options: LearnersImportOptions;
    target: BatchTarget;
    planLimit: number | null;
    report: Awaited<ReturnType<typeof openErrorReport>>;
    counters: Counters;
    /** Rows stored with a warning up to the previous batch; counted on after each commit. */
    warned: { count: number };
  },
  planned: PlannedBatch,
): Promise<Counters> => {
  const { options, target, planLimit, report, counters } = step;
  if (signal.aborted) throw new JobInterrupted('stopping');
  // Counted in the batch's own transaction under the company's lock, so neither another import
  // nor a learner created meanwhile can take the same places (issue 30).
  const assertPlaces = async (trx: Transaction<Database>) => {
    if (planLimit === null || planned.added === 0) return;
    await lockCompany(trx, target.dialect, target.companyUuid);
    const active = await usageOf(trx, target.companyUuid, 'learners', app.clock.now());
    if (active + planned.added > planLimit) throw new JobFailure(limitReachedMessage('learners'));
  };
  const next = addCounters(counters, planned.delta);
  const errorBytes = await report.append(
    errorReportLines(
      failuresIn(planned.failures, options),
      options.header.length,
      options.delimiter,
    ),
    planned.last.row,
  );
  const nextCheckpoint: LearnersImportCheckpoint = {
    row: planned.last.row,
    line: planned.last.line,
    error_bytes: errorBytes,
    warned: step.warned.count + planned.warned,
  };
  const now = isoNow(app.clock);
  const commitAs = (mode: WriteMode) =>
    commit(
      { ...next, checkpoint: nextCheckpoint },
      options.dry_run
        ? undefined
        : async (trx) => {
            await assertPlaces(trx);
            await writeBatch(trx, target, planned, now, mode);
          },
    );
  if (target.dialect === 'sqlite') {
    await commitAs('upsert');
  } else {
    try {
      await commitAs('insert');
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      app.log.info({ job: job.uuid, row: planned.last.row }, 'import batch redone as an upsert');
      await commitAs('upsert');
    }
  }
  return next;
};

/**
 * Batch n + 1 is looked up while batch n commits (on Postgres on another connection, so the
 * database works on both at once). The lookup cannot depend on batch n's writes: a row whose
 * e-mail or phone an earlier row of the file has is a failed duplicate, never looked up.
 * Commits stay in file order, one at a time.
 */
const pipelineBatches = async (
  batches: AsyncIterable<PreparedRow[]>,
  signal: AbortSignal,
  plan: (batch: PreparedRow[]) => Promise<PlannedBatch>,
  commitBatch: (planned: PlannedBatch) => Promise<void>,
): Promise<void> => {
  let committing: Promise<void> | null = null;
  try {
    for await (const batch of batches) {
      if (signal.aborted) throw new JobInterrupted('stopping');
      const planned = await plan(batch);
      if (committing) await committing;
      committing = commitBatch(planned);
      // Awaited before the next commit or below; until then a failure is not unhandled.
      committing.catch(() => undefined);
    }
  } catch (error) {
    // A commit still running goes first: its failure happened earlier in the file, and the
    // report must not be closed under it.
    if (committing) await committing;
    throw error;
  }
  if (committing) await committing;
};

const runImport = async (context: JobContext) => {
  const { app, job, signal } = context;
  const options = parseImportOptions(job.options);
  const checkpoint = parseImportCheckpoint(job.checkpoint);
  const inputKey = job.input_path ?? importPaths(job.uuid, options.format).input;
  const target: BatchTarget = {
    dialect: app.dialect,
    companyUuid: job.company_uuid,
    listUuid: options.list?.uuid ?? null,
  };

  await checkTargetList(app.db, target.companyUuid, options);
  // The upload checked the plan against the whole file; this catches learners added since.
  const planLimit = options.dry_run ? null : await learnersLimitOf(app.db, target.companyUuid);
  const warned = { count: checkpoint.warned ?? 0 };
  let counters: Counters = {
    processed_rows: job.processed_rows,
    created: job.created,
    updated: job.updated,
    skipped: job.skipped,
    failed: job.failed,
  };
  const report = await openErrorReport(
    app.files,
    job.uuid,
    checkpoint,
    errorReportHeader(options.header, options.delimiter, options.encoding),
    options.encoding,
  );
  // The file on this machine: the stored one, or a download from object storage (any server
  // may run the job, and the XLSX reader seeks).
  const input = await app.files.localCopy(inputKey);
  if (!input) throw new JobFailure(MESSAGES.importInternalError);

  app.log.info(
    { job: job.uuid, from_row: checkpoint.row, worker_thread: importWorkerAvailable() },
    'learners import running',
  );
  const restoreCheckpoints =
    app.dialect === 'sqlite' && !options.dry_run ? await deferCheckpoints(app.db) : null;
  // Each committed batch's garbage is collected every IMPORT_GC_ROWS rows (lib/gc.ts).
  const collect = gcEveryRows();
  try {
    const batches = importBatches({
      path: input.path,
      format: options.format,
      delimiter: options.delimiter,
      encoding: options.encoding ?? 'utf-8',
      columns: options.columns,
      headerLength: options.header.length,
      rowOptions: importRowOptions(options),
      skipRows: checkpoint.row,
      batchSize: IMPORT_BATCH_ROWS[app.dialect],
    });
    await pipelineBatches(
      batches,
      signal,
      (batch) => planBatch(app.db, target.dialect, target.companyUuid, batch),
      async (planned) => {
        const step = { options, target, planLimit, report, counters, warned };
        counters = await commitPlannedBatch(context, step, planned);
        warned.count += planned.warned;
        collect(planned.delta.processed_rows);
        // Let requests in between batches (SQLite work is synchronous).
        await yieldToEventLoop();
      },
    );
  } catch (error) {
    // The upload read the whole file; if it no longer reads, it changed on disk since.
    if (error instanceof ImportFileError) throw new JobFailure(error.message);
    throw error;
  } finally {
    await input.release();
    await restoreCheckpoints?.();
  }
  // The upload counted the rows with a byte scan; the rows read here are the truth.
  return { total_rows: counters.processed_rows };
};

/** Deletes the input file (and an empty error report), then e-mails the requester. */
const afterImport = async (app: JobContext['app'], job: JobContext['job']) => {
  const options = parseImportOptions(job.options);
  await app.files.remove(job.input_path ?? importPaths(job.uuid, options.format).input);
  if (job.failed === 0) {
    await removeErrorReport(app.files, job);
    await app.db
      .updateTable('jobs')
      .set({ error_report_path: null })
      .where('uuid', '=', job.uuid)
      .execute();
  }
  if (job.status !== 'canceled') await sendImportSummary(app, job);
};

export const learnersImportHandler: JobHandler = {
  run: runImport,
  afterFinish: afterImport,
  texts: { interrupted: MESSAGES.importInterrupted, internalError: MESSAGES.importInternalError },
  warmUp: holdImportWorker,
  shutdown: releaseImportWorker,
};
