import { writeFile } from 'node:fs/promises';

import { ApiError, createActions, dataProvider, learnersImportErrors } from '@ccp/data-provider';
import { FINISHED_JOB_STATUSES } from '@ccp/schemas';
import type { TImportJob } from '@ccp/schemas';
import { parse } from 'csv-parse/sync';

import type { CliSession, GlobalOptions } from '../../lib/client.ts';
import { requireSession } from '../../lib/client.ts';
import { CliError, UsageError } from '../../lib/errors.ts';
import { importStateStore } from '../../lib/import-state.ts';
import type { ImportStateStore } from '../../lib/import-state.ts';
import { canPrompt } from '../../lib/interactive.ts';
import { onInterrupt } from '../../lib/interrupt.ts';
import type { CliIo } from '../../lib/io.ts';
import { printErr, printJson, printOut } from '../../lib/io.ts';
import { formatCount } from '../../lib/progress.ts';
import { createPrompter } from '../../lib/prompt.ts';

// An import's life on the server as the CLI follows it: which job a command means, Ctrl-C while
// it runs, `ccp learners import cancel`, and the first reasons of the rows that failed.

export type ImportJobOptions = GlobalOptions & { json?: boolean };

/** Rows whose reasons a run prints before pointing at the full report (the dry run's too). */
export const SHOWN_REASONS = 50;

/** The import state of this session: on disk for a signed-in user, in memory for CCP_TOKEN. */
export const importStateOf = (session: CliSession, io: CliIo): ImportStateStore =>
  importStateStore(io, { persist: !session.usesToken });

/** The job a status/cancel command means: the one named, else the last started here. */
export const jobUuidOf = (session: CliSession, io: CliIo, named: string | undefined): string => {
  if (named) return named;
  const latest = importStateOf(session, io).latest(session.apiUrl)?.job;
  if (!latest) {
    throw new UsageError(
      'No import was started from here: give the job id (ccp learners import status <job>).',
    );
  }
  return latest;
};

/** `line 12: reason | reason` lines; `rest` says where the others are when not all are shown. */
export const printReasons = (
  io: CliIo,
  errors: readonly { line: number | string; reasons: readonly string[] }[],
  failed: number,
  rest: string,
): void => {
  for (const { line, reasons } of errors.slice(0, SHOWN_REASONS)) {
    printOut(io, `line ${line}: ${reasons.join(' | ')}`);
  }
  const shown = Math.min(errors.length, SHOWN_REASONS);
  if (failed > shown)
    printErr(io, `… ${formatCount(failed - shown)} more rows with errors ${rest}.`);
};

/** The first failed rows of a job's error report (CSV: line, errors, the file's columns). */
export const reportReasons = (report: string): { line: string; reasons: string[] }[] => {
  const text = report.replace(/^\uFEFF/, '');
  // The report keeps the file's delimiter: the header starts with `line` and then it.
  const delimiter = text.startsWith('line') ? (text[4] ?? ',') : ',';
  const records: string[][] = parse(text, {
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    from_line: 2,
    to_line: SHOWN_REASONS + 1,
  });
  return records.map(([line = '', errors = '']) => ({ line, reasons: errors.split(' | ') }));
};

/**
 * Writes the job's error report to `errorsOut` as the server sent it (bytes, BOM and encoding
 * kept) and answers its text, or fetches it only to show the first reasons.
 */
export const fetchReport = async (
  session: CliSession,
  job: TImportJob,
  errorsOut: string | undefined,
): Promise<string | null> => {
  if (!errorsOut && job.failed === 0) return null;
  // The report's exact bytes, in the file's own encoding (issue 26), BOM included.
  const report = await learnersImportErrors(session.client, job.uuid);
  if (errorsOut) await writeFile(errorsOut, report);
  return new TextDecoder().decode(report);
};

const cancelOnServer = async (session: CliSession, uuid: string): Promise<TImportJob> =>
  createActions(dataProvider(session.client)).cancelImport(uuid);

const describeStopped = (job: TImportJob) =>
  `Stopped the import on the server (job ${job.uuid}): ${formatCount(job.processed_rows)} of ${formatCount(job.total_rows)} rows were done before it stopped; they stay.`;

/**
 * While ccp waits for a job: Ctrl-C asks on a terminal whether to stop it on the server;
 * elsewhere it stops it only with --cancel-on-interrupt, and otherwise says how to. Answers the
 * function that removes the handler.
 */
export const cancelOnInterrupt = (
  io: CliIo,
  session: CliSession,
  uuid: string,
  options: { json?: boolean; input?: boolean; cancelOnInterrupt?: boolean },
  beforeAsking: () => void,
): (() => void) => {
  onInterrupt(async () => {
    beforeAsking();
    let stop = options.cancelOnInterrupt === true;
    if (!stop && canPrompt(io, options)) {
      const ask = await createPrompter(io, true);
      try {
        stop = await ask.confirm({ message: 'Stop the import on the server?', flag: '--yes' });
      } catch {
        // A second Ctrl-C at the question: leave the import running.
        stop = false;
      }
    }
    if (stop) {
      try {
        printErr(io, describeStopped(await cancelOnServer(session, uuid)));
      } catch (error) {
        // It ended meanwhile: nothing to stop.
        if (!(error instanceof ApiError && error.status === 422)) throw error;
        printErr(io, `The import had already ended (job ${uuid}).`);
      }
      return;
    }
    printErr(
      io,
      `Cancelled. The import goes on on the server (job ${uuid}). Follow it: ccp learners import status ${uuid} · stop it: ccp learners import cancel ${uuid}`,
    );
  });
  return () => onInterrupt(null);
};

/** `ccp learners import cancel [JOB]`: stops the job on the server; rows already done stay. */
export async function learnersImportCancel(
  named: string | undefined,
  options: ImportJobOptions,
  io: CliIo,
): Promise<void> {
  const session = requireSession(options, io);
  const uuid = jobUuidOf(session, io, named);
  const current = (
    await session.client.get<{ data: TImportJob }>(
      `/api/v1/learners/imports/${encodeURIComponent(uuid)}`,
    )
  ).data;
  if (FINISHED_JOB_STATUSES.includes(current.status)) {
    if (options.json) printJson(io, current);
    throw new CliError(
      `The import ${uuid} already ended (${current.status}); there is nothing to stop.`,
    );
  }
  const stopped = await cancelOnServer(session, uuid);
  if (options.json) printJson(io, stopped);
  else printErr(io, describeStopped(stopped));
}
