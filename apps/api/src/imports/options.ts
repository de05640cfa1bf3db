import { JOB_STATUSES, LEARNER_IMPORT_TYPES } from '@ccp/schemas';
import type {
  TChannelKey,
  TImportEncoding,
  TImportJob,
  TImportRowOptions,
  TJobStatus,
  TLocale,
} from '@ccp/schemas';

import type { JobsTable } from '../db/types.ts';
import { localizeMessage } from '../i18n/messages.ts';
import { errorReportFolder } from './error-report.ts';
import type { ColumnMap } from './rows.ts';
import type { CsvDelimiter, ImportFormat } from './reader.ts';

// What a learners import job stores in its `options` and `checkpoint` columns, and its wire shape.

export const LEARNERS_IMPORT_KIND = 'learners_import';

export type LearnersImportOptions = {
  file_name: string;
  format: ImportFormat;
  delimiter: CsvDelimiter;
  /** The CSV's text encoding (chosen or guessed at upload); absent on older jobs: UTF-8. */
  encoding?: TImportEncoding;
  /** The file's first row as it came. */
  header: string[];
  columns: ColumnMap;
  /** ISO country of phone numbers written without their international prefix (upload field). */
  default_country?: string;
  /** Channels of rows without any (upload field default_channels). */
  default_channels?: TChannelKey[];
  /** Language of rows without one (upload field default_locale). */
  default_locale?: TLocale;
  list: { uuid: string; name: string } | null;
  dry_run: boolean;
  /**
   * The language of the request that started the import: its mail and error report are written
   * in it (there is no user language yet). Absent on jobs queued before it was kept: English.
   */
  language?: TLocale;
};

/** The row defaults of an import (country, channels, language), as the shared row check takes them. */
export const importRowOptions = (
  options: Pick<LearnersImportOptions, 'default_country' | 'default_channels' | 'default_locale'>,
): TImportRowOptions => ({
  defaultCountry: options.default_country,
  defaultChannels: options.default_channels,
  defaultLocale: options.default_locale,
});

/**
 * The last data row committed, its line, the error report's committed size, and the rows stored
 * with a warning so far (in the report too; absent on older jobs).
 */
export type LearnersImportCheckpoint = {
  row: number;
  line: number;
  error_bytes: number;
  warned?: number;
};

export const parseImportOptions = (text: string): LearnersImportOptions =>
  JSON.parse(text) as LearnersImportOptions;

export const parseImportCheckpoint = (text: string | null): LearnersImportCheckpoint =>
  text ? (JSON.parse(text) as LearnersImportCheckpoint) : { row: 0, line: 0, error_bytes: 0 };

/** The input file and the report's folder, as keys of the file store. */
export const importPaths = (uuid: string, format: ImportFormat) => ({
  input: `imports/${uuid}.${format}`,
  report: errorReportFolder(uuid),
});

export const importJobUrl = (uuid: string) => `/api/v1/learners/imports/${uuid}`;

const oneOf = <T extends string>(values: readonly T[], value: string, fallback: T): T =>
  (values as readonly string[]).includes(value) ? (value as T) : fallback;

/** The job as the API returns it, its error summary in `lang`. */
export const serializeImportJob = (job: JobsTable, lang: TLocale = 'en'): TImportJob => {
  const options = parseImportOptions(job.options);
  const warned = parseImportCheckpoint(job.checkpoint).warned ?? 0;
  const progress =
    job.total_rows > 0
      ? Math.min(100, Math.round((job.processed_rows / job.total_rows) * 1000) / 10)
      : 0;
  return {
    uuid: job.uuid,
    kind: job.kind,
    status: oneOf<TJobStatus>(JOB_STATUSES, job.status, 'queued'),
    file_name: options.file_name,
    format: oneOf(LEARNER_IMPORT_TYPES, options.format, 'csv'),
    dry_run: options.dry_run,
    learners_list: options.list,
    total_rows: job.total_rows,
    processed_rows: job.processed_rows,
    created: job.created,
    updated: job.updated,
    skipped: job.skipped,
    failed: job.failed,
    warned,
    progress,
    error_summary: job.error_summary === null ? null : localizeMessage(job.error_summary, lang),
    error_report_url:
      (job.failed > 0 || warned > 0) && job.error_report_path
        ? `${importJobUrl(job.uuid)}/errors`
        : null,
    user_uuid: job.user_uuid,
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
  };
};
