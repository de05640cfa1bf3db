import { NAME_PATTERN } from './common.ts';
import { CHANNEL_CONTACT, DEFAULT_LOCALE, LOCALES, TEXT_LIMITS } from './constants.ts';
import type { TChannelKey, TLocale } from './constants.ts';
import { IMPORT_COLUMNS, IMPORT_MULTI_VALUE_SEPARATOR, fillMessage } from './import-columns.ts';
import type { TImportColumn, TImportColumnIndexes } from './import-columns.ts';
import { isLandline, readImportPhone } from './import-phone.ts';
import type { TImportPhone, TImportPhoneReading } from './import-phone.ts';
import { toChannelKey, validateLearnerInput } from './learner.ts';
import type { TLearnerInput } from './learner.ts';
import { localeOfName } from './locale.ts';
import { MESSAGES } from './messages.ts';
import { isValidPhone, normalizePhoneForCreate } from './phone.ts';
import { normalizeTimeZone } from './time-zone.ts';

// One data row of an import file: its cells mapped to the learner fields, the key it is matched
// by (its e-mail, or its phone when it has no e-mail), and its validation with the learner rules
// of spec §5. The API's import job and the CLI's dry run check rows with this one function, so a
// dry run on the terminal says what the server would.

export type TImportColumnMap = TImportColumnIndexes;

export type TImportRowOptions = {
  /**
   * ISO country of national phone numbers (`--default-country IT`, the upload page's country),
   * see readImportPhone; IMPORT_DEFAULT_COUNTRY when not chosen.
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
  | {
      ok: true;
      learner: TLearnerInput;
      key: string;
      /** The stored phone with its country and type (null without one), for the previews. */
      phone: TImportPhone | null;
      /** What is stored but a channel may not use (a landline for WhatsApp). */
      warnings: string[];
    }
  | { ok: false; reasons: string[] };

const cellOf = (cells: readonly string[], index: number | undefined): string | undefined =>
  index === undefined ? undefined : (cells[index] ?? '');

/** The first of Google's ` ::: ` values of a cell. */
const firstValue = (cell: string): string => {
  const at = cell.indexOf(IMPORT_MULTI_VALUE_SEPARATOR);
  return at === -1 ? cell : cell.slice(0, at);
};

/**
 * Every non-empty value of a multi column (its strongest header first), multi-values split, with
 * the position of the column it came from.
 */
const valuesOf = (cells: readonly string[], columns: TImportColumnMap, column: TImportColumn) => {
  const first = columns[column];
  if (first === undefined) return [];
  const values: { text: string; index: number }[] = [];
  for (const index of [first, ...(columns.alternatives?.[column] ?? [])]) {
    const cell = cells[index] ?? '';
    if (cell.trim() === '') continue;
    for (const value of cell.split(IMPORT_MULTI_VALUE_SEPARATOR)) {
      if (value.trim() !== '') values.push({ text: value.trim(), index });
    }
  }
  return values;
};

/**
 * The row's phone: the first number that reads as a mobile, else the first number's reading.
 * Each number is read in its column's chosen country, else the row's, else the file's
 * (IMPORT_PHONE_COUNTRY_PRECEDENCE).
 */
export const importRowPhone = (
  cells: readonly string[],
  columns: TImportColumnMap,
  options: TImportRowOptions = {},
): { text: string; reading: TImportPhoneReading } => {
  const values = valuesOf(cells, columns, 'phone');
  if (values.length === 0) return { text: '', reading: { ok: true, phone: null } };
  const rowCountry = valuesOf(cells, columns, 'country')[0]?.text;
  let first: { text: string; reading: TImportPhoneReading } | undefined;
  for (const { text, index } of values) {
    const reading = readImportPhone(text, {
      defaultCountry: countryOf(options),
      rowCountry,
      columnCountry: columns.phoneCountries?.[index],
    });
    const read = { text, reading };
    first ??= read;
    if (reading.ok && reading.phone && !isLandline(reading.phone)) return read;
  }
  return first!;
};

type TImportRecord = Partial<Record<TImportColumn, string>>;

/**
 * The learner fields of a row, as the shared validation takes them (absent columns undefined):
 * the phone as it will be stored (E.164) when it reads, a language name as its code.
 */
export const importRecordOf = (
  cells: readonly string[],
  columns: TImportColumnMap,
  options: TImportRowOptions = {},
  phone: { text: string; reading: TImportPhoneReading } = importRowPhone(cells, columns, options),
): TImportRecord => {
  const record: TImportRecord = {};
  for (const column of IMPORT_COLUMNS) {
    if (column === 'country') continue;
    const value = cellOf(cells, columns[column]);
    if (value === undefined) continue;
    record[column] = firstValue(value);
  }
  if (columns.phone !== undefined) {
    record.phone = phone.reading.ok ? (phone.reading.phone?.e164 ?? '') : phone.text;
  }
  if (!record.channels?.trim() && options.defaultChannels?.length) {
    record.channels = options.defaultChannels.join(',');
  }
  if (record.locale?.trim()) record.locale = localeOfName(record.locale) ?? record.locale;
  else if (options.defaultLocale) record.locale = options.defaultLocale;
  return record;
};

/**
 * What a row is matched by: `e:<email>` (trimmed, lowercased) or, without an e-mail, `p:<phone>`
 * (as stored, or as written when it does not read); null with neither. Computed from the raw
 * cells, valid or not, so a resumed import can rebuild the duplicate check without validating
 * the rows it skips.
 */
export const importRowKey = (
  cells: readonly string[],
  columns: TImportColumnMap,
  options: TImportRowOptions = {},
): string | null => {
  const email = firstValue(cellOf(cells, columns.email) ?? '')
    .trim()
    .toLowerCase();
  if (email) return `e:${email}`;
  const { text, reading } = importRowPhone(cells, columns, options);
  const phone = reading.ok ? (reading.phone?.e164 ?? '') : text.replace(/[\s\-.()]/g, '');
  return phone.length > 1 ? `p:${phone}` : null;
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

/** A landline is stored, but WhatsApp cannot reach it: said, not silent. */
const warningsOf = (learner: TLearnerInput, phone: TImportPhone | null): string[] =>
  phone && isLandline(phone) && learner.channels.includes('whatsapp')
    ? [`phone: ${fillMessage(MESSAGES.importPhoneLandline, { number: phone.e164 })}`]
    : [];

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
  const phone = importRowPhone(cells, columns, options);
  const record = importRecordOf(cells, columns, options, phone);
  const tooLong =
    cells.length > headerLength && cells.slice(headerLength).some((cell) => cell.trim() !== '');
  const key = options.key !== undefined ? options.key : importRowKey(cells, columns, options);
  const stored = phone.reading.ok ? phone.reading.phone : null;
  if (!tooLong && firstLineOfKey === undefined && key !== null && phone.reading.ok) {
    const learner = fastLearner(record);
    if (learner)
      return { ok: true, learner, key, phone: stored, warnings: warningsOf(learner, stored) };
  }

  const reasons: string[] = [];
  if (tooLong) reasons.push(MESSAGES.importRowTooManyFields);
  const result = validateLearnerInput(record, 'create');
  if (!result.success) {
    // A phone that does not read has its own reason, naming the readings and the fix.
    const errors = phone.reading.ok
      ? result.errors
      : Object.fromEntries(Object.entries(result.errors).filter(([field]) => field !== 'phone'));
    reasons.push(...reasonsOf(errors));
  }
  if (!phone.reading.ok) reasons.push(`phone: ${phone.reading.reason}`);
  if (firstLineOfKey !== undefined && key) {
    const field = key.startsWith('e:') ? 'email' : 'phone';
    reasons.push(
      `${field}: ${fillMessage(MESSAGES.importRowDuplicate, { field, line: firstLineOfKey })}`,
    );
  }
  // A valid row always has a key (each channel needs an e-mail or a phone); keep a reason anyway.
  if (!key && reasons.length === 0) reasons.push(MESSAGES.importContactColumnMissing);
  if (reasons.length > 0 || !result.success || !key) return { ok: false, reasons };
  return {
    ok: true,
    learner: result.data,
    key,
    phone: stored,
    warnings: warningsOf(result.data, stored),
  };
};

/** How many rows the previews (the mapping step, `--dry-run --json`) show as they will be stored. */
export const IMPORT_PREVIEW_ROWS = 20;

/** One row as it will be stored, the same on the upload page and in the CLI's dry run. */
export type TImportPreviewRow = {
  line: number;
  first_name: string;
  last_name: string;
  email: string | null;
  /** E.164 with its country (ISO code) and type (mobile, landline…), or null. */
  phone: { e164: string; country: string | null; type: string } | null;
  channels: string[];
  locale: string;
  /** Stored, but a channel may not use it (a landline for WhatsApp). */
  warnings: string[];
};

/** The preview of a valid row. */
export const importPreviewRow = (
  line: number,
  check: Extract<TImportRowCheck, { ok: true }>,
): TImportPreviewRow => ({
  line,
  first_name: check.learner.first_name,
  last_name: check.learner.last_name,
  email: check.learner.email,
  phone: check.phone,
  channels: check.learner.channels,
  locale: check.learner.locale,
  warnings: check.warnings,
});
