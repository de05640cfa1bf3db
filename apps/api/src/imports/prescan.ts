import {
  BULK_IMPORT_MAX_LEARNERS,
  MESSAGES,
  applyImportPhoneCountries,
  fillMessage,
  isAsciiCompatible,
  matchImportHeader,
} from '@ccp/schemas';
import type {
  TImportColumn,
  TImportColumnOverrides,
  TImportEncoding,
  TImportPhoneCountries,
  TImportRowOptions,
} from '@ccp/schemas';

import type { Db } from '../db/index.ts';
import { validationError } from '../lib/app-error.ts';
import { assertWithinPlan } from '../lib/plan-limits.ts';
import { countActiveLearners } from '../learners/learners-repository.ts';
import { companyKeys, learnersLimitOf } from './existing.ts';
import { ImportFileError, countCsvRecords, readRows, sniffCsv } from './reader.ts';
import type { CsvDelimiter, ImportFormat } from './reader.ts';
import { checkRow, rowKey } from './rows.ts';
import type { ColumnMap } from './rows.ts';

// The upload reads the whole stored file once before queueing the job, so everything that
// refuses a file is answered at once and nothing is written: a header without the needed
// columns, broken CSV quoting, more than 100,000 rows, and the plan's learners limit (402).

/**
 * Rows whose number of fields differs from the header's (blank lines aside) a CSV may have: each
 * costs the parser about 0.1 ms, so a file of millions of them would tie an import up for hours.
 * A real export has a handful (a stray comma, a short last row).
 */
export const IMPORT_MAX_IRREGULAR_ROWS = 10_000;

export type PrescanResult = {
  header: string[];
  columns: ColumnMap;
  delimiter: CsvDelimiter;
  encoding: TImportEncoding;
  totalRows: number;
};

const fileError = (message: string) => validationError({ file: [message] });

/** The first non-blank row of the file, or null for an empty file. */
const firstRow = async (
  path: string,
  format: ImportFormat,
  delimiter: CsvDelimiter,
  encoding: TImportEncoding,
) => {
  for await (const { cells } of readRows(path, format, delimiter, encoding)) return cells;
  return null;
};

type HeaderChoices = {
  overrides: TImportColumnOverrides | undefined;
  phoneCountries: TImportPhoneCountries | undefined;
  defaulted: readonly TImportColumn[];
};

/** The columns of the first row, with the countries chosen for its phone columns. */
const checkHeader = (header: string[] | null, choices: HeaderChoices) => {
  if (header === null) throw fileError(MESSAGES.importFileEmpty);
  const matched = matchImportHeader(header, choices.overrides, choices.defaulted);
  if (matched.problems.length > 0) throw validationError({ file: matched.problems });
  const { columns, problems } = applyImportPhoneCountries(matched, choices.phoneCountries);
  if (problems.length > 0) throw validationError({ phone_countries: problems });
  return columns;
};

const checkRowCount = (totalRows: number) => {
  if (totalRows > BULK_IMPORT_MAX_LEARNERS) throw fileError(MESSAGES.importTooManyRows);
  if (totalRows === 0) throw fileError(MESSAGES.importNoRows);
};

/**
 * Checks a stored import file for `companyUuid`. Throws the 422 (with `errors.file`) or the 402
 * the upload answers. The learners the file would add (new and archived ones it brings back) are
 * counted only when the plan has a limit, by the same rules as the job.
 */
export const prescanImport = async (
  db: Db,
  {
    path,
    format,
    companyUuid,
    overrides,
    phoneCountries,
    rowOptions,
    encoding: chosenEncoding,
  }: {
    path: string;
    format: ImportFormat;
    companyUuid: string;
    /** The upload's `columns`: header overrides of the automatic matching. */
    overrides?: TImportColumnOverrides | undefined;
    /** The upload's `phone_countries`: the country of national numbers of single phone columns. */
    phoneCountries?: TImportPhoneCountries | undefined;
    /** The upload's row defaults (country of national phones, channels, language). */
    rowOptions: TImportRowOptions;
    /** The upload's encoding of the CSV; guessed when absent. */
    encoding?: TImportEncoding | undefined;
  },
): Promise<PrescanResult> => {
  // A default channel for every row makes a channels column optional.
  const defaulted: TImportColumn[] = rowOptions.defaultChannels?.length ? ['channels'] : [];
  const choices: HeaderChoices = { overrides, phoneCountries, defaulted };
  const { delimiter, encoding } =
    format === 'csv'
      ? await sniffCsv(path, chosenEncoding)
      : { delimiter: ',' as const, encoding: 'utf-8' as const };
  const limit = await learnersLimitOf(db, companyUuid);
  try {
    // The byte scan reads one byte per ASCII character; a UTF-16 file is counted by parsing.
    if (format === 'csv' && isAsciiCompatible(encoding)) {
      // A byte scan first (a 100,000-row file in a few tens of milliseconds): broken quoting, and
      // rows whose field count differs from the header's, each costly for the parser, are refused
      // before any row is parsed, the header included (the parser reads a whole 256 KB chunk).
      const count = await countCsvRecords(path, delimiter);
      if (count.irregular > IMPORT_MAX_IRREGULAR_ROWS) {
        throw fileError(MESSAGES.importIrregularRows);
      }
      const header = await firstRow(path, format, delimiter, encoding);
      const columns = checkHeader(header, choices);
      if ('brokenAtLine' in count) {
        throw fileError(fillMessage(MESSAGES.importCsvBroken, { line: count.brokenAtLine }));
      }
      // A plan without a learners limit needs no row validated here: the count is enough.
      if (limit === null) {
        const totalRows = count.records - 1;
        checkRowCount(totalRows);
        return { header: header!, columns, delimiter, encoding, totalRows };
      }
    }
  } catch (error) {
    if (error instanceof ImportFileError) throw fileError(error.message);
    throw error;
  }
  const known = limit === null ? null : await companyKeys(db, companyUuid);

  let header: string[] | null = null;
  let columns: ColumnMap = {};
  let totalRows = 0;
  let added = 0;
  const firstLines = new Map<string, number>();
  try {
    for await (const { line, cells } of readRows(path, format, delimiter, encoding)) {
      if (header === null) {
        header = cells;
        columns = checkHeader(cells, choices);
        continue;
      }
      totalRows += 1;
      if (totalRows > BULK_IMPORT_MAX_LEARNERS) throw fileError(MESSAGES.importTooManyRows);
      if (!known) continue;
      const key = rowKey(cells, columns, rowOptions);
      if (key === null || firstLines.has(key)) continue;
      firstLines.set(key, line);
      const check = checkRow(cells, columns, header.length, undefined, rowOptions);
      if (check.ok && known.get(check.key) !== 'active') added += 1;
    }
  } catch (error) {
    if (error instanceof ImportFileError) throw fileError(error.message);
    throw error;
  }
  if (header === null) throw fileError(MESSAGES.importFileEmpty);
  checkRowCount(totalRows);
  if (added > 0) {
    const active = await countActiveLearners(db, companyUuid);
    await assertWithinPlan(db, companyUuid, 'learners', active + added);
  }
  return { header, columns, delimiter, encoding, totalRows };
};
