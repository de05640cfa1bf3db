import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { MESSAGES } from '@ccp/schemas';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';

import { readRows } from '../../src/imports/reader.ts';
import { XLSX_LIMITS } from '../../src/imports/xlsx.ts';
import { importFile, uploadImport } from '../fixtures/imports.ts';
import { declareSize } from '../fixtures/zip.ts';
import { buildTestApp, createSignedInUser } from '../helper.ts';

// Issue 11 §2: a small .xlsx that unpacks to a huge shared-strings table (or sheet) tied the
// server up for 100 s and 3 GB. Workbooks are read from the zip's directory within XLSX_LIMITS
// and refused as soon as one is passed; a real workbook still imports.

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A minimal workbook: the sheet's rows XML and the shared strings' <si> items. */
const workbook = async ({ rows, strings = '' }: { rows: string; strings?: string }) => {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
  );
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  zip.file(
    'xl/workbook.xml',
    `<?xml version="1.0"?><workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="Learners" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  );
  zip.file(
    'xl/_rels/workbook.xml.rels',
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
  );
  zip.file('xl/sharedStrings.xml', `<?xml version="1.0"?><sst xmlns="${NS}">${strings}</sst>`);
  zip.file(
    'xl/worksheets/sheet1.xml',
    `<?xml version="1.0"?><worksheet xmlns="${NS}"><sheetData>${rows}</sheetData></worksheet>`,
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
};

const HEADER_ROW =
  '<row r="1"><c r="A1" t="inlineStr"><is><t>first_name</t></is></c><c r="B1" t="inlineStr"><is><t>last_name</t></is></c><c r="C1" t="inlineStr"><is><t>email</t></is></c><c r="D1" t="inlineStr"><is><t>channels</t></is></c></row>';

describe('hostile workbooks', async () => {
  const app = await buildTestApp();
  const { headers, company } = await createSignedInUser(app);

  const answerTo = async (content: Buffer) => {
    const response = await uploadImport(app, headers, { name: 'bomb.xlsx', content });
    return { status: response.statusCode, errors: response.json.error?.errors as unknown };
  };
  const refusedWith = (message: string) => ({ status: 422, errors: { file: [message] } });

  it('refuses more shared strings than the limit as soon as it passes it', async () => {
    const strings = '<si><t/></si>'.repeat(XLSX_LIMITS.sharedStrings + 1);
    const content = await workbook({ rows: HEADER_ROW, strings });
    expect(content.length).toBeLessThan(200_000);
    expect(await answerTo(content)).toEqual(refusedWith(MESSAGES.importXlsxTooLarge));
  });

  it('refuses a part that says it unpacks past the limit, without unpacking it', async () => {
    const content = await workbook({ rows: HEADER_ROW });
    expect(
      await answerTo(declareSize(content, 'xl/worksheets/sheet1.xml', XLSX_LIMITS.sheetBytes + 1)),
    ).toEqual(refusedWith(MESSAGES.importXlsxTooLarge));
    expect(
      await answerTo(
        declareSize(content, 'xl/sharedStrings.xml', XLSX_LIMITS.sharedStringsBytes + 1),
      ),
    ).toEqual(refusedWith(MESSAGES.importXlsxTooLarge));
  });

  it('refuses a part that unpacks to more than it says', async () => {
    const rows = `${HEADER_ROW}${'<row><c t="inlineStr"><is><t>Ada</t></is></c></row>'.repeat(5000)}`;
    expect(
      await answerTo(declareSize(await workbook({ rows }), 'xl/worksheets/sheet1.xml', 1000)),
    ).toEqual(refusedWith(MESSAGES.importXlsxBroken));
  });

  it('refuses a cell beyond the column limit and a row beyond the last one', async () => {
    expect(
      await answerTo(
        await workbook({ rows: `${HEADER_ROW}<row r="2"><c r="XFD2"><v>1</v></c></row>` }),
      ),
    ).toEqual(refusedWith(MESSAGES.importXlsxTooLarge));
    expect(
      await answerTo(
        await workbook({
          rows: `${HEADER_ROW}<row r="2000000"><c r="A2000000"><v>1</v></c></row>`,
        }),
      ),
    ).toEqual(refusedWith(MESSAGES.importXlsxBroken));
  });

  it('reads shared, rich, inline, number, boolean and formula cells as a person sees them', async () => {
    const strings =
      '<si><t>Ada</t></si><si><r><t>Love</t></r><r><t>lace</t></r><rPh><t>ラブレース</t></rPh></si>';
    const rows = `${HEADER_ROW}<row r="3"><c r="A3" t="s"><v>0</v></c><c r="B3" t="s"><v>1</v></c><c r="C3" t="str"><f>LOWER("ADA@EXAMPLE.TEST")</f><v>ada@example.test</v></c><c r="D3" t="inlineStr"><is><t>slack</t></is></c></row>`;
    const job = await importFile(app, headers, {
      name: 'real.xlsx',
      content: await workbook({ rows, strings }),
    });
    expect(job).toMatchObject({ total_rows: 1, created: 1, failed: 0 });
    const learner = await app.db
      .selectFrom('learners')
      .select(['first_name', 'last_name', 'email'])
      .where('company_uuid', '=', company.uuid)
      .executeTakeFirstOrThrow();
    expect(learner).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.test',
    });

    const file = path.join(app.dataDir, 'cells.xlsx');
    writeFileSync(
      file,
      await workbook({
        rows: '<row r="2"><c r="B2" t="b"><v>1</v></c><c r="C2"><v>393331234567</v></c><c r="D2"><v>1.50</v></c><c r="E2" t="e"><v>#N/A</v></c></row>',
      }),
    );
    const read: { line: number; cells: string[] }[] = [];
    for await (const row of readRows(file, 'xlsx')) read.push(row);
    expect(read).toEqual([{ line: 2, cells: ['', 'true', '393331234567', '1.5', ''] }]);
  });
});
