import { MESSAGES, TEXT_LIMITS } from '@ccp/schemas';
import type { TAiModel, TAssessmentType, TLesson, TLocale } from '@ccp/schemas';

import { fill } from './messages.ts';
import type { TGeneratedLessons } from './offline.ts';
import { AiProviderError } from './provider.ts';
import type { TAiProvider } from './provider.ts';
import { lessonTextOf, repairLesson } from './repair.ts';
import { blocksToText, charCount } from './text.ts';
import type { TBlock } from './text.ts';

// A draft's lessons written by the AI provider from the source text, then held to §5.

/** The most source text sent in one request (about 15,000 tokens). */
export const AI_SOURCE_MAX_CHARS = 60_000;

export const LANGUAGE_NAMES: Record<TLocale, string> = {
  en: 'English',
  it: 'Italian',
  de: 'German',
};

const TYPE_RULES: Record<TAssessmentType, string> = {
  multiple_choice:
    '"multiple_choice": 3 or 4 answers, exactly one with "correct": true, the others false',
  true_false:
    '"true_false": exactly two answers, "True" and "False" written in the course language, exactly one with "correct": true',
  open_answer: '"open_answer": no answers',
};

/** The system prompt of a course import: the JSON shape and every §5 limit. */
export const courseSystemPrompt = (
  count: number,
  language: TLocale,
  types: readonly TAssessmentType[],
): string =>
  [
    `You are an instructional designer. Turn the source material into a micro-learning course of exactly ${count} daily lessons, written in ${LANGUAGE_NAMES[language]}.`,
    'Answer with one JSON object and nothing else, of this shape:',
    '{"lessons":[{"title":string,"topic_intro":string,"topic_content":string,"learning_minutes":integer,"assessment":{"type":string,"question":string,"answers":[{"text":string,"correct":boolean,"response":string}]}}]}',
    'Rules:',
    `- title: at most ${TEXT_LIMITS.lessonTitle} characters.`,
    `- topic_intro: plain text of at most ${TEXT_LIMITS.topicIntro} characters that makes the learner curious.`,
    `- topic_content: simple HTML (<p>, <ul>, <li>, <strong>, <em> only) with at most ${TEXT_LIMITS.topicContent} characters of text.`,
    '- learning_minutes: a whole number from 1 to 300.',
    `- assessment.type: ${types.map((type) => `"${type}"`).join(' or ')}; ${types.map((type) => TYPE_RULES[type]).join('; ')}.`,
    `- question: at most ${TEXT_LIMITS.question} characters; each answer text at most ${TEXT_LIMITS.answer} characters; each response (the feedback the learner gets for that answer) at most ${TEXT_LIMITS.response} characters.`,
    '- No two answers of a question may be alike.',
    '- Use only facts from the source material; cover it in order, one part per lesson, spread over the whole of it.',
    '- Lines starting with "## " are the source\'s section headings: take lesson titles from them (without their numbering).',
    '- Ask about a key term or fact of the lesson; wrong answers are terms or facts of the same kind from the source, never random fragments.',
  ].join('\n');

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export type TAiCourseInput = {
  blocks: readonly TBlock[];
  name: string;
  description: string;
  count: number;
  language: TLocale;
  types: readonly TAssessmentType[];
  model: TAiModel;
};

/** The lessons the provider writes, each repaired to the lesson rules; throws AiProviderError. */
export const generateAiLessons = async (
  provider: TAiProvider,
  input: TAiCourseInput,
): Promise<TGeneratedLessons> => {
  const warnings: string[] = [];
  let text = blocksToText(input.blocks);
  if (charCount(text) > AI_SOURCE_MAX_CHARS) {
    text = [...text].slice(0, AI_SOURCE_MAX_CHARS).join('');
    warnings.push(fill(MESSAGES.aiWarningSourceTruncated, { count: AI_SOURCE_MAX_CHARS }));
  }
  const answer = await provider.chatJson({
    model: input.model,
    system: courseSystemPrompt(input.count, input.language, input.types),
    user: `Course name: ${input.name}\nCourse description: ${input.description}\n\nSource material:\n"""\n${text}\n"""`,
  });
  const raw = isRecord(answer) ? answer.lessons : answer;
  if (!Array.isArray(raw) || raw.length === 0) {
    throw new AiProviderError('invalid', 'The AI answer has no lessons.');
  }
  const given = raw.slice(0, input.count);
  const sentencesOf = given.map((item) => lessonTextOf(item, input.language).sentences);
  const lessons: TLesson[] = [];
  given.forEach((item, index) => {
    const day = lessons.length + 1;
    const repaired = repairLesson(item, {
      day,
      language: input.language,
      types: input.types,
      others: sentencesOf.filter((_, other) => other !== index).flat(),
    });
    if (!repaired) {
      warnings.push(fill(MESSAGES.aiWarningLessonDropped, { day: index + 1 }));
      return;
    }
    lessons.push(repaired.lesson);
    if (repaired.rebuilt) warnings.push(fill(MESSAGES.aiWarningAssessmentRebuilt, { day }));
    if (repaired.missing) warnings.push(fill(MESSAGES.aiWarningAssessmentMissing, { day }));
  });
  if (lessons.length === 0) throw new AiProviderError('invalid', 'No AI lesson was usable.');
  if (lessons.length < input.count) {
    warnings.push(
      fill(MESSAGES.aiWarningFewerLessons, { count: lessons.length, requested: input.count }),
    );
  }
  return { lessons, warnings };
};
