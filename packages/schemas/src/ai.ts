import { z } from 'zod';

import {
  AI_ASSESSMENT_TYPES,
  AI_MODELS,
  LOCALES,
  MAX_LESSONS_PER_COURSE,
  TEXT_LIMITS,
} from './constants.ts';
import type { TAssessmentType } from './constants.ts';
import { ZCourseSchema } from './course.ts';
import { requiredText } from './course-lesson.ts';
import { charCount, isPresent } from './course-text.ts';
import { ZTimestampSchema, ZUuidSchema, dataEnvelope } from './common.ts';
import { JOB_STATUSES } from './imports.ts';
import { MESSAGES } from './messages.ts';

// The AI transformer and translator (spec §1, §3 "Prompt", §7 "AI"): the writing helpers, the
// import of a document, video or audio file as a draft course, and the translation of lessons.

export type TAiModel = (typeof AI_MODELS)[number];
export type TAiAssessmentChoice = (typeof AI_ASSESSMENT_TYPES)[number];

/** Who wrote a result: an OpenAI-compatible provider, or the built-in offline generator. */
export const AI_GENERATORS = ['openai', 'offline'] as const;
export type TAiGenerator = (typeof AI_GENERATORS)[number];

/** The most text `POST /courses/helpers/lessons` takes. */
export const AI_CONTENT_MAX = 20_000;

/**
 * The writing helpers of `GET /courses/helpers/prompts`. Ids are stable (clients store them);
 * `max` is the limit the result is held to, `html` whether it is lesson HTML.
 */
export const AI_PROMPTS = [
  {
    id: 'lesson-title',
    prompt: 'Write a short, engaging lesson title for this content.',
    max: TEXT_LIMITS.lessonTitle,
    html: false,
  },
  {
    id: 'topic-intro',
    prompt: 'Write an introduction to the topic of this content that makes the learner curious.',
    max: TEXT_LIMITS.topicIntro,
    html: false,
  },
  {
    id: 'topic-content',
    prompt: 'Rewrite this content as the body of a micro-learning lesson, in short paragraphs.',
    max: TEXT_LIMITS.topicContent,
    html: true,
  },
  {
    id: 'summary',
    prompt: 'Summarise this content in a few key points.',
    max: TEXT_LIMITS.topicContent,
    html: true,
  },
  {
    id: 'quiz-question',
    prompt: 'Write one quiz question that checks whether the learner understood this content.',
    max: TEXT_LIMITS.question,
    html: false,
  },
] as const;
export type TAiPromptId = (typeof AI_PROMPTS)[number]['id'];
export const AI_PROMPT_IDS = AI_PROMPTS.map((prompt) => prompt.id) as [
  TAiPromptId,
  ...TAiPromptId[],
];

/** The assessment types an import's choice allows. */
export const aiAssessmentTypesOf = (choice: TAiAssessmentChoice): TAssessmentType[] =>
  choice === 'true_false'
    ? ['true_false']
    : choice === 'multiple_option'
      ? ['multiple_choice']
      : ['multiple_choice', 'true_false'];

/**
 * A text cut to at most `max` characters (code points): at a word boundary when one is near,
 * with an ellipsis when anything was cut. Whitespace runs collapse to one space.
 */
export const clampText = (text: string, max: number): string => {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (charCount(clean) <= max) return clean;
  const chars = [...clean].slice(0, Math.max(0, max - 1));
  let cut = chars.join('');
  const space = cut.lastIndexOf(' ');
  if (space > cut.length * 0.6) cut = cut.slice(0, space);
  return `${cut.replace(/[\s,;:.\-–—]+$/u, '')}…`;
};

const model = z.enum(AI_MODELS, { error: MESSAGES.aiModelInvalid }).default('gpt-3.5');

// Multipart fields arrive as strings; JSON may send numbers.
const lessonsCount = z
  .union([z.number(), z.string()], { error: MESSAGES.aiLessonsCountRange })
  .transform((value) => (typeof value === 'string' && value.trim() === '' ? NaN : Number(value)))
  .pipe(
    z
      .number({ error: MESSAGES.aiLessonsCountRange })
      .int({ message: MESSAGES.aiLessonsCountRange })
      .min(1, { message: MESSAGES.aiLessonsCountRange })
      .max(MAX_LESSONS_PER_COURSE, { message: MESSAGES.aiLessonsCountRange }),
  );

export const ZAiPromptSchema = z.object({ id: z.string(), prompt: z.string() });
export type TAiPrompt = z.infer<typeof ZAiPromptSchema>;
export const ZAiPromptsResponseSchema = dataEnvelope(z.array(ZAiPromptSchema)).extend({
  /** Who writes: the configured provider, or the offline generator (documents only). */
  meta: z.object({ generator: z.enum(AI_GENERATORS) }),
});

/** `POST /courses/helpers/lessons`: one prompt (`promptId`) or, without it, every prompt. */
export const ZAiLessonsRequestSchema = z.object({
  promptId: z.enum(AI_PROMPT_IDS, { error: MESSAGES.aiPromptUnknown }).optional(),
  content: z
    .string({ error: MESSAGES.aiContentRequired })
    .refine(isPresent, { message: MESSAGES.aiContentRequired })
    .refine((value) => charCount(value) <= AI_CONTENT_MAX, { message: MESSAGES.aiContentMax }),
  model,
  /** The language of the content; the offline helpers write their labels in it. Default en. */
  language: z.enum(LOCALES, { error: MESSAGES.languageUnknown }).default('en'),
});
export type TAiLessonsRequest = z.infer<typeof ZAiLessonsRequestSchema>;

/** Spec §3: per prompt id a lesson entry holds prompt, original and processed. */
export const ZAiLessonEntrySchema = z.object({
  prompt: z.string(),
  original: z.string(),
  processed: z.string(),
});
export type TAiLessonEntry = z.infer<typeof ZAiLessonEntrySchema>;

export const ZAiLessonsResponseSchema = z.object({
  data: z.record(z.string(), ZAiLessonEntrySchema),
  meta: z.object({ generator: z.enum(AI_GENERATORS), model: z.enum(AI_MODELS) }),
});
export type TAiLessonsResponse = z.infer<typeof ZAiLessonsResponseSchema>;

/** The text fields of the AI import form (multipart); the `file` part is checked apart. */
export const ZAiImportFieldsSchema = z.object({
  name: requiredText(TEXT_LIMITS.courseName, MESSAGES.nameRequired, MESSAGES.nameMax),
  description: requiredText(
    TEXT_LIMITS.description,
    MESSAGES.descriptionRequired,
    MESSAGES.descriptionMax,
  ),
  /** The course's primary language, which the lessons are written in. Default en. */
  language: z.enum(LOCALES, { error: MESSAGES.languageUnknown }).default('en'),
  number_of_lessons: lessonsCount,
  assessment_type: z
    .enum(AI_ASSESSMENT_TYPES, { error: MESSAGES.aiAssessmentTypeInvalid })
    .default('random'),
  model,
});
export type TAiImportFields = z.infer<typeof ZAiImportFieldsSchema>;

/** `POST …/courses/{courseUuid}/translate`. */
export const ZAiTranslateRequestSchema = z.object({
  target_language: z.enum(LOCALES, { error: MESSAGES.languageUnknown }),
  model,
  /** Replace the target language's lessons when the course already has them. */
  overwrite: z.boolean({ error: MESSAGES.booleanInvalid }).default(false),
  /** Only these days of the primary language (the wizard translates one day); default all. */
  days: z
    .array(
      z
        .number({ error: MESSAGES.lessonDayRange })
        .int({ message: MESSAGES.lessonDayRange })
        .min(1, { message: MESSAGES.lessonDayRange })
        .max(MAX_LESSONS_PER_COURSE, { message: MESSAGES.lessonDayRange }),
      { error: MESSAGES.lessonDayRange },
    )
    .min(1, { message: MESSAGES.lessonDayRange })
    .optional(),
});
export type TAiTranslateRequest = z.infer<typeof ZAiTranslateRequestSchema>;

/** A publish-check problem of the draft (spec §5), with its day, language and option. */
export const ZAiProblemSchema = z.object({
  path: z.string(),
  message: z.string(),
  key: z.string().optional(),
  day: z.number().int().optional(),
  language: z.string().optional(),
  option: z.number().int().optional(),
  lesson: z.number().int().optional(),
});
export type TAiProblem = z.infer<typeof ZAiProblemSchema>;

/**
 * An import or translation result: the draft course, what the creator must still fix in its
 * languages and lessons before publishing, who wrote it, and notes on what was left out.
 */
export const ZAiCourseResultSchema = z.object({
  course: ZCourseSchema,
  problems: z.array(ZAiProblemSchema),
  generator: z.enum(AI_GENERATORS),
  warnings: z.array(z.string()),
});
export type TAiCourseResult = z.infer<typeof ZAiCourseResultSchema>;
export const ZAiCourseResultResponseSchema = dataEnvelope(ZAiCourseResultSchema);

/**
 * The steps of an AI import job (`GET …/courses/import/{jobUuid}`), in order, and the progress
 * each stands for: the file read (or transcribed), the lessons written, the draft stored.
 */
export const AI_IMPORT_PHASES = ['queued', 'reading', 'writing', 'saving', 'done'] as const;
export type TAiImportPhase = (typeof AI_IMPORT_PHASES)[number];
export const AI_IMPORT_PROGRESS: Record<TAiImportPhase, number> = {
  queued: 0,
  reading: 5,
  writing: 30,
  saving: 90,
  done: 100,
};

/**
 * An AI import as it runs in the background: the upload answers it (202), the page follows it
 * until `course_uuid` is there (completed), and finds it again by its id after leaving.
 */
export const ZAiImportJobSchema = z.object({
  uuid: ZUuidSchema,
  status: z.enum(JOB_STATUSES),
  phase: z.enum(AI_IMPORT_PHASES),
  /** 0 to 100. */
  progress: z.number(),
  file_name: z.string(),
  /** The course's name, as the form gave it. */
  name: z.string(),
  generator: z.enum(AI_GENERATORS),
  /** The draft course, once stored. */
  course_uuid: ZUuidSchema.nullable(),
  /** Lessons written (0 until the draft is stored). */
  lessons: z.number().int(),
  /** What the creator must fix before publishing, in the reader's language. */
  problems: z.array(ZAiProblemSchema),
  /** What was left out or rebuilt, in the reader's language. */
  warnings: z.array(z.string()),
  /** Why the import failed or stopped, in the reader's language. */
  error_summary: z.string().nullable(),
  created_at: z.string(),
  started_at: ZTimestampSchema,
  finished_at: ZTimestampSchema,
});
export type TAiImportJob = z.infer<typeof ZAiImportJobSchema>;
export const ZAiImportJobResponseSchema = dataEnvelope(ZAiImportJobSchema);
export const ZAiImportJobParamsSchema = z.object({
  classroomUuid: ZUuidSchema,
  jobUuid: ZUuidSchema,
});
