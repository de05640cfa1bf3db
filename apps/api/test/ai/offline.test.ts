import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { ZLessonSchema, areAnswersSimilar, stripHtml } from '@ccp/schemas';
import { afterAll, describe, expect, it } from 'vitest';

import { UnreadableFileError, decodeText, extractDocument } from '../../src/ai/extract.ts';
import type { TDocumentType } from '../../src/ai/extract.ts';
import {
  alterStatement,
  buildAssessment,
  generateOfflineLessons,
  offlineHelper,
  splitIntoParts,
} from '../../src/ai/offline.ts';
import { repairAssessment, repairLesson } from '../../src/ai/repair.ts';
import { clampLessonHtml, sanitizeLessonHtml, textToBlocks } from '../../src/ai/text.ts';
import type { TBlock } from '../../src/ai/text.ts';
import { SECTIONS, makeDocx, makePdf, makePptx, sectionsAsText } from '../fixtures/ai.ts';

// Text extraction from real files made here, and the offline generator that turns the text
// into lessons within the §5 limits.

const dir = mkdtempSync(path.join(tmpdir(), 'ccp-ai-extract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, bytes: Buffer | string) => {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
};

const EXPECTED_BLOCKS: TBlock[] = SECTIONS.flatMap((section) => [
  { kind: 'heading' as const, text: section.heading },
  ...section.paragraphs.map((text) => ({ kind: 'paragraph' as const, text })),
]);

describe('text extraction', () => {
  it.each<[TDocumentType, () => Promise<Buffer> | Buffer | string]>([
    ['txt', () => sectionsAsText()],
    ['docx', () => makeDocx()],
    ['pdf', () => makePdf()],
  ])('reads the headings and paragraphs of a %s file', async (type, make) => {
    const file = write(`source.${type}`, await make());
    expect(await extractDocument(file, type)).toEqual(EXPECTED_BLOCKS);
  });

  it('reads a pptx slide by slide: the title, then the body lines as one paragraph', async () => {
    const file = write('deck.pptx', await makePptx());
    expect(await extractDocument(file, 'pptx')).toEqual(
      SECTIONS.flatMap((section) => [
        { kind: 'heading', text: section.heading },
        { kind: 'paragraph', text: section.paragraphs.join(' ') },
      ]),
    );
  });

  it('orders slides by number (slide10 after slide9)', async () => {
    const sections = Array.from({ length: 11 }, (_, index) => ({
      heading: `Slide ${index + 1}`,
      paragraphs: [`Body of slide ${index + 1}.`],
    }));
    const file = write('eleven.pptx', await makePptx(sections));
    const headings = (await extractDocument(file, 'pptx'))
      .filter((block) => block.kind === 'heading')
      .map((block) => block.text);
    expect(headings).toEqual(sections.map((section) => section.heading));
  });

  it('refuses a file whose bytes are not its type', async () => {
    const fake = write('fake.docx', 'just some text');
    await expect(extractDocument(fake, 'docx')).rejects.toBeInstanceOf(UnreadableFileError);
    const pdfAsDocx = write('pdf.docx', await makePdf());
    await expect(extractDocument(pdfAsDocx, 'docx')).rejects.toBeInstanceOf(UnreadableFileError);
    const brokenPdf = write('broken.pdf', '%PDF-1.7\nnot really a pdf');
    await expect(extractDocument(brokenPdf, 'pdf')).rejects.toBeInstanceOf(UnreadableFileError);
  });

  it('decodes UTF-8 with a BOM, UTF-16 and Windows-1252 text', () => {
    expect(decodeText(Buffer.from('\ufeffCaffè', 'utf8'))).toBe('Caffè');
    expect(
      decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Größe', 'utf16le')])),
    ).toBe('Größe');
    expect(decodeText(Buffer.from([0x43, 0x61, 0x66, 0x66, 0xe8]))).toBe('Caffè');
  });

  it('reads Markdown headings, joins wrapped lines and turns bullets into sentences', () => {
    expect(
      textToBlocks(
        '# Water\nRoots take up water and\nminerals from the soil.\n\n- Leaves lose water\n- Stomata close',
      ),
    ).toEqual([
      { kind: 'heading', text: 'Water' },
      { kind: 'paragraph', text: 'Roots take up water and minerals from the soil.' },
      { kind: 'paragraph', text: 'Leaves lose water. Stomata close.' },
    ]);
  });
});

describe('splitIntoParts', () => {
  const blocks = textToBlocks(sectionsAsText());

  it('keeps one part per heading when the count matches', () => {
    expect(splitIntoParts(blocks, 3, 'en').map((part) => part.heading)).toEqual(
      SECTIONS.map((section) => section.heading),
    );
  });

  it('merges parts into fewer lessons, keeping every paragraph', () => {
    const parts = splitIntoParts(blocks, 1, 'en');
    expect(parts).toHaveLength(1);
    expect(parts[0]?.heading).toBe(SECTIONS[0]?.heading);
    expect(parts[0]?.blocks.filter((block) => block.kind === 'paragraph')).toHaveLength(6);
  });

  it('splits by paragraphs, then sentences, up to the number of sentences', () => {
    expect(splitIntoParts(blocks, 6, 'en')).toHaveLength(6);
    expect(splitIntoParts(blocks, 12, 'en')).toHaveLength(12);
    // 12 sentences in all: no more parts than that.
    expect(splitIntoParts(blocks, 30, 'en')).toHaveLength(12);
  });
});

describe('generateOfflineLessons', () => {
  const blocks = textToBlocks(sectionsAsText());

  it.each([1, 3, 5, 12])('makes %i valid lessons, days 1..n', (count) => {
    const { lessons, warnings } = generateOfflineLessons(blocks, {
      count,
      language: 'en',
      types: ['multiple_choice', 'true_false'],
    });
    expect(lessons.map((lesson) => lesson.day)).toEqual(
      Array.from({ length: count }, (_, index) => index + 1),
    );
    for (const lesson of lessons) {
      expect(ZLessonSchema.safeParse(lesson).success).toBe(true);
      expect(lesson.assessment).not.toBeNull();
    }
    expect(warnings).toEqual([]);
  });

  it('titles lessons by their headings and fills intro and content from their own text', () => {
    const { lessons } = generateOfflineLessons(blocks, {
      count: 3,
      language: 'en',
      types: ['true_false'],
    });
    expect(lessons.map((lesson) => lesson.title)).toEqual(
      SECTIONS.map((section) => section.heading),
    );
    // The intro is the opening sentences, less than half of the part's text.
    expect(lessons[0]?.topic_intro).toBe(
      'Plants make their own food through photosynthesis. The process takes place in the chloroplasts of leaf cells.',
    );
    expect(lessons[0]?.topic_content).toBe(
      SECTIONS[0]!.paragraphs.map((paragraph) => `<p>${paragraph}</p>`).join(''),
    );
  });

  it('builds only true/false questions when asked, from a real and an altered sentence', () => {
    const { lessons } = generateOfflineLessons(blocks, {
      count: 6,
      language: 'en',
      types: ['true_false'],
    });
    const assessments = lessons.map((lesson) => lesson.assessment!);
    expect(assessments.every((assessment) => assessment.type === 'true_false')).toBe(true);
    const correct = assessments.map(
      (assessment) => assessment.answers.find((answer) => answer.correct)?.text,
    );
    expect(correct).toContain('True');
    expect(correct).toContain('False');
    for (const [index, assessment] of assessments.entries()) {
      const statement = assessment.question.replace('True or false? ', '');
      const lesson = stripHtml(lessons[index]!.topic_content.replace(/<\/p>/g, ' '));
      // A true statement is in the lesson word for word; a false one is not.
      expect(lesson.includes(statement)).toBe(assessment.answers[0]!.correct);
    }
  });

  it('builds multiple choice on a key term, the wrong answers terms of other parts', () => {
    const { lessons } = generateOfflineLessons(blocks, {
      count: 3,
      language: 'en',
      types: ['multiple_choice'],
    });
    const contents = lessons.map((lesson) => stripHtml(lesson.topic_content));
    lessons.forEach((lesson, index) => {
      const assessment = lesson.assessment!;
      expect(assessment.type).toBe('multiple_choice');
      expect(assessment.answers.filter((answer) => answer.correct)).toHaveLength(1);
      expect(assessment.answers.length).toBeGreaterThanOrEqual(3);
      const right = assessment.answers.find((answer) => answer.correct)!.text;
      // The blank filled with the right answer is a sentence of the lesson.
      const sentence = /“(.*)”/.exec(assessment.question)?.[1] ?? '';
      expect(sentence).toContain('_____');
      expect(contents[index]).toContain(sentence.replace('_____', right));
      // Each wrong answer is a term of another lesson, not of this one.
      for (const wrong of assessment.answers.filter((answer) => !answer.correct)) {
        expect(contents[index]).not.toContain(wrong.text);
        expect(contents.some((content) => content.includes(wrong.text))).toBe(true);
      }
    });
  });

  it('warns when the text holds fewer lessons than asked', () => {
    const { lessons, warnings } = generateOfflineLessons(blocks, {
      count: 30,
      language: 'en',
      types: ['true_false'],
    });
    expect(lessons).toHaveLength(12);
    expect(warnings).toEqual([
      'The source had enough text for 12 lessons only, so 12 were made instead of 30.',
    ]);
  });

  it('keeps content within 1200 characters and says that text was left out', () => {
    const long = Array.from(
      { length: 40 },
      (_, index) => `Sentence number ${index + 1} explains one more detail about leaves and light.`,
    ).join(' ');
    const { lessons, warnings } = generateOfflineLessons(textToBlocks(long), {
      count: 1,
      language: 'en',
      types: ['true_false'],
    });
    const visible = stripHtml(lessons[0]!.topic_content);
    expect([...visible].length).toBeLessThanOrEqual(1200);
    expect(visible.endsWith('light.')).toBe(true);
    expect(warnings).toEqual([
      'Some of the source did not fit in the 1200 characters of a lesson and was left out.',
    ]);
    expect([...lessons[0]!.title].length).toBeLessThanOrEqual(140);
  });

  it('writes the assessment words in the course language', () => {
    const italian = textToBlocks(
      'La fotosintesi è il processo con cui le piante producono il cibo.\n\nLe radici assorbono acqua dal terreno ogni giorno.',
    );
    const { lessons } = generateOfflineLessons(italian, {
      count: 2,
      language: 'it',
      types: ['true_false'],
    });
    expect(lessons[0]?.assessment?.question).toBe(
      'Vero o falso? La fotosintesi è il processo con cui le piante producono il cibo.',
    );
    expect(lessons[0]?.assessment?.answers.map((answer) => answer.text)).toEqual(['Vero', 'Falso']);
    expect(lessons.every((lesson) => lesson.language === 'it')).toBe(true);

    const german = generateOfflineLessons(
      textToBlocks('Die Fotosynthese ist der Weg, auf dem Pflanzen Nahrung herstellen.'),
      { count: 1, language: 'de', types: ['true_false'] },
    );
    expect(german.lessons[0]?.assessment?.answers.map((answer) => answer.text)).toEqual([
      'Richtig',
      'Falsch',
    ]);
  });

  it('leaves the assessment out (with a warning) when no sentence can carry one', () => {
    const { lessons, warnings } = generateOfflineLessons(textToBlocks('Leaves.\n\nRoots.'), {
      count: 1,
      language: 'en',
      types: ['multiple_choice'],
    });
    expect(lessons[0]?.assessment).toBeNull();
    expect(warnings).toContain('Day 1: no assessment could be made from the text; add one.');
  });
});

describe('alterStatement', () => {
  it('changes a number, negates, or removes a negation', () => {
    expect(alterStatement('A leaf holds 500 chloroplasts per cell.', 'en', [])).toBe(
      'A leaf holds 1000 chloroplasts per cell.',
    );
    expect(alterStatement('Chlorophyll is the green pigment of leaves.', 'en', [])).toBe(
      'Chlorophyll is not the green pigment of leaves.',
    );
    expect(alterStatement('Roots cannot make sugar from light.', 'en', [])).toBe(
      'Roots can make sugar from light.',
    );
    expect(alterStatement('La clorofilla è verde nelle foglie.', 'it', [])).toBe(
      'La clorofilla non è verde nelle foglie.',
    );
    expect(alterStatement('Das Blatt ist grün im Sommer.', 'de', [])).toBe(
      'Das Blatt ist nicht grün im Sommer.',
    );
  });

  it('swaps the last content word for one of another part as a last resort', () => {
    expect(
      alterStatement('Water travels from the roots to the leaves.', 'en', [
        'Light reaches the chloroplasts.',
      ]),
    ).toBe('Water travels from the roots to the chloroplasts.');
    expect(
      alterStatement('Water travels from the roots to the leaves.', 'en', [], false),
    ).toBeNull();
  });
});

describe('buildAssessment', () => {
  it('falls back to true/false when multiple choice has no distractors', () => {
    const assessment = buildAssessment(
      {
        day: 1,
        language: 'en',
        sentences: ['Plants make their own food through photosynthesis.'],
        others: [],
      },
      ['multiple_choice', 'true_false'],
    );
    expect(assessment?.type).toBe('true_false');
  });
});

describe('repairing an AI answer', () => {
  const context = {
    day: 1,
    language: 'en' as const,
    types: ['multiple_choice' as const],
    others: [],
  };

  it('clamps every text to its §5 limit and sanitises the lesson HTML', () => {
    const repaired = repairLesson(
      {
        title: 'T'.repeat(300),
        topic_intro: 'I '.repeat(700),
        topic_content: `<p onclick="steal()">Safe <b>bold</b></p><script>alert(1)</script><img src=x onerror=alert(2)>${'<p>More text here.</p>'.repeat(100)}`,
        learning_minutes: 900,
        assessment: {
          type: 'multiple choice',
          question: 'Q'.repeat(400),
          answers: [
            { text: 'A'.repeat(150), correct: true, response: 'R'.repeat(400) },
            { text: 'Other', correct: false, response: '' },
          ],
        },
      },
      context,
    )!;
    const { lesson } = repaired;
    expect(ZLessonSchema.safeParse(lesson).success).toBe(true);
    expect([...lesson.title].length).toBe(140);
    expect([...lesson.topic_intro].length).toBeLessThanOrEqual(600);
    expect([...stripHtml(lesson.topic_content)].length).toBeLessThanOrEqual(1200);
    expect(lesson.topic_content).not.toMatch(/script|onclick|onerror|<img/);
    expect(lesson.learning_minutes).toBe(300);
    expect([...lesson.assessment!.question].length).toBe(300);
    expect([...lesson.assessment!.answers[0]!.text].length).toBe(100);
    expect([...lesson.assessment!.answers[0]!.response].length).toBe(300);
    expect(lesson.assessment!.answers[1]!.response).toBe('Thank you for your answer.');
    expect(repaired.rebuilt).toBe(false);
  });

  it('keeps one correct answer of a multiple choice and drops similar answers', () => {
    expect(
      repairAssessment(
        {
          type: 'multiple_choice',
          question: 'Which pigment?',
          answers: [
            { text: 'Melanin', correct: false },
            { text: 'Chlorophyll', correct: true },
            { text: 'chlorophyll!', correct: false },
            { text: 'Carotene', correct: true },
            { text: 'Keratin', correct: false },
          ],
        },
        ['multiple_choice'],
      )?.answers.map((answer) => [answer.text, answer.correct]),
    ).toEqual([
      ['Melanin', false],
      ['Chlorophyll', true],
      ['Keratin', false],
    ]);
  });

  it('refuses an assessment it cannot make valid', () => {
    const question = 'Which pigment?';
    const none = [
      { type: 'multiple_choice', question, answers: [{ text: 'A' }, { text: 'B' }] },
      { type: 'multiple_choice', question, answers: [{ text: 'A', correct: true }] },
      { type: 'true_false', question, answers: [{ text: 'True', correct: true }] },
      { type: 'true_false', question, answers: [{ text: 'True' }, { text: 'False' }] },
      { type: 'open_answer', question, answers: [] },
      {
        type: 'multiple_choice',
        question: '',
        answers: [{ text: 'A', correct: true }, { text: 'B' }],
      },
    ];
    for (const raw of none)
      expect(repairAssessment(raw, ['multiple_choice', 'true_false'])).toBeNull();
    // A valid true/false is refused when only multiple choice was asked for.
    const trueFalse = {
      type: 'true_false',
      question,
      answers: [
        { text: 'True', correct: true },
        { text: 'False', correct: false },
      ],
    };
    expect(repairAssessment(trueFalse, ['multiple_choice'])).toBeNull();
    expect(repairAssessment(trueFalse, ['true_false'])?.type).toBe('true_false');
  });

  it('rebuilds an unusable assessment from the lesson text', () => {
    const repaired = repairLesson(
      {
        title: 'Leaves',
        topic_intro: 'Why leaves are green.',
        topic_content: '<p>Chlorophyll is the green pigment that captures light energy.</p>',
        learning_minutes: 3,
        assessment: { type: 'multiple_choice', question: 'Q?', answers: [] },
      },
      { ...context, types: ['true_false'] },
    )!;
    expect(repaired.rebuilt).toBe(true);
    expect(repaired.lesson.assessment?.type).toBe('true_false');
    expect(repaired.lesson.assessment?.question).toBe(
      'True or false? Chlorophyll is the green pigment that captures light energy.',
    );
  });

  it('drops a lesson without any text', () => {
    expect(repairLesson({ title: 'Only a title' }, context)).toBeNull();
    expect(repairLesson('not an object', context)).toBeNull();
  });
});

describe('lesson HTML', () => {
  it('keeps only bare formatting tags and escapes the rest', () => {
    expect(
      sanitizeLessonHtml(
        '<p class="x" style="color:red">One <strong>two</strong></p><a href="javascript:alert(1)">link</a><ul><li>i</li></ul><style>p{}</style>',
      ),
    ).toBe('<p>One <strong>two</strong></p><a>link</a><ul><li>i</li></ul>');
    expect(sanitizeLessonHtml('<p>1 < 2</p>')).toBe('<p>1 &lt; 2</p>');
    expect(
      sanitizeLessonHtml(
        '<h2 id="t">Title</h2><p><a href="https://example.com/?a=1&b=2" onclick="x()">site</a> <img src=x onerror=alert(1)></p>',
      ),
    ).toBe('<h2>Title</h2><p><a href="https://example.com/?a=1&amp;b=2">site</a> </p>');
  });

  it('turns plain text into escaped paragraphs', () => {
    expect(sanitizeLessonHtml('First & one.\n\nSecond: 1 < 2.')).toBe(
      '<p>First &amp; one.</p><p>Second: 1 &lt; 2.</p>',
    );
  });

  it('shortens content over 1200 visible characters to whole sentences', () => {
    const html = `<ul>${'<li>A point about leaves and light.</li>'.repeat(60)}</ul>`;
    const clamped = clampLessonHtml(html);
    expect([...stripHtml(clamped)].length).toBeLessThanOrEqual(1200);
    expect(clamped.startsWith('<p>A point about leaves and light.</p>')).toBe(true);
  });
});

describe('offlineHelper', () => {
  const content = sectionsAsText(SECTIONS.slice(0, 1));

  it('answers each prompt from the content itself, within its limit', () => {
    expect(offlineHelper('lesson-title', content, 'en')).toBe('How plants make food');
    expect(offlineHelper('topic-intro', content, 'en')).toBe(
      'Plants make their own food through photosynthesis. The process takes place in the chloroplasts of leaf cells.',
    );
    expect(offlineHelper('topic-content', content, 'en')).toBe(
      `<p><strong>How plants make food</strong></p>${SECTIONS[0]!.paragraphs.map((text) => `<p>${text}</p>`).join('')}`,
    );
    expect(offlineHelper('summary', content, 'en')).toBe(
      '<ul><li>Plants make their own food through photosynthesis.</li><li>Chlorophyll is the green pigment that captures light energy.</li></ul>',
    );
    expect(offlineHelper('quiz-question', content, 'de')).toBe(
      'Richtig oder falsch? A single leaf can hold about 500000 chloroplasts in each square millimetre.',
    );
  });

  it('never answers two similar answers in a generated assessment', () => {
    const { lessons } = generateOfflineLessons(textToBlocks(sectionsAsText()), {
      count: 12,
      language: 'en',
      types: ['multiple_choice'],
    });
    for (const lesson of lessons) {
      const texts = lesson.assessment?.answers.map((answer) => answer.text) ?? [];
      texts.forEach((text, index) =>
        texts
          .slice(index + 1)
          .forEach((other) => expect(areAnswersSimilar(text, other)).toBe(false)),
      );
    }
  });
});
