import path from 'node:path';

import {
  BULK_IMPORT_MAX_LEARNERS,
  IMPORT_ERROR_REPORT_RETENTION_DAYS,
  IMPORT_TEMPLATE_HEADER,
  MESSAGES,
  UPLOAD_MAX_BYTES,
  ZImportJobResponseSchema,
  ZListImportJobsQuerySchema,
  ZListImportJobsResponseSchema,
  ZUuidSchema,
  encodeImportText,
} from '@ccp/schemas';
import type { FastifySchemaCompiler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { requestLanguage } from '../../../i18n/language.ts';
import { messageText } from '../../../i18n/messages.ts';
import { errorReportHeader, errorReportStream } from '../../../imports/error-report.ts';
import {
  LEARNERS_IMPORT_KIND,
  importPaths,
  importRowOptions,
  parseImportCheckpoint,
  parseImportOptions,
  serializeImportJob,
} from '../../../imports/options.ts';
import type { LearnersImportOptions } from '../../../imports/options.ts';
import { prescanImport } from '../../../imports/prescan.ts';
import { cancelJob, enqueueJob } from '../../../jobs/queue.ts';
import { AppError, notFound, validationError } from '../../../lib/app-error.ts';
import { isoNow } from '../../../lib/clock.ts';
import { newUuid } from '../../../lib/ids.ts';
import { offsetOf, pageRequest, paginated } from '../../../lib/pagination.ts';
import { isMultipart } from '../../../lib/multipart.ts';
import { authOf } from '../../../plugins/auth.ts';
import { readImportUpload } from './upload.ts';

// Bulk learner import (spec §4, §9; paths not shown in the spec, designed in docs/imports.md).

export type ImportsRoutesOptions = {
  /** Upload limit; UPLOAD_MAX_BYTES (700 MB) unless a test lowers it. */
  maxUploadBytes?: number | undefined;
};

const tags = ['learners imports'];
const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const jobParams = z.object({ jobUuid: ZUuidSchema });
// CSV answers (a string or a file stream): documented as text/csv, never serialised as JSON.
const csvBody = z.any().meta({ type: 'string', description: 'CSV, UTF-8' });

// The upload is multipart: the handler reads and checks it, the schema only documents it.
type RouteSchemaDef<T> = Parameters<FastifySchemaCompiler<T>>[0];
const bodyCheckedInHandler = <T>(route: RouteSchemaDef<T>) =>
  route.httpPart === 'body'
    ? (data: unknown) => ({ value: data })
    : validatorCompiler(route as unknown as RouteSchemaDef<z.ZodType>);

/**
 * `attachment` with the report's name for any upload name (RFC 6266 §4.3): an ASCII fallback in
 * `filename` and the real name, UTF-8 and percent-encoded, in `filename*` (RFC 8187). A name
 * above U+00FF (学習者リスト.csv) in a plain header was a 500 (ERR_INVALID_CHAR).
 */
export const reportDisposition = (fileName: string): string => {
  const name = `${path.parse(fileName).name.replace(/[^\p{L}\p{N} ._-]/gu, '_') || 'import'}-errors.csv`;
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return ascii === name
    ? `attachment; filename="${name}"`
    : `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
};

export const importsRoutes: FastifyPluginAsyncZod<ImportsRoutesOptions> = async (app, opts) => {
  const maxBytes = opts.maxUploadBytes ?? UPLOAD_MAX_BYTES;

  const findJob = async (companyUuid: string, uuid: string) => {
    const job = await app.db
      .selectFrom('jobs')
      .selectAll()
      .where('uuid', '=', uuid)
      .where('company_uuid', '=', companyUuid)
      .where('kind', '=', LEARNERS_IMPORT_KIND)
      .executeTakeFirst();
    if (!job) throw notFound();
    return job;
  };

  app.post(
    '/api/v1/learners/imports',
    {
      validatorCompiler: bodyCheckedInHandler,
      schema: {
        tags,
        summary: 'Upload a CSV or XLSX file of learners to import in the background',
        description: `multipart/form-data {file, list_uuid?, dry_run?, columns?, phone_countries?, default_country?, default_channels?, default_locale?}. The file (.csv or .xlsx, at most 700 MB; .xls is refused) is stored, then read once: a first row without the needed columns, broken CSV quoting, no rows or more than ${BULK_IMPORT_MAX_LEARNERS.toLocaleString('en')} rows answer 422 (errors.file); learners the file would add beyond the plan answer 402 with the limit. Nothing is written until then. Answers 202 with the queued job; poll GET …/imports/{jobUuid}. Rows are upserted by e-mail within the company (by phone when a row has no e-mail); every imported learner joins list_uuid when given; dry_run=true counts without writing. The requester is e-mailed the summary.`,
        consumes: ['multipart/form-data'],
        body: z.object({
          file: z
            .any()
            .meta({ type: 'string', format: 'binary', description: 'A .csv or .xlsx file.' }),
          list_uuid: z
            .string()
            .optional()
            .meta({ description: 'Learners list to add every imported learner to.' }),
          dry_run: z
            .string()
            .optional()
            .meta({ description: 'true: validate and count, write nothing.' }),
          columns: z.string().optional().meta({
            description:
              'JSON object of header overrides, {"Cellulare":"phone","Notes":"ignore"}: they win over the automatic matching of header names.',
          }),
          phone_countries: z.string().optional().meta({
            description:
              'JSON object of the country of national numbers per phone column, {"Mobile (Ireland)":"IE"}: it wins over the row\'s country column and default_country for that column. Each header must be a column of the file read as a phone (else 422 on phone_countries).',
          }),
          default_country: z.string().optional().meta({
            description:
              'ISO country of phone numbers written without their international prefix (IT when absent).',
          }),
          default_channels: z.string().optional().meta({
            description:
              'Comma-separated channels (slack,ms-teams) of rows without any; with it the file needs no channels column.',
          }),
          default_locale: z.string().optional().meta({
            description: 'Language (en, it, de) of rows without one.',
          }),
          encoding: z.string().optional().meta({
            description:
              'Text encoding of a CSV (utf-8, utf-16le, utf-16be, windows-1252); when absent, a BOM decides, else UTF-8 or Windows-1252 by the bytes. The error report is written in it.',
          }),
        }),
        response: { 202: ZImportJobResponseSchema },
      },
    },
    async (request, reply) => {
      const { user } = authOf(request);
      const companyUuid = user.company_uuid;
      if (!isMultipart(request))
        throw validationError({ file: [MESSAGES.learnerListFileRequired] });
      const uuid = newUuid();
      const upload = await readImportUpload(request, { files: app.files, uuid, maxBytes });
      const { file, fields, errors } = upload;
      let kept = false;
      try {
        let list: LearnersImportOptions['list'] = null;
        if (fields.list_uuid) {
          const row = await app.db
            .selectFrom('learners_lists')
            .select(['uuid', 'name'])
            .where('uuid', '=', fields.list_uuid)
            .where('company_uuid', '=', companyUuid)
            .executeTakeFirst();
          if (row) list = { uuid: row.uuid, name: row.name };
          else errors.list_uuid = [MESSAGES.learnersListUnknown];
        }
        if (!file || Object.keys(errors).length > 0) throw validationError(errors);

        const defaults = {
          ...(fields.default_country ? { default_country: fields.default_country } : {}),
          ...(fields.default_channels ? { default_channels: fields.default_channels } : {}),
          ...(fields.default_locale ? { default_locale: fields.default_locale } : {}),
        };
        const scan = await prescanImport(app.db, {
          path: file.staged.path,
          format: file.format,
          companyUuid,
          overrides: fields.columns,
          phoneCountries: fields.phone_countries,
          rowOptions: importRowOptions(defaults),
          encoding: fields.encoding,
        });
        const options: LearnersImportOptions = {
          file_name: file.fileName,
          format: file.format,
          delimiter: scan.delimiter,
          encoding: scan.encoding,
          header: scan.header,
          columns: scan.columns,
          ...defaults,
          list,
          dry_run: fields.dry_run ?? false,
          language: requestLanguage(request),
        };
        // Kept before the job is queued: any server may take the job at once.
        await file.staged.keep(file.format === 'csv' ? 'text/csv' : XLSX_CONTENT_TYPE);
        kept = true;
        const job = await enqueueJob(
          app.db,
          {
            uuid,
            company_uuid: companyUuid,
            user_uuid: user.uuid,
            kind: LEARNERS_IMPORT_KIND,
            total_rows: scan.totalRows,
            input_path: file.relativePath,
            error_report_path: importPaths(uuid, file.format).report,
            options: JSON.stringify(options),
          },
          isoNow(app.clock),
        );
        request.log.info(
          { job: uuid, rows: scan.totalRows, bytes: file.bytes, format: file.format },
          'learners import queued',
        );
        return reply.code(202).send({ data: serializeImportJob(job, requestLanguage(request)) });
      } catch (error) {
        if (kept) await app.files.remove(file!.relativePath);
        else if (file) await file.staged.discard();
        throw error;
      }
    },
  );

  app.get(
    '/api/v1/learners/imports',
    {
      schema: {
        tags,
        summary: 'Learner imports of the company, newest first, paginated',
        querystring: ZListImportJobsQuerySchema,
        response: { 200: ZListImportJobsResponseSchema },
      },
    },
    async (request) => {
      const companyUuid = authOf(request).user.company_uuid;
      const page = pageRequest(request.query);
      const base = app.db
        .selectFrom('jobs')
        .where('company_uuid', '=', companyUuid)
        .where('kind', '=', LEARNERS_IMPORT_KIND);
      const [countRow, rows] = await Promise.all([
        base.select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow(),
        base
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('uuid')
          .limit(page.perPage)
          .offset(offsetOf(page))
          .execute(),
      ]);
      const lang = requestLanguage(request);
      return paginated(
        rows.map((row) => serializeImportJob(row, lang)),
        Number(countRow.count),
        page,
        request.url,
      );
    },
  );

  app.get(
    '/api/v1/learners/imports/template',
    {
      schema: {
        tags,
        summary: 'The CSV template: the header an import file starts with',
        response: { 200: csvBody },
        'x-media': { 200: 'text/csv' },
      },
    },
    async (_request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="learners-import-template.csv"')
        .send(`${IMPORT_TEMPLATE_HEADER}\r\n`),
  );

  app.get(
    '/api/v1/learners/imports/:jobUuid',
    {
      schema: {
        tags,
        summary: 'One learner import: status and counts',
        params: jobParams,
        response: { 200: ZImportJobResponseSchema },
      },
    },
    async (request) => {
      const job = await findJob(authOf(request).user.company_uuid, request.params.jobUuid);
      return { data: serializeImportJob(job, requestLanguage(request)) };
    },
  );

  app.get(
    '/api/v1/learners/imports/:jobUuid/errors',
    {
      schema: {
        tags,
        summary: 'The error report: one CSV line per failed row with its line, reasons and cells',
        description: `Columns: line, errors (reasons joined by " | "), then the file’s own columns. The delimiter is the file’s. While the import runs, the report holds the rows processed so far. It is kept for ${IMPORT_ERROR_REPORT_RETENTION_DAYS} days after the import ends; then this answers 404.`,
        params: jobParams,
        response: { 200: csvBody },
        'x-media': { 200: 'text/csv' },
      },
    },
    async (request, reply) => {
      const job = await findJob(authOf(request).user.company_uuid, request.params.jobUuid);
      // Rows failed but the path is gone: the purge deleted the report (jobs/purge.ts).
      if (job.failed > 0 && !job.error_report_path) {
        throw notFound(
          messageText('importErrorReportExpired', { days: IMPORT_ERROR_REPORT_RETENTION_DAYS }),
        );
      }
      const options = parseImportOptions(job.options);
      const encoding = options.encoding ?? 'utf-8';
      const header = errorReportHeader(options.header, options.delimiter, encoding);
      reply
        .type(`text/csv; charset=${encoding}`)
        .header('content-disposition', reportDisposition(options.file_name));
      if (!job.error_report_path)
        return reply.send(Buffer.from(encodeImportText(header, encoding)));
      // Only what a committed batch covers: a running job may have stored more.
      const checkpoint = parseImportCheckpoint(job.checkpoint);
      const report = { uuid: job.uuid, error_report_path: job.error_report_path };
      return reply.send(errorReportStream(app.files, report, checkpoint, header, encoding));
    },
  );

  app.post(
    '/api/v1/learners/imports/:jobUuid/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel a queued or running import (rows already imported stay)',
        params: jobParams,
        response: { 200: ZImportJobResponseSchema },
      },
    },
    async (request) => {
      const companyUuid = authOf(request).user.company_uuid;
      const job = await findJob(companyUuid, request.params.jobUuid);
      if (!(await cancelJob(app.db, job.uuid, isoNow(app.clock)))) {
        throw new AppError('VALIDATION_FAILED', MESSAGES.importNotCancelable);
      }
      return {
        data: serializeImportJob(await findJob(companyUuid, job.uuid), requestLanguage(request)),
      };
    },
  );
};
