import { z } from 'zod';

import {
  ASSESSMENT_TYPES,
  LEARNING_MINUTES,
  LOCALES,
  MAX_ANSWERS,
  MAX_LESSONS_PER_COURSE,
  TEXT_LIMITS,
} from './constants.ts';
import { areAnswersSimilar, charCount, isPresent, stripHtml } from './course-text.ts';
import { MESSAGES } from './messages.ts';
import type { TMessageKey } from './messages.ts';

// Lessons, their media and assessments (spec §3), with the rules of spec §5.

/** A text that must hold more than whitespace and at most `max` characters. */
export const requiredText = (max: number, required: string, tooLong: string) =>
  z
    .string({ error: required })
    .refine(isPresent, { message: required })
    .refine((value) => charCount(value) <= max, { message: tooLong });

/** An optional text of at most `max` characters; null when absent. */
const optionalText = (max: number, tooLong: string) =>
  z
    .string({ error: tooLong })
    .refine((value) => charCount(value) <= max, { message: tooLong })
    .nullable()
    .default(null);

export const LESSON_MEDIA_TYPES = ['link', 'upload'] as const;
const MEDIA_URL_MAX = 2048;

// Characters a URL never carries unencoded (RFC 3986): a quote or an angle bracket would let the
// link break out of the attribute it is written into (`https://ok.example/x"><script>`).
const UNSAFE_URL_CHARACTERS = /[\s"'<>\\^`{|}\p{Cc}]/u;

const isHttpUrl = (value: string): boolean => {
  if (UNSAFE_URL_CHARACTERS.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/** A lesson's media: a link to a page or video, or an uploaded file (a server path or URL). */
export const ZLessonMediaSchema = z
  .object({
    type: z.enum(LESSON_MEDIA_TYPES, { error: MESSAGES.mediaTypeInvalid }),
    url: z
      .string({ error: MESSAGES.mediaUrlInvalid })
      .min(1, { message: MESSAGES.mediaUrlInvalid })
      .max(MEDIA_URL_MAX, { message: MESSAGES.mediaUrlInvalid }),
  })
  .superRefine((media, ctx) => {
    const valid =
      media.type === 'link'
        ? isHttpUrl(media.url)
        : isHttpUrl(media.url) ||
          (/^\/(?!\/)\S*$/.test(media.url) && !UNSAFE_URL_CHARACTERS.test(media.url));
    if (!valid) ctx.addIssue({ code: 'custom', path: ['url'], message: MESSAGES.mediaUrlInvalid });
  });
export type TLessonMedia = z.infer<typeof ZLessonMediaSchema>;

/** The feedback an answer gets when its author leaves the response empty (spec §5 pre-fill). */
export const DEFAULT_ANSWER_RESPONSE: string = MESSAGES.answerResponseDefault;

export const ZAnswerSchema = z.object({
  text: requiredText(TEXT_LIMITS.answer, MESSAGES.answerRequired, MESSAGES.answerMax),
  correct: z.boolean({ error: MESSAGES.booleanInvalid }).default(false),
  // Pre-filled when empty, then required like any text.
  response: z
    .string({ error: MESSAGES.responseRequired })
    .nullish()
    .transform((value) => (value && isPresent(value) ? value : DEFAULT_ANSWER_RESPONSE))
    .pipe(requiredText(TEXT_LIMITS.response, MESSAGES.responseRequired, MESSAGES.responseMax)),
});
export type TAnswer = z.infer<typeof ZAnswerSchema>;

export type TCourseRuleIssue = { path: (string | number)[]; key: TMessageKey };

type TAssessmentLike = {
  type: (typeof ASSESSMENT_TYPES)[number];
  answers: readonly { text: string; correct: boolean }[];
};

/**
 * The cross-field rules of an assessment: multiple choice has at least two answers and one
 * correct; true/false has exactly two and exactly one correct; no two answers are similar.
 */
export const assessmentIssues = (assessment: TAssessmentLike): TCourseRuleIssue[] => {
  const issues: TCourseRuleIssue[] = [];
  const { answers, type } = assessment;
  const correct = answers.filter((answer) => answer.correct).length;
  if (type === 'multiple_choice') {
    if (answers.length < 2) issues.push({ path: ['answers'], key: 'answersMin' });
    if (correct === 0) issues.push({ path: ['answers'], key: 'oneCorrectAnswer' });
  } else if (type === 'true_false') {
    if (answers.length !== 2) issues.push({ path: ['answers'], key: 'trueFalseAnswers' });
    if (correct === 0) issues.push({ path: ['answers'], key: 'oneCorrectAnswer' });
    else if (correct > 1) issues.push({ path: ['answers'], key: 'trueFalseOneCorrect' });
  }
  answers.forEach((answer, index) => {
    if (!isPresent(answer.text)) return;
    const earlier = answers.slice(0, index);
    if (
      earlier.some((other) => isPresent(other.text) && areAnswersSimilar(other.text, answer.text))
    ) {
      issues.push({ path: ['answers', index, 'text'], key: 'similarAnswers' });
    }
  });
  return issues;
};

// Spec §3: answers are for choice questions. An open answer keeps none, whatever rows a client
// left behind when the type was switched (they would otherwise be "required" empty answers).
const withoutOpenAnswerRows = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  (value as { type?: unknown }).type === 'open_answer' &&
  Array.isArray((value as { answers?: unknown }).answers)
    ? { ...value, answers: [] }
    : value;

const ZAssessmentObjectSchema = z
  .object({
    question: requiredText(TEXT_LIMITS.question, MESSAGES.questionRequired, MESSAGES.questionMax),
    type: z.enum(ASSESSMENT_TYPES, { error: MESSAGES.assessmentTypeInvalid }),
    mandatory: z.boolean({ error: MESSAGES.booleanInvalid }).default(true),
    answers: z
      .array(ZAnswerSchema, { error: MESSAGES.answersMax })
      .max(MAX_ANSWERS, { message: MESSAGES.answersMax })
      .default([]),
    thank_you_message: optionalText(TEXT_LIMITS.response, MESSAGES.thankYouMessageMax),
  })
  .superRefine((assessment, ctx) => {
    for (const issue of assessmentIssues(assessment)) {
      ctx.addIssue({ code: 'custom', path: issue.path, message: MESSAGES[issue.key] });
    }
  });

export const ZAssessmentSchema = z.preprocess(withoutOpenAnswerRows, ZAssessmentObjectSchema);
export type TAssessment = z.infer<typeof ZAssessmentSchema>;

const learningMinutes = z
  .number({ error: MESSAGES.learningMinutesRange })
  .int({ message: MESSAGES.learningMinutesRange })
  .min(LEARNING_MINUTES.min, { message: MESSAGES.learningMinutesRange })
  .max(LEARNING_MINUTES.max, { message: MESSAGES.learningMinutesRange });

/** One lesson: one day of a course in one of its languages. */
export const ZLessonSchema = z.object({
  day: z
    .number({ error: MESSAGES.lessonDayRange })
    .int({ message: MESSAGES.lessonDayRange })
    .min(1, { message: MESSAGES.lessonDayRange })
    .max(MAX_LESSONS_PER_COURSE, { message: MESSAGES.lessonDayRange }),
  language: z.enum(LOCALES, { error: MESSAGES.languageUnknown }),
  title: requiredText(
    TEXT_LIMITS.lessonTitle,
    MESSAGES.lessonTitleRequired,
    MESSAGES.lessonTitleMax,
  ),
  topic_intro: requiredText(
    TEXT_LIMITS.topicIntro,
    MESSAGES.topicIntroRequired,
    MESSAGES.topicIntroMax,
  ),
  // HTML: required and limited on the text a reader sees.
  topic_content: z
    .string({ error: MESSAGES.topicContentRequired })
    .refine((html) => isPresent(stripHtml(html)), { message: MESSAGES.topicContentRequired })
    .refine((html) => charCount(stripHtml(html)) <= TEXT_LIMITS.topicContent, {
      message: MESSAGES.topicContentMax,
    }),
  learning_minutes: learningMinutes,
  media: ZLessonMediaSchema.nullable().default(null),
  assessment: ZAssessmentSchema.nullable().default(null),
});
export type TLesson = z.infer<typeof ZLessonSchema>;
export type TLessonInput = z.input<typeof ZLessonSchema>;
