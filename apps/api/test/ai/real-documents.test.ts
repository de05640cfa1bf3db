import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { stripHtml } from '@ccp/schemas';
import type { TLesson } from '@ccp/schemas';
import { afterAll, describe, expect, it } from 'vitest';

import { cleanBlocks } from '../../src/ai/clean.ts';
import { extractDocument } from '../../src/ai/extract.ts';
import type { TDocumentType } from '../../src/ai/extract.ts';
import { generateOfflineLessons } from '../../src/ai/offline.ts';
import { sentencesOf, textToBlocks } from '../../src/ai/text.ts';
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

// Italian and German go by language-neutral rules (terms.ts): the term an article leads into,
// German capitalised nouns.
const GUIDES: Record<'it' | 'de', string> = {
  it: `# Preparare la prima chiamata
Una chiamata di vendita comincia prima che squilli il telefono. Leggete le note del cliente e controllate il registro degli ordini.

# Aprire con una domanda
Aprite con una domanda sul cliente, non con il prodotto. Una domanda aperta invita il cliente a parlare delle sue priorità.

# Gestire le obiezioni
Un'obiezione è una richiesta di informazioni. Le obiezioni sul prezzo nascondono spesso un dubbio sul valore.`,
  de: `# Das erste Gespräch vorbereiten
Ein Verkaufsgespräch beginnt, bevor das Telefon klingelt. Lesen Sie die Notizen zum Kunden und prüfen Sie die letzte Bestellung.

# Mit einer Frage eröffnen
Eröffnen Sie mit einer Frage zum Kunden, nicht mit dem Produkt. Eine offene Frage lädt den Interessenten ein, über seine Prioritäten zu sprechen.

# Einwände behandeln
Ein Einwand ist eine Bitte um Information. Vergleichen Sie die Kosten mit der erwarteten Ersparnis.`,
};

it.each(['it', 'de'] as const)(
  'asks about a key term in %s, the wrong answers terms of other lessons',
  (language) => {
    const { lessons } = generateOfflineLessons(textToBlocks(GUIDES[language]), {
      count: 3,
      language,
      types: ['multiple_choice'],
    });
    const contents = lessons.map((lesson) => stripHtml(lesson.topic_content));
    lessons.forEach((lesson, index) => {
      const answers = lesson.assessment?.answers ?? [];
      const right = answers.find((answer) => answer.correct)?.text ?? '?';
      const sentence = /[“„](.*_____.*)[”“]/.exec(lesson.assessment?.question ?? '')?.[1] ?? '';
      expect(sentence).toContain('_____');
      expect(contents[index]).toContain(sentence.replace('_____', right));
      // A term is a word or a phrase of up to three, never a run of words across a verb.
      expect(right.split(' ').length).toBeLessThanOrEqual(3);
      const wrong = answers.filter((answer) => !answer.correct).map((answer) => answer.text);
      expect(wrong.length).toBeGreaterThanOrEqual(2);
      for (const text of wrong) {
        expect(contents[index]).not.toContain(text);
        expect(contents.some((content) => content.includes(text))).toBe(true);
      }
    });
  },
);

it('leaves out a licence appendix with its clauses, not a chapter about licences', () => {
  const paragraph = (text: string) => ({ kind: 'paragraph' as const, text });
  const heading = (text: string) => ({ kind: 'heading' as const, text });
  const course = [
    heading('1 Software for teams'),
    paragraph('Teams choose software by what it costs, what it does and how it is licensed.'),
    heading('2 Licensing models for SaaS'),
    paragraph('A SaaS licence is paid per seat and month, and ends when the payments stop.'),
    paragraph('A perpetual licence is paid once; updates after the first year cost extra.'),
    paragraph('An open-source licence costs nothing, but its conditions still bind the team.'),
  ];
  const appendix = [
    heading('Appendix A GNU Free Documentation License'),
    paragraph('Version 1.3, 3 November 2008. Copyright © 2000, 2008 Free Software Foundation.'),
    heading('1. APPLICABILITY AND DEFINITIONS'),
    paragraph(
      'This License applies to any manual or other work, in any medium, that contains a notice.',
    ),
  ];
  expect(cleanBlocks([...course, ...appendix])).toEqual(course);
});
