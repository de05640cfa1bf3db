import { createWriteStream } from 'node:fs';
import type { WriteStream } from 'node:fs';

import {
  BULK_IMPORT_MAX_LEARNERS,
  CsvBrokenError,
  IMPORT_PREVIEW_ROWS,
  MESSAGES,
  applyImportPhoneCountries,
  checkImportRow,
  encodeImportText,
  importPreviewRow,
  importReportBom,
  fillMessage,
  importRowKey,
  matchImportHeader,
} from '@ccp/schemas';
import type {
  TImportColumnOverrides,
  TImportEncoding,
  TImportHeader,
  TImportPhoneCountries,
  TImportPreviewRow,
  TImportRowCheckOptions,
  TImportRowOptions,
} from '@ccp/schemas';

import type { CsvDelimiter } from '../../lib/csv-reader.ts';
import type { ImportSource } from '../../lib/import-file.ts';

// The dry run on this machine: every row through the shared rules (checkImportRow), the same
// duplicate check as the job, the same counts of rows; nothing is sent.

export type TCheckedError = { line: number; reasons: string[] };

export type TCheckResult = {
  header: string[];
  matched: TImportHeader;
  /** File-level problems that make the upload fail (header, broken CSV, row count). */
  problems: string[];
  rows: number;
  valid: number;
  failed: number;
  /** The first failed rows (at most `keepErrors`); the error report has all of them. */
  errors: TCheckedError[];
  /** The first valid rows as they will be stored (IMPORT_PREVIEW_ROWS). */
  preview: TImportPreviewRow[];
  /** Rows stored with a warning (a landline for WhatsApp). */
  warned: number;
};

export type CheckOptions = {
  overrides: TImportColumnOverrides;
  /** The country of national numbers per phone column (--phone-country), by header. */
  phoneCountries?: TImportPhoneCountries | undefined;
  /** The row defaults (country of national phones, channels, language). */
  defaults?: TImportRowOptions;
  /** Also write the error report (CSV) here. */
  errorsOut?: string | undefined;
  keepErrors?: number;
  onProgress?: (rows: number, bytes: number) => void;
};

// As in the API's error report: a cell a spreadsheet would run as a formula gets a quote mark.
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-][\d\s().-]*$/;
const safeCell = (cell: string) =>
  FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell) ? `'${cell}` : cell;

export const csvLine = (cells: readonly string[], delimiter: CsvDelimiter): string =>
  `${cells
    .map((cell) =>
      cell.includes(delimiter) || /["\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell,
    )
    .join(delimiter)}\r\n`;

// The report is written in the file's own encoding, so its cells are the file's bytes.
const writeText = (stream: WriteStream, text: string, encoding: TImportEncoding) =>
  stream.write(encodeImportText(text, encoding))
    ? Promise.resolve()
    : new Promise<void>((resolve) => stream.once('drain', resolve));

/**
 * Reads and checks the whole file. Duplicates are tracked for the first 100,000 rows (the most
 * an import takes): a bigger file is refused anyway, and its later rows are still checked field
 * by field in flat memory.
 */
export const checkImportFile = async (
  source: ImportSource,
  options: CheckOptions,
): Promise<TCheckResult> => {
  const keep = options.keepErrors ?? 1000;
  const rowOptions: TImportRowOptions = options.defaults ?? {};
  // One options object for every row: the key changes, nothing is allocated per row.
  const checkOptions: TImportRowCheckOptions = { ...rowOptions };
  const firstLines = new Map<string, number>();
  const result: TCheckResult = {
    header: [],
    matched: { columns: {}, matches: [], problems: [], unusedOverrides: [] },
    problems: [],
    rows: 0,
    valid: 0,
    failed: 0,
    errors: [],
    preview: [],
    warned: 0,
  };
  let report: WriteStream | null = null;
  let bytes = 0;
  let headerSeen = false;
  try {
    for await (const batch of source.rows((read) => (bytes += read))) {
      for (const { line, cells } of batch) {
        if (!headerSeen) {
          headerSeen = true;
          result.header = cells;
          result.matched = matchImportHeader(
            cells,
            options.overrides,
            rowOptions.defaultChannels?.length ? ['channels'] : [],
          );
          if (result.matched.problems.length > 0) {
            result.problems.push(...result.matched.problems);
            return result;
          }
          // As the server's pre-scan: the chosen countries travel in the column map.
          const applied = applyImportPhoneCountries(result.matched, options.phoneCountries);
          result.matched = { ...result.matched, columns: applied.columns };
          if (applied.problems.length > 0) {
            result.problems.push(...applied.problems);
            return result;
          }
          if (options.errorsOut) {
            report = createWriteStream(options.errorsOut);
            await writeText(
              report,
              `${importReportBom(source.encoding)}${csvLine(['line', 'errors', ...cells.map(safeCell)], source.delimiter)}`,
              source.encoding,
            );
          }
          continue;
        }
        result.rows += 1;
        const { columns } = result.matched;
        const key = importRowKey(cells, columns, rowOptions);
        const firstLine = key === null ? undefined : firstLines.get(key);
        if (key !== null && firstLine === undefined && result.rows <= BULK_IMPORT_MAX_LEARNERS) {
          // A copy: the key is a slice of the chunk it was read from, and would keep all of it.
          firstLines.set(Buffer.from(key).toString(), line);
        }
        checkOptions.key = key;
        const check = checkImportRow(cells, columns, result.header.length, firstLine, checkOptions);
        if (check.ok) {
          result.valid += 1;
          if (check.warnings.length > 0) result.warned += 1;
          if (result.preview.length < IMPORT_PREVIEW_ROWS) {
            result.preview.push(importPreviewRow(line, check));
          }
          continue;
        }
        result.failed += 1;
        if (result.errors.length < keep) result.errors.push({ line, reasons: check.reasons });
        if (report) {
          const padded = [...cells];
          while (padded.length < result.header.length) padded.push('');
          await writeText(
            report,
            csvLine(
              [String(line), check.reasons.join(' | '), ...padded.map(safeCell)],
              source.delimiter,
            ),
            source.encoding,
          );
        }
      }
      options.onProgress?.(result.rows, bytes);
    }
  } catch (error) {
    if (!(error instanceof CsvBrokenError)) throw error;
    result.problems.push(fillMessage(MESSAGES.importCsvBroken, { line: error.line }));
  } finally {
    const stream: WriteStream | null = report;
    if (stream) await new Promise<void>((resolve) => stream.end(resolve));
  }
  if (!headerSeen) result.problems.push(MESSAGES.importFileEmpty);
  else if (result.rows === 0 && result.problems.length === 0) {
    result.problems.push(MESSAGES.importNoRows);
  } else if (result.rows > BULK_IMPORT_MAX_LEARNERS)
    result.problems.push(MESSAGES.importTooManyRows);
  return result;
};
