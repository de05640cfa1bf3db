import { TEXT_LIMITS, clampText } from '@ccp/schemas';
import type { TAiModel, TCourseLesson, TLessonInput, TLocale } from '@ccp/schemas';

import { LANGUAGE_NAMES } from './generate.ts';
import { AiProviderError } from './provider.ts';
import type { TAiProvider } from './provider.ts';
import { clampLessonHtml, plainText } from './text.ts';

// Lesson translation: each lesson's texts go to the provider as one JSON list, in order; the
// answer must hold as many texts as were sent (spec §8's "size mismatch" otherwise). Translated
// texts are held to the §5 limits; the structure (days, correct flags, media) is the source's.

/** The provider translated a list into a list of another length. */
export class TranslationSizeError extends Error {
  readonly sent: number;
  readonly received: number;

  constructor(sent: number, received: number) {
    super(`Sent ${sent} texts, received ${received}.`);
    this.name = 'TranslationSizeError';
    this.sent = sent;
    this.received = received;
  }
}

/**
 * The provider answered a text with nothing (spec §8 "Translation not found"): a blank item for a
 * source text that has words would store a lesson without them.
 */
export class TranslationMissingError extends Error {
  readonly day: number;

  constructor(day: number) {
    super(`A text of day ${day} came back untranslated (blank).`);
    this.name = 'TranslationMissingError';
    this.day = day;
  }
}

const isBlank = (text: string) => plainText(text).trim() === '';

/** The texts of a lesson in a fixed order: title, intro, content, then its assessment's. */
export const lessonTexts = (lesson: TCourseLesson): string[] => {
  const texts = [lesson.title, lesson.topic_intro, lesson.topic_content];
  const { assessment } = lesson;
  if (assessment) {
    texts.push(assessment.question);
    for (const answer of assessment.answers) texts.push(answer.text, answer.response);
    if (assessment.thank_you_message) texts.push(assessment.thank_you_message);
  }
  return texts;
};

/** The lesson in the target language from its translated texts (in lessonTexts order). */
export const applyTexts = (
  lesson: TCourseLesson,
  texts: readonly string[],
  language: TLocale,
): TLessonInput => {
  let at = 0;
  const next = () => texts[at++] ?? '';
  const plain = (max: number) => clampText(plainText(next()), max);
  const title = plain(TEXT_LIMITS.lessonTitle);
  const intro = plain(TEXT_LIMITS.topicIntro);
  const content = clampLessonHtml(next());
  const { assessment } = lesson;
  return {
    day: lesson.day,
    language,
    title,
    topic_intro: intro,
    topic_content: content,
    learning_minutes: lesson.learning_minutes,
    media: lesson.media,
    assessment: assessment
      ? {
          question: plain(TEXT_LIMITS.question),
          type: assessment.type,
          mandatory: assessment.mandatory,
          answers: assessment.answers.map((answer) => ({
            text: plain(TEXT_LIMITS.answer),
            correct: answer.correct,
            response: plain(TEXT_LIMITS.response),
          })),
          thank_you_message: assessment.thank_you_message ? plain(TEXT_LIMITS.response) : null,
        }
      : null,
  };
};

const translationPrompt = (from: TLocale, to: TLocale, count: number) =>
  [
    `Translate every item of the JSON list "items" from ${LANGUAGE_NAMES[from]} into ${LANGUAGE_NAMES[to]}.`,
    'The items are the texts of one lesson of an online course. Keep HTML tags exactly as they are and translate only the text between them.',
    'Keep each translation about as long as its original.',
    `Answer with one JSON object and nothing else: {"items": [...]} holding exactly ${count} translated strings, in the same order.`,
  ].join('\n');

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const CONCURRENCY = 3;

/**
 * The lessons translated by the provider, one request per lesson (a few at a time). Throws
 * AiProviderError when the provider fails, TranslationSizeError on a size mismatch and
 * TranslationMissingError when a text came back blank.
 */
export const translateLessons = async (
  provider: TAiProvider,
  {
    lessons,
    from,
    to,
    model,
  }: { lessons: readonly TCourseLesson[]; from: TLocale; to: TLocale; model: TAiModel },
): Promise<TLessonInput[]> => {
  const results: TLessonInput[] = new Array<TLessonInput>(lessons.length);
  let next = 0;
  const worker = async () => {
    while (next < lessons.length) {
      const index = next++;
      const lesson = lessons[index] as TCourseLesson;
      const items = lessonTexts(lesson);
      const answer = await provider.chatJson({
        model,
        system: translationPrompt(from, to, items.length),
        user: JSON.stringify({ items }),
      });
      const translated = isRecord(answer) ? answer.items : answer;
      if (!Array.isArray(translated) || translated.some((item) => typeof item !== 'string')) {
        throw new AiProviderError('invalid', 'The translation is not a list of texts.');
      }
      if (translated.length !== items.length) {
        throw new TranslationSizeError(items.length, translated.length);
      }
      if (items.some((item, at) => !isBlank(item) && isBlank(translated[at] as string))) {
        throw new TranslationMissingError(lesson.day);
      }
      results[index] = applyTexts(lesson, translated as string[], to);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, lessons.length) }, worker));
  return results;
};
