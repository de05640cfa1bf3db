import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { stripHtml } from '@ccp/schemas';
import type { TAssessmentType, TLesson, TLocale } from '@ccp/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { extractDocument } from '../../src/ai/extract.ts';
import { alterStatement, generateOfflineLessons } from '../../src/ai/offline.ts';
import { sentencesOf } from '../../src/ai/text.ts';
import type { TBlock } from '../../src/ai/text.ts';
import { t } from '../../src/i18n/texts.ts';
import { HANDBOOK_CHAPTERS, makeHandbookPdf } from '../fixtures/security-handbook.ts';

// Issue 27 item 9: the offline draft of a security-awareness handbook (a PDF as a company sends
// it). Its lessons are named by headings only, its wrong answers are terms of the same kind
// from the same document, its true/false statements are whole sentences of it (or one changed
// in a way that keeps them whole), its minutes follow the reading, and every question ends with
// the standard thank-you of the course language.

const dir = mkdtempSync(path.join(tmpdir(), 'ccp-ai-handbook-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let blocks: TBlock[] = [];
beforeAll(async () => {
  const file = path.join(dir, 'handbook.pdf');
  writeFileSync(file, await makeHandbookPdf());
  blocks = await extractDocument(file, 'pdf');
});

const draft = (count: number, types: TAssessmentType[], language: TLocale = 'en') =>
  generateOfflineLessons(blocks, { count, language, types }).lessons;

const documentText = () => blocks.map((block) => block.text).join('\n');
const documentSentences = () =>
  blocks.filter((block) => block.kind === 'paragraph').flatMap((block) => sentencesOf(block.text));

/** A whole word or phrase of the text: not part of a hyphenated, dotted or longer word. */
const standsWhole = (text: string, phrase: string) =>
  new RegExp(
    `(?<![\\p{L}\\p{N}]|[\\p{L}\\p{N}][-./])${phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}]|[-./][\\p{L}\\p{N}])`,
    'iu',
  ).test(text);

const COUNTS = [3, 5, 6, 8];

describe('the offline draft of a security-awareness handbook', () => {
  it('names each lesson by a chapter heading, never by a line of the cover', () => {
    expect(draft(5, ['multiple_choice', 'true_false']).map((lesson) => lesson.title)).toEqual(
      HANDBOOK_CHAPTERS.map((chapter) => chapter.heading),
    );
    const headings = blocks.filter((block) => block.kind === 'heading').map((block) => block.text);
    for (const count of COUNTS) {
      for (const lesson of draft(count, ['true_false'])) {
        const title = lesson.title.replace(/ \(\d+\)$/, '');
        expect(headings.map((heading) => heading.replace(/^\d+\.\s*/, ''))).toContain(title);
      }
    }
  });

  it('offers as wrong answers only whole terms of the document, no unit and no piece of a word', () => {
    const text = documentText();
    for (const count of COUNTS) {
      for (const lesson of draft(count, ['multiple_choice'])) {
        for (const answer of lesson.assessment?.answers ?? []) {
          const term = answer.text.replace(/^(?:a|an) /, '');
          expect(standsWhole(text, term), `${term} (day ${lesson.day} of ${count})`).toBe(true);
          expect(term).not.toMatch(/\b(?:hours?|minutes?|days?|percent)\b/);
        }
      }
    }
  });

  it('builds true/false only from whole sentences, never a share over 100 percent', () => {
    const whole = documentSentences().filter((sentence) => /^\p{Lu}.*[.!]$/u.test(sentence));
    for (const count of COUNTS) {
      for (const lesson of draft(count, ['true_false'])) {
        const statement = (lesson.assessment?.question ?? '').replace(/^True or false\? /, '');
        const right = lesson.assessment?.answers.find((answer) => answer.correct)?.response ?? '';
        const original = /“(.*)”$/u.exec(right)?.[1];
        expect(whole, `day ${lesson.day} of ${count}`).toContain(original);
        expect(statement).toMatch(/^\p{Lu}.*[.!]$/u);
        for (const share of statement.matchAll(/(\d+) percent/g))
          expect(Number(share[1])).toBeLessThanOrEqual(100);
      }
    }
  });

  it('changes a share to one within 100 percent', () => {
    const sentence = 'The security team aims to contain 70 percent of them within the first hour.';
    expect(alterStatement(sentence, 'en', [], false)).toBe(
      'The security team aims to contain 35 percent of them within the first hour.',
    );
  });

  it('reads at about 200 words a minute and thanks in the course language', () => {
    const words = (text: string) => text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word));
    const read = (lesson: TLesson) =>
      [
        lesson.topic_intro,
        stripHtml(lesson.topic_content.replace(/<\/p>/g, '</p>\n')),
        lesson.assessment?.question ?? '',
        ...(lesson.assessment?.answers.map((answer) => answer.text) ?? []),
      ].join(' ');
    for (const language of ['en', 'it', 'de'] as const) {
      for (const lesson of draft(3, ['multiple_choice', 'true_false'], language)) {
        expect(lesson.learning_minutes).toBe(
          Math.max(1, Math.ceil(words(read(lesson)).length / 200)),
        );
        expect(lesson.assessment?.thank_you_message).toBe(
          t(language, 'validation.answerResponseDefault'),
        );
      }
    }
  });
});
