import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';

import { guessCsvDelimiter } from '@ccp/schemas';

import { readPreview } from './preview.ts';

describe('the import preview', () => {
  it('reads CSV as the server does: its separator, quotes, blank lines, a BOM', async () => {
    expect(guessCsvDelimiter('Nome;Cognome;"A,B";Email\n1,2,3')).toBe(';');
    expect(guessCsvDelimiter('a\tb\tc')).toBe('\t');
    expect(guessCsvDelimiter('single')).toBe(',');
    expect(await readPreview(new File(['a,"b ""c"", d"\r\n\r\n1,2\n'], 'q.csv'))).toMatchObject({
      header: ['a', 'b "c", d'],
      rows: [['1', '2']],
    });
    const file = new File(['\uFEFFNome;Cognome\nGiulia;Bianchi\nMarco;"Ferri\nSecondo"'], 'a.csv');
    expect(await readPreview(file)).toEqual({
      header: ['Nome', 'Cognome'],
      rows: [
        ['Giulia', 'Bianchi'],
        ['Marco', 'Ferri\nSecondo'],
      ],
      encoding: { encoding: 'utf-8', by: 'bom' },
    });
  });

  it('reads a German Excel CSV in Windows-1252 and a UTF-16 export, as the server does', async () => {
    // "Jürgen;Weiß" as Excel's plain "CSV" writes it on a German Windows.
    const cp1252 = new Uint8Array([...'Vorname;Nachname\nJ'].map((c) => c.charCodeAt(0)));
    const file = new File(
      [cp1252, new Uint8Array([0xfc]), 'rgen;Wei', new Uint8Array([0xdf]), '\n'],
      'de.csv',
    );
    expect(await readPreview(file)).toEqual({
      header: ['Vorname', 'Nachname'],
      rows: [['Jürgen', 'Weiß']],
      encoding: { encoding: 'windows-1252', by: 'content' },
    });
    const utf16 = new Uint8Array([
      0xff,
      0xfe,
      ...[...'"Vorname","Sprache"\r\n"Zoë","de"\r\n'].flatMap((c) => [c.charCodeAt(0), 0]),
    ]);
    expect(await readPreview(new File([utf16], 'ad.csv'))).toEqual({
      header: ['Vorname', 'Sprache'],
      rows: [['Zoë', 'de']],
      encoding: { encoding: 'utf-16le', by: 'bom' },
    });
  });

  it('reads the first worksheet of an .xlsx: shared and inline strings, numbers, gaps', async () => {
    const sheet = `<?xml version="1.0"?><worksheet><sheetData>
      <row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="D1" t="inlineStr"><is><t>Cellulare</t></is></c></row>
      <row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" t="inlineStr"><is><t>D&apos;Amico</t></is></c><c r="D2"><v>393331234567</v></c></row>
    </sheetData></worksheet>`;
    const workbook = zipSync({
      'xl/workbook.xml': strToU8(
        '<workbook><sheets><sheet name="Staff" r:id="rId1"/></sheets></workbook>',
      ),
      'xl/_rels/workbook.xml.rels': strToU8(
        '<Relationships><Relationship Id="rId1" Target="worksheets/sheet7.xml"/></Relationships>',
      ),
      'xl/sharedStrings.xml': strToU8(
        '<sst><si><t>Nome</t></si><si><r><t>Cog</t></r><r><t>nome</t></r></si><si><t>Anna &amp; Co</t></si></sst>',
      ),
      'xl/worksheets/sheet1.xml': strToU8(
        '<worksheet><sheetData><row><c t="inlineStr"><is><t>Notes</t></is></c></row></sheetData></worksheet>',
      ),
      'xl/worksheets/sheet7.xml': strToU8(sheet),
    });
    expect(await readPreview(new File([workbook], 'Staff.XLSX'))).toEqual({
      header: ['Nome', 'Cognome', '', 'Cellulare'],
      rows: [['Anna & Co', "D'Amico", '', '393331234567']],
    });
  });
});
