import { describe, expect, it } from 'vitest';

import {
  IMPORT_TEMPLATE_HEADER,
  ZImportJobSchema,
  ZImportUploadFieldsSchema,
  fillMessage,
  matchImportHeader,
  normalizeHeaderName,
} from './imports.ts';
import { MESSAGES } from './messages.ts';

describe('import header matching', () => {
  it.each([
    ['First name', 'firstname'],
    [' E-mail ', 'email'],
    ['Phone_Number', 'phonenumber'],
    ['Kanäle', 'kanale'],
    ['Prénom', 'prenom'],
  ])('normalizes %j to %j', (name, normalized) => {
    expect(normalizeHeaderName(name)).toBe(normalized);
  });

  it('finds the columns by their names and aliases, in any case and order', () => {
    expect(
      matchImportHeader([
        'Notes',
        'E-Mail',
        'SURNAME',
        'First Name',
        'Language',
        'Canali',
        'Mobile',
      ]),
    ).toMatchObject({
      columns: { email: 1, last_name: 2, first_name: 3, locale: 4, channels: 5, phone: 6 },
      problems: [],
    });
    expect(matchImportHeader(IMPORT_TEMPLATE_HEADER.split(','))).toMatchObject({
      columns: { first_name: 0, last_name: 1, email: 2, phone: 3, channels: 4, locale: 5 },
      problems: [],
    });
  });

  it('accepts a file with a phone column and no e-mail column', () => {
    expect(matchImportHeader(['Nome', 'Cognome', 'Telefono', 'Canale']).problems).toEqual([]);
  });

  it('names the missing columns, a missing contact column and repeated columns', () => {
    expect(matchImportHeader(['email', 'locale']).problems).toEqual([
      'The file has no column for: first_name, last_name. Its first row must name the columns, as in the template.',
      // Issue 26: a missing channels column names its fix, the file's default channel.
      'The file has no column for: channels. Map a column to the channels, or choose a default channel for the file.',
    ]);
    expect(matchImportHeader(['first_name', 'last_name', 'channels']).problems).toEqual([
      MESSAGES.importContactColumnMissing,
    ]);
    expect(
      matchImportHeader(['first_name', 'Vorname', 'last_name', 'email', 'channels']).problems,
    ).toEqual(['The column Vorname appears more than once in the first row.']);
  });
});

describe('fillMessage', () => {
  it('fills named placeholders and leaves unknown ones', () => {
    expect(fillMessage(MESSAGES.importRowDuplicate, { field: 'email', line: 12 })).toBe(
      'The email is already on line 12 of this file.',
    );
    expect(fillMessage('a {{b}} {{c}}', { b: 1 })).toBe('a 1 {{c}}');
  });
});

describe('the upload fields', () => {
  it('reads the list and the dry-run flag as multipart sends them', () => {
    expect(
      ZImportUploadFieldsSchema.parse({
        list_uuid: ' 0b7c6a4e-5d1f-4c2a-9e3b-8f6d2a1c4e5f ',
        dry_run: 'true',
      }),
    ).toEqual({ list_uuid: '0b7c6a4e-5d1f-4c2a-9e3b-8f6d2a1c4e5f', dry_run: true });
    expect(ZImportUploadFieldsSchema.parse({ list_uuid: '', dry_run: '0' })).toEqual({
      list_uuid: undefined,
      dry_run: false,
    });
    expect(ZImportUploadFieldsSchema.parse({})).toEqual({});
  });

  it('refuses a list that is not a uuid and a flag that is not a boolean', () => {
    const result = ZImportUploadFieldsSchema.safeParse({ list_uuid: 'list-1', dry_run: 'maybe' });
    expect(result.success).toBe(false);
    const issues = result.error!.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(issues).toContainEqual(['list_uuid', MESSAGES.learnersListUnknown]);
    expect(issues.map(([path]) => path)).toContain('dry_run');
  });
});

describe('the import job', () => {
  const job = {
    uuid: '0b7c6a4e-5d1f-4c2a-9e3b-8f6d2a1c4e5f',
    kind: 'learners_import',
    status: 'running',
    file_name: 'learners.csv',
    format: 'csv',
    dry_run: false,
    learners_list: null,
    total_rows: 10,
    processed_rows: 5,
    created: 3,
    updated: 1,
    skipped: 0,
    failed: 1,
    warned: 0,
    progress: 50,
    error_summary: null,
    error_report_url: null,
    user_uuid: null,
    created_at: '2026-11-22T09:00:00.000Z',
    started_at: '2026-11-22T09:00:01.000Z',
    finished_at: null,
  };

  it('parses the wire shape', () => {
    expect(ZImportJobSchema.parse(job)).toEqual(job);
  });

  it('refuses an unknown status or format', () => {
    expect(ZImportJobSchema.safeParse({ ...job, status: 'paused' }).success).toBe(false);
    expect(ZImportJobSchema.safeParse({ ...job, format: 'xls' }).success).toBe(false);
  });
});
