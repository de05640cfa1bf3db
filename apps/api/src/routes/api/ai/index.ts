import { writeFile } from 'node:fs/promises';
import path from 'node:path';

import {
  AI_IMPORT_TYPES,
  AI_PROMPTS,
  AI_PROMPT_IDS,
  MESSAGES,
  ZAiCourseResultResponseSchema,
  ZAiImportFieldsSchema,
  ZAiImportJobParamsSchema,
  ZAiImportJobResponseSchema,
  ZAiLessonsRequestSchema,
  ZAiLessonsResponseSchema,
  ZAiPromptsResponseSchema,
  ZAiTranslateRequestSchema,
  ZClassroomCoursesParamsSchema,
  ZCourseParamsSchema,
  publishCheck,
  toPublishCourse,
  EDITABLE_COURSE_STATUSES,
} from '@ccp/schemas';
import type { TAiGenerator, TFieldErrors, TLesson, TLessonInput, TLocale } from '@ccp/schemas';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { isDocumentType } from '../../../ai/extract.ts';
import { runHelpers } from '../../../ai/helpers.ts';
import {
  contentProblems,
  documentBlocks,
  registerAiRuntime,
  reserveAiUse,
} from '../../../ai/import-course.ts';
import { serializeAiImportJob } from '../../../ai/import-job.ts';
import { AI_IMPORT_KIND, assertAiImportWithinPlan } from '../../../ai/plan.ts';
import type { TAiImportJobOptions } from '../../../ai/import-job.ts';
import { createAiProvider } from '../../../ai/provider.ts';
import type { TAiProvider } from '../../../ai/provider.ts';
import { withProviderErrors } from '../../../ai/provider-errors.ts';
import { resolveAiSettings } from '../../../ai/settings.ts';
import type { TAiSettingsInput } from '../../../ai/settings.ts';
import { translateLessons } from '../../../ai/translate.ts';
import { readImportForm, removeUpload } from '../../../ai/upload.ts';
import type { TImportUpload } from '../../../ai/upload.ts';
import { cancelJob, enqueueJob, wakeJobRunners } from '../../../jobs/queue.ts';
import { isoNow } from '../../../lib/clock.ts';
import { requestLanguage } from '../../../i18n/language.ts';
import { syncCourseDelivery } from '../../../delivery/enrolment.ts';
import { AppError, notFound, validationError } from '../../../lib/app-error.ts';
import { withCompanyLock } from '../../../lib/company-lock.ts';
import type { CoursesTable } from '../../../db/types.ts';
import { newUuid } from '../../../lib/ids.ts';
import { isMultipart } from '../../../lib/multipart.ts';
import { authOf } from '../../../plugins/auth.ts';
import {
  findClassroom,
  findCourse,
  loadCourse,
  replaceCourseContent,
} from '../../../courses/courses-repository.ts';

// The AI transformer and translator (spec §7 "AI"; the import and translation paths are ours):
// the writing helpers, a document, video or audio file turned into a draft course (a background
// job: ai/import-job.ts), and a course's lessons translated into another language.

const TAGS = ['ai'];

/** A translation the plan has allowed: the course as read, what to translate and into what. */
type TTranslation = {
  provider: TAiProvider;
  course: Awaited<ReturnType<typeof loadCourse>>;
  row: CoursesTable;
  source: Awaited<ReturnType<typeof loadCourse>>['lessons'];
  primary: TLocale;
  target: TLocale;
  model: z.output<typeof ZAiTranslateRequestSchema>['model'];
  inScope: (day: number) => boolean;
  now: Date;
};
const EDITABLE_STATUSES = EDITABLE_COURSE_STATUSES;
// The creator is told an administrator can connect a provider; how is for the server's log.
const OPERATOR_AI_HINT =
  'No AI provider is configured: set OPENAI_API_KEY (and OPENAI_BASE_URL for another OpenAI-compatible service).';

export type AiRoutesOptions = {
  /** The provider settings (OPENAI_*); without an API key documents are turned offline. */
  settings?: TAiSettingsInput | undefined;
};

// The import is multipart: the handler reads and checks it; the route schema documents it.
type RouteSchemaDef<T> = Parameters<FastifySchemaCompiler<T>>[0];
const bodyCheckedInHandler = <T>(route: RouteSchemaDef<T>) =>
  route.httpPart === 'body'
    ? (data: unknown) => ({ value: data })
    : validatorCompiler(route as unknown as RouteSchemaDef<z.ZodType>);

const fieldErrorsOf = (error: z.ZodError): TFieldErrors => {
  const errors: TFieldErrors = {};
  for (const issue of error.issues) {
    (errors[issue.path.map(String).join('.') || 'body'] ??= []).push(issue.message);
  }
  return errors;
};

const describeImport = [
  'multipart/form-data: `name`, `description` (the course intro), `language` (en, it or de; the language the lessons are written in; default en), `number_of_lessons` (1 to 30), `assessment_type` (random, true_false or multiple_option; default random), `model` (gpt-3.5 or gpt-4; default gpt-3.5) and `file`.',
  `The file is one of ${AI_IMPORT_TYPES.join(', ')}, at most 700 MB ("File is too large. Max size: 700 MB."). Text is read from txt, docx, pptx and pdf; video and audio are transcribed by the provider.`,
  'With an AI provider configured (OPENAI_API_KEY) the provider writes the lessons; without one, documents are turned into an offline draft (`generator: "offline"`; imported drafts get no category) and video or audio answer 503.',
  'The upload is checked (fields, type, size, the bytes against the type, the plan) and answers 202 with the queued job `{data: {uuid, status, phase, progress, …}}`; the job reads the file, writes the lessons and stores a draft course. Follow it with `GET …/courses/import/{jobUuid}`: once `completed` it names `course_uuid`, with `problems` (what must be fixed in the lessons before publishing, spec §5) and `warnings` (what was left out); a file without text, an unusable AI answer or a plan used up meanwhile end it `failed` with `error_summary`. Counts one `a-i-transformer` use (402 when the plan has none left this month) and the new lesson days against `lessons`, when the draft is stored.',
].join('\n\n');

export const aiRoutes: FastifyPluginAsyncZod<AiRoutesOptions> = async (app, options) => {
  const settings = resolveAiSettings(options.settings);
  const provider = createAiProvider(settings);
  const generator: TAiGenerator = provider ? 'openai' : 'offline';
  const runtime = { provider, generator };
  registerAiRuntime(app.db, runtime);
  // Kept until the import job ends (CCP_FILES_DIR when several servers share the jobs).
  const uploadDir = path.join(app.dataDir, 'ai-imports');

  /**
   * What the job starts from: a document is read now (refused here when damaged, too large or
   * without text) and only its text is kept; a video or audio file is kept for the job.
   */
  const jobInput = async (uuid: string, upload: TImportUpload) => {
    const { type } = upload;
    if (!isDocumentType(type)) return { kind: 'media' as const, path: upload.path };
    const blocks = await documentBlocks({ ...upload, type });
    const target = path.join(uploadDir, `${uuid}.json`);
    await writeFile(target, JSON.stringify(blocks));
    await removeUpload(upload);
    return { kind: 'blocks' as const, path: target };
  };

  app.get(
    '/api/v1/courses/helpers/prompts',
    {
      schema: {
        tags: TAGS,
        summary: 'List the AI writing helpers',
        description: `The fixed prompts of \`POST /api/v1/courses/helpers/lessons\`; ids are stable: ${AI_PROMPT_IDS.join(', ')}. \`meta.generator\` says who writes: \`openai\` (a provider is configured) or \`offline\` (documents only; video and audio need a provider).`,
        response: { 200: ZAiPromptsResponseSchema },
      },
    },
    () => ({ data: AI_PROMPTS.map(({ id, prompt }) => ({ id, prompt })), meta: { generator } }),
  );

  app.post(
    '/api/v1/courses/helpers/lessons',
    {
      schema: {
        tags: TAGS,
        summary: 'Run one AI writing helper, or all of them, on a text',
        description:
          '`{promptId, content, model}` runs one prompt, `{content, model}` every prompt. `data` holds per prompt id `{prompt, original, processed}`, each held to the limit of the lesson field it is for (title 140, intro 600, content and summary 1200 as HTML, question 300). Without an AI provider the offline helpers answer (`meta.generator: "offline"`). Not counted against the plan.',
        body: ZAiLessonsRequestSchema,
        response: { 200: ZAiLessonsResponseSchema },
      },
    },
    async (request) => {
      const { promptId, content, model, language } = request.body;
      const data = await withProviderErrors(() =>
        runHelpers(provider, {
          ids: promptId ? [promptId] : AI_PROMPT_IDS,
          content,
          model,
          language,
        }),
      );
      return { data, meta: { generator, model } };
    },
  );

  app.post(
    '/api/v1/classrooms/:classroomUuid/courses/import',
    {
      validatorCompiler: bodyCheckedInHandler,
      schema: {
        tags: TAGS,
        summary: 'Turn a document, video or audio file into a draft course (AI import)',
        description: describeImport,
        consumes: ['multipart/form-data'],
        params: ZClassroomCoursesParamsSchema,
        body: ZAiImportFieldsSchema.extend({
          file: z.any().meta({ type: 'string', format: 'binary', description: 'The source file.' }),
        }),
        response: { 202: ZAiImportJobResponseSchema },
      },
    },
    async (request, reply) => {
      const { user } = authOf(request);
      const companyUuid = user.company_uuid;
      const { classroomUuid } = request.params;
      await findClassroom(app.db, companyUuid, classroomUuid);
      // The plan is checked before the upload is read, so a 700 MB file is not stored for nothing
      // (lessons count once the fields are read), and again under the lock when queueing.
      const now = app.clock.now();
      await assertAiImportWithinPlan(app.db, companyUuid, { now, lessons: 0, countPending: true });

      const form = isMultipart(request)
        ? await readImportForm(request, { dir: uploadDir, maxBytes: settings.maxUploadBytes })
        : { fields: request.body, file: null, fileError: null };
      // What the job needs stays until it ends (it deletes it then); a refused upload goes now.
      try {
        const parsed = ZAiImportFieldsSchema.safeParse(form.fields ?? {});
        const errors = parsed.success ? {} : fieldErrorsOf(parsed.error);
        const fileError = form.fileError ?? (form.file ? null : MESSAGES.courseSourceFileRequired);
        if (fileError) errors.file = [fileError];
        if (!parsed.success || fileError || !form.file) throw validationError(errors);
        const fields = parsed.data;
        const upload = form.file;

        if (!isDocumentType(upload.type) && !provider) {
          request.log.warn(OPERATOR_AI_HINT);
          throw new AppError('AI_NOT_CONFIGURED', MESSAGES.aiTranscriptionNotConfigured);
        }
        const uuid = newUuid();
        const input = await jobInput(uuid, upload);
        const language = requestLanguage(request);
        const options: TAiImportJobOptions = {
          fields,
          classroom_uuid: classroomUuid,
          file_name: upload.filename,
          file_type: upload.type,
          input: input.kind,
          generator,
          language,
        };
        const job = await withCompanyLock(app, companyUuid, async (trx) => {
          const lessons = fields.number_of_lessons;
          await assertAiImportWithinPlan(trx, companyUuid, { now, lessons, countPending: true });
          return enqueueJob(
            trx,
            {
              uuid,
              company_uuid: companyUuid,
              user_uuid: user.uuid,
              kind: AI_IMPORT_KIND,
              total_rows: 100,
              input_path: path.relative(app.dataDir, input.path),
              options: JSON.stringify(options),
            },
            isoNow(app.clock),
          );
        });
        // The job is visible once the transaction has committed.
        wakeJobRunners(app.db);
        request.log.info(
          { job: job.uuid, bytes: upload.bytes, type: upload.type },
          'AI import queued',
        );
        return reply.code(202).send({ data: await serializeAiImportJob(app, job, language) });
      } catch (error) {
        await removeUpload(form.file);
        throw error;
      }
    },
  );

  /** The job of the address, if it is the company's and of that classroom (404 otherwise). */
  const requestedJob = async (
    request: FastifyRequest & { params: { classroomUuid: string; jobUuid: string } },
  ) => {
    const { classroomUuid, jobUuid } = request.params;
    const job = await app.db
      .selectFrom('jobs')
      .selectAll()
      .where('uuid', '=', jobUuid)
      .where('company_uuid', '=', authOf(request).user.company_uuid)
      .where('kind', '=', AI_IMPORT_KIND)
      .executeTakeFirst();
    if (!job) throw notFound();
    const options = JSON.parse(job.options) as TAiImportJobOptions;
    if (options.classroom_uuid !== classroomUuid) throw notFound();
    return job;
  };

  app.get(
    '/api/v1/classrooms/:classroomUuid/courses/import/:jobUuid',
    {
      schema: {
        tags: TAGS,
        summary: 'An AI import job: its step and progress, then the draft course',
        description:
          '`phase` is queued, reading (the file is read or transcribed), writing (the lessons are written), saving, then done; `progress` 0 to 100. A `completed` job names `course_uuid`, the lessons written, the `problems` the draft still has (spec §5) and the `warnings`; a `failed` one says why in `error_summary`. Texts are in the request’s language.',
        params: ZAiImportJobParamsSchema,
        response: { 200: ZAiImportJobResponseSchema },
      },
    },
    async (request) => {
      const job = await requestedJob(request);
      return { data: await serializeAiImportJob(app, job, requestLanguage(request)) };
    },
  );

  app.post(
    '/api/v1/classrooms/:classroomUuid/courses/import/:jobUuid/cancel',
    {
      schema: {
        tags: TAGS,
        summary: 'Stop a queued or running AI import (no course is stored)',
        params: ZAiImportJobParamsSchema,
        response: { 200: ZAiImportJobResponseSchema },
      },
    },
    async (request) => {
      const job = await requestedJob(request);
      if (!(await cancelJob(app.db, job.uuid, isoNow(app.clock)))) {
        throw new AppError('VALIDATION_FAILED', MESSAGES.importNotCancelable);
      }
      const canceled = await requestedJob(request);
      return { data: await serializeAiImportJob(app, canceled, requestLanguage(request)) };
    },
  );

  app.post(
    '/api/v1/classrooms/:classroomUuid/courses/:courseUuid/translate',
    {
      schema: {
        tags: TAGS,
        summary: 'Translate a course’s lessons into another language by AI',
        description:
          'Translates every lesson of the primary language (or only those of `days`) into `target_language` (en, it, de) and adds that language to the course. A language that already has lessons answers 422 unless `overwrite: true`. Needs an AI provider (503 naming OPENAI_API_KEY otherwise). A provider failure answers 502: a server error, or a size mismatch when the provider returns a different number of texts than it was sent; nothing is stored then. Counts one `a-i-translator` use (402 when the plan has none left this month). Answers `{data: {course, problems, generator, warnings}}`.',
        params: ZCourseParamsSchema,
        body: ZAiTranslateRequestSchema,
        response: { 200: ZAiCourseResultResponseSchema },
      },
    },
    async (request) => {
      const { user } = authOf(request);
      const companyUuid = user.company_uuid;
      const { classroomUuid, courseUuid } = request.params;
      const { target_language: target, model, overwrite, days } = request.body;
      const inScope = (day: number) => !days || days.includes(day);
      const row = await findCourse(app.db, companyUuid, classroomUuid, courseUuid);
      if (row.deleted_at !== null) throw new AppError('VALIDATION_FAILED', MESSAGES.courseArchived);
      if (!EDITABLE_STATUSES.includes(row.status)) {
        throw new AppError('VALIDATION_FAILED', MESSAGES.courseNotEditable);
      }
      const course = await loadCourse(app.db, row.uuid);
      const primary = course.languages.find((language) => language.is_primary)?.short_name;
      if (primary === target) {
        throw validationError({ target_language: [MESSAGES.translationSameLanguage] });
      }
      const source = course.lessons.filter(
        (lesson) => lesson.language === primary && inScope(lesson.day),
      );
      if (!primary || source.length === 0) {
        throw new AppError('VALIDATION_FAILED', MESSAGES.translationNothing);
      }
      if (
        !overwrite &&
        course.lessons.some((lesson) => lesson.language === target && inScope(lesson.day))
      ) {
        throw validationError({ target_language: [MESSAGES.translationExists] });
      }
      if (!provider) {
        request.log.warn(OPERATOR_AI_HINT);
        throw new AppError('AI_NOT_CONFIGURED', MESSAGES.aiNotConfigured);
      }
      const now = app.clock.now();
      const use = await reserveAiUse(app, companyUuid, 'a-i-translator', now);
      try {
        await storeTranslation({
          provider,
          course,
          row,
          target,
          model,
          inScope,
          now,
          source,
          primary: primary as TLocale,
        });
      } catch (error) {
        await use.release();
        throw error;
      }
      await syncCourseDelivery(app, course.uuid);
      const result = await loadCourse(app.db, course.uuid);
      return {
        data: {
          course: result,
          problems: contentProblems(result, app.clock.now(), requestLanguage(request)),
          generator: 'openai' as const,
          warnings: [],
        },
      };
    },
  );

  /** Translates the source lessons and stores them with the target language, in one transaction. */
  const storeTranslation = async (job: TTranslation) => {
    const { provider: ai, course, row, target, model, inScope, now, source, primary } = job;
    const translated = await withProviderErrors(
      () => translateLessons(ai, { lessons: source, from: primary, to: target, model }),
      true,
    );
    // A published course must stay publishable: an unusable translation is not stored.
    if (row.status !== 'draft') {
      const draft = { ...course, lessons: [...course.lessons, ...translated] };
      const broken = publishCheck(toPublishCourse(draft), { now }).some((problem) =>
        problem.path.startsWith('lessons'),
      );
      if (broken) throw new AppError('AI_PROVIDER_ERROR', MESSAGES.aiInvalidResponse);
    }

    const nowIso = now.toISOString();
    await app.db.transaction().execute(async (trx) => {
      const languages = course.languages.map(
        ({ short_name: shortName, is_primary: isPrimary }) => ({
          short_name: shortName as TLocale,
          is_primary: isPrimary,
        }),
      );
      if (!languages.some((language) => language.short_name === target)) {
        languages.push({ short_name: target, is_primary: false });
      }
      const kept: TLessonInput[] = course.lessons
        .filter((lesson) => lesson.language !== target || !inScope(lesson.day))
        .map(({ uuid: _uuid, ...lesson }) => ({
          ...lesson,
          language: lesson.language as TLocale,
        }));
      // Stored as the course routes store lessons; a lesson failing a rule is listed in problems.
      await replaceCourseContent(
        trx,
        course.uuid,
        { languages, lessons: [...kept, ...translated] as TLesson[] },
        nowIso,
      );
      await trx
        .updateTable('courses')
        .set({ updated_at: nowIso })
        .where('uuid', '=', course.uuid)
        .execute();
    });
  };
};
