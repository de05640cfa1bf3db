import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

import { stringify } from 'csv-stringify/sync';

import type { CsvDelimiter } from './reader.ts';

// The error report of an import: a CSV with the line of each failed row, its reasons and its
// original cells, so a person can fix the rows in a spreadsheet and upload the report again (the
// extra `line` and `errors` columns are ignored by the import). It is appended batch by batch;
// the size committed with each batch is the job's checkpoint, so a resumed job first cuts off
// what a crash left beyond it.

export type ErrorRow = { line: number; reasons: string[]; cells: readonly string[] };

const BOM = '\ufeff';

// A cell a spreadsheet would run as a formula gets a leading apostrophe. A phone number
// (`+39 333…`, `-`) stays as it is: it is data people re-import.
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-][\d\s().-]*$/;
const safeCell = (cell: string): string =>
  FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell) ? `'${cell}` : cell;

/** The report's first line: `line`, `errors`, then the file's own header. */
export const errorReportHeader = (header: readonly string[], delimiter: CsvDelimiter): string =>
  BOM +
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

export type ErrorReportWriter = {
  /** Appends the text and answers the new size, to be committed as the checkpoint. */
  append: (text: string) => Promise<number>;
  close: () => Promise<void>;
};

/**
 * Opens the report at the committed size: a fresh job (size 0) writes the header; a resumed
 * one cuts the file back to what its last batch committed.
 */
export const openErrorReport = async (
  path: string,
  committedBytes: number,
  headerLine: string,
): Promise<ErrorReportWriter> => {
  let handle: FileHandle;
  let size: number;
  if (committedBytes === 0) {
    handle = await open(path, 'w');
    const header = Buffer.from(headerLine, 'utf8');
    await handle.write(header, 0, header.length, 0);
    size = header.length;
  } else {
    handle = await open(path, 'r+');
    await handle.truncate(committedBytes);
    size = committedBytes;
  }
  return {
    append: async (text) => {
      if (text === '') return size;
      const bytes = Buffer.from(text, 'utf8');
      await handle.write(bytes, 0, bytes.length, size);
      size += bytes.length;
      return size;
    },
    close: () => handle.close(),
  };
};
