import { z } from 'zod';

import { LOCALES, MAX_LESSONS_PER_COURSE } from './constants.ts';
import { validateDeliveryDate } from './course-distribution.ts';
import { ZLessonSchema } from './course-lesson.ts';
import type { TCourseRuleIssue } from './course-lesson.ts';
import type { TFieldErrors } from './errors.ts';
import { MESSAGES, messageKey } from './messages.ts';
import type { TMessageKey } from './messages.ts';

// The publish check of spec §5: what must hold before a course can be scheduled, with
// messages that name the day, language and answer option, as the wizard shows them.

type TLanguageLike = { short_name: string; is_primary?: boolean | undefined };
type TLessonKey = { day: number; language: string };

const isLocale = (value: unknown): value is (typeof LOCALES)[number] =>
  typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A lesson's day and language when both are usable, else null. */
const lessonKeyOf = (lesson: unknown): TLessonKey | null => {
  if (!isRecord(lesson)) return null;
  const { day, language } = lesson;
  return typeof day === 'number' &&
    Number.isInteger(day) &&
    day >= 1 &&
    day <= MAX_LESSONS_PER_COURSE &&
    isLocale(language)
    ? { day, language }
    : null;
};

/**
 * Rules across a course's languages and lessons: exactly one primary language, no language
 * twice, every lesson in a course language, one lesson per day and language.
 */
export const courseStructureIssues = (
  languages: readonly TLanguageLike[],
  lessons: readonly unknown[],
): TCourseRuleIssue[] => {
  const issues: TCourseRuleIssue[] = [];
  if (languages.filter((language) => language.is_primary === true).length !== 1) {
    issues.push({ path: ['languages'], key: 'primaryLanguageRequired' });
  }
  const seenLanguages = new Set<string>();
  languages.forEach((language, index) => {
    if (seenLanguages.has(language.short_name)) {
      issues.push({ path: ['languages', index, 'short_name'], key: 'languageDuplicate' });
    }
    seenLanguages.add(language.short_name);
  });
  const seenLessons = new Set<string>();
  lessons.forEach((lesson, index) => {
    const key = lessonKeyOf(lesson);
    if (!key) return;
    if (!seenLanguages.has(key.language)) {
      issues.push({ path: ['lessons', index, 'language'], key: 'lessonLanguageNotInCourse' });
    }
    const id = `${key.day}:${key.language}`;
    if (seenLessons.has(id))
      issues.push({ path: ['lessons', index, 'day'], key: 'lessonDuplicate' });
    seenLessons.add(id);
  });
  return issues;
};

/** What the publish check reads of a course: the Course resource and the update body both fit. */
export type TPublishCourse = {
  languages: readonly TLanguageLike[];
  lessons: readonly unknown[];
  distribution?: { start_date?: string | null; channels?: readonly string[] } | null;
  learners_lists?: readonly (string | { uuid: string })[];
};

export type TPublishOptions = {
  now: Date;
  /** Whether the company has any learners list at all; default true. */
  hasLearnersLists?: boolean;
};

/** One publish problem; `key`, `day`, `language` and `option` let a client translate it. */
export type TPublishProblem = {
  path: string;
  message: string;
  key?: TMessageKey;
  day?: number;
  language?: string;
  option?: number;
  /** 1-based lesson position, when the lesson's day or language is unusable. */
  lesson?: number;
};

const lowerFirst = (text: string) => `${text.charAt(0).toLowerCase()}${text.slice(1)}`;

/** "Day 2 (it): the lesson title is required." / "Day 3 (en), option 2: the answer …". */
export const publishMessage = (
  text: string,
  where: { day?: number; language?: string; option?: number; lesson?: number },
): string => {
  const subject =
    where.day !== undefined && where.language !== undefined
      ? `Day ${where.day} (${where.language})`
      : where.lesson !== undefined
        ? `Lesson ${where.lesson}`
        : null;
  if (subject === null) return text;
  const option = where.option !== undefined ? `, option ${where.option}` : '';
  return `${subject}${option}: ${lowerFirst(text)}`;
};

/** The answer option (1-based) a lesson issue path points into, if any. */
const optionOf = (path: readonly PropertyKey[]): number | undefined =>
  path[0] === 'assessment' && path[1] === 'answers' && typeof path[2] === 'number'
    ? path[2] + 1
    : undefined;

/**
 * Everything that blocks publishing a course, as `{ path, message }` problems: at least one
 * lesson; every day from 1 to the last in every course language; each lesson's title, intro,
 * content, minutes, question, answers and responses present and within limits; at most 30
 * days; a delivery date in the window, a channel, and a learners list.
 */
export const publishCheck = (
  course: TPublishCourse,
  { now, hasLearnersLists = true }: TPublishOptions,
): TPublishProblem[] => {
  const problems: TPublishProblem[] = [];
  const lessonKeys = course.lessons.map(lessonKeyOf);

  if (course.lessons.length === 0) {
    problems.push({ path: 'lessons', message: MESSAGES.lessonsMin, key: 'lessonsMin' });
  }

  for (const issue of courseStructureIssues(course.languages, course.lessons)) {
    const index = issue.path[0] === 'lessons' ? issue.path[1] : undefined;
    const where = typeof index === 'number' ? (lessonKeys[index] ?? { lesson: index + 1 }) : {};
    problems.push({
      path: issue.path.join('.'),
      message: publishMessage(MESSAGES[issue.key], where),
      key: issue.key,
      ...where,
    });
  }

  course.lessons.forEach((lesson, index) => {
    const parsed = ZLessonSchema.safeParse(lesson);
    if (parsed.success) return;
    const key = lessonKeys[index];
    for (const issue of parsed.error.issues) {
      const option = optionOf(issue.path);
      const where = {
        ...(key ?? { lesson: index + 1 }),
        ...(option !== undefined ? { option } : {}),
      };
      const textKey = messageKey(issue.message);
      problems.push({
        path: ['lessons', index, ...issue.path.map(String)].join('.'),
        message: publishMessage(issue.message, where),
        ...(textKey ? { key: textKey } : {}),
        ...where,
      });
    }
  });

  // Every day up to the last one needs a lesson in every course language.
  const languages = [
    ...new Set(course.languages.map((language) => language.short_name).filter(isLocale)),
  ];
  const present = new Set(lessonKeys.map((key) => (key ? `${key.day}:${key.language}` : '')));
  const lastDay = Math.max(0, ...lessonKeys.map((key) => key?.day ?? 0));
  for (let day = 1; day <= lastDay; day += 1) {
    for (const language of languages) {
      if (present.has(`${day}:${language}`)) continue;
      problems.push({
        path: 'lessons',
        message: publishMessage(MESSAGES.lessonMissing, { day, language }),
        key: 'lessonMissing',
        day,
        language,
      });
    }
  }
  const days = new Set(lessonKeys.map((key) => key?.day).filter((day) => day !== undefined));
  if (days.size > MAX_LESSONS_PER_COURSE) {
    problems.push({ path: 'lessons', message: MESSAGES.lessonsMax, key: 'lessonsMax' });
  }

  const dateProblem = validateDeliveryDate(course.distribution?.start_date, now);
  if (dateProblem) {
    problems.push({
      path: 'distribution.start_date',
      message: dateProblem,
      ...(messageKey(dateProblem) ? { key: messageKey(dateProblem) } : {}),
    });
  }
  if ((course.distribution?.channels ?? []).length === 0) {
    problems.push({
      path: 'distribution.channels',
      message: MESSAGES.deliveryChannelRequired,
      key: 'deliveryChannelRequired',
    });
  }
  if (!hasLearnersLists) {
    problems.push({
      path: 'learners_lists',
      message: MESSAGES.learnersListRequired,
      key: 'learnersListRequired',
    });
  } else if ((course.learners_lists ?? []).length === 0) {
    problems.push({
      path: 'learners_lists',
      message: MESSAGES.learnersRequired,
      key: 'learnersRequired',
    });
  }
  return problems;
};

/** Problems as the 422 body's `errors`: messages grouped by path, in order. */
export const publishProblemsToFieldErrors = (
  problems: readonly TPublishProblem[],
): TFieldErrors => {
  const errors: TFieldErrors = {};
  for (const problem of problems) (errors[problem.path] ??= []).push(problem.message);
  return errors;
};

const ZPublishInputSchema = z.object({
  languages: z
    .array(z.object({ short_name: z.string(), is_primary: z.boolean().optional().catch(false) }))
    .catch([]),
  lessons: z.array(z.unknown()).catch([]),
  distribution: z
    .object({
      start_date: z.string().nullish().catch(null),
      channels: z.array(z.string()).catch([]),
    })
    .nullish()
    .catch(null),
  learners_lists: z
    .array(z.union([z.string(), z.object({ uuid: z.string() })]))
    .optional()
    .catch([]),
});

/** Reads a publish-checkable course out of an unvalidated body, so the check can run on drafts. */
export const toPublishCourse = (input: unknown): TPublishCourse =>
  ZPublishInputSchema.parse(isRecord(input) ? input : {});
