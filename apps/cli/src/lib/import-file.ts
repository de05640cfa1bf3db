import path from 'node:path';

import { MESSAGES } from '@ccp/schemas';
import type { TImportEncoding } from '@ccp/schemas';
import type { CellValue as CellValueOf } from 'exceljs';

import { readCsvRows, sniffCsv } from './csv-reader.ts';
import type { CsvDelimiter, CsvRow } from './csv-reader.ts';
import { CliError } from './errors.ts';

// The rows of an import file on this machine, CSV or XLSX, read as the API reads them.

export type ImportFormat = 'csv' | 'xlsx';

/** The format by the file's extension; .xls and anything else are refused like the API does. */
export const importFormatOf = (file: string): ImportFormat => {
  const extension = path.extname(file).slice(1).toLowerCase();
  if (extension === 'csv' || extension === 'xlsx') return extension;
  if (extension === 'xls') throw new CliError(MESSAGES.importXlsUnsupported);
  throw new CliError(`${file}: ${MESSAGES.importFileType}`);
};

export type ImportSource = {
  format: ImportFormat;
  delimiter: CsvDelimiter;
  /** The CSV's encoding (chosen, else guessed as the server guesses it); UTF-8 for an .xlsx. */
  encoding: TImportEncoding;
  /** Batches of non-blank rows, header first; `onBytes` hears the bytes read (CSV). */
  rows: (onBytes?: (bytes: number) => void) => AsyncGenerator<CsvRow[]>;
};

type CellValue = CellValueOf;

/** The text a person sees in a cell, as the API reads it. */
const cellText = (value: CellValue | undefined): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('text' in value && typeof value.text === 'string') return value.text;
  if ('result' in value) return cellText(value.result);
  return '';
};

async function* xlsxRows(file: string): AsyncGenerator<CsvRow[]> {
  // exceljs is large: only an .xlsx import loads it.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(file, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'emit',
  });
  let batch: CsvRow[] = [];
  try {
    for await (const sheet of workbook) {
      for await (const row of sheet) {
        const values = (row.values ?? []) as CellValue[];
        const cells = values.slice(1).map((value) => cellText(value));
        for (let index = 0; index < cells.length; index += 1) cells[index] ??= '';
        if (cells.some((cell) => cell.trim() !== '')) batch.push({ line: row.number, cells });
        if (batch.length >= 1000) {
          yield batch;
          batch = [];
        }
      }
      break;
    }
  } catch {
    // A file ccp refuses for its content exits 1, as a broken CSV does (README: exit codes).
    throw new CliError(`${file}: ${MESSAGES.importXlsxBroken}`);
  }
  if (batch.length > 0) yield batch;
}

export const openImportSource = async (
  file: string,
  encoding?: TImportEncoding,
): Promise<ImportSource> => {
  const format = importFormatOf(file);
  const sniffed =
    format === 'csv'
      ? await sniffCsv(file, encoding)
      : { encoding: 'utf-8' as const, delimiter: ',' as const };
  return {
    format,
    ...sniffed,
    rows: (onBytes) =>
      format === 'csv'
        ? readCsvRows(file, sniffed.delimiter, onBytes, sniffed.encoding)
        : xlsxRows(file),
  };
};
