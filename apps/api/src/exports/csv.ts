import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

// CSV as RFC 4180 (CRLF, quotes doubled) with a UTF-8 byte order mark so spreadsheet apps read
// accented names right, and safe against formula injection (OWASP "CSV Injection"). The field
// separator is a comma, or a semicolon for Italian and German users (`CSV_SEPARATORS`).

export type CsvCell = string | number | boolean | null | undefined;

// A spreadsheet runs a cell starting with one of these as a formula.
const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvSeparator = ',' | ';' | '\t';

/**
 * How a file is written: for a spreadsheet (BOM, formula starts neutralised) or for a program
 * (`plain`: no BOM, cells exactly as stored; a parser would read the guard's quote as data).
 */
export type CsvStyle = { separator: CsvSeparator; spreadsheet: boolean };

const SPREADSHEET: CsvStyle = { separator: ',', spreadsheet: true };

const styleOf = (style: CsvSeparator | CsvStyle): CsvStyle =>
  typeof style === 'string' ? { separator: style, spreadsheet: true } : style;

/** One cell: formula starts neutralised with a leading quote (spreadsheet), then quoted when needed. */
export const csvCell = (value: CsvCell, style: CsvSeparator | CsvStyle = SPREADSHEET): string => {
  if (value === null || value === undefined) return '';
  const { separator, spreadsheet } = styleOf(style);
  let text = typeof value === 'string' ? value : String(value);
  if (spreadsheet && typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  const quoted = text.includes(separator) || /["\r\n]/.test(text);
  return quoted ? `"${text.replace(/"/g, '""')}"` : text;
};

export const csvLine = (
  cells: readonly CsvCell[],
  style: CsvSeparator | CsvStyle = SPREADSHEET,
): string => `${cells.map((cell) => csvCell(cell, style)).join(styleOf(style).separator)}\r\n`;

export const CSV_BOM = '\uFEFF';

export type CsvWriter = {
  /** Appends rows; waits when the file stream asks to, so memory stays flat. */
  write: (rows: readonly (readonly CsvCell[])[]) => Promise<void>;
  close: () => Promise<void>;
  /** Closes and ignores errors, for clean-up after a failure. */
  abort: () => Promise<void>;
};

/** A CSV file with its header line written. */
export const createCsvWriter = async (
  file: string,
  header: readonly string[],
  style: CsvSeparator | CsvStyle = SPREADSHEET,
): Promise<CsvWriter> => {
  const stream = createWriteStream(file, { encoding: 'utf8' });
  let failure: Error | null = null;
  stream.on('error', (error) => {
    failure = error;
  });
  await once(stream, 'open');
  const push = async (chunk: string) => {
    if (failure) throw failure;
    if (!stream.write(chunk)) await once(stream, 'drain');
  };
  const line = (cells: readonly CsvCell[]) => csvLine(cells, style);
  await push((styleOf(style).spreadsheet ? CSV_BOM : '') + line(header));
  return {
    write: async (rows) => {
      if (rows.length > 0) await push(rows.map(line).join(''));
    },
    close: async () => {
      if (failure) throw failure;
      await new Promise<void>((resolve, reject) => {
        stream.end((error?: Error | null) => (error ? reject(error) : resolve()));
      });
    },
    abort: async () => {
      if (stream.closed) return;
      stream.destroy();
      await once(stream, 'close').catch(() => undefined);
    },
  };
};
