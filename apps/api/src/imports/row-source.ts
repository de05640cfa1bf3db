import type { TImportEncoding, TImportRowOptions, TLearnerInput } from '@ccp/schemas';

import { readRows } from './reader.ts';
import type { CsvDelimiter, ImportFormat } from './reader.ts';
import { checkRow, rowKey } from './rows.ts';
import type { ColumnMap } from './rows.ts';

// The CPU half of an import job: read the file, rebuild the duplicate check, skip the rows a
// previous run committed, validate the rest, and hand them over in batches. It touches no
// database, so it can run in a worker thread while the job's thread writes (row-worker.ts).

export type RowSourceParams = {
  path: string;
  format: ImportFormat;
  delimiter: CsvDelimiter;
  encoding: TImportEncoding;
  columns: ColumnMap;
  headerLength: number;
  /** The upload's row defaults (country of national phones, channels, language). */
  rowOptions: TImportRowOptions;
  /** Data rows already committed (the checkpoint): read for the duplicate check, not returned. */
  skipRows: number;
  batchSize: number;
};

export type PreparedRow =
  | {
      row: number;
      line: number;
      ok: true;
      learner: TLearnerInput;
      key: string;
      /** Stored, but a channel may not use it (a landline for WhatsApp): reported with its cells. */
      warned?: { reasons: string[]; cells: string[] };
    }
  | { row: number; line: number; ok: false; reasons: string[]; cells: string[] };

/** Batches of validated data rows after the checkpoint, in file order. */
export async function* preparedBatches(params: RowSourceParams): AsyncGenerator<PreparedRow[]> {
  const { columns, headerLength, skipRows, batchSize, rowOptions } = params;
  // Where each e-mail (or phone) first appeared: later rows with it are reported as duplicates.
  // Rebuilt from the raw cells of every row, so a resumed job needs no validation of skipped ones.
  const firstLines = new Map<string, number>();
  let header = true;
  let row = 0;
  let batch: PreparedRow[] = [];
  for await (const { line, cells } of readRows(
    params.path,
    params.format,
    params.delimiter,
    params.encoding,
  )) {
    if (header) {
      header = false;
      continue;
    }
    row += 1;
    const key = rowKey(cells, columns, rowOptions);
    const firstLine = key === null ? undefined : firstLines.get(key);
    if (key !== null && firstLine === undefined) firstLines.set(key, line);
    if (row <= skipRows) continue;
    const check = checkRow(cells, columns, headerLength, firstLine, rowOptions);
    batch.push(
      check.ok
        ? {
            row,
            line,
            ok: true,
            learner: check.learner,
            key: check.key,
            ...(check.warnings.length > 0 ? { warned: { reasons: check.warnings, cells } } : {}),
          }
        : { row, line, ok: false, reasons: check.reasons, cells },
    );
    if (batch.length >= batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
