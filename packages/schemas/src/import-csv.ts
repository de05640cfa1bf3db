import { IMPORT_MAX_RECORD_BYTES } from './imports.ts';
import type { TCsvDelimiter } from './csv-delimiter.ts';

// The CSV parser of import files, shared by the CLI's dry run and the upload page's preview (and
// kept to the rules of the server's csv-parse options: bom, relax_quotes, relax_column_count, a
// 64 KB record limit), so they name the same lines: blank rows are skipped but counted, a
// record's line is where it starts, and line breaks inside quoted fields count. Fed decoded text
// (import-encoding.ts) chunk by chunk; a line without a quote is one `split`, only quoted ones
// go through the state machine, so a dry run of a 700 MB file reads millions of rows a minute.

export type TCsvRow = { line: number; cells: string[] };

/** The file cannot be read as CSV from this line on (a quote never closed, a record over 64 KB). */
export class CsvBrokenError extends Error {
  readonly line: number;
  constructor(line: number) {
    super(`Line ${line}: a quoted field is never closed, or the row is longer than 64 KB.`);
    this.name = 'CsvBrokenError';
    this.line = line;
  }
}

const isBlank = (cells: readonly string[]): boolean => {
  for (const cell of cells) if (cell.trim() !== '') return false;
  return true;
};

/** A parser fed text chunk by chunk; `push` answers the complete rows so far. */
export const createCsvParser = (delimiter: TCsvDelimiter) => {
  let buffer = '';
  let line = 1;
  let started = false;
  // The line break is decided by the first one outside quotes: LF (CRLF too) or a lone CR.
  let eol: '\n' | '\r' | null = null;
  // Where the next quote is in `buffer` (-1: none; undefined: unknown), so lines without
  // quotes are never scanned twice.
  let nextQuote: number | undefined;

  /** The quoted-aware parse of one record from `start`; null when the buffer ends inside it. */
  const slowRecord = (
    start: number,
    final: boolean,
  ): { cells: string[]; end: number; newlines: number } | null => {
    const cells: string[] = [];
    let cell = '';
    let index = start;
    let fieldStart = true;
    let newlines = 0;
    const length = buffer.length;
    for (;;) {
      if (index >= length) {
        if (!final) return null;
        cells.push(cell);
        return { cells, end: length, newlines };
      }
      let char = buffer[index]!;
      if (fieldStart && char === '"') {
        // A quoted field: up to the quote that is not doubled.
        index += 1;
        for (;;) {
          const close = buffer.indexOf('"', index);
          if (close === -1) {
            if (!final) return null;
            throw new CsvBrokenError(line);
          }
          const piece = buffer.slice(index, close);
          for (let at = piece.indexOf('\n'); at !== -1; at = piece.indexOf('\n', at + 1)) {
            newlines += 1;
          }
          cell += piece;
          if (close + 1 >= length && !final) return null;
          if (buffer[close + 1] === '"') {
            cell += '"';
            index = close + 2;
            continue;
          }
          index = close + 1;
          break;
        }
        fieldStart = false;
        if (index >= length) continue;
        char = buffer[index]!;
        if (char !== delimiter && char !== '\n' && char !== '\r') throw new CsvBrokenError(line);
      }
      if (char === delimiter) {
        cells.push(cell);
        cell = '';
        fieldStart = true;
        index += 1;
        continue;
      }
      if (char === '\n' || char === '\r') {
        // A CR at the end of the text: whether a LF follows decides what it is.
        if (char === '\r' && index + 1 >= length && !final) return null;
        eol ??= char === '\r' && buffer[index + 1] !== '\n' ? '\r' : '\n';
        if (char === '\r' && eol === '\n') {
          if (index + 1 >= length && !final) return null;
          if (buffer[index + 1] === '\n') {
            cells.push(cell);
            return { cells, end: index + 2, newlines };
          }
          cell += char;
          fieldStart = false;
          index += 1;
          continue;
        }
        if (char === eol) {
          cells.push(cell);
          return { cells, end: index + 1, newlines };
        }
      }
      cell += char;
      fieldStart = false;
      index += 1;
    }
  };

  const parse = (final: boolean): TCsvRow[] => {
    const rows: TCsvRow[] = [];
    let position = 0;
    const length = buffer.length;
    nextQuote = undefined;
    while (position < length) {
      const lineEnd = buffer.indexOf(eol === '\r' ? '\r' : '\n', position);
      if (nextQuote === undefined || (nextQuote !== -1 && nextQuote < position)) {
        nextQuote = buffer.indexOf('"', position);
      }
      const end = lineEnd === -1 ? length : lineEnd;
      if (lineEnd === -1 && !final) {
        if (length - position > IMPORT_MAX_RECORD_BYTES) throw new CsvBrokenError(line);
        break;
      }
      let cells: string[];
      let next: number;
      let newlines = 0;
      // Until the first line break is known, the state machine reads (and decides it).
      const simple = (nextQuote === -1 || nextQuote > end) && eol !== null;
      if (simple) {
        const text =
          eol === '\n' && buffer[end - 1] === '\r'
            ? buffer.slice(position, end - 1)
            : buffer.slice(position, end);
        cells = text.split(delimiter);
        next = end + 1;
      } else {
        const record = slowRecord(position, final);
        if (record === null) {
          if (length - position > IMPORT_MAX_RECORD_BYTES) throw new CsvBrokenError(line);
          break;
        }
        ({ cells, newlines } = record);
        next = record.end;
        nextQuote = undefined;
      }
      if (next - position > IMPORT_MAX_RECORD_BYTES) throw new CsvBrokenError(line);
      if (!isBlank(cells)) rows.push({ line, cells });
      line += 1 + newlines;
      position = next;
    }
    buffer = buffer.slice(position);
    return rows;
  };

  return {
    push: (text: string): TCsvRow[] => {
      if (!started) {
        started = true;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      buffer += text;
      return parse(false);
    },
    end: (): TCsvRow[] => parse(true),
  };
};
