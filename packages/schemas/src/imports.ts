import { z } from 'zod';

import {
  ZBooleanishSchema,
  ZPageQuerySchema,
  ZTimestampSchema,
  ZUuidSchema,
  dataEnvelope,
  paginatedEnvelope,
} from './common.ts';
import { LEARNER_IMPORT_TYPES } from './constants.ts';
import { ZLearnerListRefSchema } from './learner.ts';
import { MESSAGES } from './messages.ts';

// The bulk learner import (spec §4 "Bulk import runs in the background; the user is e-mailed when
// finished", §9 up to 100K learners) and the jobs that run it, plus the mail outbox a local user
// reads to see what would have been e-mailed.

export const JOB_STATUSES = ['queued', 'running', 'completed', 'failed', 'canceled'] as const;
export type TJobStatus = (typeof JOB_STATUSES)[number];
/** Statuses a job never leaves. */
export const FINISHED_JOB_STATUSES: readonly TJobStatus[] = ['completed', 'failed', 'canceled'];

/** One CSV record may hold at most this many bytes, so a broken quote cannot swallow the file. */
export const IMPORT_MAX_RECORD_BYTES = 64 * 1024;

/** The columns of an import file, in the template's order. */
export const IMPORT_COLUMNS = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'channels',
  'locale',
] as const;
export type TImportColumn = (typeof IMPORT_COLUMNS)[number];
/** Columns a file must have; it also needs `email` or `phone`. */
export const IMPORT_REQUIRED_COLUMNS: readonly TImportColumn[] = [
  'first_name',
  'last_name',
  'channels',
];

/** The template's first line. */
export const IMPORT_TEMPLATE_HEADER = IMPORT_COLUMNS.join(',');

/**
 * Header names a column is recognised by, after normalizeHeaderName (lowercase, no accents, only
 * letters and digits): the template's own names, what spreadsheets and CRMs export, and the
 * Italian and German words for them.
 */
export const IMPORT_COLUMN_ALIASES: Record<TImportColumn, readonly string[]> = {
  first_name: ['firstname', 'first', 'givenname', 'forename', 'name', 'nome', 'vorname'],
  last_name: ['lastname', 'last', 'surname', 'familyname', 'cognome', 'nachname', 'familienname'],
  email: ['email', 'emailaddress', 'mail', 'emailadresse', 'indirizzoemail', 'postaelettronica'],
  phone: [
    'phone',
    'phonenumber',
    'mobile',
    'mobilephone',
    'mobilenumber',
    'cellphone',
    'telephone',
    'tel',
    'whatsapp',
    'whatsappnumber',
    'telefono',
    'cellulare',
    'numeroditelefono',
    'telefon',
    'telefonnummer',
    'handy',
    'mobilnummer',
  ],
  channels: ['channels', 'channel', 'canali', 'canale', 'kanale', 'kanal'],
  locale: ['locale', 'language', 'lang', 'preferredlanguage', 'lingua', 'sprache'],
};

/** `"E-mail "` → `email`, `First Name` → `firstname`, `Kanäle` → `kanale`. */
export const normalizeHeaderName = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

const columnByAlias = new Map<string, TImportColumn>(
  IMPORT_COLUMNS.flatMap((column) =>
    IMPORT_COLUMN_ALIASES[column].map((alias) => [alias, column] as const),
  ),
);

export type TImportHeader = {
  /** Index of each recognised column in the row. */
  columns: Partial<Record<TImportColumn, number>>;
  /** Problems that make the file unusable; empty when it can be imported. */
  problems: string[];
};

/** Fills `{{name}}` placeholders of a message. */
export const fillMessage = (text: string, values: Record<string, string | number>): string =>
  text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );

/**
 * Matches a file's first row to the import columns, case-insensitively and by alias; other
 * columns are ignored. Shared by the API and the CLI (which checks a file before uploading it).
 */
export const matchImportHeader = (cells: readonly string[]): TImportHeader => {
  const columns: Partial<Record<TImportColumn, number>> = {};
  const problems: string[] = [];
  cells.forEach((cell, index) => {
    const column = columnByAlias.get(normalizeHeaderName(cell));
    if (!column) return;
    if (columns[column] === undefined) columns[column] = index;
    else problems.push(fillMessage(MESSAGES.importColumnDuplicate, { column: cell.trim() }));
  });
  const missing = IMPORT_REQUIRED_COLUMNS.filter((column) => columns[column] === undefined);
  if (missing.length > 0) {
    problems.push(fillMessage(MESSAGES.importColumnsMissing, { columns: missing.join(', ') }));
  }
  if (columns.email === undefined && columns.phone === undefined) {
    problems.push(MESSAGES.importContactColumnMissing);
  }
  return { columns, problems };
};

// ---------------------------------------------------------------------------------------------
// The import job as the API returns it.

export const ZImportJobSchema = z.object({
  uuid: ZUuidSchema,
  kind: z.string(),
  status: z.enum(JOB_STATUSES),
  file_name: z.string(),
  format: z.enum(LEARNER_IMPORT_TYPES),
  /** A dry run validates and counts but writes no learner. */
  dry_run: z.boolean(),
  /** The list every imported learner is added to, if one was chosen. */
  learners_list: ZLearnerListRefSchema.nullable(),
  /** Data rows in the file (the header and blank rows not counted). */
  total_rows: z.number().int(),
  processed_rows: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  /** processed_rows / total_rows, 0 to 100. */
  progress: z.number(),
  error_summary: z.string().nullable(),
  /** The CSV of the failed rows (their line, the reasons and the original columns), if any. */
  error_report_url: z.string().nullable(),
  user_uuid: z.string().nullable(),
  created_at: z.string(),
  started_at: ZTimestampSchema,
  finished_at: ZTimestampSchema,
});
export type TImportJob = z.infer<typeof ZImportJobSchema>;

export const ZImportJobResponseSchema = dataEnvelope(ZImportJobSchema);
export const ZListImportJobsResponseSchema = paginatedEnvelope(ZImportJobSchema);
export const ZListImportJobsQuerySchema = ZPageQuerySchema;
export type TListImportJobsQuery = z.input<typeof ZListImportJobsQuerySchema>;

/**
 * The text fields of the multipart upload (beside `file`): the target list and the dry-run flag.
 * An empty list_uuid means none.
 */
export const ZImportUploadFieldsSchema = z.object({
  list_uuid: z
    .string()
    .trim()
    .transform((value) => value || undefined)
    .pipe(z.uuid({ error: MESSAGES.learnersListUnknown }).optional())
    .optional(),
  dry_run: ZBooleanishSchema.optional(),
});
export type TImportUploadFields = z.output<typeof ZImportUploadFieldsSchema>;

// ---------------------------------------------------------------------------------------------
// The mail outbox: every e-mail the server sent (or, without SMTP, would have sent) to the caller.

export const MAIL_STATUSES = ['stored', 'pending', 'sent', 'failed'] as const;

export const ZOutboxMailSchema = z.object({
  uuid: ZUuidSchema,
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  /**
   * `stored`: no SMTP server is configured, the mail is only here; `pending`: being sent;
   * `sent`; `failed`: the SMTP server refused it (see `error`).
   */
  status: z.string(),
  error: z.string().nullable(),
  created_at: z.string(),
  sent_at: ZTimestampSchema,
});
export type TOutboxMail = z.infer<typeof ZOutboxMailSchema>;

export const ZListOutboxResponseSchema = paginatedEnvelope(ZOutboxMailSchema);
export const ZListOutboxQuerySchema = ZPageQuerySchema;
