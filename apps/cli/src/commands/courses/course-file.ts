import { CHANNEL_KEYS, DISTRIBUTION_DEFAULTS, LOCALES } from '@ccp/schemas';
import type { TCourse, TCourseUpdateRequestInput } from '@ccp/schemas';
import { z } from 'zod';

// A course as a file people review (course as code, docs/decisions.md "Course files"): the whole
// course in a fixed order, days in order, each day's lessons by language, learner lists by name.
// `ccp courses pull` writes it, `ccp courses push` reads it back; one is the other's inverse, so
// a pull then a push without edits changes nothing.

export const COURSE_FILE_VERSION = 1;

const ZAnswerFileSchema = z.strictObject({
  text: z.string(),
  correct: z.boolean().default(false),
  response: z.string().default(''),
});

const ZAssessmentFileSchema = z.strictObject({
  type: z.string(),
  question: z.string(),
  mandatory: z.boolean().default(false),
  answers: z.array(ZAnswerFileSchema).default([]),
  thank_you_message: z.string().nullable().default(null),
});

const ZLessonFileSchema = z.strictObject({
  title: z.string(),
  topic_intro: z.string(),
  topic_content: z.string(),
  learning_minutes: z.number(),
  media: z.strictObject({ type: z.string(), url: z.string() }).nullable().default(null),
  assessment: ZAssessmentFileSchema.nullable().default(null),
});

const ZDistributionFileSchema = z.strictObject({
  repeat_period: z.string(),
  repeat_every: z.number(),
  time: z.string(),
  start_date: z.string().nullable().default(null),
  channels: z.array(z.enum(CHANNEL_KEYS)).default([]),
  disabled_enrolment_opt_in: z.boolean().default(false),
  exclusion_days: z.array(z.string()).default([]),
  // Files written before issue 28 have none: CET, as spec §9.
  learner_time_zone: z.boolean().default(false),
  // Files written before "Repeat questions until they stick": off, at the default retention.
  repeat_questions: z.boolean().default(DISTRIBUTION_DEFAULTS.repeat_questions),
  target_retention: z.number().default(DISTRIBUTION_DEFAULTS.target_retention),
  // Issue 28's reminder policy; a file without it gets the API's defaults.
  reminder_count: z.number().optional(),
  reminder_interval_hours: z.number().optional(),
  auto_pause_after: z.number().optional(),
  enrollment_close_time: z.string().nullable().default(null),
});

/** The file's shape; `push` reads it with this before the shared course rules run. */
export const ZCourseFileSchema = z.strictObject({
  ccp_course: z.literal(COURSE_FILE_VERSION),
  /** The course this file updates; without it `push` creates a new course. */
  uuid: z.string().optional(),
  name: z.string(),
  description: z.string(),
  category: z.string().nullable().default(null),
  status: z.string().default('draft'),
  /** Short names; the first is the primary language. */
  languages: z.array(z.enum(LOCALES)).min(1),
  distribution: ZDistributionFileSchema.nullable().default(null),
  learners_lists: z.array(z.string()).default([]),
  days: z
    .array(
      z.strictObject({
        day: z.number().int(),
        lessons: z.partialRecord(z.enum(LOCALES), ZLessonFileSchema),
      }),
    )
    .default([]),
});
export type TCourseFile = z.output<typeof ZCourseFileSchema>;

/** The server's course as a file, everything in a stable order. */
export const courseToFile = (course: TCourse): TCourseFile => {
  const languages = [...course.languages]
    .sort((a, b) => Number(b.is_primary) - Number(a.is_primary))
    .map((language) => language.short_name as TCourseFile['languages'][number]);
  const byDay = new Map<number, TCourseFile['days'][number]['lessons']>();
  for (const lesson of course.lessons) {
    const lessons = byDay.get(lesson.day) ?? {};
    lessons[lesson.language as TCourseFile['languages'][number]] = {
      title: lesson.title,
      topic_intro: lesson.topic_intro,
      topic_content: lesson.topic_content,
      learning_minutes: lesson.learning_minutes,
      media: lesson.media ? { type: lesson.media.type, url: lesson.media.url } : null,
      assessment: lesson.assessment
        ? {
            type: lesson.assessment.type,
            question: lesson.assessment.question,
            mandatory: lesson.assessment.mandatory,
            answers: lesson.assessment.answers.map((answer) => ({
              text: answer.text,
              correct: answer.correct,
              response: answer.response,
            })),
            thank_you_message: lesson.assessment.thank_you_message,
          }
        : null,
    };
    byDay.set(lesson.day, lessons);
  }
  const order = (lessons: TCourseFile['days'][number]['lessons']) =>
    Object.fromEntries(
      [...languages, ...Object.keys(lessons).filter((key) => !languages.includes(key as never))]
        .filter((language) => lessons[language as never] !== undefined)
        .map((language) => [language, lessons[language as never]]),
    ) as TCourseFile['days'][number]['lessons'];
  const distribution = course.distribution;
  return {
    ccp_course: COURSE_FILE_VERSION,
    uuid: course.uuid,
    name: course.name,
    description: course.description,
    category: course.category,
    status: course.status,
    languages,
    distribution: distribution
      ? {
          repeat_period: distribution.repeat_period,
          repeat_every: distribution.repeat_every,
          time: distribution.time,
          start_date: distribution.start_date,
          channels: [...distribution.channels],
          disabled_enrolment_opt_in: distribution.disabled_enrolment_opt_in,
          exclusion_days: [...distribution.exclusion_days],
          learner_time_zone: distribution.learner_time_zone,
          repeat_questions: distribution.repeat_questions,
          target_retention: distribution.target_retention,
          reminder_count: distribution.reminder_count,
          reminder_interval_hours: distribution.reminder_interval_hours,
          auto_pause_after: distribution.auto_pause_after,
          enrollment_close_time: distribution.enrollment_close_time,
        }
      : null,
    learners_lists: course.learners_lists.map((list) => list.name).sort(),
    days: [...byDay.entries()]
      .sort(([a], [b]) => a - b)
      .map(([day, lessons]) => ({ day, lessons: order(lessons) })),
  };
};

/** The file as the full-save body (`POST …/courses/{uuid}`), lists already turned into uuids. */
export const fileToRequest = (
  file: TCourseFile,
  listUuids: readonly string[],
): TCourseUpdateRequestInput => ({
  name: file.name,
  description: file.description,
  category: file.category,
  languages: file.languages.map((short_name, index) => ({ short_name, is_primary: index === 0 })),
  lessons: file.days.flatMap(({ day, lessons }) =>
    Object.entries(lessons).map(([language, lesson]) => ({ day, language, ...lesson })),
  ) as TCourseUpdateRequestInput['lessons'],
  distribution: file.distribution as TCourseUpdateRequestInput['distribution'],
  learners_lists: [...listUuids],
  ...(file.status === 'draft' || file.status === 'scheduled' ? { status: file.status } : {}),
});

/** A file's path of a request error path: `lessons.3.title` → `days[day 2].lessons.it.title`. */
export const filePathOf = (requestPath: string, request: TCourseUpdateRequestInput): string => {
  const match = /^lessons\.(\d+)(\.(.*))?$/.exec(requestPath);
  if (!match) return requestPath;
  const lesson = request.lessons?.[Number(match[1])] as
    { day?: number; language?: string } | undefined;
  const rest = match[3] ? `.${match[3]}` : '';
  return lesson ? `days[day ${lesson.day}].lessons.${lesson.language}${rest}` : requestPath;
};

type TFlat = Map<string, string>;

/** Every leaf of a file by path: `days.2.it.assessment.answers.1.text`. */
const flatten = (value: unknown, prefix: string, out: TFlat): TFlat => {
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null)) {
    out.set(prefix, JSON.stringify(value));
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => flatten(item, `${prefix}.${index + 1}`, out));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      flatten(item, prefix ? `${prefix}.${key}` : key, out);
    }
  } else out.set(prefix, JSON.stringify(value));
  return out;
};

/** Days keyed by their number, so inserting a day shows as that day, not a shifted list. */
const keyed = (file: TCourseFile) => ({
  ...file,
  uuid: undefined,
  days: Object.fromEntries(file.days.map(({ day, lessons }) => [String(day), lessons])),
});

export type TFieldChange = { path: string; before?: string; after?: string };

/** What pushing `next` would change on a course that is `current` now, field by field. */
export const diffCourseFiles = (current: TCourseFile | null, next: TCourseFile): TFieldChange[] => {
  const before = current ? flatten(keyed(current), '', new Map()) : new Map<string, string>();
  const after = flatten(keyed(next), '', new Map());
  const changes: TFieldChange[] = [];
  for (const [path, value] of after) {
    const old = before.get(path);
    if (old === undefined) changes.push({ path, after: value });
    else if (old !== value) changes.push({ path, before: old, after: value });
  }
  for (const [path, value] of before) {
    if (!after.has(path)) changes.push({ path, before: value });
  }
  return changes;
};

const short = (text: string) => (text.length > 70 ? `${text.slice(0, 67)}…"` : text);

export const describeChange = (change: TFieldChange): string => {
  if (change.before === undefined) return `+ ${change.path}: ${short(change.after!)}`;
  if (change.after === undefined) return `- ${change.path}: ${short(change.before)}`;
  return `~ ${change.path}: ${short(change.before)} → ${short(change.after)}`;
};
