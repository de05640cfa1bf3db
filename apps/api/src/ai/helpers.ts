import { AI_PROMPTS, clampText } from '@ccp/schemas';
import type { TAiLessonEntry, TAiModel, TAiPromptId, TLocale } from '@ccp/schemas';

import { offlineHelper } from './offline.ts';
import { AiProviderError } from './provider.ts';
import type { TAiProvider } from './provider.ts';
import { clampLessonHtml, plainText } from './text.ts';

// The writing helpers of spec §7 (`POST /courses/helpers/lessons`): each prompt turns the
// content into one text, held to the limit of the lesson field it is for.

const helperPrompt = (prompt: (typeof AI_PROMPTS)[number]) =>
  [
    'You help a course creator write micro-learning lessons.',
    prompt.prompt,
    'Write in the language of the content.',
    prompt.html
      ? `The result is simple HTML (<p>, <ul>, <li>, <strong>, <em> only) with at most ${prompt.max} characters of text.`
      : `The result is plain text of at most ${prompt.max} characters.`,
    'Answer with one JSON object and nothing else: {"processed": "..."}.',
  ].join('\n');

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Each asked prompt's entry (spec §3: prompt, original, processed), by the provider or offline. */
export const runHelpers = async (
  provider: TAiProvider | null,
  {
    ids,
    content,
    model,
    language,
  }: { ids: readonly TAiPromptId[]; content: string; model: TAiModel; language: TLocale },
): Promise<Record<string, TAiLessonEntry>> => {
  const prompts = AI_PROMPTS.filter((prompt) => ids.includes(prompt.id));
  const results = await Promise.all(
    prompts.map(async (prompt) => {
      if (!provider) return offlineHelper(prompt.id, content, language);
      const answer = await provider.chatJson({
        model,
        system: helperPrompt(prompt),
        user: content,
      });
      const raw = isRecord(answer) ? answer.processed : undefined;
      const processed =
        typeof raw !== 'string'
          ? ''
          : prompt.html
            ? clampLessonHtml(raw, prompt.max)
            : clampText(plainText(raw), prompt.max);
      if (!plainText(processed)) throw new AiProviderError('invalid', 'The AI answer is empty.');
      return processed;
    }),
  );
  return Object.fromEntries(
    prompts.map((prompt, index) => [
      prompt.id,
      { prompt: prompt.prompt, original: content, processed: results[index] ?? '' },
    ]),
  );
};
