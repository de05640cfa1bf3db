import { readdirSync } from 'node:fs';
import path from 'node:path';

import { MESSAGES } from '@ccp/schemas';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';

import { HEADER, csv, importFile, uploadImport } from '../fixtures/imports.ts';
import { buildTestApp, call, createSignedInUser } from '../helper.ts';

// Files as people really export them: BOM, `;` from Italian Excel, CRLF, quoted line breaks,
// accents, header names in other words; broken quoting; XLSX from a spreadsheet; wrong types.

const learnersOf = (app: Awaited<ReturnType<typeof buildTestApp>>, companyUuid: string) =>
  app.db
    .selectFrom('learners')
    .select(['first_name', 'last_name', 'email', 'phone', 'locale', 'channels'])
    .where('company_uuid', '=', companyUuid)
    .orderBy('email')
    .execute();

const errorReport = async (
  app: Awaited<ReturnType<typeof buildTestApp>>,
  headers: Record<string, string>,
  job: { error_report_url: string | null },
) => (await call(app, { method: 'GET', url: job.error_report_url ?? '', headers })).body;

const importsDir = (app: { dataDir: string }) => {
  try {
    return readdirSync(path.join(app.dataDir, 'imports'));
  } catch {
    return [];
  }
};

describe('bulk learner import: real-world CSV files', async () => {
  const app = await buildTestApp();

  it('reads an Italian Excel export: BOM, `;`, CRLF, a quoted line break, accents, other header names', async () => {
    const { company, headers } = await createSignedInUser(app);
    const content =
      '\ufeffNome;Cognome;E-mail;Phone number;Canali;Language;Notes\r\n' +
      'Zoë;D\'Arcy-Müller;zoe@example.test;;"slack;MS Teams";IT;\r\n' +
      'José;Pérez Núñez;jose@example.test;+39 333 1234567;WhatsApp;de;"first line\r\nsecond line"\r\n' +
      '\r\n' +
      'Bad;Row;not-an-email;;slack;en;\r\n' +
      'Élodie;Ångström;elodie@example.test;;google chat;;\r\n';
    const job = await importFile(app, headers, { name: 'studenti.csv', content });
    expect(job).toMatchObject({ status: 'completed', total_rows: 4, created: 3, failed: 1 });
    expect(await learnersOf(app, company.uuid)).toEqual([
      {
        first_name: 'Élodie',
        last_name: 'Ångström',
        email: 'elodie@example.test',
        phone: null,
        locale: 'en',
        channels: '["google-chat"]',
      },
      {
        first_name: 'José',
        last_name: 'Pérez Núñez',
        email: 'jose@example.test',
        phone: '+393331234567',
        locale: 'de',
        channels: '["whatsapp"]',
      },
      {
        first_name: 'Zoë',
        last_name: "D'Arcy-Müller",
        email: 'zoe@example.test',
        phone: null,
        locale: 'it',
        channels: '["slack","ms-teams"]',
      },
    ]);
    // Line 6: the header, two rows (one spanning lines 3–4) and a blank line come first. The
    // report keeps the file's delimiter and its own header.
    expect(await errorReport(app, headers, job)).toBe(
      '\ufeffline;errors;Nome;Cognome;E-mail;Phone number;Canali;Language;Notes\r\n' +
        `6;email: ${MESSAGES.emailInvalid};Bad;Row;not-an-email;;slack;en;\r\n`,
    );
  });

  it('matches header names case-insensitively with spaces and common aliases', async () => {
    const { company, headers } = await createSignedInUser(app);
    const content = csv([
      [' FIRST NAME', 'Surname ', 'EMAIL ADDRESS', 'Mobile', 'Channel', 'Lang', 'Department'],
      ['Ada', 'Lovelace', 'ada@example.test', '', 'slack', 'EN', 'R&D'],
    ]);
    const job = await importFile(app, headers, { name: 'crm.csv', content });
    expect(job).toMatchObject({ created: 1, failed: 0 });
    expect(await learnersOf(app, company.uuid)).toHaveLength(1);
  });

  it('reads tab-separated files', async () => {
    const { headers } = await createSignedInUser(app);
    const content = csv(
      [HEADER, ['Ada', 'Lovelace', 'tab@example.test', '', 'slack,webex', 'en']],
      {
        delimiter: '\t',
      },
    );
    const job = await importFile(app, headers, { name: 'tabs.csv', content });
    expect(job).toMatchObject({ created: 1, failed: 0 });
  });

  // A plan with a learners limit reads every row at upload; an unlimited one counts them with
  // a byte scan: both must refuse the same files the same way.
  it.each(['business', 'enterprise'])(
    'refuses a file with an unclosed quote, naming the line where the broken row starts (%s plan)',
    async (plan) => {
      const { company, headers } = await createSignedInUser(app, { plan });
      const content =
        'first_name,last_name,email,channels\n' +
        'Ada,Lovelace,ada@example.test,slack\n' +
        'Grace,"Hopper,grace@example.test,slack\n' +
        'Mario,Rossi,mario@example.test,slack\n';
      const response = await uploadImport(app, headers, { name: 'broken.csv', content });
      expect(response.statusCode).toBe(422);
      const message =
        'Line 3: a quoted field is never closed, or the row is longer than 64 KB. Fix the quotes and upload the file again.';
      expect(response.json.error).toEqual({
        status: 422,
        code: 'VALIDATION_FAILED',
        message,
        errors: { file: [message] },
      });
      expect(await learnersOf(app, company.uuid)).toEqual([]);
    },
  );

  it.each(['business', 'enterprise'])(
    'stops at 64 KB when a broken quote would swallow the rest of a big file (%s plan)',
    async (plan) => {
      const { headers } = await createSignedInUser(app, { plan });
      const good = Array.from(
        { length: 20 },
        (_, n) => `Ada,Lovelace,ada${n}@example.test,slack`,
      ).join('\n');
      const tail = Array.from(
        { length: 50_000 },
        (_, n) => `Row,Number,row${n}@example.test,slack`,
      ).join('\n');
      const content = `first_name,last_name,email,channels\n${good}\nGrace,"Hopper,grace@example.test,slack\n${tail}\n`;
      const response = await uploadImport(app, headers, { name: 'big-broken.csv', content });
      expect(response.statusCode).toBe(422);
      expect(response.json.error.message).toMatch(/^Line 22: a quoted field is never closed/);
    },
  );

  it('explains what is wrong with the first row', async () => {
    const { headers } = await createSignedInUser(app);
    const cases: [string, string[]][] = [
      [
        'email,phone,locale\nada@example.test,,en\n',
        // Issue 26: the missing channels column names its fix, the file's default channel.
        [fillColumns('first_name, last_name'), MESSAGES.importChannelsColumnMissing],
      ],
      [
        'first_name,last_name,channels\nAda,Lovelace,slack\n',
        [MESSAGES.importContactColumnMissing],
      ],
      [
        'first_name,last_name,E-mail,email,channels\nAda,Lovelace,a@x.test,a@x.test,slack\n',
        ['The column email appears more than once in the first row.'],
      ],
      ['', [MESSAGES.importFileEmpty]],
      ['\n\n', [MESSAGES.importFileEmpty]],
      ['first_name,last_name,email,channels\r\n\r\n', [MESSAGES.importNoRows]],
    ];
    for (const [content, errors] of cases) {
      const response = await uploadImport(app, headers, { name: 'header.csv', content });
      expect(response.statusCode).toBe(422);
      expect(response.json.error.errors).toEqual({ file: errors });
      expect(response.json.error.message).toBe(errors[0]);
    }
  });
});

const fillColumns = (columns: string) =>
  `The file has no column for: ${columns}. Its first row must name the columns, as in the template.`;

describe('bulk learner import: XLSX and file types', async () => {
  const app = await buildTestApp({ imports: { maxUploadBytes: 64 * 1024 } });

  it('imports the first worksheet of an .xlsx workbook', async () => {
    const { company, headers } = await createSignedInUser(app);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Learners');
    sheet.addRow(['First name', 'Last name', 'E-mail', 'Phone', 'Channels', 'Language']);
    sheet.addRow([
      'Zoë',
      { richText: [{ text: 'Mül' }, { text: 'ler' }] },
      { text: 'zoe@example.test', hyperlink: 'mailto:zoe@example.test' },
      null,
      'Slack',
      'it',
    ]);
    sheet.addRow([]);
    // A phone typed as a number lost its plus: recognised by its country code, the one reading
    // (issue 26; it was reported before).
    sheet.addRow(['Mario', 'Rossi', null, 393331234567, 'whatsapp', 'it']);
    sheet.addRow([
      'Grace',
      'Hopper',
      'grace@example.test',
      '+39 333 7654321',
      'whatsapp, slack',
      null,
    ]);
    workbook.addWorksheet('Notes').addRow(['first_name', 'last_name', 'email', 'channels']);
    const content = Buffer.from(await workbook.xlsx.writeBuffer());

    const job = await importFile(app, headers, { name: 'Learners.XLSX', content });
    expect(job).toMatchObject({ format: 'xlsx', total_rows: 3, created: 3, failed: 0 });
    // By first name: SQLite and PostgreSQL sort Mario's missing e-mail apart.
    const learners = await learnersOf(app, company.uuid);
    expect(learners.sort((a, b) => a.first_name.localeCompare(b.first_name))).toEqual([
      {
        first_name: 'Grace',
        last_name: 'Hopper',
        email: 'grace@example.test',
        phone: '+393337654321',
        locale: 'en',
        channels: '["whatsapp","slack"]',
      },
      {
        first_name: 'Mario',
        last_name: 'Rossi',
        email: null,
        phone: '+393331234567',
        locale: 'it',
        channels: '["whatsapp"]',
      },
      {
        first_name: 'Zoë',
        last_name: 'Müller',
        email: 'zoe@example.test',
        phone: null,
        locale: 'it',
        channels: '["slack"]',
      },
    ]);
    expect(job.error_report_url).toBeNull();
  });

  it('refuses .xls, other types, broken workbooks, a missing file and a file over the limit', async () => {
    const { headers } = await createSignedInUser(app);
    const before = importsDir(app).length;
    const cases: [Parameters<typeof uploadImport>[2], Record<string, string>, string][] = [
      [
        { name: 'old.xls', content: Buffer.from([0xd0, 0xcf, 0x11, 0xe0]) },
        {},
        MESSAGES.importXlsUnsupported,
      ],
      [{ name: 'notes.txt', content: 'hello' }, {}, MESSAGES.importFileType],
      [{ name: 'fake.xlsx', content: 'first_name,last_name\n' }, {}, MESSAGES.importXlsxBroken],
      [undefined, { dry_run: 'true' }, MESSAGES.learnerListFileRequired],
      [{ name: 'a.csv', content: 'x', field: 'upload' }, {}, MESSAGES.learnerListFileRequired],
      [{ name: 'empty.csv', content: '' }, {}, MESSAGES.importFileEmpty],
      [
        {
          name: 'huge.csv',
          content: `${HEADER.join(',')}\n${'Ada,Lovelace,a@x.test,,slack,en\n'.repeat(3000)}`,
        },
        {},
        MESSAGES.fileTooLarge,
      ],
    ];
    for (const [file, fields, message] of cases) {
      const response = await uploadImport(app, headers, file, fields);
      expect(response.statusCode).toBe(422);
      expect(response.json.error).toEqual({
        status: 422,
        code: 'VALIDATION_FAILED',
        message,
        errors: { file: [message] },
      });
    }
    expect(MESSAGES.importXlsUnsupported).toBe(
      'Old Excel .xls files cannot be imported. Save the file as .xlsx or .csv and upload it again.',
    );
    expect(MESSAGES.fileTooLarge).toBe('File is too large. Max size: 700 MB.');
    // Nothing refused stays on disk.
    expect(importsDir(app)).toHaveLength(before);
  });

  it('answers 422 to a JSON body', async () => {
    const { headers } = await createSignedInUser(app);
    const response = await call(app, {
      method: 'POST',
      url: '/api/v1/learners/imports',
      headers,
      payload: { file: 'learners.csv' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json.error.errors).toEqual({ file: [MESSAGES.learnerListFileRequired] });
  });
});
