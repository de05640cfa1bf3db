import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';

import { CsvBrokenError, createCsvParser, detectDelimiterOf } from './csv-reader.ts';
import type { CsvDelimiter, CsvRow } from './csv-reader.ts';

// The API reads import files with csv-parse (apps/api/src/imports/reader.ts); these rows must be
// the same, with the same line numbers, for any chunking of the input.

const newlinesIn = (cells: readonly string[]) =>
  cells.reduce((count, cell) => count + (cell.split('\n').length - 1), 0);

/** What the API's reader answers for a text (csv-parse with its options). */
const oracle = (text: string, delimiter: CsvDelimiter): CsvRow[] => {
  const records: string[][] = parse(text, {
    bom: true,
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: false,
  });
  const rows: CsvRow[] = [];
  let line = 1;
  for (const cells of records) {
    if (!cells.every((cell) => cell.trim() === '')) rows.push({ line, cells });
    line += 1 + newlinesIn(cells);
  }
  return rows;
};

const ours = (text: string, delimiter: CsvDelimiter, chunk: number): CsvRow[] => {
  const parser = createCsvParser(delimiter);
  const rows: CsvRow[] = [];
  for (let at = 0; at < text.length; at += chunk)
    rows.push(...parser.push(text.slice(at, at + chunk)));
  rows.push(...parser.end());
  return rows;
};

describe('createCsvParser', () => {
  it.each([
    ['plain LF', 'a,b,c\n1,2,3\n4,5,6\n'],
    ['CRLF and a BOM', '\uFEFFa,b\r\n1,2\r\n'],
    ['no final line break', 'a,b\n1,2'],
    ['blank lines counted, not returned', 'a,b\n\n1,2\n , \n3,4\n'],
    [
      'quoted delimiters, quotes and line breaks',
      'a,b\n"x, y","say ""hi"""\n"multi\nline",z\n4,5\n',
    ],
    ['CRLF inside quotes', 'a,b\r\n"one\r\ntwo",3\r\n4,5\r\n'],
    ['a quote inside an unquoted field', 'a,b\n5" screen,ok\n"q",r\n'],
    ['short and long rows', 'a,b,c\n1\n1,2,3,4,5\n'],
    ['empty quoted fields', 'a,b\n"",""\nx,""\n'],
    ['accents', 'nome,cognome\nZoë,D’Arco\n'],
  ])('reads %s as csv-parse does, in any chunking', (_name, text) => {
    const expected = oracle(text, ',');
    for (const chunk of [1, 2, 3, 7, 1000]) expect(ours(text, ',', chunk)).toEqual(expected);
  });

  it('reads semicolon and tab files', () => {
    const text = 'nome;cognome\n"Rossi; Mario";x\n';
    expect(ours(text, ';', 4)).toEqual(oracle(text, ';'));
    const tabs = 'a\tb\n1\t"2\t3"\n';
    expect(ours(tabs, '\t', 3)).toEqual(oracle(tabs, '\t'));
  });

  it('agrees with csv-parse on random files', () => {
    let seed = 11;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pieces = ['a', 'bc', ' ', 'é', ',', ',', ';'];
    const field = () => {
      if (random() < 0.3) {
        const inner = ['x', ',', '""', '\n', 'y z', '\r\n'];
        let text = '"';
        for (let n = Math.floor(random() * 4); n > 0; n -= 1) {
          text += inner[Math.floor(random() * inner.length)];
        }
        return `${text}"`;
      }
      let text = '';
      for (let n = Math.floor(random() * 3); n > 0; n -= 1) {
        text += pieces[Math.floor(random() * (pieces.length - 2))];
      }
      return text;
    };
    const failures: unknown[] = [];
    for (let file = 0; file < 600; file += 1) {
      const eol = random() < 0.5 ? '\n' : '\r\n';
      const rows: string[] = [];
      for (let row = Math.floor(random() * 6) + 1; row > 0; row -= 1) {
        const cells: string[] = [];
        for (let cell = Math.floor(random() * 4) + 1; cell > 0; cell -= 1) cells.push(field());
        rows.push(cells.join(','));
      }
      const text = rows.join(eol) + (random() < 0.5 ? eol : '');
      const expected = oracle(text, ',');
      const got = ours(text, ',', 1 + Math.floor(random() * 9));
      if (JSON.stringify(got) !== JSON.stringify(expected)) failures.push({ text, got, expected });
    }
    expect(failures).toEqual([]);
  });

  it('fails on a quote never closed, naming the line the record starts on', () => {
    expect(() => ours('a,b\n1,2\n"open,3\n4,5\n', ',', 5)).toThrow(
      expect.objectContaining({ name: 'CsvBrokenError', line: 3 }),
    );
  });

  it('fails on a record over 64 KB without buffering the rest of the file', () => {
    const parser = createCsvParser(',');
    parser.push('a,b\n"');
    expect(() => parser.push('x'.repeat(70 * 1024))).toThrow(CsvBrokenError);
  });
});

describe('detectDelimiterOf', () => {
  it('takes the most frequent delimiter of the first line outside quotes', () => {
    expect(detectDelimiterOf('nome;cognome;email\n')).toBe(';');
    expect(detectDelimiterOf('"a;b;c",d,e\n')).toBe(',');
    expect(detectDelimiterOf('a\tb\n')).toBe('\t');
    expect(detectDelimiterOf('single\n')).toBe(',');
  });
});
