import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';

import { AI_IMPORT_PHASES, AI_IMPORT_PROGRESS, JOB_STATUSES, MESSAGES } from '@ccp/schemas';
import type {
  TAiGenerator,
  TAiImportFields,
  TAiImportJob,
  TAiImportPhase,
  TJobStatus,
  TLocale,
} from '@ccp/schemas';
import type { FastifyInstance } from 'fastify';

import type { JobsTable } from '../db/types.ts';
import { localizeMessage } from '../i18n/messages.ts';
import { JobFailure } from '../jobs/types.ts';
import type { JobContext, JobHandler } from '../jobs/types.ts';
import { AppError } from '../lib/app-error.ts';
import { loadCourse } from '../courses/courses-repository.ts';
import { aiRuntimeOf, contentProblems, importCourse, mediaBlocks } from './import-course.ts';
import { assertAiImportWithinPlan } from './plan.ts';
import type { TBlock } from './text.ts';
import { withProviderErrors } from './provider-errors.ts';
import type { TAiImportType } from './upload.ts';

// The AI import as a background job (docs/ai.md "Import"): the upload reads a document's text
// (or keeps a video or audio file) and queues the job; the runner transcribes what needs it, has
// the lessons written and stores the draft, saving each step as the job's progress. Leaving the page does not stop it; a server that stops
// mid-way leaves it for the next claim, which starts it over (nothing is stored before the last
// step, and that step is fenced by the claim, so no course is stored twice or after a cancel).

/** What the upload hands the job (the `options` column). */
export type TAiImportJobOptions = {
  fields: TAiImportFields;
  classroom_uuid: string;
  file_name: string;
  file_type: TAiImportType;
  /**
   * What `input_path` holds: the text blocks the upload read from a document (JSON), or the
   * video or audio file itself, for the job to transcribe.
   */
  input: 'blocks' | 'media';
  /** Who writes the lessons, as configured when the file was uploaded. */
  generator: TAiGenerator;
  /** The requester's language: warnings are kept in English and said in the reader's. */
  language: TLocale;
};

/** Where the job stands (the `checkpoint` column); the draft's uuid once stored. */
type TAiImportCheckpoint = {
  phase: TAiImportPhase;
  course_uuid?: string;
  lessons?: number;
  warnings?: string[];
};

const parseOptions = (text: string) => JSON.parse(text) as TAiImportJobOptions;
const parseCheckpoint = (text: string | null): TAiImportCheckpoint =>
  text ? (JSON.parse(text) as TAiImportCheckpoint) : { phase: 'queued' };

const oneOf = <T extends string>(values: readonly T[], value: string, fallback: T): T =>
  (values as readonly string[]).includes(value) ? (value as T) : fallback;

/** Checks the plan again when the job starts: other imports may have used it since the upload. */
const checkPlan = (app: FastifyInstance, job: JobsTable, fields: TAiImportFields) =>
  assertAiImportWithinPlan(app.db, job.company_uuid, {
    now: app.clock.now(),
    lessons: fields.number_of_lessons,
    countPending: false,
  });

const runAiImport = async ({ app, job, commit }: JobContext): Promise<void> => {
  const options = parseOptions(job.options);
  const runtime = aiRuntimeOf(app.db);
  try {
    await checkPlan(app, job, options.fields);
    await withProviderErrors(() =>
      importCourse(
        app,
        runtime,
        {
          fields: options.fields,
          source: async () => {
            const file = path.join(app.dataDir, job.input_path ?? '');
            if (options.input === 'blocks') {
              return JSON.parse(await readFile(file, 'utf8')) as TBlock[];
            }
            const upload = { path: file, filename: options.file_name, type: options.file_type };
            return mediaBlocks(runtime.provider, { ...upload, bytes: 0 }, options.fields.language);
          },
          companyUuid: job.company_uuid,
          classroomUuid: options.classroom_uuid,
          userUuid: job.user_uuid,
          lang: options.language,
        },
        {
          phase: (phase) =>
            commit({ processed_rows: AI_IMPORT_PROGRESS[phase], checkpoint: { phase } }),
          store: ({ courseUuid, lessons, warnings }, work) =>
            commit(
              {
                processed_rows: AI_IMPORT_PROGRESS.done,
                checkpoint: { phase: 'done', course_uuid: courseUuid, lessons, warnings },
              },
              work,
            ),
        },
      ),
    );
  } catch (error) {
    // What the creator can act on (an unreadable file, the plan, the AI service) ends the job
    // with its text; anything else is the runner's internal error.
    if (error instanceof AppError) throw new JobFailure(error.message, error.limit);
    throw error;
  }
};

/** The upload is deleted once the job has ended, however it ended. */
const afterAiImport = async (app: FastifyInstance, job: JobsTable) => {
  if (job.input_path) await rm(path.join(app.dataDir, job.input_path), { force: true });
};

export const aiImportHandler: JobHandler = {
  run: runAiImport,
  afterFinish: afterAiImport,
  texts: { interrupted: MESSAGES.importInterrupted, internalError: MESSAGES.importInternalError },
};

/**
 * The job as the API returns it, its texts in `lang`. A completed job lists what the creator
 * must still fix in the draft as it is now (the course may have been edited since).
 */
export const serializeAiImportJob = async (
  app: FastifyInstance,
  job: JobsTable,
  lang: TLocale,
): Promise<TAiImportJob> => {
  const options = parseOptions(job.options);
  const checkpoint = parseCheckpoint(job.checkpoint);
  const courseUuid = job.status === 'completed' ? (checkpoint.course_uuid ?? null) : null;
  const course = courseUuid ? await loadCourse(app.db, courseUuid).catch(() => null) : null;
  return {
    uuid: job.uuid,
    status: oneOf<TJobStatus>(JOB_STATUSES, job.status, 'queued'),
    phase: oneOf(AI_IMPORT_PHASES, checkpoint.phase, 'queued'),
    progress: Math.min(100, job.processed_rows),
    file_name: options.file_name,
    name: options.fields.name,
    generator: options.generator,
    course_uuid: courseUuid,
    lessons: checkpoint.lessons ?? 0,
    problems: course ? contentProblems(course, app.clock.now(), lang) : [],
    warnings: (checkpoint.warnings ?? []).map((warning) => localizeMessage(warning, lang)),
    error_summary: job.error_summary === null ? null : localizeMessage(job.error_summary, lang),
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
  };
};
