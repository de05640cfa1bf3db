import { Readable } from 'node:stream';

import { encodeImportText, importReportBom } from '@ccp/schemas';
import type { TImportEncoding } from '@ccp/schemas';
import { stringify } from 'csv-stringify/sync';

import type { FileStore } from '../storage/index.ts';
import type { CsvDelimiter } from './reader.ts';

// The error report of an import: a CSV with the line of each failed row, its reasons and its
// original cells, so a person can fix the rows in a spreadsheet and upload the report again (the
// extra `line` and `errors` columns are ignored by the import). It is kept in the file store
// (storage/) batch by batch, one segment per batch with failures, so any server can resume the
// job and serve the report.

export type ErrorRow = { line: number; reasons: string[]; cells: readonly string[] };

// A cell a spreadsheet would run as a formula gets a leading apostrophe. A phone number
// (`+39 333…`, `-`) stays as it is: it is data people re-import.
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-][\d\s().-]*$/;
const safeCell = (cell: string): string =>
  FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell) ? `'${cell}` : cell;

/**
 * The report's first line: `line`, `errors`, then the file's own header. The report is in the
 * file's encoding (issue 26), so each row's cells are the bytes its file had: a BOM for UTF-8
 * (Excel then shows accents) and UTF-16, none for Windows-1252, which Excel reads as it is.
 */
export const errorReportHeader = (
  header: readonly string[],
  delimiter: CsvDelimiter,
  encoding: TImportEncoding = 'utf-8',
): string =>
  importReportBom(encoding) +
  stringify([['line', 'errors', ...header.map(safeCell)]], { delimiter, record_delimiter: '\r\n' });

/** Report lines for failed rows; cells beyond or short of the header are kept as they came. */
export const errorReportLines = (
  rows: readonly ErrorRow[],
  headerLength: number,
  delimiter: CsvDelimiter,
): string => {
  if (rows.length === 0) return '';
  const records = rows.map((row) => {
    const cells = [...row.cells];
    while (cells.length < headerLength) cells.push('');
    return [String(row.line), row.reasons.join(' | '), ...cells.map(safeCell)];
  });
  return stringify(records, { delimiter, record_delimiter: '\r\n' });
};

/** The folder of a job's report segments in the file store (its `error_report_path`). */
export const errorReportFolder = (jobUuid: string) => `imports/${jobUuid}.errors`;

// Reports written before the file store kept one file, appended in place.
const isSingleFile = (reportPath: string) => reportPath.endsWith('.csv');

const segmentKey = (folder: string, lastRow: number) =>
  `${folder}/${String(lastRow).padStart(10, '0')}.csv`;
const segmentRow = (key: string) => Number(/(\d+)\.csv$/.exec(key)?.[1] ?? Number.NaN);

export type ErrorReportWriter = {
  /**
   * Stores the lines of a batch that ends at `lastRow` and answers the report's new size, to be
   * committed with the batch as the checkpoint.
   */
  append: (text: string, lastRow: number) => Promise<number>;
};

/**
 * Opens a job's report at its checkpoint. The report is the header plus one segment per batch
 * with failures, each stored under the batch's last row; a batch's segment is stored before
 * the batch commits, so a resumed job first deletes segments of batches its checkpoint does not
 * cover (a crash left them), and the same batch done again stores it anew.
 */
export const openErrorReport = async (
  files: FileStore,
  jobUuid: string,
  checkpoint: { row: number; error_bytes: number },
  headerLine: string,
  encoding: TImportEncoding = 'utf-8',
): Promise<ErrorReportWriter> => {
  const folder = errorReportFolder(jobUuid);
  const stale = (await files.list(folder)).filter((key) => !(segmentRow(key) <= checkpoint.row));
  await Promise.all(stale.map((key) => files.remove(key)));
  let size = checkpoint.error_bytes || encodeImportText(headerLine, encoding).length;
  return {
    append: async (text, lastRow) => {
      if (text === '') return size;
      const bytes = Buffer.from(encodeImportText(text, encoding));
      await files.putBytes(segmentKey(folder, lastRow), bytes, `text/csv; charset=${encoding}`);
      size += bytes.length;
      return size;
    },
  };
};

/**
 * The report as far as the job's checkpoint covers it, streamed: the header (or a report kept
 * as one file before, up to its committed size), then each committed segment in row order.
 */
export const errorReportStream = (
  files: FileStore,
  job: { uuid: string; error_report_path: string },
  checkpoint: { row: number; error_bytes: number },
  headerLine: string,
  encoding: TImportEncoding = 'utf-8',
): Readable => {
  const headerBytes = Buffer.from(encodeImportText(headerLine, encoding));
  async function* content() {
    if (isSingleFile(job.error_report_path) && checkpoint.error_bytes > 0) {
      const head = await files.read(job.error_report_path, {
        start: 0,
        end: checkpoint.error_bytes - 1,
      });
      if (head) yield* head.stream;
      else yield headerBytes;
    } else {
      yield headerBytes;
    }
    const segments = (await files.list(errorReportFolder(job.uuid))).filter(
      (key) => segmentRow(key) <= checkpoint.row,
    );
    for (const key of segments) {
      const segment = await files.read(key);
      if (segment) yield* segment.stream;
    }
  }
  return Readable.from(content(), { objectMode: false });
};

/** Deletes a job's report (its segments, and a report kept as one file before). */
export const removeErrorReport = async (
  files: FileStore,
  job: { uuid: string; error_report_path: string | null },
): Promise<void> => {
  if (job.error_report_path && isSingleFile(job.error_report_path)) {
    await files.remove(job.error_report_path);
  }
  await files.removeFolder(errorReportFolder(job.uuid));
};
