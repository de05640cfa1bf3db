import { z } from 'zod';

import {
  ZBooleanishSchema,
  ZPageQuerySchema,
  ZTimestampSchema,
  ZUuidSchema,
  dataEnvelope,
  paginatedEnvelope,
} from './common.ts';
import { LEARNER_IMPORT_TYPES, LOCALES } from './constants.ts';
import type { TChannelKey } from './constants.ts';
import { ZLearnerListRefSchema, toChannelKey } from './learner.ts';
import { ZImportColumnOverridesSchema } from './import-columns.ts';
import { ZImportPhoneCountriesSchema } from './import-phone.ts';
import { importEncodingOf } from './import-encoding.ts';
import { localeOfName } from './locale.ts';
import { MESSAGES } from './messages.ts';
import { isKnownCountry } from './phone-country.ts';

// The bulk learner import (spec §4 "Bulk import runs in the background; the user is e-mailed when
// finished", §9 up to 100K learners) and the jobs that run it, plus the mail outbox a local user
// reads to see what would have been e-mailed.

export const JOB_STATUSES = ['queued', 'running', 'completed', 'failed', 'canceled'] as const;
export type TJobStatus = (typeof JOB_STATUSES)[number];
/** Statuses a job never leaves. */
export const FINISHED_JOB_STATUSES: readonly TJobStatus[] = ['completed', 'failed', 'canceled'];

/** One CSV record may hold at most this many bytes, so a broken quote cannot swallow the file. */
export const IMPORT_MAX_RECORD_BYTES = 64 * 1024;

export * from './import-columns.ts';
export * from './import-rows.ts';
export * from './import-phone.ts';

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
  /** Rows stored with a warning (a landline for WhatsApp), listed in the error report too. */
  warned: z.number().int(),
  /** processed_rows / total_rows, 0 to 100. */
  progress: z.number(),
  error_summary: z.string().nullable(),
  /**
   * The CSV of the failed rows and the rows stored with a warning (their line, the reasons and
   * the original columns), if any.
   */
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
  /** Header overrides as JSON, `{"Cellulare":"phone"}` (see matchImportHeader). */
  columns: z
    .string()
    .trim()
    .transform((value, ctx) => {
      if (value === '') return undefined;
      try {
        return JSON.parse(value) as unknown;
      } catch {
        ctx.issues.push({ code: 'custom', message: MESSAGES.importColumnMapInvalid, input: value });
        return z.NEVER;
      }
    })
    .pipe(ZImportColumnOverridesSchema.optional())
    .optional(),
  /**
   * The country of national numbers of single phone columns as JSON, `{"Mobile (Ireland)":"IE"}`
   * (see applyImportPhoneCountries): it wins over the row's country column and default_country.
   */
  phone_countries: z
    .string()
    .trim()
    .transform((value, ctx) => {
      if (value === '') return undefined;
      try {
        return JSON.parse(value) as unknown;
      } catch {
        ctx.issues.push({
          code: 'custom',
          message: MESSAGES.importPhoneCountriesInvalid,
          input: value,
        });
        return z.NEVER;
      }
    })
    .pipe(ZImportPhoneCountriesSchema.optional())
    .optional(),
  /** ISO country of phone numbers written without their international prefix. */
  default_country: z
    .string()
    .trim()
    .toUpperCase()
    .transform((value) => value || undefined)
    .refine((value) => value === undefined || isKnownCountry(value), {
      error: MESSAGES.importDefaultCountryInvalid,
    })
    .optional(),
  /**
   * Channels of rows without any (no channels column, or an empty cell), comma-separated:
   * `slack,ms-teams`. With it, the file needs no channels column.
   */
  default_channels: z
    .string()
    .trim()
    .transform((value, ctx) => {
      const keys: TChannelKey[] = [];
      for (const part of value.split(',')) {
        if (part.trim() === '') continue;
        const key = toChannelKey(part);
        if (!key) {
          ctx.issues.push({ code: 'custom', message: MESSAGES.channelUnknown, input: value });
          return z.NEVER;
        }
        if (!keys.includes(key)) keys.push(key);
      }
      return keys.length > 0 ? keys : undefined;
    })
    .optional(),
  /** Language of rows without one (no language column, or an empty cell). */
  default_locale: z
    .string()
    .trim()
    .transform((value) => (value ? (localeOfName(value) ?? value.toLowerCase()) : undefined))
    .pipe(z.enum(LOCALES, { error: MESSAGES.localeInvalid }).optional())
    .optional(),
  /** Text encoding of a CSV (utf-8, utf-16le, utf-16be, windows-1252); guessed when absent. */
  encoding: z
    .string()
    .trim()
    .transform((value, ctx) => {
      if (value === '') return undefined;
      const encoding = importEncodingOf(value);
      if (!encoding) {
        ctx.issues.push({ code: 'custom', message: MESSAGES.importEncodingInvalid, input: value });
        return z.NEVER;
      }
      return encoding;
    })
    .optional(),
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
