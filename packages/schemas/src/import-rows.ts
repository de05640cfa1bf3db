import { NAME_PATTERN } from './common.ts';
import { CHANNEL_CONTACT, DEFAULT_LOCALE, LOCALES, TEXT_LIMITS } from './constants.ts';
import type { TChannelKey, TLocale } from './constants.ts';
import { IMPORT_COLUMNS, fillMessage } from './import-columns.ts';
import type { TImportColumn } from './import-columns.ts';
import { toChannelKey, validateLearnerInput } from './learner.ts';
import type { TLearnerInput } from './learner.ts';
import { MESSAGES } from './messages.ts';
import { isValidPhone, normalizePhoneForCreate } from './phone.ts';
import { withCountryCode } from './phone-country.ts';
import { normalizeTimeZone } from './time-zone.ts';

// One data row of an import file: its cells mapped to the learner fields, the key it is matched
// by (its e-mail, or its phone when it has no e-mail), and its validation with the learner rules
// of spec §5. The API's import job and the CLI's dry run check rows with this one function, so a
// dry run on the terminal says what the server would.

export type TImportColumnMap = Partial<Record<TImportColumn, number>>;

export type TImportRowOptions = {
  /**
   * ISO country of national phone numbers (`--default-country IT`, the upload page's country),
   * see withCountryCode; IMPORT_DEFAULT_COUNTRY when not chosen.
   */
  defaultCountry?: string | undefined;
  /**
   * Channels of a row whose file has no channels column, or whose cell is empty (files from
   * address books and HR systems have none); a row's own value wins.
   */
  defaultChannels?: readonly string[] | undefined;
  /** Language of a row without one, as for defaultChannels. */
  defaultLocale?: string | undefined;
};

/** The country national phone numbers of an import are read with (spec §9: Italy first). */
export const IMPORT_DEFAULT_COUNTRY = 'IT';

const countryOf = (options: TImportRowOptions) => options.defaultCountry ?? IMPORT_DEFAULT_COUNTRY;

/** What checkImportRow takes besides the row: the options, and the row's key when known. */
export type TImportRowCheckOptions = TImportRowOptions & {
  /** importRowKey of this row, when the caller computed it already (saves doing it twice). */
  key?: string | null;
};

export type TImportRowCheck =
  { ok: true; learner: TLearnerInput; key: string } | { ok: false; reasons: string[] };

const cellOf = (cells: readonly string[], index: number | undefined): string | undefined =>
  index === undefined ? undefined : (cells[index] ?? '');

/** The learner fields of a row, as the shared validation takes them (absent columns undefined). */
export const importRecordOf = (
  cells: readonly string[],
  columns: TImportColumnMap,
  options: TImportRowOptions = {},
): Partial<Record<TImportColumn, string>> => {
  const record: Partial<Record<TImportColumn, string>> = {};
  for (const column of IMPORT_COLUMNS) {
    const value = cellOf(cells, columns[column]);
    if (value === undefined) continue;
    record[column] = column === 'phone' ? withCountryCode(value, countryOf(options)) : value;
  }
  if (!record.channels?.trim() && options.defaultChannels?.length) {
    record.channels = options.defaultChannels.join(',');
  }
  if (!record.locale?.trim() && options.defaultLocale) record.locale = options.defaultLocale;
  return record;
};

/**
 * What a row is matched by: `e:<email>` (trimmed, lowercased) or, without an e-mail, `p:<phone>`
 * without separators; null with neither. Computed from the raw cells, valid or not, so a resumed
 * import can rebuild the duplicate check without validating the rows it skips.
 */
export const importRowKey = (
  cells: readonly string[],
  columns: TImportColumnMap,
  options: TImportRowOptions = {},
): string | null => {
  const email = cellOf(cells, columns.email)?.trim().toLowerCase();
  if (email) return `e:${email}`;
  const raw = cellOf(cells, columns.phone);
  const phone = (raw !== undefined ? withCountryCode(raw, countryOf(options)) : raw)?.replace(
    /[\s\-.()]/g,
    '',
  );
  return phone && phone.length > 1 ? `p:${phone}` : null;
};

/** `email: The email must be valid.`; a row-level message stays as it is. */
const reasonsOf = (errors: Record<string, string[]>): string[] =>
  Object.entries(errors).flatMap(([field, messages]) =>
    messages.map((message) => (field === 'body' ? message : `${field}: ${message}`)),
  );

// zod's own e-mail pattern (z.email()), so the fast path accepts exactly what the schema does.
const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const CELL_SEPARATORS = /[,;|]/;

const fastName = (value: string | undefined): string | null => {
  const name = value?.trim();
  return name && name.length <= TEXT_LIMITS.name && NAME_PATTERN.test(name) ? name : null;
};

/**
 * The learner of a row when every field is plainly valid, else null: the same result as the
 * zod schema for such rows at a fraction of its cost (a 700 MB file is millions of rows). It
 * only ever answers rows the schema accepts (a test compares the two); anything unusual answers
 * null and goes through the schema, which also words the reasons.
 */
const fastLearner = (record: Partial<Record<TImportColumn, string>>): TLearnerInput | null => {
  const firstName = fastName(record.first_name);
  const lastName = fastName(record.last_name);
  if (firstName === null || lastName === null || record.channels === undefined) return null;
  const email = record.email?.trim().toLowerCase() || null;
  if (email !== null && !EMAIL_PATTERN.test(email)) return null;
  const phone = normalizePhoneForCreate(record.phone) ?? null;
  if (phone !== null && !isValidPhone(phone)) return null;
  const locale = (record.locale?.trim().toLowerCase() || DEFAULT_LOCALE) as TLocale;
  if (!LOCALES.includes(locale)) return null;
  const timeZone = record.time_zone?.trim() ? normalizeTimeZone(record.time_zone) : null;
  if (timeZone === null && record.time_zone?.trim()) return null;
  const channels: TChannelKey[] = [];
  for (const entry of record.channels.split(CELL_SEPARATORS)) {
    const trimmed = entry.trim();
    if (trimmed === '') continue;
    const key = toChannelKey(trimmed);
    if (!key) return null;
    if (CHANNEL_CONTACT[key] === 'email' ? email === null : phone === null) return null;
    if (!channels.includes(key)) channels.push(key);
  }
  if (channels.length === 0) return null;
  return {
    first_name: firstName,
    last_name: lastName,
    email,
    channels,
    locale,
    time_zone: timeZone,
    phone,
  };
};

/**
 * Validates one data row. `firstLineOfKey` is the line where the same e-mail (or phone) first
 * appeared in the file, when this row repeats it.
 */
export const checkImportRow = (
  cells: readonly string[],
  columns: TImportColumnMap,
  headerLength: number,
  firstLineOfKey: number | undefined,
  options: TImportRowCheckOptions = {},
): TImportRowCheck => {
  const record = importRecordOf(cells, columns, options);
  const tooLong =
    cells.length > headerLength && cells.slice(headerLength).some((cell) => cell.trim() !== '');
  const key = options.key !== undefined ? options.key : importRowKey(cells, columns, options);
  if (!tooLong && firstLineOfKey === undefined && key !== null) {
    const learner = fastLearner(record);
    if (learner) return { ok: true, learner, key };
  }

  const reasons: string[] = [];
  if (tooLong) reasons.push(MESSAGES.importRowTooManyFields);
  const result = validateLearnerInput(record, 'create');
  if (!result.success) reasons.push(...reasonsOf(result.errors));
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
