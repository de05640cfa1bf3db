import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { stripHtml } from '@ccp/schemas';
import type { TLesson } from '@ccp/schemas';
import { afterAll, describe, expect, it } from 'vitest';

import { extractDocument } from '../../src/ai/extract.ts';
import type { TDocumentType } from '../../src/ai/extract.ts';
import { generateOfflineLessons } from '../../src/ai/offline.ts';
import { sentencesOf } from '../../src/ai/text.ts';
import {
  GUIDE_CHAPTERS,
  GUIDE_FURNITURE,
  makeGuideDocx,
  makeGuidePdf,
  makeGuidePptx,
} from '../fixtures/ai.ts';

// Issue 13, "the offline generator, judged on real documents": a guide as it comes from the
// wild (a title page with its author, version, copyright and licence, a table of contents,
// running headers and footers with page numbers, an index), as a PDF, a .docx and a .pptx made
// here. Only the chapters may reach a lesson, titled by their real headings.

const dir = mkdtempSync(path.join(tmpdir(), 'ccp-ai-guide-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every text a learner or a trainer reads in a lesson. */
const textsOf = (lesson: TLesson): string[] => [
  lesson.title,
  lesson.topic_intro,
  stripHtml(lesson.topic_content.replace(/<\/p>/g, '</p>\n')),
  lesson.assessment?.question ?? '',
  ...(lesson.assessment?.answers.flatMap((answer) => [answer.text, answer.response]) ?? []),
];

const FURNITURE = [
  GUIDE_FURNITURE.title,
  GUIDE_FURNITURE.author,
  GUIDE_FURNITURE.version,
  'Copyright',
  'All rights reserved',
  'Free Documentation License',
  GUIDE_FURNITURE.footer,
  'Confidential',
  GUIDE_FURNITURE.contents,
  'Agenda',
  ...GUIDE_FURNITURE.indexEntries,
];

describe.each<[TDocumentType, () => Promise<Buffer>]>([
  ['pdf', makeGuidePdf],
  ['docx', makeGuideDocx],
  ['pptx', makeGuidePptx],
])('a guide as a .%s', (type, make) => {
  let lessons: TLesson[] = [];

  it('becomes one lesson per chapter, titled by its heading, intro at its first sentence', async () => {
    const file = path.join(dir, `guide.${type}`);
    writeFileSync(file, await make());
    const blocks = await extractDocument(file, type);
    ({ lessons } = generateOfflineLessons(blocks, {
      count: GUIDE_CHAPTERS.length,
      language: 'en',
      types: ['multiple_choice', 'true_false'],
    }));
    expect(lessons.map((lesson) => lesson.title)).toEqual(
      GUIDE_CHAPTERS.map((chapter) => chapter.heading),
    );
    expect(lessons.map((lesson) => sentencesOf(lesson.topic_intro)[0])).toEqual(
      GUIDE_CHAPTERS.map((chapter) => sentencesOf(chapter.paragraphs[0] ?? '')[0]),
    );
  });

  it('keeps every sentence of the chapters, the one over a page break whole', () => {
    const content = lessons.map((lesson) => stripHtml(lesson.topic_content)).join(' ');
    for (const sentence of GUIDE_CHAPTERS.flatMap((chapter) =>
      chapter.paragraphs.flatMap((paragraph) => sentencesOf(paragraph)),
    )) {
      expect(content).toContain(sentence);
    }
  });

  it('lets no header, footer, page number, contents, title page or index reach a lesson', () => {
    for (const lesson of lessons) {
      for (const text of textsOf(lesson)) {
        for (const furniture of FURNITURE) expect(text).not.toContain(furniture);
        // No page number, no dot leader, no "Page 3 of 8".
        expect(text).not.toMatch(/\.{4,}|\bPage \d|^\s*\d+\s*$|\n\s*\d+\s*(?:\n|$)/m);
      }
    }
  });
});
