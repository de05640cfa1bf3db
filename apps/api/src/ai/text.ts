import { TEXT_LIMITS, clampText, stripHtml } from '@ccp/schemas';

import { sanitizeHtml } from '../lib/html.ts';

// Text helpers of the AI import: source blocks, sentences, and lesson HTML that is safe to store
// and within the §5 limits.

/** Characters as a reader counts them (code points), as the §5 limits do. */
export const charCount = (text: string): number => [...text].length;

/** A piece of a source document: a heading or a paragraph of plain text. */
export type TBlock = { kind: 'heading' | 'paragraph'; text: string };

const segmenters = new Map<string, Intl.Segmenter>();

// V8 gives every segment a fresh copy of the whole input: one 200,000-character paragraph cut
// into sentences took 2.7 GB (issue 11). Long text is segmented a window at a time, each cut
// after a sentence end, so a copy is at most a window.
const SEGMENT_WINDOW = 4000;

/** The sentences of a text, trimmed, in the rules of the given language. */
export const sentencesOf = (text: string, language = 'en'): string[] => {
  let segmenter = segmenters.get(language);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(language, { granularity: 'sentence' });
    segmenters.set(language, segmenter);
  }
  const sentences: string[] = [];
  for (let start = 0; start < text.length;) {
    let end = Math.min(text.length, start + SEGMENT_WINDOW);
    if (end < text.length) {
      const window = text.slice(start, end);
      const lastEnd = Math.max(
        ...['. ', '! ', '? ', '… ', '\n'].map((mark) => window.lastIndexOf(mark)),
      );
      if (lastEnd > 0) end = start + lastEnd + 1;
    }
    for (const part of segmenter.segment(text.slice(start, end))) {
      const sentence = part.segment.replace(/\s+/g, ' ').trim();
      if (sentence.length > 0) sentences.push(sentence);
    }
    start = end;
  }
  return sentences;
};

/**
 * Text that reads as program code rather than prose: an `#include`, or symbols of code
 * (braces, brackets, semicolons, `*`, `=`, `<>`, `#`, `_`) in more than 4% of its characters.
 */
export const looksLikeCode = (text: string): boolean => {
  if (/#include\b|^\s*(?:\$|%|>>>) /m.test(text)) return true;
  const symbols = text.match(/[{}[\]();=<>*#_\\|]/g)?.length ?? 0;
  return symbols / Math.max(1, text.length) > 0.04;
};

export const wordCount = (text: string): number =>
  text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;

export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Lesson HTML from the AI: plain text (no tags) becomes escaped paragraphs; anything else goes
 * through the product's one allow-list (lib/html.ts).
 */
export const sanitizeLessonHtml = (input: string): string => {
  const withoutBlocks = input
    .replace(/<(script|style|iframe|object|template)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '');
  if (!/<\/?[a-z][^>]*>/i.test(withoutBlocks)) {
    return withoutBlocks
      .split(/\n\s*\n|\r\n\s*\r\n/)
      .map((paragraph) => paragraph.replace(/\s+/g, ' ').trim())
      .filter(Boolean)
      .map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`)
      .join('');
  }
  return sanitizeHtml(input);
};

/** The visible text blocks of lesson HTML (paragraphs, list items, lines). */
const htmlBlocks = (html: string): string[] =>
  html
    .split(/<\/?(?:p|li|ul|ol|h[1-6]|blockquote)>|<br>/i)
    .map((piece) => stripHtml(piece).replace(/\s+/g, ' ').trim())
    .filter(Boolean);

/**
 * Blocks (or plain paragraphs) as lesson HTML of at most `max` visible characters: whole blocks
 * while they fit, then whole sentences of the next, else a clamped first paragraph. Headings
 * become bold paragraphs. `cut` says whether anything was left out.
 */
export const paragraphsToHtml = (
  input: readonly (string | TBlock)[],
  max: number = TEXT_LIMITS.topicContent,
  language = 'en',
): { html: string; cut: boolean } => {
  const blocks = input
    .map((item): TBlock => (typeof item === 'string' ? { kind: 'paragraph', text: item } : item))
    .map((block) => ({ ...block, text: block.text.replace(/\s+/g, ' ').trim() }))
    .filter((block) => block.text.length > 0);
  const kept: TBlock[] = [];
  let used = 0;
  let cut = false;
  for (const block of blocks) {
    const length = charCount(block.text);
    if (used + length <= max) {
      kept.push(block);
      used += length;
      continue;
    }
    cut = true;
    if (block.kind === 'paragraph') {
      const sentences: string[] = [];
      let room = max - used;
      for (const sentence of sentencesOf(block.text, language)) {
        const needed = charCount(sentence) + (sentences.length > 0 ? 1 : 0);
        if (needed > room) break;
        sentences.push(sentence);
        room -= needed;
      }
      if (sentences.length > 0) kept.push({ kind: 'paragraph', text: sentences.join(' ') });
      else if (!kept.some((item) => item.kind === 'paragraph')) {
        kept.push({ kind: 'paragraph', text: clampText(block.text, max - used) });
      }
    }
    break;
  }
  // A heading with nothing after it says nothing.
  while (kept.at(-1)?.kind === 'heading') kept.pop();
  const html = kept
    .map((block) =>
      block.kind === 'heading'
        ? `<p><strong>${escapeHtml(block.text)}</strong></p>`
        : `<p>${escapeHtml(block.text)}</p>`,
    )
    .join('');
  return { html, cut };
};

/** Lesson HTML held to `max` visible characters; over the limit it becomes plain paragraphs. */
export const clampLessonHtml = (html: string, max: number = TEXT_LIMITS.topicContent): string => {
  const safe = sanitizeLessonHtml(html);
  if (charCount(stripHtml(safe)) <= max) return safe;
  return paragraphsToHtml(htmlBlocks(safe), max).html;
};

/** The plain text of a value that should be text (tags removed, whitespace collapsed). */
export const plainText = (value: unknown): string =>
  typeof value === 'string' ? stripHtml(value).replace(/\s+/g, ' ').trim() : '';

const TERMINAL = /[.!?…:;]["'”’)]*$/u;

const looksLikeHeading = (line: string): boolean =>
  line.length <= 100 && !TERMINAL.test(line) && wordCount(line) <= 14 && /[\p{L}]/u.test(line);

const BULLET = /^(?:[•▪●◦‣∙*–—-]|\d{1,2}[.)])\s+/u;

/** A line ending a list item or bullet gets a full stop, so it reads as a sentence. */
const asSentence = (line: string): string => (TERMINAL.test(line) ? line : `${line}.`);

/**
 * Plain text (txt, pdf pages, transcripts) as blocks. Blank lines separate paragraphs; a short
 * line without final punctuation standing alone, or opening a paragraph, or a Markdown `#` line
 * is a heading; wrapped lines are joined; bullets become sentences.
 */
export const textToBlocks = (text: string): TBlock[] => {
  const blocks: TBlock[] = [];
  const chunks = text
    .replace(/\r\n?/g, '\n')
    .replace(/\u00a0/g, ' ')
    .split(/\n[ \t]*\n/);
  for (const chunk of chunks) {
    const lines = chunk
      .split('\n')
      .map((line) => line.replace(/[ \t]+/g, ' ').trim())
      .filter(Boolean);
    let paragraph: string[] = [];
    const flush = () => {
      if (paragraph.length > 0) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') });
      paragraph = [];
    };
    lines.forEach((line, index) => {
      const markdown = /^#{1,6}\s+(.*)$/.exec(line);
      if (markdown?.[1]) {
        flush();
        blocks.push({ kind: 'heading', text: markdown[1].trim() });
        return;
      }
      const alone = lines.length === 1;
      const opening = index === 0 && lines.length > 1 && !BULLET.test(line);
      if ((alone || opening) && looksLikeHeading(line)) {
        blocks.push({ kind: 'heading', text: line });
        return;
      }
      const bullet = BULLET.exec(line);
      if (bullet) {
        paragraph.push(asSentence(line.slice(bullet[0].length)));
        return;
      }
      // A word hyphenated across lines is joined again.
      const last = paragraph.at(-1);
      if (last && /\p{Ll}-$/u.test(last) && /^\p{Ll}/u.test(line)) {
        paragraph[paragraph.length - 1] = `${last.slice(0, -1)}${line}`;
      } else paragraph.push(line);
    });
    flush();
  }
  return blocks;
};

/** A PDF line added to its paragraph: a bullet as a sentence, a hyphenated word joined again. */
const addPdfLine = (paragraph: string[], line: string) => {
  const bullet = BULLET.exec(line);
  const last = paragraph.at(-1);
  if (bullet) paragraph.push(asSentence(line.slice(bullet[0].length)));
  else if (last && /\p{Ll}-$/u.test(last) && /^\p{Ll}/u.test(line)) {
    paragraph[paragraph.length - 1] = `${last.slice(0, -1)}${line}`;
  } else paragraph.push(line);
};

/**
 * Lines of one PDF page as blocks: PDF text has no blank lines, so a short line without final
 * punctuation followed by more text is a heading, and a line ending a sentence well short of the
 * page's line width ends a paragraph.
 */
export const pdfPageToBlocks = (pageText: string): TBlock[] => {
  const lines = pageText
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  const width = Math.max(0, ...lines.map((line) => line.length));
  const blocks: TBlock[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') });
    paragraph = [];
  };
  lines.forEach((line, index) => {
    const next = lines[index + 1];
    // Wrapped lines run nearly to the page's width; a heading is clearly shorter.
    const heading =
      paragraph.length === 0 &&
      next !== undefined &&
      looksLikeHeading(line) &&
      /^[\p{Lu}\d]/u.test(line) &&
      line.length < Math.min(80, width * 0.75);
    if (heading) {
      blocks.push({ kind: 'heading', text: line });
      return;
    }
    addPdfLine(paragraph, line);
    if (TERMINAL.test(line) && line.length < width * 0.7) flush();
  });
  flush();
  return blocks;
};

/** A line of a PDF page as the reader gives it: its text, font size, and distance from the line above. */
export type TPdfLine = { text: string; size: number; gap: number };

/** A numbered heading: "4", "4.2", "A.1", "IV." before a capitalised title ("4.2 Return values"). */
const NUMBERED_HEADING =
  /^(?:\d{1,2}(?:\.\d{1,2}){0,3}|[A-Z](?:\.\d{1,2}){1,3}|[IVX]{1,5}\.)\.?\s+\p{Lu}/u;

/** The value that most characters of text have (the body's font size, its line spacing). */
const prevailing = (pairs: readonly [number, number][]): number => {
  const weight = new Map<number, number>();
  for (const [value, chars] of pairs) weight.set(value, (weight.get(value) ?? 0) + chars);
  let best = 0;
  let bestWeight = -1;
  for (const [value, chars] of weight) {
    if (chars > bestWeight) [best, bestWeight] = [value, chars];
  }
  return best;
};

/** The widest spacing, in font sizes, of the lines of one heading wrapped over several. */
const HEADING_LINE_SPACING = 1.6;

/** How much larger than the body text a PDF line must be to read as a heading. */
export const PDF_HEADING_SCALE = 1.15;

/** The font size of most of a PDF's text (0 when the reader gave none). */
export const pdfBodySize = (lines: readonly TPdfLine[]): number =>
  prevailing(lines.map((line) => [line.size, line.text.length]));

/**
 * The lines of a PDF (its pages in order, running headers already gone) as blocks. A heading is
 * a short line without final punctuation set larger than the body text, or numbered ("4.2 Foo")
 * after a paragraph break; lines set in larger type one after another are one wrapped heading.
 * A wider gap than the body's line spacing, or a sentence ending well short of the line width,
 * ends a paragraph; a page break alone does not (a sentence running over it stays whole).
 * Without font sizes (an unusual PDF) the text is read as pdfPageToBlocks does.
 */
export const pdfLinesToBlocks = (pages: readonly (readonly TPdfLine[])[]): TBlock[] => {
  const lines = pages.flatMap((page) =>
    page.map((line, index) => ({ ...line, pageStart: index === 0 })),
  );
  if (!lines.some((line) => line.size > 0)) {
    return pdfPageToBlocks(lines.map((line) => line.text).join('\n'));
  }
  const bodySize = pdfBodySize(lines);
  const bodyGap = prevailing(
    lines
      .filter((line) => !line.pageStart && Math.abs(line.size - bodySize) < 0.5 && line.gap > 0)
      .map((line) => [Math.round(line.gap), line.text.length]),
  );
  const width = Math.max(
    0,
    ...lines.filter((line) => Math.abs(line.size - bodySize) < 0.5).map((line) => line.text.length),
  );
  const blocks: TBlock[] = [];
  let paragraph: string[] = [];
  let headingSize = 0;
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') });
    paragraph = [];
  };
  for (const line of lines) {
    const { text, size } = line;
    const wideGap = !line.pageStart && bodyGap > 0 && line.gap > bodyGap * 1.4;
    const previous = paragraph.at(-1);
    const afterBreak =
      paragraph.length === 0 ||
      wideGap ||
      (line.pageStart && !!previous && TERMINAL.test(previous));
    const larger = size >= bodySize * PDF_HEADING_SCALE;
    const heading =
      looksLikeHeading(text) &&
      /^[\p{Lu}\d]/u.test(text) &&
      // Larger type is a break of its own (a chapter's title on a new page after a code line).
      (larger || (afterBreak && NUMBERED_HEADING.test(text) && text.length < 80));
    if (heading) {
      flush();
      const last = blocks.at(-1);
      // A heading wrapped over two lines in the same large type is one heading. Large type
      // is spaced by its own size, not the body's: a cover's "Security Awareness for Every /
      // Employee" became two headings, and the lesson was named "Employee" (issue 27).
      if (
        last?.kind === 'heading' &&
        larger &&
        headingSize === size &&
        !line.pageStart &&
        line.gap <= size * HEADING_LINE_SPACING
      ) {
        last.text = `${last.text} ${text}`;
      } else blocks.push({ kind: 'heading', text });
      headingSize = size;
      continue;
    }
    headingSize = 0;
    if (wideGap || (line.pageStart && previous && TERMINAL.test(previous))) flush();
    addPdfLine(paragraph, text);
    if (TERMINAL.test(text) && text.length < width * 0.7) flush();
  }
  flush();
  return blocks;
};

/** A long run of sentences (a transcript) as paragraphs of a few sentences each. */
export const sentencesToBlocks = (text: string, language: string, perParagraph = 4): TBlock[] => {
  const sentences = sentencesOf(text, language);
  const blocks: TBlock[] = [];
  for (let index = 0; index < sentences.length; index += perParagraph) {
    blocks.push({
      kind: 'paragraph',
      text: sentences.slice(index, index + perParagraph).join(' '),
    });
  }
  return blocks;
};

/** Blocks as plain text for a prompt: headings marked with `##`. */
export const blocksToText = (blocks: readonly TBlock[]): string =>
  blocks.map((block) => (block.kind === 'heading' ? `## ${block.text}` : block.text)).join('\n\n');
