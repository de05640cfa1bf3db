import { IMPORT_COLUMNS, MESSAGES, fillMessage, validateLearnerInput } from '@ccp/schemas';
import type { TImportColumn, TLearnerInput } from '@ccp/schemas';

// One data row of an import file: its cells mapped to the learner fields, the key it is matched
// by (its e-mail, or its phone when it has no e-mail), and its validation with the shared rules.

export type ColumnMap = Partial<Record<TImportColumn, number>>;

export type RowCheck =
  { ok: true; learner: TLearnerInput; key: string } | { ok: false; reasons: string[] };

const cellOf = (cells: readonly string[], index: number | undefined): string | undefined =>
  index === undefined ? undefined : (cells[index] ?? '');

/** The learner fields of a row, as the shared validation takes them (absent columns undefined). */
export const recordOf = (cells: readonly string[], columns: ColumnMap) => {
  const record: Partial<Record<TImportColumn, string>> = {};
  for (const column of IMPORT_COLUMNS) {
    const value = cellOf(cells, columns[column]);
    if (value !== undefined) record[column] = value;
  }
  return record;
};

/**
 * What a row is matched by: `e:<email>` (trimmed, lowercased) or, without an e-mail, `p:<phone>`
 * without separators; null with neither. Computed from the raw cells, valid or not, so a resumed
 * import can rebuild the duplicate check without validating the rows it skips.
 */
export const rowKey = (cells: readonly string[], columns: ColumnMap): string | null => {
  const email = cellOf(cells, columns.email)?.trim().toLowerCase();
  if (email) return `e:${email}`;
  const phone = cellOf(cells, columns.phone)?.replace(/[\s\-.()]/g, '');
  return phone && phone.length > 1 ? `p:${phone}` : null;
};

/** `email: The email must be valid.`; a row-level message stays as it is. */
const reasonsOf = (errors: Record<string, string[]>): string[] =>
  Object.entries(errors).flatMap(([field, messages]) =>
    messages.map((message) => (field === 'body' ? message : `${field}: ${message}`)),
  );

/**
 * Validates one data row. `firstLineOfKey` is the line where the same e-mail (or phone) first
 * appeared in the file, when this row repeats it.
 */
export const checkRow = (
  cells: readonly string[],
  columns: ColumnMap,
  headerLength: number,
  firstLineOfKey: number | undefined,
): RowCheck => {
  const reasons: string[] = [];
  if (cells.length > headerLength && cells.slice(headerLength).some((cell) => cell.trim() !== '')) {
    reasons.push(MESSAGES.importRowTooManyFields);
  }
  const result = validateLearnerInput(recordOf(cells, columns), 'create');
  if (!result.success) reasons.push(...reasonsOf(result.errors));
  const key = rowKey(cells, columns);
  if (firstLineOfKey !== undefined && key) {
    const field = key.startsWith('e:') ? 'email' : 'phone';
    reasons.push(
      `${field}: ${fillMessage(MESSAGES.importRowDuplicate, { field, line: firstLineOfKey })}`,
    );
  }
  // A valid row always has a key (each channel needs an e-mail or a phone); keep a reason anyway.
  if (!key && reasons.length === 0) reasons.push(MESSAGES.importContactColumnMissing);
  if (reasons.length > 0 || !result.success || !key) return { ok: false, reasons };
  return { ok: true, learner: result.data, key };
};
