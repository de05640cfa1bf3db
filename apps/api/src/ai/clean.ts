import { isPersonName } from './terms.ts';
import type { TBlock } from './text.ts';

// What surrounds a document's own text and must never become a lesson (issue 13, "the offline
// generator, judged on real documents"): running headers and footers, page numbers, tables of
// contents, and front and back matter (a title page's author and version lines, copyright and
// licence boilerplate, an index, a bibliography, a licence appendix). The rules are shapes and a
// few words in English, Italian and German, so they hold for documents in any of the three.

/** Lines of a page (a PDF page, a slide) before they become blocks. */
export type TPageLines = string[];

const SENTENCE_END = /[.!?…]["'”’)]*$/u;

const words = (line: string) => line.split(/\s+/).filter(Boolean);

/** A line as it repeats from page to page: numbers (the page's own) and spacing left out. */
const repeatKey = (line: string) =>
  line
    .toLowerCase()
    .replace(/\d+/g, '#')
    .replace(/\s+/g, ' ')
    .replace(/^[#\s.,:;·|–—-]+|[#\s.,:;·|–—-]+$/g, '')
    .trim();

const PAGE_WORDS = 'page|p\\.|pag\\.|pagina|pagine|seite|s\\.|folio';

/** "12", "- 12 -", "Page 3 of 10", "Seite 3 von 10", "pag. 3 di 10", "iv", "3/10". */
export const isPageNumber = (line: string): boolean =>
  new RegExp(
    `^[\\s\\-–—\\[(]*(?:(?:${PAGE_WORDS})\\s*)?(?:\\d{1,4}|[ivxlcdm]{1,7})(?:\\s*(?:/|of|di|von|de|sur)\\s*\\d{1,4})?[\\s\\-–—\\])]*$`,
    'i',
  ).test(line.trim());

/** A running chapter title with its page number, at either end ("Chapter 2: Foo 3", "4 Kapitel 2. Foo"). */
const CHAPTER_TITLE = String.raw`(?:chapter|appendix|section|part|kapitel|abschnitt|anhang|teil|capitolo|sezione|appendice|parte)\s+[\dA-Z]{1,3}(?:\.\d+)*\s*[:.–—-]\s*\S.*?`;
const RUNNING_TITLE = new RegExp(
  String.raw`^(?:\d{1,4}\s+${CHAPTER_TITLE}|${CHAPTER_TITLE}\s\d{1,4})$`,
  'i',
);

/** How many lines at the top and at the bottom of a page a header or footer may take. */
const ZONE = 3;
/** A prefix (or suffix) of this many words repeating at the edges of pages is a running title. */
const EDGE_WORDS = 4;

const inZone = (index: number, count: number) => index < ZONE || index >= count - ZONE;

type TFurnitureOptions<T> = {
  textOf: (line: T) => string;
  /**
   * A line set larger than the text (a heading): it may share its words with a running header
   * ("Chapter 4: Closing the call 7" above "4 Closing the call"), so only a page number or an
   * exact repeat on many pages makes it furniture.
   */
  isProminent?: (line: T) => boolean;
};

/**
 * Pages without their running headers and footers: a line at the top or bottom of a page that
 * repeats on other pages (its numbers aside: "Chapter 4: Functions 9" and "… 10"), or that
 * starts or ends with the same words as the edge lines of many pages (a book title before the
 * chapter's name), and page numbers ("Page 3 of 10").
 */
export function dropPageFurniture(pages: readonly TPageLines[]): TPageLines[];
export function dropPageFurniture<T>(
  pages: readonly (readonly T[])[],
  options: TFurnitureOptions<T>,
): T[][];
export function dropPageFurniture<T>(
  pages: readonly (readonly T[])[],
  { textOf = String, isProminent = () => false }: Partial<TFurnitureOptions<T>> = {},
): T[][] {
  const lineCount = new Map<string, number>();
  const edgeCount = new Map<string, number>();
  const edgeKeys = (line: string) => {
    const parts = words(repeatKey(line));
    if (parts.length < EDGE_WORDS) return [];
    return [`^${parts.slice(0, EDGE_WORDS).join(' ')}`, `$${parts.slice(-EDGE_WORDS).join(' ')}`];
  };
  for (const page of pages) {
    const seenLines = new Set<string>();
    const seenEdges = new Set<string>();
    page.forEach((item, index) => {
      if (!inZone(index, page.length)) return;
      const line = textOf(item);
      seenLines.add(repeatKey(line));
      for (const key of edgeKeys(line)) seenEdges.add(key);
    });
    for (const key of seenLines) lineCount.set(key, (lineCount.get(key) ?? 0) + 1);
    for (const key of seenEdges) edgeCount.set(key, (edgeCount.get(key) ?? 0) + 1);
  }
  const manyPages = Math.max(3, Math.ceil(pages.length * 0.25));
  const isFurniture = (item: T) => {
    const line = textOf(item);
    if (isPageNumber(line)) return true;
    const key = repeatKey(line);
    if (!key) return true;
    // A sentence of the text (repeated on a few slides as a reminder) is not a running line.
    if (SENTENCE_END.test(line) && words(line).length >= 4) return false;
    const repeats = lineCount.get(key) ?? 0;
    if (isProminent(item)) return repeats >= manyPages;
    // "Chapter 2: Compiling a Program 3" at the top of a chapter's only other page.
    if (RUNNING_TITLE.test(line)) return true;
    // An exact repeat on two pages is a running line when it carries a number (the page's).
    if (repeats >= 3 || (repeats >= 2 && /\d/.test(line))) return true;
    return (
      pages.length >= 3 && edgeKeys(line).some((edge) => (edgeCount.get(edge) ?? 0) >= manyPages)
    );
  };
  return pages.map((page) =>
    page.filter((item, index) => !(inZone(index, page.length) && isFurniture(item))),
  );
}

/** The heading of a table of contents (or a deck's agenda), in the three languages. */
const CONTENTS_TITLE =
  /^(?:table of contents|contents|content|toc|agenda|overview|outline|indice|sommario|indice generale|inhalt|inhaltsverzeichnis|inhaltsübersicht|tagesordnung)$/i;

/** An entry of a table of contents: a title, a dot leader (or spaces), a page number. */
const LEADER_ENTRY = /^.{2,}?(?:\s*(?:\.\s?){3,}|\s*…+|\t|\s{3,})\s*(?:\d{1,4}|[ivxlc]{1,6})$/i;
/** A line ending with a page number after a title without final punctuation ("2 Opening 4"). */
const NUMBERED_ENTRY = /^[^.!?]{2,90}?[\s,]\d{1,4}$/;

export const isContentsTitle = (text: string): boolean => CONTENTS_TITLE.test(text.trim());

/**
 * Which lines belong to a table of contents: its title, entries with dot leaders, and runs of
 * three or more lines ending with page numbers (an index, a list of figures).
 */
export const contentsLines = (
  lines: readonly string[],
  mayBeEntry: (index: number) => boolean = () => true,
): Set<number> => {
  const drop = new Set<number>();
  lines.forEach((line, index) => {
    if (isContentsTitle(line) || LEADER_ENTRY.test(line.trim())) drop.add(index);
  });
  for (let start = 0; start < lines.length;) {
    let end = start;
    while (end < lines.length && mayBeEntry(end) && NUMBERED_ENTRY.test(lines[end]!.trim())) {
      end += 1;
    }
    if (end - start >= 3) for (let index = start; index < end; index += 1) drop.add(index);
    start = Math.max(end, start + 1);
  }
  return drop;
};

/** Lines without a table of contents or an index (see contentsLines). */
export const dropContentsLines = (lines: readonly string[]): string[] => {
  const drop = contentsLines(lines);
  return lines.filter((_, index) => !drop.has(index));
};

// Copyright and licence text, the small print of a title page (strong marks only: a lesson about
// copyright law keeps its text).
const BOILERPLATE = [
  // TeX's © comes out of a PDF as "c ⃝" (a c and a combining circle).
  /©|\(c\)\s*\d{4}|c\s?\u20dd|copyright\s+(?:\(c\)\s*)?\d{4}/i,
  /all rights reserved|alle rechte vorbehalten|tutti i diritti riservati/i,
  /permission is granted to (?:copy|use|reproduce)|permitted to copy and distribute verbatim|è consentit[ao] (?:la )?(?:copia|riproduzione)|es ist gestattet, (?:dieses|das) dokument/i,
  /gnu (?:free documentation|general public|lesser general public) licen[cs]e/i,
  /creative commons|licensed under the|lizenziert unter der|rilasciat[oa] sotto (?:la )?licenza/i,
  /\bISBN(?:-1[03])?:?\s*[\d-]{10,}/,
];

export const isBoilerplate = (text: string): boolean =>
  BOILERPLATE.some((pattern) => pattern.test(text));

// "4.2 ", "A ", "IV. ", "Appendix B: " (a word like "GNU" is not a number).
const NUMBERING =
  /^(?:(?:[Aa]ppendix|APPENDIX|[Aa]ppendice|[Aa]nhang)\s+)?(?:(?:\d+(?:\.\d+)*|[A-Z]|[IVX]+)[.:)]?\s+)?/;

/** Headings of the small print, skipped wherever they are (up to the next heading). */
const LEGAL =
  /^(?:copyright|legal notice|licen[cs]e|licen[cs]ing|terms of use|note legali|licenza|rechtliche hinweise|lizenz|impressum|colophon|gnu (?:free documentation|general public|lesser general public) licen[cs]e)\b/i;

/** Headings of what follows a document's own text: from one in its last half on, all is left out. */
const BACK_MATTER =
  /^(?:index|general index|subject index|bibliography|references|works cited|further reading|glossary|about the authors?|acknowledg(?:e)?ments|indice analitico|indice dei nomi|bibliografia|riferimenti(?: bibliografici)?|glossario|ringraziamenti|stichwortverzeichnis|sachregister|register|literaturverzeichnis|literatur|quellen(?:verzeichnis)?|glossar|danksagung)$/i;

const bareTitle = (text: string) =>
  text
    .trim()
    .replace(NUMBERING, '')
    .replace(/[.:]+$/, '');

export const isLegalTitle = (text: string): boolean => LEGAL.test(bareTitle(text));
export const isBackMatterTitle = (text: string): boolean => BACK_MATTER.test(bareTitle(text));

const NAME = String.raw`\p{Lu}[\p{Ll}'’-]+(?:\s+\p{Lu}\.)?(?:\s+(?:van|von|de|di|da|del|der|le))?(?:\s+\p{Lu}[\p{Ll}'’-]+){1,2}`;
/** Names joined by "and" ("Jay Fenlason and Richard Stallman"), or "by …", "di …", "von …". */
const AUTHOR_LINE = new RegExp(
  String.raw`^(?:(?:[Bb]y|[Dd]i|[Aa] cura di|[Vv]on|[Hh]erausgegeben von)\s+${NAME}.*|${NAME}(?:\s*(?:,|and|&|und|e)\s*${NAME})+)$`,
  'u',
);
/** One name or several in a row ("Steve Chamberlain Roland Pesch Jeff Johnston"). */
const NAMES = new RegExp(String.raw`^${NAME}(?:\s+${NAME})*$`, 'u');

/**
 * A title page's author line: names joined by "and", a "by" line, or capitalised words that the
 * English tagger reads, half of them at least, as people's names ("Thomas Leonard").
 */
export const isAuthorLine = (text: string): boolean =>
  AUTHOR_LINE.test(text.trim()) || (NAMES.test(text.trim()) && isPersonName(text.trim()));

const sentenceLike = (text: string) => words(text).length >= 4;

/**
 * Text that reads as sentences: one of four words or more ending with a full stop ("Maria Rossi.
 * Version 2.1." does not), or a long run of words.
 */
const isSentence = (text: string) =>
  words(text).length >= 12 ||
  text
    .split(/(?<=[.!?…]["'”’)]*)\s+/u)
    .some((part) => words(part).length >= 4 && SENTENCE_END.test(part));

/**
 * Blocks without what is not the document's own text: a table of contents or an index, copyright
 * and licence paragraphs and sections, lines too short to say anything ("Maria Rossi", "Version
 * 2.1", "7"), and everything from a back-matter heading (an index, a bibliography, a glossary) in
 * the last half of the text on.
 */
export const cleanBlocks = (blocks: readonly TBlock[]): TBlock[] => {
  // Headings in a row ("Slide 1", "Slide 2") are titles, not the entries of an index.
  const contents = contentsLines(
    blocks.map((block) => block.text),
    (index) => blocks[index]?.kind === 'paragraph',
  );
  const total = blocks.reduce((sum, block) => sum + block.text.length, 0);
  const headingSeen = new Set<string>();
  const kept: TBlock[] = [];
  let seen = 0;
  let skipSection = false;
  // Until the first sentence of text: a title page's lines (author, version, date) are not text.
  let front = true;
  for (const [index, block] of blocks.entries()) {
    const at = seen;
    seen += block.text.length;
    if (contents.has(index)) continue;
    if (block.kind === 'heading') {
      // A licence or copyright section: its title says so and it is short ("License",
      // "Appendix A GNU Free Documentation License"), or the small print follows at once (a
      // chapter "Licensing models for SaaS" of a course on licences is the course's text).
      const next = blocks.slice(index + 1).find((other) => other.kind === 'paragraph');
      skipSection =
        isLegalTitle(block.text) &&
        (words(bareTitle(block.text)).length <= 2 ||
          /gnu|creative commons|licen[cs]e$/i.test(bareTitle(block.text)) ||
          (!!next && isBoilerplate(next.text)));
      // Back matter, or a licence appendix (its numbered clauses are headings of their own), in
      // the last half: the document's own text has ended.
      if (isBackMatterTitle(block.text) || (skipSection && !!next && isBoilerplate(next.text))) {
        if (at >= total / 2) break;
        skipSection = true;
      }
      // A title page's author line ("Jay Fenlason and Richard Stallman") is no section.
      if (front && isAuthorLine(block.text)) continue;
      // The same heading again (a document's title on every slide) is not a new section; a
      // heading with no text after it is dropped later (offline.ts toUnits).
      const key = block.text.toLowerCase();
      if (!skipSection && !headingSeen.has(key)) kept.push(block);
      headingSeen.add(key);
      continue;
    }
    if (skipSection) continue;
    if (isPageNumber(block.text) || !sentenceLike(block.text) || isBoilerplate(block.text)) {
      continue;
    }
    if (front && !isSentence(block.text)) continue;
    front = false;
    kept.push(block);
  }
  return kept;
};

/** A heading as a lesson title: without its numbering ("4.2", "Chapter 4:", "IV."). */
export const titleOf = (heading: string): string => {
  const stripped = heading
    .replace(
      /^(?:(?:chapter|section|part|lesson|unit|capitolo|sezione|parte|lezione|kapitel|abschnitt|teil|lektion)\s+)?(?:\d+(?:\.\d+)*|[IVXLC]+)[.:)]?\s+(?=\p{L})/iu,
      '',
    )
    .trim();
  return stripped || heading;
};
