import { z } from 'zod';

import {
  ASSESSMENT_TYPES,
  CHANNEL_KEYS,
  COURSE_STATUSES,
  LOCALES,
  MAX_IDS_PER_REQUEST,
  MAX_LESSONS_PER_COURSE,
  REPEAT_PERIODS,
  TEXT_LIMITS,
} from './constants.ts';
import {
  ZBooleanishSchema,
  ZPageQuerySchema,
  ZTimestampSchema,
  ZUuidSchema,
  dataEnvelope,
  paginatedEnvelope,
} from './common.ts';
import { EXCLUSION_DAYS, ZDistributionSchema } from './course-distribution.ts';
import { LESSON_MEDIA_TYPES, ZLessonSchema, requiredText } from './course-lesson.ts';
import { courseStructureIssues } from './course-publish.ts';
import { charCount } from './course-text.ts';
import { MESSAGES } from './messages.ts';

// The public surface of the course helpers (named, so index.ts's `export *` cannot collide).
export {
  EXCLUSION_DAYS,
  ZDistributionSchema,
  deliveryCalendarDate,
  deliveryDateWindow,
  reminderPolicyOf,
  validateDeliveryDate,
} from './course-distribution.ts';
export type {
  TDistribution,
  TDistributionInput,
  TExclusionDay,
  TReminderPolicy,
} from './course-distribution.ts';
export {
  DEFAULT_ANSWER_RESPONSE,
  LESSON_MEDIA_TYPES,
  ZAnswerSchema,
  ZAssessmentSchema,
  ZLessonMediaSchema,
  ZLessonSchema,
  assessmentIssues,
} from './course-lesson.ts';
export type {
  TAnswer,
  TAssessment,
  TCourseRuleIssue,
  TLesson,
  TLessonInput,
  TLessonMedia,
} from './course-lesson.ts';
export {
  courseStructureIssues,
  publishCheck,
  publishMessage,
  publishProblemsToFieldErrors,
  toPublishCourse,
} from './course-publish.ts';
export type { TPublishCourse, TPublishOptions, TPublishProblem } from './course-publish.ts';
export { areAnswersSimilar, normalizeAnswer, stripHtml } from './course-text.ts';

// Courses (spec §3 Course, Short course; §7 "Courses"). The request schemas carry the rules of
// spec §5; the response schemas only describe shapes, so stored data never fails to serialise.

const courseName = requiredText(TEXT_LIMITS.courseName, MESSAGES.nameRequired, MESSAGES.nameMax);
const courseDescription = requiredText(
  TEXT_LIMITS.description,
  MESSAGES.descriptionRequired,
  MESSAGES.descriptionMax,
);
// Absent leaves the category as it is; empty or null clears it.
const courseCategory = z
  .string({ error: MESSAGES.categoryMax })
  .refine((value) => charCount(value) <= TEXT_LIMITS.name, { message: MESSAGES.categoryMax })
  .nullish()
  .transform((value) => (value === undefined ? undefined : value?.trim() ? value : null));

/** The Intro step of the wizard: name, public description and category. */
export const ZCourseIntroSchema = z.object({
  name: courseName,
  description: courseDescription,
  category: courseCategory,
});
export type TCourseIntro = z.infer<typeof ZCourseIntroSchema>;

/**
 * `POST …/courses`: multipart {name, description, image?, language?} or the same as JSON without
 * the image. `language` picks the primary language (default en).
 */
export const ZCreateCourseRequestSchema = ZCourseIntroSchema.extend({
  language: z.enum(LOCALES, { error: MESSAGES.languageUnknown }).optional(),
});
export type TCreateCourseRequest = z.infer<typeof ZCreateCourseRequestSchema>;

/** `POST …/courses/{uuid}` as multipart: the Intro step; `uuid` is accepted and ignored. */
export const ZUpdateCourseIntroRequestSchema = ZCourseIntroSchema.extend({
  uuid: z.string().optional(),
});
export type TUpdateCourseIntroRequest = z.infer<typeof ZUpdateCourseIntroRequestSchema>;

export const ZCourseLanguageInputSchema = z.object({
  short_name: z.enum(LOCALES, { error: MESSAGES.languageUnknown }),
  is_primary: z.boolean({ error: MESSAGES.booleanInvalid }).default(false),
});

/** The statuses a save may ask for: keep a draft, or publish (schedule) it. */
export const COURSE_REQUEST_STATUSES = ['draft', 'scheduled'] as const;

/**
 * `POST …/courses/{uuid}` as JSON: the whole course. It replaces the languages and lessons;
 * `distribution` and `learners_lists` are replaced when present (null/[] clear them) and kept
 * when absent. `status: 'scheduled'` publishes after the publish check. Unknown keys such as
 * `uuid` or `image` are ignored.
 */
export const ZCourseUpdateRequestSchema = z
  .object({
    name: courseName,
    description: courseDescription,
    category: courseCategory,
    languages: z
      .array(ZCourseLanguageInputSchema, { error: MESSAGES.primaryLanguageRequired })
      .max(LOCALES.length, { error: MESSAGES.languageDuplicate }),
    // A day per language at most: anything longer is refused before each lesson is checked.
    lessons: z
      .array(ZLessonSchema, { error: MESSAGES.lessonsMin })
      .max(MAX_LESSONS_PER_COURSE * LOCALES.length, { error: MESSAGES.lessonsMax })
      .default([]),
    distribution: ZDistributionSchema.nullable().optional(),
    learners_lists: z
      .array(z.uuid({ error: MESSAGES.learnersListUnknown }), {
        error: MESSAGES.learnersListUnknown,
      })
      .max(MAX_IDS_PER_REQUEST, { error: MESSAGES.idsMax })
      .transform((uuids) => [...new Set(uuids.map((uuid) => uuid.toLowerCase()))])
      .optional(),
    status: z.enum(COURSE_REQUEST_STATUSES, { error: MESSAGES.courseStatusInvalid }).optional(),
  })
  .superRefine((course, ctx) => {
    for (const issue of courseStructureIssues(course.languages, course.lessons)) {
      ctx.addIssue({ code: 'custom', path: issue.path, message: MESSAGES[issue.key] });
    }
  });
export type TCourseUpdateRequest = z.infer<typeof ZCourseUpdateRequestSchema>;
export type TCourseUpdateRequestInput = z.input<typeof ZCourseUpdateRequestSchema>;

// Response shapes.

const ZAnswerShape = z.object({ text: z.string(), correct: z.boolean(), response: z.string() });
const ZAssessmentShape = z.object({
  question: z.string(),
  type: z.enum(ASSESSMENT_TYPES),
  mandatory: z.boolean(),
  answers: z.array(ZAnswerShape),
  thank_you_message: z.string().nullable(),
});
const ZDistributionShape = z.object({
  repeat_period: z.enum(REPEAT_PERIODS),
  repeat_every: z.number().int(),
  time: z.string(),
  start_date: z.string().nullable(),
  channels: z.array(z.enum(CHANNEL_KEYS)),
  disabled_enrolment_opt_in: z.boolean(),
  exclusion_days: z.array(z.enum(EXCLUSION_DAYS)),
  learner_time_zone: z.boolean(),
  repeat_questions: z.boolean(),
  target_retention: z.number().int(),
  reminder_count: z.number().int(),
  reminder_interval_hours: z.number().int(),
  auto_pause_after: z.number().int(),
  enrollment_close_time: z.string().nullable(),
});

export const ZCourseLanguageSchema = z.object({
  uuid: ZUuidSchema,
  name: z.string(),
  short_name: z.string(),
  is_primary: z.boolean(),
});
export type TCourseLanguage = z.infer<typeof ZCourseLanguageSchema>;

export const ZCourseLessonSchema = z.object({
  uuid: ZUuidSchema,
  day: z.number().int(),
  language: z.string(),
  title: z.string(),
  topic_intro: z.string(),
  topic_content: z.string(),
  learning_minutes: z.number().int(),
  media: z.object({ type: z.enum(LESSON_MEDIA_TYPES), url: z.string() }).nullable(),
  assessment: ZAssessmentShape.nullable(),
});
export type TCourseLesson = z.infer<typeof ZCourseLessonSchema>;

export const ZCourseSchema = z.object({
  uuid: ZUuidSchema,
  name: z.string(),
  description: z.string(),
  /** URL path of the cover, e.g. /uploads/covers/<uuid>.png. */
  image: z.string().nullable(),
  category: z.string().nullable(),
  enrollment: z.string().nullable(),
  status: z.enum(COURSE_STATUSES),
  languages: z.array(ZCourseLanguageSchema),
  /** Ordered by day, then by the language's position in the course. */
  lessons: z.array(ZCourseLessonSchema),
  /** Distinct days. */
  lessons_count: z.number().int(),
  distribution: ZDistributionShape.nullable(),
  learners_lists: z.array(z.object({ uuid: ZUuidSchema, name: z.string() })),
  /**
   * Enrolled learners (docs/metrics.md "Enrolled learners"): the `learners` of Insights and the
   * rows of the statistics export. 0 until someone enrols.
   */
  enrolments: z.number().int(),
  /**
   * A draft's learners reached (docs/metrics.md): distinct non-archived learners of its lists
   * with one of its channels and that channel's contact, as Finish counts them. Null once the
   * course is published: from then on `enrolments` counts.
   */
  reached: z.number().int().nullable(),
  creator: z
    .object({ uuid: ZUuidSchema, first_name: z.string(), last_name: z.string() })
    .nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** When Schedule was pressed (publishing), not when lessons start. */
  scheduled_at: ZTimestampSchema,
  /** The first lesson send its delivery settings plan (Finish's "First send"), or null. */
  first_send_at: ZTimestampSchema,
  delivered_at: ZTimestampSchema,
  deleted_at: ZTimestampSchema,
});
export type TCourse = z.infer<typeof ZCourseSchema>;

/** A course in a list: the Course without its lessons. */
export const ZCourseListItemSchema = ZCourseSchema.omit({ lessons: true });
export type TCourseListItem = z.infer<typeof ZCourseListItemSchema>;

export const ZShortCourseSchema = z.object({
  uuid: ZUuidSchema,
  name: z.string(),
  status: z.enum(COURSE_STATUSES),
});
export type TShortCourse = z.infer<typeof ZShortCourseSchema>;

/** `GET …/courses`: `paginate` (default true), `archived` (default false: only live courses). */
export const ZListCoursesQuerySchema = ZPageQuerySchema.extend({
  paginate: ZBooleanishSchema.default(true),
  archived: ZBooleanishSchema.default(false),
});
export type TListCoursesQuery = z.infer<typeof ZListCoursesQuerySchema>;

export const ZPaginatedCoursesResponseSchema = paginatedEnvelope(ZCourseListItemSchema);
export const ZAllCoursesResponseSchema = dataEnvelope(z.array(ZCourseListItemSchema));
/** Paginated `{data, meta, links}`, or `{data}` with every course when `paginate=false`. */
export const ZListCoursesResponseSchema = z.union([
  ZPaginatedCoursesResponseSchema,
  ZAllCoursesResponseSchema,
]);
export type TListCoursesResponse = z.infer<typeof ZListCoursesResponseSchema>;

export const ZCourseResponseSchema = dataEnvelope(ZCourseSchema);
export const ZShortCoursesResponseSchema = dataEnvelope(z.array(ZShortCourseSchema));
export const ZDeletedCourseResponseSchema = dataEnvelope(z.object({ deleted: ZUuidSchema }));

export const ZClassroomCoursesParamsSchema = z.object({ classroomUuid: ZUuidSchema });
export const ZCourseParamsSchema = z.object({
  classroomUuid: ZUuidSchema,
  courseUuid: ZUuidSchema,
});

/** The suffix of a cloned course's name. */
export const COURSE_COPY_SUFFIX = ' (copy)';

/** The name of a clone: "<name> (copy)", shortened so it stays within the name limit. */
/** The statuses in which a course's content can be changed (the API refuses the others). */
export const EDITABLE_COURSE_STATUSES: readonly string[] = ['draft', 'scheduled', 'paused'];

export const cloneCourseName = (name: string): string => {
  const room = TEXT_LIMITS.courseName - charCount(COURSE_COPY_SUFFIX);
  const base = charCount(name) > room ? [...name].slice(0, room).join('').trimEnd() : name;
  return `${base}${COURSE_COPY_SUFFIX}`;
};
