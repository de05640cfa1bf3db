import {
  DEFAULT_ANSWER_RESPONSE,
  LEARNING_MINUTES,
  MAX_ANSWERS,
  TEXT_LIMITS,
  ZAssessmentSchema,
  ZLessonSchema,
  areAnswersSimilar,
  clampText,
  stripHtml,
} from '@ccp/schemas';
import type { TAnswer, TAssessment, TAssessmentType, TLesson, TLocale } from '@ccp/schemas';

import { buildAssessment, introFrom, learningMinutesFor, typeOrderFor } from './offline.ts';
import { clampLessonHtml, escapeHtml, plainText, sentencesOf } from './text.ts';

// What an AI service answers is checked against the lesson rules of spec §5 before it is stored:
// texts are clamped to their limits, lesson HTML is sanitised, answers are deduplicated, and an
// assessment that cannot be repaired is rebuilt from the lesson text (or left out).

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const TYPE_NAMES: Record<string, TAssessmentType> = {
  multiple_choice: 'multiple_choice',
  multiplechoice: 'multiple_choice',
  multiple_option: 'multiple_choice',
  true_false: 'true_false',
  truefalse: 'true_false',
  boolean: 'true_false',
};

const typeOf = (value: unknown): TAssessmentType | null =>
  typeof value === 'string'
    ? (TYPE_NAMES[
        value
          .toLowerCase()
          .replace(/[\s/-]+/g, '_')
          .replace(/_+/g, '_')
      ] ??
      TYPE_NAMES[value.toLowerCase().replace(/[^a-z]/g, '')] ??
      null)
    : null;

const isTrue = (value: unknown) => value === true || value === 'true' || value === 1;

/** The visible text of lesson HTML with paragraphs kept apart, for sentence splitting. */
export const visibleText = (html: string): string =>
  stripHtml(html.replace(/<\/(p|li)>|<br>/gi, '$& '))
    .replace(/\s+/g, ' ')
    .trim();

const answersOf = (raw: unknown): TAnswer[] => {
  const answers: TAnswer[] = [];
  for (const item of Array.isArray(raw) ? raw : []) {
    const record: Record<string, unknown> = isRecord(item) ? item : { text: item };
    const text = clampText(plainText(record.text ?? record.answer), TEXT_LIMITS.answer);
    if (!text) continue;
    const correct = isTrue(record.correct ?? record.is_correct);
    const response =
      clampText(plainText(record.response ?? record.feedback), TEXT_LIMITS.response) ||
      DEFAULT_ANSWER_RESPONSE;
    const similar = answers.findIndex((answer) => areAnswersSimilar(answer.text, text));
    // Of two similar answers the correct one stays.
    if (similar >= 0) {
      if (correct && !answers[similar]?.correct) answers[similar] = { text, correct, response };
      continue;
    }
    answers.push({ text, correct, response });
  }
  return answers;
};

/**
 * An AI assessment made valid, or null when it cannot be: its type must be one of `types`;
 * multiple choice keeps one correct answer (other answers marked correct are dropped, never
 * turned wrong) and 2 to 11 answers; true/false needs exactly two answers, one correct.
 */
export const repairAssessment = (
  raw: unknown,
  types: readonly TAssessmentType[],
): TAssessment | null => {
  if (!isRecord(raw)) return null;
  const type = typeOf(raw.type);
  if (!type || !types.includes(type)) return null;
  const question = clampText(plainText(raw.question), TEXT_LIMITS.question);
  if (!question) return null;
  let answers = answersOf(raw.answers);
  if (type === 'multiple_choice') {
    const firstCorrect = answers.findIndex((answer) => answer.correct);
    if (firstCorrect < 0) return null;
    answers = answers.filter((answer, index) => !answer.correct || index === firstCorrect);
    if (answers.length > MAX_ANSWERS) {
      const wrong = answers.filter((answer) => !answer.correct).slice(0, MAX_ANSWERS - 1);
      answers = answers.filter((answer) => answer.correct || wrong.includes(answer));
    }
    if (answers.length < 2) return null;
  } else if (answers.length !== 2 || answers.filter((answer) => answer.correct).length !== 1) {
    return null;
  }
  const thankYou = clampText(plainText(raw.thank_you_message), TEXT_LIMITS.response);
  const parsed = ZAssessmentSchema.safeParse({
    question,
    type,
    mandatory: true,
    answers,
    thank_you_message: thankYou || null,
  });
  return parsed.success ? parsed.data : null;
};

export type TRepairContext = {
  day: number;
  language: TLocale;
  types: readonly TAssessmentType[];
  /** Sentences of the other lessons, for an assessment rebuilt from the text. */
  others: readonly string[];
};

export type TRepairedLesson = {
  lesson: TLesson;
  /** The AI's assessment was unusable and one was built from the lesson text. */
  rebuilt: boolean;
  /** No assessment could be made. */
  missing: boolean;
};

const minutesOf = (value: unknown, text: string, assessment: TAssessment | null): number => {
  const number = typeof value === 'string' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) {
    return learningMinutesFor(text, assessment);
  }
  return Math.min(LEARNING_MINUTES.max, Math.max(LEARNING_MINUTES.min, Math.round(number)));
};

/** The lesson HTML of an AI lesson, visible text, and its sentences. */
export const lessonTextOf = (raw: unknown, language: TLocale) => {
  const record = isRecord(raw) ? raw : {};
  const html =
    typeof record.topic_content === 'string' ? clampLessonHtml(record.topic_content) : '';
  const visible = visibleText(html);
  return { html, visible, sentences: sentencesOf(visible, language) };
};

/** An AI lesson held to the §5 lesson rules, or null when it has no usable text at all. */
export const repairLesson = (raw: unknown, context: TRepairContext): TRepairedLesson | null => {
  if (!isRecord(raw)) return null;
  const { day, language } = context;
  let { html, visible, sentences } = lessonTextOf(raw, language);
  const intro = clampText(plainText(raw.topic_intro), TEXT_LIMITS.topicIntro);
  if (!visible && intro) {
    html = `<p>${escapeHtml(intro)}</p>`;
    visible = intro;
    sentences = sentencesOf(intro, language);
  }
  if (!visible) return null;
  const title =
    clampText(plainText(raw.title), TEXT_LIMITS.lessonTitle) ||
    clampText(sentences[0] ?? visible, TEXT_LIMITS.lessonTitle);
  let assessment = repairAssessment(raw.assessment, context.types);
  const rebuilt = assessment === null;
  assessment ??= buildAssessment(
    { day, language, sentences, others: context.others, title },
    typeOrderFor(context.types, day),
  );
  const lesson = {
    day,
    language,
    title,
    topic_intro: intro || introFrom(sentences),
    topic_content: html,
    learning_minutes: minutesOf(raw.learning_minutes, `${intro} ${visible}`, assessment),
    media: null,
    assessment,
  };
  const parsed = ZLessonSchema.safeParse(lesson);
  if (parsed.success) {
    return {
      lesson: parsed.data,
      rebuilt: rebuilt && assessment !== null,
      missing: assessment === null,
    };
  }
  const bare = ZLessonSchema.safeParse({ ...lesson, assessment: null });
  return bare.success ? { lesson: bare.data, rebuilt: false, missing: true } : null;
};
