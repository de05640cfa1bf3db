import { readFileSync } from 'node:fs';

import { MESSAGES } from '@ccp/schemas';
import type { TImportJob } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { importFile, uploadImport } from '../fixtures/imports.ts';
import { buildTestApp, call, createSignedInUser } from '../helper.ts';

// Issue 14: three exports from the wild, none written for CCP. Each imports with at most the
// defaults the upload page offers (a channel, a language, a country); without them the first two
// are refused with a message naming what is missing.

// A Google Contacts export (header as Google writes it; no channel column).
const GOOGLE = [
  'Name,Given Name,Additional Name,Family Name,Yomi Name,Given Name Yomi,Additional Name Yomi,Family Name Yomi,Name Prefix,Name Suffix,Initials,Nickname,Short Name,Maiden Name,Birthday,Gender,Location,Billing Information,Directory Server,Mileage,Occupation,Hobby,Sensitivity,Priority,Subject,Notes,Language,Photo,Group Membership,E-mail 1 - Type,E-mail 1 - Value,Phone 1 - Type,Phone 1 - Value',
  'Anna Verdi,Anna,,Verdi,,,,,,,,,,,,,,,,,,,,,,,,,* myContacts,* Work,anna.verdi@example.it,Mobile,+39 347 555 0101',
  'Luca Neri,Luca,,Neri,,,,,,,,,,,,,,,,,,,,,,,,,* myContacts,* Home,luca.neri@example.it,,',
].join('\n');

// An Outlook export (abridged to its usual leading columns; no channel column).
const OUTLOOK = [
  "First Name,Middle Name,Last Name,Title,Suffix,Nickname,Given Yomi,Surname Yomi,E-mail Address,E-mail 2 Address,E-mail 3 Address,Home Phone,Home Phone 2,Business Phone,Business Phone 2,Mobile Phone,Car Phone,Other Phone,Primary Phone,Pager,Business Fax,Home Fax,Other Fax,Company Main Phone,Callback,Radio Phone,Telex,TTY/TDD Phone,IMAddress,Job Title,Department,Company,Office Location,Manager's Name,Assistant's Name,Assistant's Phone,Company Yomi,Business Street,Business City,Business State,Business Postal Code,Business Country/Region,Home Street,Home City,Home State,Home Postal Code,Home Country/Region,Other Street,Other City,Other State,Other Postal Code,Other Country/Region,Personal Web Page,Spouse,Schools,Hobby,Location,Web Page,Birthday,Anniversary,Notes",
  'Jonas,,Weber,,,,,,jonas.weber@example.de,,,,,+49 30 1234567,,0151 23456789,,,,,,,,,,,,,,Trainer,Sales,Example GmbH,,,,,,,,,,,,,,,,,,,,,,,,,,,,,',
].join('\n');

// An Italian HR sheet: semicolons, Italian headers, a national mobile number.
const HR = [
  'Nome;Cognome;Email;Cellulare;Canale;Lingua',
  'Giulia;Bianchi;giulia.bianchi@example.it;333 1234567;whatsapp;it',
].join('\n');

describe('imports of real-world exports', async () => {
  const app = await buildTestApp();

  it('refuses a Google Contacts or Outlook file without a default channel, naming the column', async () => {
    const { headers } = await createSignedInUser(app);
    for (const content of [GOOGLE, OUTLOOK]) {
      const upload = await uploadImport(app, headers, { name: 'contacts.csv', content });
      expect(upload.statusCode).toBe(422);
      // Issue 26: the message names the fix, a default channel for the file.
      expect(upload.json.error.errors.file).toEqual([MESSAGES.importChannelsColumnMissing]);
    }
  });

  it('imports Google Contacts with a default channel and language', async () => {
    const { headers } = await createSignedInUser(app);
    const job = await importFile(
      app,
      headers,
      { name: 'contacts.csv', content: GOOGLE },
      { default_channels: 'slack', default_locale: 'it' },
    );
    expect(job).toMatchObject({ status: 'completed', created: 2, failed: 0 });
    const anna = await app.db
      .selectFrom('learners')
      .selectAll()
      .where('email', '=', 'anna.verdi@example.it')
      .executeTakeFirstOrThrow();
    expect(anna).toMatchObject({
      first_name: 'Anna',
      last_name: 'Verdi',
      phone: '+393475550101',
      locale: 'it',
    });
  });

  it('imports Outlook with a default channel, its national mobile read in the chosen country', async () => {
    const { headers } = await createSignedInUser(app);
    const job = await importFile(
      app,
      headers,
      { name: 'outlook.csv', content: OUTLOOK },
      { default_channels: 'ms-teams,whatsapp', default_locale: 'de', default_country: 'DE' },
    );
    expect(job).toMatchObject({ status: 'completed', created: 1, failed: 0 });
    const jonas = await app.db
      .selectFrom('learners')
      .selectAll()
      .where('email', '=', 'jonas.weber@example.de')
      .executeTakeFirstOrThrow();
    expect(jonas).toMatchObject({ phone: '+4915123456789', locale: 'de' });
  });

  it('imports the Italian HR sheet as it is: its national mobile number is Italian', async () => {
    const { headers } = await createSignedInUser(app);
    const job = await importFile(app, headers, { name: 'dipendenti.csv', content: HR });
    expect(job).toMatchObject({ status: 'completed', created: 1, failed: 0 });
    const giulia = await app.db
      .selectFrom('learners')
      .selectAll()
      .where('email', '=', 'giulia.bianchi@example.it')
      .executeTakeFirstOrThrow();
    expect(giulia.phone).toBe('+393331234567');
  });

  it('refuses an unknown default channel or language by field', async () => {
    const { headers } = await createSignedInUser(app);
    const upload = await uploadImport(
      app,
      headers,
      { name: 'contacts.csv', content: GOOGLE },
      { default_channels: 'fax', default_locale: 'fr' },
    );
    expect(upload.statusCode).toBe(422);
    expect(upload.json.error.errors).toMatchObject({
      default_channels: [MESSAGES.channelUnknown],
      default_locale: [MESSAGES.localeInvalid],
    });
  });
});

// Issue 26: exports made the way each tool makes them (test/imports/real-world/), each imported
// with at most the mapping step's defaults. Every stored phone is the learner's own number, or
// the row is reported with a reason naming the fix. The CLI's dry run reads the same files
// (tests/integration/cli-import-real-world.test.ts).

const REAL_WORLD = new URL('./real-world/', import.meta.url);
const realWorldFile = (name: string) => ({
  name,
  content: readFileSync(new URL(name, REAL_WORLD)),
});

type TApp = Awaited<ReturnType<typeof buildTestApp>>;

const storedLearners = async (app: TApp, companyUuid: string) =>
  (
    await app.db
      .selectFrom('learners')
      .select(['first_name', 'last_name', 'email', 'phone', 'locale', 'channels'])
      .where('company_uuid', '=', companyUuid)
      .execute()
  ).sort((a, b) => a.first_name.localeCompare(b.first_name));

const reportOf = async (app: TApp, headers: Record<string, string>, job: TImportJob) =>
  job.error_report_url
    ? (await call(app, { method: 'GET', url: job.error_report_url, headers })).rawPayload
    : Buffer.alloc(0);

describe('real exports: phones (issue 26)', async () => {
  const app = await buildTestApp();

  it('Google Contacts with Irish and Italian numbers: none is rewritten to the default country', async () => {
    const { company, headers } = await createSignedInUser(app);
    const job = await importFile(app, headers, realWorldFile('google-contacts.csv'), {
      default_channels: 'whatsapp,slack',
      default_locale: 'en',
    });
    // Luca's landline is stored for his WhatsApp with a warning: counted and in the report.
    expect(job).toMatchObject({ status: 'completed', created: 3, failed: 1, warned: 1 });
    expect(await storedLearners(app, company.uuid)).toEqual([
      {
        first_name: 'Anna',
        last_name: 'Verdi',
        email: 'anna.verdi@example.it',
        phone: '+393475550101',
        locale: 'en',
        channels: '["whatsapp","slack"]',
      },
      // Phone 1 is a work landline: the mobile of Phone 2 (the first of its " ::: " values) is
      // taken, read as Irish by the row's Address 1 - Country.
      {
        first_name: 'Aoife',
        last_name: 'Byrne',
        email: 'aoife.byrne@example.ie',
        phone: '+353875550123',
        locale: 'en',
        channels: '["whatsapp","slack"]',
      },
      // A landline only: stored (it is the learner's number), and the preview warns for WhatsApp.
      {
        first_name: 'Luca',
        last_name: 'Neri',
        email: 'luca.neri@example.it',
        phone: '+390212345678',
        locale: 'en',
        channels: '["whatsapp","slack"]',
      },
    ]);
    // 087 555 0199 is an Irish mobile and an Italian landline: reported, never stored as +39.
    expect((await reportOf(app, headers, job)).toString('utf8')).toContain(
      '3,"phone: The phone 087 555 0199 can be read as +39 0875 550199 (IT) · +353 87 555 0199 (IE). Choose the country of national numbers (or map a country column), or write the number with its international prefix.",Seán,,Ó Briain,',
    );
    expect((await reportOf(app, headers, job)).toString('utf8')).toContain(
      '6,"phone: The phone +390212345678 is a landline: WhatsApp needs a mobile number. Add the learner\'s mobile, or choose other channels.",Luca,,Neri,',
    );
  });

  it('an .xlsx with phones typed as numbers: the lost + is recognised only when unambiguous', async () => {
    const { company, headers } = await createSignedInUser(app);
    const job = await importFile(app, headers, realWorldFile('excel-numbers.xlsx'));
    expect(job).toMatchObject({ status: 'completed', created: 2, failed: 1 });
    expect(await storedLearners(app, company.uuid)).toEqual([
      {
        first_name: 'Mario',
        last_name: 'Rossi',
        email: null,
        phone: '+393331234567',
        locale: 'it',
        channels: '["whatsapp"]',
      },
      // 353861234567 is not +39 353 861 2345 67 (an Italian voicemail number).
      {
        first_name: 'Siobhán',
        last_name: 'Kelly',
        email: 'siobhan.kelly@example.ie',
        phone: '+353861234567',
        locale: 'en',
        channels: '["whatsapp"]',
      },
    ]);
    // A Rome landline that lost its leading 0 in the spreadsheet is no number: reported.
    expect((await reportOf(app, headers, job)).toString('utf8')).toContain(
      '4,"phone: The phone 612345678 is not a valid number of IT. Write it with its international prefix (+…), or choose the country of national numbers.",Chiara,Russo,',
    );
  });
});

describe('real exports: encodings (issue 26)', async () => {
  const app = await buildTestApp();

  it('a German Excel CSV in Windows-1252: accents survive to the database and back in the report', async () => {
    const { company, headers } = await createSignedInUser(app);
    const file = realWorldFile('excel-de-windows-1252.csv');
    const job = await importFile(app, headers, file, { default_country: 'DE' });
    expect(job).toMatchObject({ status: 'completed', created: 2, failed: 1 });
    expect(await storedLearners(app, company.uuid)).toEqual([
      {
        first_name: 'Bärbel',
        last_name: 'Schäfer',
        email: 'baerbel.schaefer@example.de',
        phone: '+491605550123',
        locale: 'en',
        channels: '["ms-teams"]',
      },
      {
        first_name: 'Jürgen',
        last_name: 'Weiß',
        email: 'juergen.weiss@example.de',
        phone: '+4915155506210',
        locale: 'de',
        channels: '["whatsapp"]',
      },
    ]);
    const report = await call(app, { method: 'GET', url: job.error_report_url!, headers });
    expect(report.headers['content-type']).toBe('text/csv; charset=windows-1252');
    // The failed row is the file's own bytes (Windows-1252, ";"), after its line and reason.
    const sourceRow = file.content.subarray(
      file.content.lastIndexOf('J\xf6rg', undefined, 'latin1'),
    );
    expect(report.rawPayload.subarray(report.rawPayload.length - sourceRow.length)).toEqual(
      sourceRow,
    );
    expect(report.rawPayload.toString('latin1')).toContain(
      '4;phone: The phone 0160 555 is not a valid number of DE.',
    );
    // The report goes back in as it is (line and errors are ignored) and still reads Jörg.
    const again = await importFile(
      app,
      headers,
      { name: 'report.csv', content: report.rawPayload },
      { default_country: 'DE' },
    );
    expect(again).toMatchObject({ total_rows: 1, failed: 1 });
    const secondReport = await call(app, { method: 'GET', url: again.error_report_url!, headers });
    expect(secondReport.rawPayload.toString('latin1')).toContain(';Jörg;Müller;;0160 555;');
  });

  it('a UTF-16 export of PowerShell (Active Directory): read, not refused as "not a CSV"', async () => {
    const { company, headers } = await createSignedInUser(app);
    const job = await importFile(app, headers, realWorldFile('active-directory-utf16.csv'), {
      default_channels: 'ms-teams,whatsapp',
    });
    expect(job).toMatchObject({ status: 'completed', created: 2, failed: 0 });
    expect(await storedLearners(app, company.uuid)).toEqual([
      {
        first_name: 'Matteo',
        last_name: "D'Angelo",
        email: 'matteo.dangelo@example.it',
        phone: '+393475550177',
        locale: 'it',
        channels: '["ms-teams","whatsapp"]',
      },
      // Its national mobile is read as Irish by the row's country column (c).
      {
        first_name: 'Zoë',
        last_name: 'Ní Bhriain',
        email: 'zoe.nibhriain@example.ie',
        phone: '+353875550144',
        locale: 'en',
        channels: '["ms-teams","whatsapp"]',
      },
    ]);
  });

  it('names an error report after any upload name (RFC 6266 filename*)', async () => {
    const { headers } = await createSignedInUser(app);
    const content = 'first_name,last_name,email,channels\nAda,L0velace,ada@example.test,slack\n';
    for (const [name, disposition] of [
      [
        '学習者リスト.csv',
        `attachment; filename="______-errors.csv"; filename*=UTF-8''${encodeURIComponent('学習者リスト-errors.csv')}`,
      ],
      [
        'Ученики.csv',
        `attachment; filename="_______-errors.csv"; filename*=UTF-8''${encodeURIComponent('Ученики-errors.csv')}`,
      ],
      ['learners.csv', 'attachment; filename="learners-errors.csv"'],
    ] as const) {
      const job = await importFile(app, headers, { name, content });
      const report = await call(app, { method: 'GET', url: job.error_report_url!, headers });
      expect(report.statusCode).toBe(200);
      expect(report.headers['content-disposition']).toBe(disposition);
    }
  });
});

/**
 * Each export with the mapping step's defaults it needs and exactly what it stores, in
 * real-world/expected.json: the CLI's dry run of the same files must preview the same rows
 * (tests/integration/src/cli-import-real-world.test.ts).
 */
const EXPORTS = JSON.parse(readFileSync(new URL('expected.json', REAL_WORLD), 'utf8')) as {
  file: string;
  fields: Record<string, string>;
  created: number;
  failed: number;
  stored: (Omit<Awaited<ReturnType<typeof storedLearners>>[number], 'channels'> & {
    channels: string[];
  })[];
}[];

describe('real exports: columns and values of each tool (issue 26)', async () => {
  const app = await buildTestApp();

  it.each(EXPORTS)(
    '$file stores exactly its learners',
    async ({ file, fields, created, failed, stored }) => {
      const { company, headers } = await createSignedInUser(app);
      const job = await importFile(app, headers, realWorldFile(file), fields);
      expect(job).toMatchObject({ status: 'completed', created, failed });
      expect(await storedLearners(app, company.uuid)).toEqual(
        stored.map((row) => ({ ...row, channels: JSON.stringify(row.channels) })),
      );
    },
  );
});
