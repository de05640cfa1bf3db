import { checkImportRow, importRowKey } from '@ccp/schemas';
import type { TImportColumnMap, TImportRowCheck, TImportRowOptions } from '@ccp/schemas';

// One data row of an import file. The rules live in @ccp/schemas (checkImportRow), so the CLI's
// dry run checks a file exactly as the job does; these are the job's names for them.

export type ColumnMap = TImportColumnMap;
export type RowCheck = TImportRowCheck;
export type RowOptions = TImportRowOptions;

/** What a row is matched by: `e:<email>`, or `p:<phone>` without an e-mail; null with neither. */
export const rowKey = (cells: readonly string[], columns: ColumnMap, options?: RowOptions) =>
  importRowKey(cells, columns, options);

/** Validates one data row; `firstLineOfKey` is where its e-mail (or phone) first appeared. */
export const checkRow = (
  cells: readonly string[],
  columns: ColumnMap,
  headerLength: number,
  firstLineOfKey: number | undefined,
  options?: RowOptions,
): RowCheck => checkImportRow(cells, columns, headerLength, firstLineOfKey, options);
