import {
  AI_DRAFT_CATEGORY,
  MESSAGES,
  aiAssessmentTypesOf,
  publishCheck,
  toPublishCourse,
} from '@ccp/schemas';
import type {
  TAiCourseResult,
  TAiGenerator,
  TAiImportFields,
  TCourse,
  TLocale,
} from '@ccp/schemas';
import type { Transaction } from 'kysely';

import type { Db } from '../db/index.ts';
import type { Database } from '../db/types.ts';
import { localizeMessage } from '../i18n/messages.ts';
import { AppError, validationError } from '../lib/app-error.ts';
import type { Clock } from '../lib/clock.ts';
import { newUuid } from '../lib/ids.ts';
import { loadCourse, replaceCourseContent } from '../courses/courses-repository.ts';
import {
  DocumentTooLargeError,
  extractDocument,
  isDocumentType,
  UnreadableFileError,
} from './extract.ts';
import { generateAiLessons } from './generate.ts';
import { generateOfflineLessons } from './offline.ts';
import type { TAiProvider } from './provider.ts';
import { sentencesToBlocks } from './text.ts';
import type { TBlock } from './text.ts';
import type { TImportUpload } from './upload.ts';

// One AI import, from an uploaded file to a stored draft course: read the text (or transcribe
// it), write the lessons (a provider, or the offline generator), store the course and count the
// use. The request path (201 with the course) and the background job (progress, then the course)
// run the same steps.

export type TAiImportPhase = 'reading' | 'writing' | 'saving';

export type TAiRuntime = { provider: TAiProvider | null; generator: TAiGenerator };

// The AI routes register their provider per database, so the import job (which the runner
// starts with the app alone) finds the same provider the routes use.
const runtimes = new WeakMap<object, TAiRuntime>();
export const registerAiRuntime = (db: Db, runtime: TAiRuntime) => runtimes.set(db, runtime);
export const aiRuntimeOf = (db: Db): TAiRuntime =>
  runtimes.get(db) ?? { provider: null, generator: 'offline' };

export type TAiImportInput = {
  fields: TAiImportFields;
  upload: TImportUpload;
  companyUuid: string;
  classroomUuid: string;
  userUuid: string;
  /** The language warnings and problems are said in. */
  lang: TLocale;
};

/**
 * What the creator must fix in the languages and lessons before publishing (spec §5), said in
 * `lang`; `key`, `day`, `language` and `option` stay for a client that words them itself.
 */
export const contentProblems = (
  course: TCourse,
  now: Date,
  lang: TLocale,
): TAiCourseResult['problems'] =>
  publishCheck(toPublishCourse(course), { now })
    .filter((problem) => problem.path.startsWith('lessons') || problem.path.startsWith('languages'))
    .map((problem) => ({ ...problem, message: localizeMessage(problem.message, lang) }));

export const recordUsage = (
  trx: Transaction<Database>,
  companyUuid: string,
  key: 'a-i-transformer' | 'a-i-translator',
  now: string,
) =>
  trx
    .insertInto('usage_events')
    .values({
      uuid: newUuid(),
      company_uuid: companyUuid,
      function_key: key,
      amount: 1,
      created_at: now,
    })
    .execute();

/** The upload's text as blocks: read from a document, or transcribed by the provider. */
export const sourceBlocks = async (
  provider: TAiProvider | null,
  upload: TImportUpload,
  language: TLocale,
): Promise<TBlock[]> => {
  if (isDocumentType(upload.type)) {
    try {
      return await extractDocument(upload.path, upload.type);
    } catch (error) {
      if (error instanceof UnreadableFileError) {
        throw validationError({ file: [MESSAGES.aiFileUnreadable] });
      }
      if (error instanceof DocumentTooLargeError) {
        throw validationError({ file: [MESSAGES.aiDocumentTooLarge] });
      }
      throw error;
    }
  }
  if (!provider) throw new AppError('AI_NOT_CONFIGURED', MESSAGES.aiTranscriptionNotConfigured);
  const text = await provider.transcribe({ path: upload.path, filename: upload.filename });
  return sentencesToBlocks(text, language);
};

/** Runs the import; `onPhase` hears each step begin (the job's progress). */
export const importCourse = async (
  deps: { db: Db; clock: Clock },
  runtime: TAiRuntime,
  input: TAiImportInput,
  onPhase: (phase: TAiImportPhase) => Promise<void> = async () => undefined,
): Promise<TAiCourseResult> => {
  const { provider, generator } = runtime;
  const { fields, upload } = input;
  await onPhase('reading');
  const blocks = await sourceBlocks(provider, upload, fields.language);
  if (!blocks.some((block) => block.text.trim())) {
    throw validationError({ file: [MESSAGES.aiFileNoText] });
  }
  await onPhase('writing');
  const types = aiAssessmentTypesOf(fields.assessment_type);
  const generated = provider
    ? await generateAiLessons(provider, {
        blocks,
        name: fields.name,
        description: fields.description,
        count: fields.number_of_lessons,
        language: fields.language,
        types,
        model: fields.model,
      })
    : generateOfflineLessons(blocks, {
        count: fields.number_of_lessons,
        language: fields.language,
        types,
      });
  if (generated.lessons.length === 0) {
    throw validationError({ file: [MESSAGES.aiFileNoText] });
  }
  await onPhase('saving');
  const uuid = newUuid();
  const nowIso = deps.clock.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('courses')
      .values({
        uuid,
        company_uuid: input.companyUuid,
        classroom_uuid: input.classroomUuid,
        name: fields.name,
        description: fields.description,
        image_path: null,
        category: AI_DRAFT_CATEGORY[generator],
        enrollment: null,
        status: 'draft',
        distribution: null,
        creator_uuid: input.userUuid,
        created_at: nowIso,
        updated_at: nowIso,
        scheduled_at: null,
        delivered_at: null,
        deleted_at: null,
      })
      .execute();
    await replaceCourseContent(
      trx,
      uuid,
      {
        languages: [{ short_name: fields.language, is_primary: true }],
        lessons: generated.lessons,
      },
      nowIso,
    );
    await recordUsage(trx, input.companyUuid, 'a-i-transformer', nowIso);
  });
  const course = await loadCourse(deps.db, uuid);
  return {
    course,
    problems: contentProblems(course, deps.clock.now(), input.lang),
    generator,
    warnings: generated.warnings.map((warning) => localizeMessage(warning, input.lang)),
  };
};
