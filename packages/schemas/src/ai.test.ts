import { describe, expect, it } from 'vitest';
import type { z } from 'zod';

import {
  AI_CONTENT_MAX,
  AI_PROMPTS,
  AI_PROMPT_IDS,
  ZAiImportFieldsSchema,
  ZAiLessonsRequestSchema,
  ZAiTranslateRequestSchema,
  aiAssessmentTypesOf,
  clampText,
} from './ai.ts';
import { charCount } from './course-text.ts';
import { MESSAGES } from './messages.ts';

const errorsOf = (schema: z.ZodType, input: unknown): Record<string, string[]> => {
  const result = schema.safeParse(input);
  if (result.success) return {};
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    (errors[issue.path.map(String).join('.')] ??= []).push(issue.message);
  }
  return errors;
};

const importFields = (overrides: Record<string, unknown> = {}) => ({
  name: 'Photosynthesis',
  description: 'How plants make food.',
  language: 'it',
  number_of_lessons: '5',
  assessment_type: 'true_false',
  model: 'gpt-4',
  ...overrides,
});

describe('AI_PROMPTS', () => {
  it('has stable, unique ids', () => {
    expect(AI_PROMPT_IDS).toEqual([
      'lesson-title',
      'topic-intro',
      'topic-content',
      'summary',
      'quiz-question',
    ]);
    expect(new Set(AI_PROMPT_IDS).size).toBe(AI_PROMPTS.length);
  });

  it('holds each prompt to the limit of the lesson field it writes', () => {
    const limits = Object.fromEntries(AI_PROMPTS.map((prompt) => [prompt.id, prompt.max]));
    expect(limits).toEqual({
      'lesson-title': 140,
      'topic-intro': 600,
      'topic-content': 1200,
      summary: 1200,
      'quiz-question': 300,
    });
  });
});

describe('clampText', () => {
  it('keeps a text within the limit as it is, whitespace collapsed', () => {
    expect(clampText('  Plants   make\nfood. ', 140)).toBe('Plants make food.');
    expect(clampText('a'.repeat(140), 140)).toBe('a'.repeat(140));
  });

  it('cuts a longer text at a word boundary with an ellipsis, within the limit', () => {
    const text = 'Photosynthesis turns light into chemical energy stored in sugar molecules';
    const clamped = clampText(text, 40);
    expect(clamped).toBe('Photosynthesis turns light into…');
    expect(charCount(clamped)).toBeLessThanOrEqual(40);
  });

  it('cuts one long word by characters and counts emoji as one character', () => {
    expect(clampText('x'.repeat(141), 140)).toBe(`${'x'.repeat(139)}…`);
    const emoji = clampText('🌱'.repeat(200), 100);
    expect(charCount(emoji)).toBe(100);
  });
});

describe('aiAssessmentTypesOf', () => {
  it('maps the form choice to assessment types', () => {
    expect(aiAssessmentTypesOf('true_false')).toEqual(['true_false']);
    expect(aiAssessmentTypesOf('multiple_option')).toEqual(['multiple_choice']);
    expect(aiAssessmentTypesOf('random')).toEqual(['multiple_choice', 'true_false']);
  });
});

describe('ZAiImportFieldsSchema', () => {
  it('accepts the form fields as multipart strings', () => {
    expect(ZAiImportFieldsSchema.parse(importFields())).toEqual({
      ...importFields(),
      number_of_lessons: 5,
    });
  });

  it('defaults language, assessment type and model', () => {
    const parsed = ZAiImportFieldsSchema.parse({
      name: 'A',
      description: 'B',
      number_of_lessons: 1,
    });
    expect(parsed).toMatchObject({ language: 'en', assessment_type: 'random', model: 'gpt-3.5' });
  });

  it.each([
    ['1', true],
    ['30', true],
    ['0', false],
    ['31', false],
    ['2.5', false],
    ['ten', false],
    ['', false],
  ])('number_of_lessons %j valid: %s', (value, valid) => {
    const errors = errorsOf(ZAiImportFieldsSchema, importFields({ number_of_lessons: value }));
    expect(errors).toEqual(valid ? {} : { number_of_lessons: [MESSAGES.aiLessonsCountRange] });
  });

  it('names every missing or invalid field', () => {
    expect(
      errorsOf(ZAiImportFieldsSchema, {
        description: 'x'.repeat(201),
        language: 'fr',
        assessment_type: 'open_answer',
        model: 'gpt-5',
      }),
    ).toEqual({
      name: [MESSAGES.nameRequired],
      description: [MESSAGES.descriptionMax],
      language: [MESSAGES.languageUnknown],
      number_of_lessons: [MESSAGES.aiLessonsCountRange],
      assessment_type: [MESSAGES.aiAssessmentTypeInvalid],
      model: [MESSAGES.aiModelInvalid],
    });
  });
});

describe('ZAiLessonsRequestSchema', () => {
  it('takes one prompt or none (all prompts)', () => {
    expect(
      ZAiLessonsRequestSchema.parse({ promptId: 'summary', content: 'Text.', model: 'gpt-4' }),
    ).toEqual({ promptId: 'summary', content: 'Text.', model: 'gpt-4', language: 'en' });
    expect(ZAiLessonsRequestSchema.parse({ content: 'Text.' }).promptId).toBeUndefined();
  });

  it('refuses an unknown prompt, empty content and content over the limit', () => {
    expect(errorsOf(ZAiLessonsRequestSchema, { promptId: 'poem', content: ' ' })).toEqual({
      promptId: [MESSAGES.aiPromptUnknown],
      content: [MESSAGES.aiContentRequired],
    });
    expect(errorsOf(ZAiLessonsRequestSchema, { content: 'a'.repeat(AI_CONTENT_MAX + 1) })).toEqual({
      content: [MESSAGES.aiContentMax],
    });
    expect(errorsOf(ZAiLessonsRequestSchema, { content: 'a'.repeat(AI_CONTENT_MAX) })).toEqual({});
  });
});

describe('ZAiTranslateRequestSchema', () => {
  it('needs a known target language; overwrite defaults to false', () => {
    expect(ZAiTranslateRequestSchema.parse({ target_language: 'de' })).toEqual({
      target_language: 'de',
      model: 'gpt-3.5',
      overwrite: false,
    });
    expect(errorsOf(ZAiTranslateRequestSchema, { target_language: 'fr' })).toEqual({
      target_language: [MESSAGES.languageUnknown],
    });
    expect(errorsOf(ZAiTranslateRequestSchema, {})).toEqual({
      target_language: [MESSAGES.languageUnknown],
    });
  });
});
