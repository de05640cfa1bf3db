import { readdirSync } from 'node:fs';
import path from 'node:path';

import {
  BULK_IMPORT_MAX_LEARNERS,
  IMPORT_TEMPLATE_HEADER,
  MESSAGES,
  fillMessage,
} from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { drainJobs } from '../../src/jobs/runner.ts';
import { HEADER, csv, importFile, uploadImport } from '../fixtures/imports.ts';
import { insertLearner, insertList } from '../fixtures/learners.ts';
import { buildTestApp, call, createSignedInUser } from '../helper.ts';

// Upsert semantics of the bulk learner import: counts, matching by e-mail (and by phone without
// one), re-import idempotence, the target list, the plan limit and the row limit.

// Sorted here: SQLite and Postgres order NULL e-mails differently.
const learnersOf = async (app: Awaited<ReturnType<typeof buildTestApp>>, companyUuid: string) =>
  (
    await app.db
      .selectFrom('learners')
      .selectAll()
      .where('company_uuid', '=', companyUuid)
      .execute()
  ).sort(
    (a, b) =>
      (a.email ?? '').localeCompare(b.email ?? '') || (a.phone ?? '').localeCompare(b.phone ?? ''),
  );

const importsDirOf = (app: { dataDir: string }) => {
  try {
    return readdirSync(path.join(app.dataDir, 'imports'));
  } catch {
    return [];
  }
};

describe('bulk learner import: upsert semantics', async () => {
  const app = await buildTestApp();

  it('creates the learners of a file with the shared rules, and reports the job', async () => {
    const { company, headers } = await createSignedInUser(app);
    const file = csv([
      HEADER,
      ['Ada', 'Lovelace', ' ADA@Example.test ', '', 'Slack', 'IT'],
      ['Grace', 'Hopper', 'grace@example.test', '+39 333 123 4567', 'slack|WhatsApp', ''],
      ['Mario', 'Rossi', '', '+39 (333) 765-4321', 'whatsapp', 'de'],
    ]);
    const upload = await uploadImport(app, headers, { name: 'people.csv', content: file });
    expect(upload.statusCode).toBe(202);
    expect(upload.json.data).toMatchObject({
      kind: 'learners_import',
      status: 'queued',
      file_name: 'people.csv',
      format: 'csv',
      dry_run: false,
      learners_list: null,
      total_rows: 3,
      processed_rows: 0,
      progress: 0,
      error_report_url: null,
    });

    expect(await drainJobs(app)).toBe(1);
    const job = await call(app, {
      method: 'GET',
      url: `/api/v1/learners/imports/${upload.json.data.uuid}`,
      headers,
    });
    expect(job.json.data).toMatchObject({
      status: 'completed',
      total_rows: 3,
      processed_rows: 3,
      created: 3,
      updated: 0,
      skipped: 0,
      failed: 0,
      progress: 100,
      error_summary: null,
      error_report_url: null,
    });
    const rows = await learnersOf(app, company.uuid);
    expect(
      rows.map(({ first_name, last_name, email, phone, locale, channels, deleted_at }) => ({
        first_name,
        last_name,
        email,
        phone,
        locale,
        channels: JSON.parse(channels),
        deleted_at,
      })),
    ).toEqual([
      {
        first_name: 'Mario',
        last_name: 'Rossi',
        email: null,
        phone: '+393337654321',
        locale: 'de',
        channels: ['whatsapp'],
        deleted_at: null,
      },
      {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.test',
        phone: null,
        locale: 'it',
        channels: ['slack'],
        deleted_at: null,
      },
      {
        first_name: 'Grace',
        last_name: 'Hopper',
        email: 'grace@example.test',
        phone: '+393331234567',
        locale: 'en',
        channels: ['slack', 'whatsapp'],
        deleted_at: null,
      },
    ]);
    // The input file is removed once the job is done; no error report without failures.
    expect(importsDirOf(app).filter((name) => name.startsWith(upload.json.data.uuid))).toEqual([]);
  });

  it('imports a time zone column (any of its names), else the phone country’s zone', async () => {
    const { company, headers } = await createSignedInUser(app);
    const file = csv([
      ['Vorname', 'Nachname', 'E-Mail', 'Telefon', 'Kanäle', 'Zeitzone'],
      ['Ada', 'Lovelace', 'ada@example.test', '+12125550100', 'slack', 'america/new_york'],
      ['Grace', 'Hopper', 'grace@example.test', '+393331234567', 'whatsapp', ''],
      ['Alan', 'Turing', 'alan@example.test', '+12125550101', 'slack', ''],
      ['Mario', 'Rossi', 'mario@example.test', '', 'slack', 'Mars/Olympus'],
    ]);
    const report = await importFile(app, headers, { name: 'zones.csv', content: file });
    expect(report).toMatchObject({ created: 3, failed: 1 });
    const zones = Object.fromEntries(
      (await learnersOf(app, company.uuid)).map((row) => [row.first_name, row.time_zone]),
    );
    // New York as written; Italy has one zone; the US six, so the company's applies (null).
    expect(zones).toEqual({ Ada: 'America/New_York', Grace: 'Europe/Rome', Alan: null });

    // The same file again changes nothing: the phone's zone is compared as stored.
    const again = await importFile(app, headers, { name: 'zones.csv', content: file });
    expect(again).toMatchObject({ created: 0, updated: 0, skipped: 3, failed: 1 });
  });

  it('re-importing the same file creates nothing: every row is skipped', async () => {
    const { company, headers } = await createSignedInUser(app);
    const file = csv([
      HEADER,
      ['Ada', 'Lovelace', 'ada@example.test', '', 'slack', 'en'],
      ['Mario', 'Rossi', '', '+393337654321', 'whatsapp', 'it'],
    ]);
    const first = await importFile(app, headers, { name: 'a.csv', content: file });
    expect(first).toMatchObject({ created: 2, updated: 0, skipped: 0, failed: 0 });
    const before = await learnersOf(app, company.uuid);

    const second = await importFile(app, headers, { name: 'a.csv', content: file });
    expect(second).toMatchObject({ created: 0, updated: 0, skipped: 2, failed: 0 });
    expect(await learnersOf(app, company.uuid)).toEqual(before);
  });

  it('updates learners matched by e-mail (any case) or, without one, by phone', async () => {
    const { company, headers } = await createSignedInUser(app);
    const ada = await insertLearner(app, company.uuid, {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.test',
      channels: ['slack'],
    });
    const mario = await insertLearner(app, company.uuid, {
      first_name: 'Mario',
      last_name: 'Rossi',
      email: null,
      phone: '+393337654321',
      channels: ['whatsapp'],
    });
    // Same phone but with an e-mail: a row without e-mail does not match it.
    await insertLearner(app, company.uuid, {
      first_name: 'Other',
      last_name: 'Person',
      email: 'other@example.test',
      phone: '+393330000000',
      channels: ['whatsapp'],
    });
    app.testClock.advance(60_000);
    const job = await importFile(app, headers, {
      name: 'b.csv',
      content: csv([
        HEADER,
        ['Ada', 'King', 'ADA@EXAMPLE.TEST', '', 'slack', 'en'],
        ['Mario', 'Rossi', '', '+39 333 765 4321', 'whatsapp', 'it'],
        ['New', 'Person', '', '+39 333 000 0000', 'whatsapp', 'en'],
      ]),
    });
    expect(job).toMatchObject({ created: 1, updated: 2, skipped: 0, failed: 0 });
    const rows = await learnersOf(app, company.uuid);
    expect(rows).toHaveLength(4);
    const adaNow = rows.find((row) => row.uuid === ada.uuid)!;
    expect(adaNow).toMatchObject({ last_name: 'King', created_at: ada.created_at });
    expect(adaNow.updated_at).toBe(app.clock.now().toISOString());
    expect(rows.find((row) => row.uuid === mario.uuid)).toMatchObject({ locale: 'it' });
    expect(rows.filter((row) => row.phone === '+393330000000')).toHaveLength(2);
  });

  it('brings archived learners back (counted as updated) and counts them against the plan', async () => {
    const { company, headers } = await createSignedInUser(app);
    const archived = await insertLearner(app, company.uuid, {
      email: 'back@example.test',
      deleted_at: '2026-11-01T00:00:00.000Z',
      active: 0,
    });
    const job = await importFile(app, headers, {
      name: 'c.csv',
      content: csv([HEADER, ['Ada', 'Lovelace', 'back@example.test', '', 'slack', 'en']]),
    });
    expect(job).toMatchObject({ created: 0, updated: 1, skipped: 0 });
    const row = await app.db
      .selectFrom('learners')
      .selectAll()
      .where('uuid', '=', archived.uuid)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ deleted_at: null, active: 1 });
  });

  it('imports the valid rows and reports the invalid ones with their line and reasons', async () => {
    const { company, headers } = await createSignedInUser(app);
    const job = await importFile(app, headers, {
      name: 'mixed.csv',
      content: csv([
        HEADER,
        ['Ada', 'Lovelace', 'ada@example.test', '', 'slack', 'en'],
        ['R2', 'D2', 'not-an-email', '', 'fax', 'fr'],
        ['Grace', 'Hopper', '', '', 'slack', 'en'],
        ['Ada', 'Again', 'Ada@example.test', '', 'slack', 'en'],
        ['Mario', 'Rossi', '', '333', 'whatsapp', 'it'],
        ['', '', '', '', '', ''],
        ['Luigi', 'Verdi', 'luigi@example.test', '', 'slack', 'en', 'extra'],
      ]),
    });
    expect(job).toMatchObject({
      status: 'completed',
      total_rows: 6,
      created: 1,
      failed: 5,
      error_report_url: `/api/v1/learners/imports/${job.uuid}/errors`,
    });
    expect((await learnersOf(app, company.uuid)).map((row) => row.email)).toEqual([
      'ada@example.test',
    ]);
    const report = await call(app, { method: 'GET', url: job.error_report_url!, headers });
    expect(report.statusCode).toBe(200);
    expect(report.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(report.headers['content-disposition']).toBe('attachment; filename="mixed-errors.csv"');
    expect(report.body).toBe(
      '\ufeffline,errors,first_name,last_name,email,phone,channels,locale\r\n' +
        // The reasons hold commas, so that cell is quoted.
        `3,"${[
          `first_name: ${MESSAGES.nameInvalid}`,
          `last_name: ${MESSAGES.nameInvalid}`,
          `email: ${MESSAGES.emailInvalid}`,
          `channels: ${MESSAGES.channelUnknown}`,
          `locale: ${MESSAGES.localeInvalid}`,
        ].join(' | ')}",R2,D2,not-an-email,,fax,fr\r\n` +
        `4,email: ${MESSAGES.emailRequiredForChannel},Grace,Hopper,,,slack,en\r\n` +
        `5,email: The email is already on line 2 of this file.,Ada,Again,Ada@example.test,,slack,en\r\n` +
        // Issue 26: the reason names the fix (the country of national numbers).
        `6,"phone: ${fillMessage(MESSAGES.importPhoneInvalid, { number: '333', country: 'IT' })}",Mario,Rossi,,333,whatsapp,it\r\n` +
        `8,${MESSAGES.importRowTooManyFields},Luigi,Verdi,luigi@example.test,,slack,en,extra\r\n`,
    );
  });

  it('adds every imported learner (created, updated or skipped) to the target list', async () => {
    const { company, headers } = await createSignedInUser(app);
    const list = await insertList(app, company.uuid, 'Newcomers', []);
    const known = await insertLearner(app, company.uuid, {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.test',
      channels: ['slack'],
    });
    const job = await importFile(
      app,
      headers,
      {
        name: 'list.csv',
        content: csv([
          HEADER,
          ['Ada', 'Lovelace', 'ada@example.test', '', 'slack', 'en'],
          ['Grace', 'Hopper', 'grace@example.test', '', 'slack', 'en'],
          ['Mario', 'Rossi', '', '+393337654321', 'whatsapp', 'en'],
          ['Bad', 'Row', 'bad', '', 'slack', 'en'],
        ]),
      },
      { list_uuid: list.uuid },
    );
    expect(job).toMatchObject({
      created: 2,
      skipped: 1,
      failed: 1,
      learners_list: { uuid: list.uuid, name: 'Newcomers' },
    });
    const members = await app.db
      .selectFrom('learners_list_members')
      .innerJoin('learners', 'learners.uuid', 'learners_list_members.learner_uuid')
      .select(['learners.uuid', 'learners.first_name'])
      .where('list_uuid', '=', list.uuid)
      .orderBy('learners.first_name')
      .execute();
    expect(members.map((member) => member.first_name)).toEqual(['Ada', 'Grace', 'Mario']);
    expect(members[0]!.uuid).toBe(known.uuid);

    // Importing again keeps one membership each.
    await importFile(
      app,
      headers,
      {
        name: 'list.csv',
        content: csv([HEADER, ['Ada', 'Lovelace', 'ada@example.test', '', 'slack', 'en']]),
      },
      { list_uuid: list.uuid },
    );
    const count = await app.db
      .selectFrom('learners_list_members')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('list_uuid', '=', list.uuid)
      .executeTakeFirstOrThrow();
    expect(Number(count.count)).toBe(3);
  });

  it('applies a file of several batches once: counts, updates, the list, and a re-import', async () => {
    // 12,000 rows: 12 batches on SQLite, 3 on Postgres, each looked up while the one before
    // commits. Matches and failures sit in later batches.
    const ROWS = 12_000;
    const { company, headers } = await createSignedInUser(app, { plan: 'enterprise' });
    const keep = await insertLearner(app, company.uuid, { email: 'keep@example.test' });
    const change = await insertLearner(app, company.uuid, { email: 'change@example.test' });
    const back = await insertLearner(app, company.uuid, {
      first_name: 'Back',
      last_name: 'Again',
      email: 'back@example.test',
      deleted_at: app.clock.now().toISOString(),
    });
    const byPhone = await insertLearner(app, company.uuid, {
      first_name: 'Mario',
      last_name: 'Rossi',
      email: null,
      phone: '+393330000001',
      channels: ['whatsapp'],
    });
    const list = await insertList(app, company.uuid, 'Everyone', [keep.uuid]);
    const special: Record<number, string[]> = {
      6001: ['Ada', 'Lovelace', 'keep@example.test', '', 'slack', 'en'],
      6002: ['Changed', 'Name', 'change@example.test', '', 'slack', 'en'],
      11001: ['Back', 'Again', 'back@example.test', '', 'slack', 'en'],
      11002: ['Mario', 'Verdi', '', '+39 333 000 0001', 'whatsapp', 'it'],
      11003: ['Luigi', 'Bianchi', '', '+39 333 000 0002', 'whatsapp', 'it'],
    };
    const rows = [HEADER];
    for (let n = 1; n <= ROWS; n += 1) {
      if (n % 4000 === 0) rows.push(['Bad', 'Row', `bad-${n}`, '', 'slack', 'en']);
      else
        rows.push(special[n] ?? ['Ada', 'Lovelace', `multi${n}@example.test`, '', 'slack', 'en']);
    }
    const file = { name: 'many.csv', content: csv(rows) };
    const valid = ROWS - 3;

    const first = await importFile(app, headers, file, { list_uuid: list.uuid });
    expect(first).toMatchObject({
      status: 'completed',
      total_rows: ROWS,
      processed_rows: ROWS,
      created: valid - 4,
      updated: 3,
      skipped: 1,
      failed: 3,
    });
    const learners = await learnersOf(app, company.uuid);
    expect(learners).toHaveLength(valid);
    expect(learners.filter((row) => row.deleted_at !== null)).toEqual([]);
    const find = (uuid: string) => learners.find((row) => row.uuid === uuid);
    expect(find(change.uuid)).toMatchObject({ first_name: 'Changed', last_name: 'Name' });
    expect(find(byPhone.uuid)).toMatchObject({ first_name: 'Mario', last_name: 'Verdi' });
    expect(find(back.uuid)).toMatchObject({ deleted_at: null, active: 1 });
    const members = async () =>
      (
        await app.db
          .selectFrom('learners_list_members')
          .select('learner_uuid')
          .where('list_uuid', '=', list.uuid)
          .execute()
      )
        .map((row) => row.learner_uuid)
        .sort();
    const joined = await members();
    expect(joined).toEqual(learners.map((row) => row.uuid).sort());

    const again = await importFile(app, headers, file, { list_uuid: list.uuid });
    expect(again).toMatchObject({ created: 0, updated: 0, skipped: valid, failed: 3 });
    expect(await learnersOf(app, company.uuid)).toEqual(learners);
    expect(await members()).toEqual(joined);
  });

  it('refuses a list of another company or a malformed one with 422, writing nothing', async () => {
    const { headers } = await createSignedInUser(app);
    const other = await createSignedInUser(app);
    const foreign = await insertList(app, other.company.uuid, 'Theirs', []);
    const file = {
      name: 'x.csv',
      content: csv([HEADER, ['Ada', 'L', 'a@example.test', '', 'slack', 'en']]),
    };
    const filesBefore = importsDirOf(app).length;
    for (const listUuid of [foreign.uuid, 'not-a-uuid']) {
      const response = await uploadImport(app, headers, file, { list_uuid: listUuid });
      expect(response.statusCode).toBe(422);
      expect(response.json.error).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: MESSAGES.learnersListUnknown,
        errors: { list_uuid: [MESSAGES.learnersListUnknown] },
      });
    }
    expect(importsDirOf(app)).toHaveLength(filesBefore);
  });

  it('a dry run counts what an import would do and writes no learner', async () => {
    const { company, headers } = await createSignedInUser(app);
    await insertLearner(app, company.uuid, {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.test',
      channels: ['slack'],
    });
    const before = await learnersOf(app, company.uuid);
    const job = await importFile(
      app,
      headers,
      {
        name: 'dry.csv',
        content: csv([
          HEADER,
          ['Ada', 'Byron', 'ada@example.test', '', 'slack', 'en'],
          ['Grace', 'Hopper', 'grace@example.test', '', 'slack', 'en'],
          ['Bad', 'Row', 'bad', '', 'slack', 'en'],
        ]),
      },
      { dry_run: 'true' },
    );
    expect(job).toMatchObject({ dry_run: true, created: 1, updated: 1, failed: 1 });
    expect(await learnersOf(app, company.uuid)).toEqual(before);
  });
});

describe('bulk learner import: limits checked before anything is written', async () => {
  const app = await buildTestApp();

  it('answers 402 with the limit payload when the file would pass the free plan (6 learners)', async () => {
    const { company, headers } = await createSignedInUser(app, { plan: 'free' });
    for (const n of [1, 2, 3, 4]) {
      await insertLearner(app, company.uuid, { email: `known${n}@example.test` });
    }
    // An archived learner does not count now, but bringing it back does.
    await insertLearner(app, company.uuid, {
      email: 'archived@example.test',
      deleted_at: '2026-11-01T00:00:00.000Z',
    });
    const file = csv([
      HEADER,
      ['Known', 'One', 'known1@example.test', '', 'slack', 'en'],
      ['New', 'One', 'new1@example.test', '', 'slack', 'en'],
      ['New', 'Two', 'new2@example.test', '', 'slack', 'en'],
      ['Back', 'Again', 'archived@example.test', '', 'slack', 'en'],
      ['Invalid', 'Row', 'nope', '', 'slack', 'en'],
      ['New', 'Dup', 'NEW1@example.test', '', 'slack', 'en'],
    ]);
    const response = await uploadImport(app, headers, { name: 'too-many.csv', content: file });
    expect(response.statusCode).toBe(402);
    expect(response.json).toEqual({
      error: {
        status: 402,
        code: 'PLAN_LIMIT_REACHED',
        message: 'Learners limit reached.',
        limit: { feature: 'learners', required: 7, limit: 6 },
      },
    });
    const jobs = await app.db
      .selectFrom('jobs')
      .select('uuid')
      .where('company_uuid', '=', company.uuid)
      .execute();
    expect(jobs).toEqual([]);
    expect(importsDirOf(app)).toEqual([]);

    // Without the archived one it fits exactly: 4 + 2 = 6.
    const fits = await importFile(app, headers, {
      name: 'fits.csv',
      content: csv([
        HEADER,
        ['Known', 'One', 'known1@example.test', '', 'slack', 'en'],
        ['New', 'One', 'new1@example.test', '', 'slack', 'en'],
        ['New', 'Two', 'new2@example.test', '', 'slack', 'en'],
        ['Invalid', 'Row', 'nope', '', 'slack', 'en'],
      ]),
    });
    expect(fits).toMatchObject({ status: 'completed', created: 2, updated: 1, failed: 1 });
  });

  it('fails the job, writing no more, when learners were added after the upload', async () => {
    const { company, headers } = await createSignedInUser(app, { plan: 'free' });
    const upload = await uploadImport(app, headers, {
      name: 'late.csv',
      content: csv([
        HEADER,
        ['New', 'One', 'late1@example.test', '', 'slack', 'en'],
        ['New', 'Two', 'late2@example.test', '', 'slack', 'en'],
      ]),
    });
    expect(upload.statusCode).toBe(202);
    for (const n of [1, 2, 3, 4, 5])
      await insertLearner(app, company.uuid, { email: `m${n}@x.test` });
    await drainJobs(app);
    const job = await call(app, {
      method: 'GET',
      url: `/api/v1/learners/imports/${upload.json.data.uuid}`,
      headers,
    });
    expect(job.json.data).toMatchObject({
      status: 'failed',
      error_summary: 'Learners limit reached.',
      created: 0,
      processed_rows: 0,
    });
    const count = await app.db
      .selectFrom('learners')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('company_uuid', '=', company.uuid)
      .executeTakeFirstOrThrow();
    expect(Number(count.count)).toBe(5);
  });

  it(`accepts ${BULK_IMPORT_MAX_LEARNERS.toLocaleString('en')} rows and refuses one more`, async () => {
    const { company, headers } = await createSignedInUser(app, { plan: 'enterprise' });
    const lines = ['first_name,last_name,email,channels'];
    for (let n = 0; n < BULK_IMPORT_MAX_LEARNERS; n += 1) {
      lines.push(`Ada,Lovelace,l${n}@example.test,slack`);
    }
    const atLimit = await uploadImport(
      app,
      headers,
      { name: 'max.csv', content: `${lines.join('\n')}\n` },
      { dry_run: 'true' },
    );
    expect(atLimit.statusCode).toBe(202);
    expect(atLimit.json.data.total_rows).toBe(BULK_IMPORT_MAX_LEARNERS);
    await app.db.deleteFrom('jobs').where('company_uuid', '=', company.uuid).execute();

    lines.push('Ada,Lovelace,one-more@example.test,slack');
    const filesBefore = importsDirOf(app).length;
    const over = await uploadImport(app, headers, {
      name: 'over.csv',
      content: `${lines.join('\n')}\n`,
    });
    expect(over.statusCode).toBe(422);
    expect(over.json.error).toEqual({
      status: 422,
      code: 'VALIDATION_FAILED',
      message: MESSAGES.importTooManyRows,
      errors: { file: [MESSAGES.importTooManyRows] },
    });
    expect(importsDirOf(app)).toHaveLength(filesBefore);

    // With a plan limit every row is read and checked at upload; the row limit still comes first.
    const limited = await createSignedInUser(app, { plan: 'business' });
    const overOnBusiness = await uploadImport(app, limited.headers, {
      name: 'over.csv',
      content: `${lines.join('\n')}\n`,
    });
    expect(overOnBusiness.statusCode).toBe(422);
    expect(overOnBusiness.json.error.message).toBe(MESSAGES.importTooManyRows);
  });
});

describe('bulk learner import: the other calls', async () => {
  const app = await buildTestApp();

  it('documents every import call and the outbox in the OpenAPI document', async () => {
    const response = await call(app, { method: 'GET', url: '/api/docs/json' });
    const paths = response.json.paths as Record<string, Record<string, { responses: object }>>;
    const documented = Object.entries(paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method} ${path}`),
    );
    expect(documented).toEqual(
      expect.arrayContaining([
        'post /api/v1/learners/imports',
        'get /api/v1/learners/imports',
        'get /api/v1/learners/imports/template',
        'get /api/v1/learners/imports/{jobUuid}',
        'get /api/v1/learners/imports/{jobUuid}/errors',
        'post /api/v1/learners/imports/{jobUuid}/cancel',
        'get /api/v1/users/me/outbox',
      ]),
    );
    // The success, the errors it names (issue 32) and the error body every operation documents
    // (issue 11 §7).
    expect(Object.keys(paths['/api/v1/learners/imports']!.post!.responses)).toEqual(
      expect.arrayContaining(['202', '401', '403', '422', '4XX', '5XX']),
    );
  });

  it('serves the template with the expected header', async () => {
    const { headers } = await createSignedInUser(app);
    const response = await call(app, {
      method: 'GET',
      url: '/api/v1/learners/imports/template',
      headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="learners-import-template.csv"',
    );
    expect(response.body).toBe('first_name,last_name,email,phone,channels,locale,time_zone\r\n');
    expect(IMPORT_TEMPLATE_HEADER).toBe(
      'first_name,last_name,email,phone,channels,locale,time_zone',
    );
  });

  it('lists the company’s imports newest first and hides other companies’ jobs', async () => {
    const { headers } = await createSignedInUser(app);
    const other = await createSignedInUser(app);
    const file = {
      name: 'one.csv',
      content: csv([HEADER, ['Ada', 'L', 'a@example.test', '', 'slack', 'en']]),
    };
    const first = await uploadImport(app, headers, file);
    app.testClock.advance(1000);
    const second = await uploadImport(app, headers, { ...file, name: 'two.csv' });
    const theirs = await uploadImport(app, other.headers, file);

    const list = await call(app, { method: 'GET', url: '/api/v1/learners/imports', headers });
    expect(list.statusCode).toBe(200);
    expect((list.json.data as { file_name: string }[]).map((job) => job.file_name)).toEqual([
      'two.csv',
      'one.csv',
    ]);
    expect(list.json.meta).toMatchObject({ total: 2, current_page: 1 });
    expect(list.json.data[1].uuid).toBe(first.json.data.uuid);
    expect(list.json.data[0].uuid).toBe(second.json.data.uuid);

    for (const url of [
      `/api/v1/learners/imports/${theirs.json.data.uuid}`,
      `/api/v1/learners/imports/${theirs.json.data.uuid}/errors`,
      '/api/v1/learners/imports/00000000-0000-4000-8000-000000000000',
      '/api/v1/learners/imports/not-a-uuid',
    ]) {
      const response = await call(app, { method: 'GET', url, headers });
      expect(response.statusCode).toBe(404);
    }
    const unauthenticated = await call(app, { method: 'GET', url: '/api/v1/learners/imports' });
    expect(unauthenticated.statusCode).toBe(401);
  });

  it('cancels a queued import once; the runner then leaves it alone', async () => {
    const { company, headers } = await createSignedInUser(app);
    const upload = await uploadImport(app, headers, {
      name: 'cancel.csv',
      content: csv([HEADER, ['Ada', 'L', 'cancel@example.test', '', 'slack', 'en']]),
    });
    const url = `/api/v1/learners/imports/${upload.json.data.uuid}/cancel`;
    const canceled = await call(app, { method: 'POST', url, headers });
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json.data).toMatchObject({
      status: 'canceled',
      finished_at: app.clock.now().toISOString(),
    });
    const again = await call(app, { method: 'POST', url, headers });
    expect(again.statusCode).toBe(422);
    expect(again.json.error.message).toBe(MESSAGES.importNotCancelable);
    await drainJobs(app);
    const learners = await app.db
      .selectFrom('learners')
      .select('uuid')
      .where('company_uuid', '=', company.uuid)
      .execute();
    expect(learners).toEqual([]);
    // No summary mail for a canceled import; its input file is gone.
    expect(importsDirOf(app).filter((name) => name.startsWith(upload.json.data.uuid))).toEqual([]);
  });

  it('e-mails the requester the summary when the job finishes', async () => {
    const { user, headers } = await createSignedInUser(app);
    const job = await importFile(app, headers, {
      name: 'mail.csv',
      content: csv([
        HEADER,
        ['Ada', 'Lovelace', 'mail1@example.test', '', 'slack', 'en'],
        ['Bad', 'Row', 'bad', '', 'slack', 'en'],
      ]),
    });
    const outbox = await call(app, { method: 'GET', url: '/api/v1/users/me/outbox', headers });
    expect(outbox.json.data).toHaveLength(1);
    expect(outbox.json.data[0]).toMatchObject({
      to: user.email,
      subject: 'Your learners import is complete: mail.csv',
      status: 'stored',
    });
    expect(outbox.json.data[0].text).toBe(
      [
        'Hello Test,',
        '',
        'The import of "mail.csv" is complete.',
        '',
        'Rows: 2',
        'Created: 1',
        'Updated: 0',
        'Skipped (unchanged): 0',
        'Failed: 1',
        '',
        'The rows that could not be imported, with their line and the reasons, are in the error report (kept for 30 days):',
        `/api/v1/learners/imports/${job.uuid}/errors`,
        '',
        `Import: /api/v1/learners/imports/${job.uuid}`,
        '',
      ].join('\n'),
    );
    // Exactly one mail, even when the runner sweeps again.
    await drainJobs(app);
    const again = await call(app, { method: 'GET', url: '/api/v1/users/me/outbox', headers });
    expect(again.json.meta.total).toBe(1);
  });
  it('takes header overrides (columns) and a default country for national phone numbers', async () => {
    const { company, headers } = await createSignedInUser(app);
    const file = csv([
      ['Nome', 'Cognome', 'Recapito', 'Telefono', 'Canali'],
      ['Mario', 'Bianchi', '333 111 2222', '06 555 1234', 'whatsapp'],
      ['Lucia', 'Verdi', '+39 333 111 3333', '', 'WhatsApp'],
    ]);
    const fields = { columns: JSON.stringify({ recapito: 'phone', telefono: 'ignore' }) };
    const job = await importFile(
      app,
      headers,
      { name: 'rubrica.csv', content: file },
      { ...fields, default_country: 'it' },
    );
    expect(job).toMatchObject({ status: 'completed', created: 2, failed: 0 });
    expect((await learnersOf(app, company.uuid)).map((learner) => learner.phone)).toEqual([
      '+393331112222',
      '+393331113333',
    ]);

    // Without a chosen country the national number is read as Italian (IMPORT_DEFAULT_COUNTRY):
    // the same learners again, nothing changed.
    const again = await importFile(app, headers, { name: 'rubrica.csv', content: file }, fields);
    expect(again).toMatchObject({ status: 'completed', failed: 0, skipped: 2 });

    const bad = await uploadImport(
      app,
      headers,
      { name: 'x.csv', content: file },
      {
        columns: '{"Recapito":"mobile"}',
        default_country: 'XX',
      },
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json.error.errors).toMatchObject({
      'columns.Recapito': [MESSAGES.importColumnMapInvalid],
      default_country: [MESSAGES.importDefaultCountryInvalid],
    });
  });
});
