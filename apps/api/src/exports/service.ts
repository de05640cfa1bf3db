import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';

import {
  CSV_SEPARATORS,
  EXPORT_CONTENT_TYPE,
  EXPORT_DELIMITERS,
  EXPORT_TYPE_DISPLAY_NAMES,
  MESSAGES,
  exportDownloadPath,
} from '@ccp/schemas';
import type { TExport, TExportFormatQuery, TExportType, TLocale } from '@ccp/schemas';
import type { FastifyInstance } from 'fastify';

import { romeDate } from '../analytics/period.ts';
import type { ExportsTable } from '../db/types.ts';
import { localizeMessage } from '../i18n/messages.ts';
import { AppError } from '../lib/app-error.ts';
import { isoNow } from '../lib/clock.ts';
import { newUuid } from '../lib/ids.ts';
import { sendMail } from '../lib/mail.ts';
import type { MailApp } from '../lib/mail.ts';
import { createCsvWriter } from './csv.ts';
import type { CsvStyle } from './csv.ts';
import { PRODUCERS } from './producers.ts';

// Producing, storing, mailing and reading exports. Files live in the file store (storage/) under
// exports/<uuid>.csv; the `exports` row keeps the name the user downloads it under.

// The app itself in practice: sendMail finds the SMTP sender among its decorators.
type App = Pick<FastifyInstance, 'db' | 'clock' | 'dataDir' | 'files'> & MailApp;

export type ExportCourse = { uuid: string; name: string; company_uuid: string };
export type ExportUser = { uuid: string; email: string; first_name: string };

const EXPORTS_DIR = 'exports';

/** `Négociation: les bases` → `negociation-les-bases`. */
export const slugOf = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'course';

const fileNameOf = (type: TExportType, course: ExportCourse, now: Date) =>
  `${slugOf(EXPORT_TYPE_DISPLAY_NAMES[type])}-${slugOf(course.name)}-${romeDate(now)}.csv`;

/** The file's style: a spreadsheet's by the language (the default), or plain for a program. */
export const csvStyleOf = (language: TLocale, format: TExportFormatQuery = {}): CsvStyle => {
  const plain = format.format === 'plain';
  const fallback = plain ? ',' : CSV_SEPARATORS[language];
  return {
    separator: format.delimiter ? EXPORT_DELIMITERS[format.delimiter] : fallback,
    spreadsheet: !plain,
  };
};

/** Writes the CSV of an export to `file`; answers the number of data rows. */
const writeCsv = async (
  app: App,
  {
    type,
    course,
    language,
    format,
  }: { type: TExportType; course: ExportCourse; language: TLocale; format?: TExportFormatQuery },
  file: string,
) => {
  const producer = PRODUCERS[type];
  await mkdir(path.dirname(file), { recursive: true });
  const writer = await createCsvWriter(file, producer.columns, csvStyleOf(language, format));
  try {
    const rows = await producer.write(
      app.db,
      { companyUuid: course.company_uuid, courseUuid: course.uuid },
      writer,
      app.clock.now(),
    );
    await writer.close();
    return rows;
  } catch (error) {
    await writer.abort();
    await rm(file, { force: true });
    throw error;
  }
};

const toExport = (row: Pick<ExportsTable, 'uuid' | 'type' | 'type_display_name' | 'status'>) =>
  ({
    export_id: row.uuid,
    type: row.type,
    type_display_name: row.type_display_name,
    status: row.status,
  }) as TExport;

/**
 * Produces an export of a course and stores it (`exports` row + file), streaming the rows.
 * The row is `pending` while the file is written, then `ready` (or `failed`, and the error is
 * rethrown).
 */
export const createExport = async (
  app: App,
  {
    type,
    course,
    user,
    language,
    format,
  }: {
    type: TExportType;
    course: ExportCourse;
    user: ExportUser;
    /** The requester's language: its spreadsheet's separator (`CSV_SEPARATORS`). */
    language: TLocale;
    /** `?format=plain&delimiter=…` of the request (ZExportFormatQuerySchema). */
    format?: TExportFormatQuery;
  },
): Promise<TExport & { file_name: string; file_path: string }> => {
  const uuid = newUuid();
  const now = app.clock.now();
  const filePath = `${EXPORTS_DIR}/${uuid}.csv`;
  const row = {
    uuid,
    company_uuid: course.company_uuid,
    user_uuid: user.uuid,
    course_uuid: course.uuid,
    type,
    type_display_name: EXPORT_TYPE_DISPLAY_NAMES[type],
    file_name: fileNameOf(type, course, now),
    content_type: EXPORT_CONTENT_TYPE,
    file_path: filePath,
    status: 'pending',
    rows: 0,
    created_at: now.toISOString(),
    completed_at: null,
  };
  await app.db.insertInto('exports').values(row).execute();
  try {
    const staged = await app.files.stage(filePath);
    const rows = await writeCsv(app, { type, course, language, format }, staged.path);
    await staged.keep(EXPORT_CONTENT_TYPE);
    await app.db
      .updateTable('exports')
      .set({ status: 'ready', rows, completed_at: isoNow(app.clock) })
      .where('uuid', '=', uuid)
      .execute();
  } catch (error) {
    await app.db
      .updateTable('exports')
      .set({ status: 'failed' })
      .where('uuid', '=', uuid)
      .execute();
    throw error;
  }
  return {
    ...toExport({ ...row, status: 'ready' }),
    file_name: row.file_name,
    file_path: filePath,
  };
};

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (match, key: string) => values[key] ?? match);

/**
 * E-mails the requester a link to the web app's download page of the export, in the language of
 * the request that asked for it (there is no user language yet).
 */
export const mailExportReady = async (
  app: App,
  {
    exportId,
    type,
    course,
    user,
    origin,
    language = 'en',
  }: {
    exportId: string;
    type: TExportType;
    course: ExportCourse;
    user: ExportUser;
    /** The web app's origin, e.g. https://ccp.example.com. */
    origin: string;
    language?: TLocale;
  },
): Promise<string> => {
  const url = `${origin}${exportDownloadPath(exportId)}`;
  const values = {
    name: user.first_name,
    export: localizeMessage(EXPORT_TYPE_DISPLAY_NAMES[type], language),
    course: course.name,
    url,
  };
  const template = localizeMessage(MESSAGES.exportMailText, language);
  const text = fill(template, values);
  const html = fill(
    escapeHtml(template).replace(/\n/g, '<br>'),
    Object.fromEntries(
      Object.entries(values).map(([key, value]) => [
        key,
        key === 'url'
          ? `<a href="${escapeHtml(value)}">${escapeHtml(value)}</a>`
          : escapeHtml(value),
      ]),
    ),
  );
  return sendMail(app, {
    to: user.email,
    subject: localizeMessage(MESSAGES.exportMailSubject, language),
    text,
    html,
    companyUuid: course.company_uuid,
  });
};

/** The statistics CSV of a course, produced now and not stored, as base64. */
export const courseCsvBase64 = async (app: App, course: ExportCourse, language: TLocale) => {
  const file = path.join(app.dataDir, EXPORTS_DIR, `tmp-${newUuid()}.csv`);
  try {
    await writeCsv(app, { type: 'course', course, language }, file);
    return {
      base64: (await readFile(file)).toString('base64'),
      file_name: fileNameOf('course', course, app.clock.now()),
      content_type: EXPORT_CONTENT_TYPE,
    };
  } finally {
    await rm(file, { force: true });
  }
};

/**
 * A stored export with its file as base64. Unknown → 404 EXPORT_NOT_FOUND; another company's
 * → 403 NO_PRIVILEGES (spec §6); not ready → 409.
 */
export const readExport = async (app: App, companyUuid: string, exportId: string) => {
  const row = await app.db
    .selectFrom('exports')
    .selectAll()
    .where('uuid', '=', exportId)
    .executeTakeFirst();
  if (!row) throw new AppError('EXPORT_NOT_FOUND', MESSAGES.exportNotFound);
  if (row.company_uuid !== companyUuid) {
    throw new AppError('NO_PRIVILEGES', MESSAGES.exportNoPrivileges);
  }
  if (row.status !== 'ready' || !row.file_path) {
    throw new AppError('CONFLICT', MESSAGES.exportNotReady);
  }
  // The API answers the file as base64 in JSON (spec §6): read whole, one export at a time.
  const stored = await app.files.read(row.file_path);
  if (!stored) throw new AppError('EXPORT_NOT_FOUND', MESSAGES.exportNotFound);
  const chunks: Buffer[] = [];
  for await (const chunk of stored.stream) chunks.push(chunk as Buffer);
  const content = Buffer.concat(chunks);
  const { export_id, type, type_display_name } = toExport(row);
  return {
    file_content: content.toString('base64'),
    file_name: row.file_name,
    content_type: row.content_type,
    export_id,
    type,
    type_display_name,
  };
};
