import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { createCsvWriter, csvCell, csvLine } from '../../src/exports/csv.ts';

describe('csvCell', () => {
  it.each([
    ['plain', 'plain'],
    ['', ''],
    [null, ''],
    [undefined, ''],
    [42, '42'],
    [12.5, '12.5'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\rhere', '"cr\rhere"'],
    ['  spaced  ', '  spaced  '],
    ['Müller', 'Müller'],
  ])('writes %j as %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it.each([
    ['=1+2', "'=1+2"],
    ['+39 333 123', "'+39 333 123"],
    ['-2', "'-2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tTab', "'\tTab"],
    ['\rReturn', '"\'\rReturn"'],
    ['=HYPERLINK("http://x")', '"\'=HYPERLINK(""http://x"")"'],
    ['=a,b', '"\'=a,b"'],
  ])('neutralises the formula start of %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it('leaves numbers alone and formula characters inside a cell', () => {
    expect(csvCell(-1)).toBe('-1');
    expect(csvCell('a=b+c@d-e')).toBe('a=b+c@d-e');
  });

  it('ends lines with CRLF', () => {
    expect(csvLine(['a', 1, null, '=x'])).toBe("a,1,,'=x\r\n");
    // With semicolons a comma needs no quotes, and a semicolon does.
    expect(csvLine(['a,b', 'c;d', 1.5], ';')).toBe('a,b;"c;d";1.5\r\n');
  });
});

describe('createCsvWriter', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ccp-csv-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a byte order mark, the header and the rows', async () => {
    const file = path.join(dir, 'out.csv');
    const writer = await createCsvWriter(file, ['name', 'count']);
    await writer.write([['Ada', 1]]);
    await writer.write([]);
    await writer.write([
      ['Bob', 2],
      ['=Eve', 3],
    ]);
    await writer.close();
    expect(readFileSync(file, 'utf8')).toBe("\uFEFFname,count\r\nAda,1\r\nBob,2\r\n'=Eve,3\r\n");
  });

  it('fails when the file cannot be created', async () => {
    await expect(
      createCsvWriter(path.join(dir, 'missing', 'dir', 'out.csv'), ['a']),
    ).rejects.toThrow(/ENOENT/);
  });
});
