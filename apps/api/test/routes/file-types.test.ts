import { readdirSync } from 'node:fs';
import path from 'node:path';

import { MESSAGES } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { makeDocx, makePdf, postImport } from '../fixtures/ai.ts';
import { pngImage } from '../fixtures/courses.ts';
import { HEADER, uploadImport } from '../fixtures/imports.ts';
import { buildTestApp, createSignedInUser } from '../helper.ts';

// Issue 11 §10: extensions are compared case-insensitively on every upload route, and the bytes
// must be those of the type the name says: a renamed file is refused before any parser reads it.

const filesIn = (dir: string) => {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  } catch {
    return [];
  }
};

describe('upload file types', async () => {
  const app = await buildTestApp();
  const { company, headers } = await createSignedInUser(app, { plan: 'enterprise' });
  const classroom = company.classrooms[0]!.uuid;
  const csv = `${HEADER.join(',')}\nAda,Lovelace,ada@example.test,,slack,en\n`;

  it.each(['learners.csv', 'LEARNERS.CSV', 'Learners.Csv'])('imports %s', async (name) => {
    const response = await uploadImport(app, headers, { name, content: csv });
    expect(response.statusCode).toBe(202);
  });

  it.each([
    [
      'a picture named .csv',
      'photo.csv',
      pngImage({ width: 2, height: 2 }),
      MESSAGES.importCsvNotText,
    ],
    [
      'a zip named .CSV',
      'ARCHIVE.CSV',
      Buffer.from('PK\u0003\u0004rest of a zip', 'latin1'),
      MESSAGES.importCsvNotText,
    ],
    ['CSV text named .XLSX', 'LEARNERS.XLSX', Buffer.from(csv), MESSAGES.importXlsxBroken],
    ['a .txt', 'learners.TXT', Buffer.from(csv), MESSAGES.importFileType],
    ['an .XLS', 'OLD.XLS', Buffer.from([0xd0, 0xcf, 0x11, 0xe0]), MESSAGES.importXlsUnsupported],
  ])('refuses %s for the learner import, keeping nothing', async (_, name, content, message) => {
    const response = await uploadImport(app, headers, { name, content });
    expect(response.statusCode).toBe(422);
    expect(response.json.error.errors).toEqual({ file: [message] });
    // Only the imports accepted above are kept, one file each.
    expect(filesIn(path.join(app.dataDir, 'imports'))).toHaveLength(3);
  });

  it('refuses a CSV with more rows of the wrong length than a real export has, before parsing', async () => {
    const content = `${HEADER.join(',')}\n${'x\n'.repeat(10_001)}`;
    const response = await uploadImport(app, headers, { name: 'short.csv', content });
    expect(response.statusCode).toBe(422);
    expect(response.json.error.errors).toEqual({ file: [MESSAGES.importIrregularRows] });
  });

  it('reads AI sources named in any case, and refuses the ones whose bytes say otherwise', async () => {
    const accepted = await postImport(app, {
      classroom,
      headers,
      file: { filename: 'HANDBOOK.DOCX', content: await makeDocx() },
    });
    expect(accepted.statusCode).toBe(202); // accepted: the import runs as a background job
    for (const [filename, content] of [
      ['notes.pdf', await makeDocx()],
      ['HANDBOOK.DOCX', await makePdf()],
      ['talk.MP3', Buffer.from('plain text, not audio')],
      ['clip.mp4', pngImage({ width: 2, height: 2 })],
      ['notes.txt', pngImage({ width: 2, height: 2 })],
    ] as const) {
      const response = await postImport(app, { classroom, headers, file: { filename, content } });
      expect({
        filename,
        status: response.statusCode,
        errors: response.json().error?.errors,
      }).toEqual({
        filename,
        status: 422,
        errors: { file: [MESSAGES.aiFileUnreadable] },
      });
    }
    expect(filesIn(path.join(app.dataDir, 'tmp'))).toEqual([]);
  });
});
