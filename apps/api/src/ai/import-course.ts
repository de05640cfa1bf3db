import { MESSAGES, aiAssessmentTypesOf, publishCheck, toPublishCourse } from '@ccp/schemas';
import type {
  TAiCourseResult,
  TAiGenerator,
  TAiImportFields,
  TCourse,
  TLesson,
  TLocale,
} from '@ccp/schemas';
import type { Transaction } from 'kysely';

import type { Db, Dialect } from '../db/index.ts';
import type { Database } from '../db/types.ts';
import { localizeMessage } from '../i18n/messages.ts';
import { AppError, validationError } from '../lib/app-error.ts';
import type { Clock } from '../lib/clock.ts';
import { lockCompany, withCompanyLock } from '../lib/company-lock.ts';
import { newUuid } from '../lib/ids.ts';
import { assertWithinPlan } from '../lib/plan-limits.ts';
import { usageOf } from '../lib/usage.ts';
import { insertDraftCourse, replaceCourseContent } from '../courses/courses-repository.ts';
import { DocumentTooLargeError, extractDocument, UnreadableFileError } from './extract.ts';
import type { TDocumentType } from './extract.ts';
import { generateAiLessons } from './generate.ts';
import { generateOfflineLessons } from './offline.ts';
import { assertAiImportWithinPlan } from './plan.ts';
import type { TGeneratedLessons } from './offline.ts';
import type { TAiProvider } from './provider.ts';
import { sentencesToBlocks } from './text.ts';
import type { TBlock } from './text.ts';
import type { TImportUpload } from './upload.ts';

// One AI import, from an uploaded file to a stored draft course: read the text (a document while
// the upload is answered, a video or audio by transcription in the job), write the lessons (a
// provider, or the offline generator), store the course and count the use. The writing runs as
// a background job (import-job.ts), which saves each step as its progress.

export type TAiRuntime = { provider: TAiProvider | null; generator: TAiGenerator };

// The AI routes register their provider per database, so the import job (which the runner
// starts with the app alone) finds the same provider the routes use.
const runtimes = new WeakMap<object, TAiRuntime>();
export const registerAiRuntime = (db: Db, runtime: TAiRuntime) => runtimes.set(db, runtime);
export const aiRuntimeOf = (db: Db): TAiRuntime =>
  runtimes.get(db) ?? { provider: null, generator: 'offline' };

export type TAiImportInput = {
  fields: TAiImportFields;
  companyUuid: string;
  classroomUuid: string;
  /** Who uploaded the file (null once that user is gone). */
  userUuid: string | null;
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

type TAiFunction = 'a-i-transformer' | 'a-i-translator';

/** Counts one use of an AI function; answers the usage event's uuid. */
export const recordUsage = async (
  trx: Transaction<Database>,
  companyUuid: string,
  key: TAiFunction,
  now: string,
): Promise<string> => {
  const uuid = newUuid();
  await trx
    .insertInto('usage_events')
    .values({ uuid, company_uuid: companyUuid, function_key: key, amount: 1, created_at: now })
    .execute();
  return uuid;
};

/**
 * Takes one use of `key` this month before the provider is asked, if the plan has one left,
 * under the company's lock: parallel requests cannot all take the last use (issue 30).
 * `release` gives it back when the work fails.
 */
export const reserveAiUse = async (
  app: { db: Db; dialect: Dialect },
  companyUuid: string,
  key: TAiFunction,
  now: Date,
): Promise<{ release: () => Promise<void> }> => {
  const uuid = await withCompanyLock(app, companyUuid, async (trx) => {
    const used = await usageOf(trx, companyUuid, key, now);
    await assertWithinPlan(trx, companyUuid, key, used + 1);
    return recordUsage(trx, companyUuid, key, now.toISOString());
  });
  return {
    release: async () => {
      await app.db.deleteFrom('usage_events').where('uuid', '=', uuid).execute();
    },
  };
};

/**
 * A document's text as blocks, read while the upload request is answered: a damaged, oversized
 * or empty document is refused under its field (422) before any job is queued.
 */
export const documentBlocks = async (
  upload: TImportUpload & { type: TDocumentType },
): Promise<TBlock[]> => {
  let blocks: TBlock[];
  try {
    blocks = await extractDocument(upload.path, upload.type);
  } catch (error) {
    if (error instanceof UnreadableFileError) {
      throw validationError({ file: [MESSAGES.aiFileUnreadable] });
    }
    if (error instanceof DocumentTooLargeError) {
      throw validationError({ file: [MESSAGES.aiDocumentTooLarge] });
    }
    throw error;
  }
  return checkedBlocks(blocks);
};

const checkedBlocks = (blocks: TBlock[]): TBlock[] => {
  if (!blocks.some((block) => block.text.trim())) {
    throw validationError({ file: [MESSAGES.aiFileNoText] });
  }
  return blocks;
};

/** A video or audio file's text as blocks, transcribed by the provider (in the job). */
export const mediaBlocks = async (
  provider: TAiProvider | null,
  upload: TImportUpload,
  language: TLocale,
): Promise<TBlock[]> => {
  if (!provider) throw new AppError('AI_NOT_CONFIGURED', MESSAGES.aiTranscriptionNotConfigured);
  const text = await provider.transcribe({ path: upload.path, filename: upload.filename });
  return checkedBlocks(sentencesToBlocks(text, language));
};

/** The lessons of the draft: written by the provider, or by the offline generator. */
export const writeLessons = async (
  runtime: TAiRuntime,
  blocks: TBlock[],
  fields: TAiImportFields,
): Promise<TGeneratedLessons> => {
  const types = aiAssessmentTypesOf(fields.assessment_type);
  const generated = runtime.provider
    ? await generateAiLessons(runtime.provider, {
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
  return generated;
};

/**
 * Stores the draft course with its lessons and counts the use, in the caller's transaction,
 * after counting the plan again under the company's lock (402 as a job failure when passed).
 */
export const storeDraft = async (
  trx: Transaction<Database>,
  draft: {
    uuid: string;
    input: TAiImportInput;
    lessons: TLesson[];
    now: string;
    dialect: Dialect;
  },
) => {
  const { uuid, input, lessons, now } = draft;
  const { fields } = input;
  await lockCompany(trx, draft.dialect, input.companyUuid);
  await assertAiImportWithinPlan(trx, input.companyUuid, {
    now: new Date(now),
    lessons: new Set(lessons.map((lesson) => lesson.day)).size,
    countPending: false,
  });
  await insertDraftCourse(
    trx,
    {
      uuid,
      company_uuid: input.companyUuid,
      classroom_uuid: input.classroomUuid,
      name: fields.name,
      description: fields.description,
      image_path: null,
      // No internal label: how the draft was made is the job's `generator`, not a category.
      category: null,
      distribution: null,
      creator_uuid: input.userUuid,
    },
    now,
  );
  await replaceCourseContent(
    trx,
    uuid,
    { languages: [{ short_name: fields.language, is_primary: true }], lessons },
    now,
  );
  await recordUsage(trx, input.companyUuid, 'a-i-transformer', now);
};

/** How the import moves on: each step announced, and the draft stored with what was written. */
export type TAiImportSteps = {
  phase: (phase: 'reading' | 'writing' | 'saving') => Promise<void>;
  /** Runs `work` (the draft's rows) in one transaction with the import's own record. */
  store: (
    draft: { courseUuid: string; lessons: number; warnings: string[] },
    work: (trx: Transaction<Database>) => Promise<void>,
  ) => Promise<void>;
};

/**
 * One import from its source to the stored draft; answers the course's uuid. `source` reads the
 * text: the blocks the upload read from a document, or the transcription of a video or audio.
 */
export const importCourse = async (
  deps: { clock: Clock; dialect: Dialect },
  runtime: TAiRuntime,
  input: TAiImportInput & { source: () => Promise<TBlock[]> },
  steps: TAiImportSteps,
): Promise<string> => {
  await steps.phase('reading');
  const blocks = await input.source();
  await steps.phase('writing');
  const { lessons, warnings } = await writeLessons(runtime, blocks, input.fields);
  await steps.phase('saving');
  const courseUuid = newUuid();
  const now = deps.clock.now().toISOString();
  await steps.store({ courseUuid, lessons: lessons.length, warnings }, (trx) =>
    storeDraft(trx, { uuid: courseUuid, input, lessons, now, dialect: deps.dialect }),
  );
  return courseUuid;
};
