import {
  DEFAULT_ANSWER_RESPONSE,
  LEARNING_MINUTES,
  MAX_ANSWERS,
  MESSAGES,
  TEXT_LIMITS,
  ZLessonSchema,
  areAnswersSimilar,
  clampText,
  stripHtml,
} from '@ccp/schemas';
import type { TAiPromptId, TAssessment, TAssessmentType, TLesson, TLocale } from '@ccp/schemas';

import { t } from '../i18n/texts.ts';
import { titleOf } from './clean.ts';
import { lessonTerms, sameKindTerms, termIndex } from './terms.ts';
import type { TTerm } from './terms.ts';
import { fill } from './messages.ts';
import {
  charCount,
  escapeHtml,
  looksLikeCode,
  paragraphsToHtml,
  sentencesOf,
  textToBlocks,
  wordCount,
} from './text.ts';
import type { TBlock } from './text.ts';

// The offline generator: without an AI provider, a document still becomes a draft course. The
// text is split into the asked number of parts (by headings, then paragraphs, then sentences);
// each part gives a lesson whose title, intro and content come from its own text, and whose
// assessment is built from a sentence of that content (true/false: the sentence or an altered
// copy; multiple choice: how the sentence ends, with endings of other parts as distractors).

type TAssessmentTexts = {
  trueLabel: string;
  falseLabel: string;
  trueFalse: (statement: string) => string;
  complete: (stem: string) => string;
  cloze: (sentence: string) => string;
  correct: (original: string) => string;
  wrong: (original: string) => string;
  /** The standard thank-you after an answer, as the wizard pre-fills it. */
  thankYou: string;
};

/** The words of the generated assessments, in the course language (`server.ai.*`). */
const textsFor = (lang: TLocale): TAssessmentTexts => ({
  trueLabel: t(lang, 'server.ai.trueLabel'),
  falseLabel: t(lang, 'server.ai.falseLabel'),
  trueFalse: (statement) => t(lang, 'server.ai.trueFalse', { statement }),
  complete: (stem) => t(lang, 'server.ai.complete', { stem }),
  cloze: (sentence) => t(lang, 'server.ai.cloze', { sentence }),
  correct: (original) => t(lang, 'server.ai.correct', { original }),
  wrong: (original) => t(lang, 'server.ai.wrong', { original }),
  thankYou: t(lang, 'validation.answerResponseDefault'),
});

const TEXTS: Record<TLocale, TAssessmentTexts> = {
  en: textsFor('en'),
  it: textsFor('it'),
  de: textsFor('de'),
};

const INTRO_TARGET = 300;
// Issue 27: a creator expects about 200 words a minute, over all the learner reads.
const WORDS_PER_MINUTE = 200;

/** A part of the text; `continues` is the heading of the section a headless part is the rest of. */
type TUnit = { heading: string | null; blocks: TBlock[]; continues?: string | null };

const unitSize = (unit: TUnit) =>
  unit.blocks.reduce((sum, block) => sum + (block.kind === 'paragraph' ? block.text.length : 0), 0);

const paragraphsOf = (unit: TUnit) => unit.blocks.filter((block) => block.kind === 'paragraph');

/** Blocks as parts led by their headings; a heading with no text under it gives way to the next. */
const toUnits = (blocks: readonly TBlock[]): TUnit[] => {
  const units: TUnit[] = [];
  let current: TUnit | null = null;
  for (const block of blocks) {
    if (block.kind === 'heading') {
      if (current && paragraphsOf(current).length === 0) current.heading = block.text;
      else {
        current = { heading: block.text, blocks: [] };
        units.push(current);
      }
    } else {
      if (!current) {
        current = { heading: null, blocks: [] };
        units.push(current);
      }
      current.blocks.push(block);
    }
  }
  const withText = units.filter((unit) => paragraphsOf(unit).length > 0);
  if (withText.length > 0) return withText;
  // Only headings (slides with titles alone): each is a short part of its own.
  return blocks.map((block) => ({
    heading: null,
    blocks: [{ kind: 'paragraph', text: block.text }],
  }));
};

/** Splits the part that has the most text and can be split; false when none can. */
const splitLargest = (units: TUnit[], language: string): boolean => {
  const order = units
    .map((unit, index) => ({ unit, index }))
    .sort((a, b) => unitSize(b.unit) - unitSize(a.unit));
  for (const { unit, index } of order) {
    const paragraphs = paragraphsOf(unit);
    if (paragraphs.length >= 2) {
      // Cut between blocks where the text is most evenly shared.
      const total = unitSize(unit);
      let best = 1;
      let bestDiff = Number.POSITIVE_INFINITY;
      let seen = 0;
      unit.blocks.forEach((block, at) => {
        if (at === 0) return;
        const before = unit.blocks[at - 1];
        if (before?.kind === 'paragraph') seen += before.text.length;
        const diff = Math.abs(total - 2 * seen);
        const leftHasText = unit.blocks.slice(0, at).some((item) => item.kind === 'paragraph');
        const rightHasText = unit.blocks.slice(at).some((item) => item.kind === 'paragraph');
        if (leftHasText && rightHasText && diff < bestDiff) {
          best = at;
          bestDiff = diff;
        }
      });
      const rest = unit.blocks.slice(best);
      const lead = rest[0]?.kind === 'heading' ? (rest.shift()?.text ?? null) : null;
      units.splice(
        index,
        1,
        { heading: unit.heading, blocks: unit.blocks.slice(0, best) },
        { heading: lead, blocks: rest, continues: lead ? null : (unit.heading ?? unit.continues) },
      );
      return true;
    }
    const only = paragraphs[0];
    const sentences = only ? sentencesOf(only.text, language) : [];
    if (sentences.length >= 2) {
      const total = sentences.reduce((sum, sentence) => sum + sentence.length, 0);
      let at = 1;
      let seen = sentences[0]?.length ?? 0;
      while (at < sentences.length - 1 && seen + (sentences[at]?.length ?? 0) <= total / 2) {
        seen += sentences[at]?.length ?? 0;
        at += 1;
      }
      units.splice(
        index,
        1,
        {
          heading: unit.heading,
          blocks: [{ kind: 'paragraph', text: sentences.slice(0, at).join(' ') }],
        },
        {
          heading: null,
          blocks: [{ kind: 'paragraph', text: sentences.slice(at).join(' ') }],
          continues: unit.heading ?? unit.continues,
        },
      );
      return true;
    }
  }
  return false;
};

/** A part with less than a quarter of the next one's text is a lead-in to it. */
const LEAD_IN_SHARE = 4;

/** Joins the two neighbouring parts with the least text between them. */
const mergeSmallest = (units: TUnit[]) => {
  let at = 0;
  let smallest = Number.POSITIVE_INFINITY;
  for (let index = 0; index < units.length - 1; index += 1) {
    const size = unitSize(units[index] as TUnit) + unitSize(units[index + 1] as TUnit);
    if (size < smallest) {
      smallest = size;
      at = index;
    }
  }
  const [first, second] = [units[at] as TUnit, units[at + 1] as TUnit];
  // The lesson is named by its first heading, unless that part is a small lead-in to the next
  // (a cover's title with a line under it): it does not name the chapter's lesson (issue 27).
  const named =
    second.heading && unitSize(first) * LEAD_IN_SHARE < unitSize(second) ? second : first;
  const inner = (unit: TUnit): TBlock[] =>
    unit.heading && unit !== named ? [{ kind: 'heading', text: unit.heading }] : [];
  const merged: TUnit = {
    heading: named.heading ?? second.heading,
    blocks: [...inner(first), ...first.blocks, ...inner(second), ...second.blocks],
  };
  units.splice(at, 2, merged);
};

/**
 * Text before the document's first heading (a cover's lines, a preamble) joins the part after
 * it, so every lesson of a document with headings is named by one (issue 27).
 */
const joinLeadingText = (units: TUnit[]) => {
  const [lead, next] = units;
  if (!lead || lead.heading || !next?.heading) return;
  units.splice(0, 2, { heading: next.heading, blocks: [...lead.blocks, ...next.blocks] });
};

/** The text split into `count` parts, or fewer when it has fewer sentences. */
export const splitIntoParts = (
  blocks: readonly TBlock[],
  count: number,
  language: string,
): TUnit[] => {
  const units = toUnits(blocks);
  joinLeadingText(units);
  while (units.length > count) mergeSmallest(units);
  while (units.length < count && splitLargest(units, language));
  return units;
};

// --- Assessments ------------------------------------------------------------------------------

/**
 * A whole sentence as written: it opens with a capital or a number (after any opening quote or
 * bracket) and ends with a full stop or an exclamation. A list item ("urgent deadlines, such
 * as…"), a piece cut off at a page or a colon, or a heading run into the text is not one, and
 * a statement made of it reads garbled (issue 27).
 */
const WHOLE_SENTENCE = /^["'“‘«„(]?[\p{Lu}\d].*[.!]["'”’»)]?$/su;

const isStatement = (sentence: string) => {
  const words = wordCount(sentence);
  return (
    WHOLE_SENTENCE.test(sentence) &&
    words >= 5 &&
    words <= 40 &&
    charCount(sentence) <= 240 &&
    !sentence.endsWith('?') &&
    /\p{L}/u.test(sentence) &&
    !looksLikeCode(sentence)
  );
};

const byWordsDescending = (sentences: readonly string[]) =>
  [...sentences].sort((a, b) => wordCount(b) - wordCount(a));

const NEGATIONS: Record<
  TLocale,
  { remove: RegExp; removeWith: string; add: RegExp; addWith: string }[]
> = {
  en: [
    { remove: /\bcannot\b/i, removeWith: 'can', add: /\bcan\b/i, addWith: 'cannot' },
    {
      remove: /\b(is|are|was|were|will|should|must|does|do|did|has|have|can|could|would)\s+not\b/i,
      removeWith: '$1',
      add: /\b(is|are|was|were|will|should|must|does|do|did)\b/i,
      addWith: '$1 not',
    },
  ],
  it: [
    {
      remove: /(?<!\p{L})non\s+/iu,
      removeWith: '',
      add: /(?<!\p{L})(è|sono|era|erano|può|possono|deve|devono|ha|hanno)(?!\p{L})/iu,
      addWith: 'non $1',
    },
  ],
  de: [
    {
      remove: /(?<!\p{L})nicht\s+/iu,
      removeWith: '',
      add: /(?<!\p{L})(ist|sind|war|waren|kann|können|muss|müssen|wird|werden|hat|haben)(?!\p{L})/iu,
      addWith: '$1 nicht',
    },
  ],
};

/** A share after a number ("70 percent", "70 %"), which stays within 100 when changed. */
const PERCENT = /^\s*(?:%|percent\b|per cent\b|per cento\b|percento\b|prozent\b)/iu;

const alterNumber = (sentence: string): string | null => {
  const match = /(?<![\p{L}\d.,])(\d+)(?![\d\p{L}]|[.,]\d)/u.exec(sentence);
  if (!match?.[1]) return null;
  const value = Number(match[1]);
  const share = PERCENT.test(sentence.slice(match.index + match[1].length));
  const changed =
    share && value > 50
      ? Math.round(value / 2)
      : value >= 1000 && value <= 2100
        ? value + 10
        : value <= 1
          ? value + 2
          : value * 2;
  return `${sentence.slice(0, match.index)}${changed}${sentence.slice(match.index + match[1].length)}`;
};

const alterNegation = (sentence: string, language: TLocale): string | null => {
  for (const rule of NEGATIONS[language]) {
    if (rule.remove.test(sentence)) return sentence.replace(rule.remove, rule.removeWith);
  }
  for (const rule of NEGATIONS[language]) {
    if (rule.add.test(sentence)) return sentence.replace(rule.add, rule.addWith);
  }
  return null;
};

// Words too common to carry a fact; a swapped word is a content word.
const STOPWORDS = new Set(
  [
    'about above after again always another because before being between could during every',
    'however never often other should their there these those through under where which while',
    'within without would',
    'anche attraverso della delle degli dopo essere mentre molto perché prima quando quella',
    'quello questa questo senza sempre sono tutte tutti verso',
    'diese dieser dieses durch einem einen einer immer keine nachdem nicht schon unter während',
    'werden wieder wurde zwischen über',
  ]
    .join(' ')
    .split(' '),
);

/** Content words (5+ letters, not common), in sentence order; the first word is left out. */
const contentWords = (sentence: string) =>
  (sentence.match(/\p{L}{5,}/gu) ?? []).filter(
    (word, index) =>
      !STOPWORDS.has(word.toLowerCase()) && (index > 0 || !sentence.startsWith(word)),
  );

/**
 * The sentence with its last content word (often the object of the fact) replaced by the last
 * content word of another sentence, of the same plural form where one exists.
 */
const alterSwap = (sentence: string, others: readonly string[]): string | null => {
  const target = contentWords(sentence).at(-1);
  if (!target) return null;
  const own = new Set(contentWords(sentence).map((word) => word.toLowerCase()));
  const replacements = others
    .map((other) => contentWords(other).at(-1))
    .filter((word): word is string => !!word && !own.has(word.toLowerCase()));
  const plural = (word: string) => word.toLowerCase().endsWith('s');
  const replacement =
    replacements.find((word) => plural(word) === plural(target)) ?? replacements[0];
  if (!replacement) return null;
  return sentence.replace(new RegExp(`(?<!\\p{L})${target}(?!\\p{L})`, 'u'), replacement);
};

/**
 * A false copy of a true sentence: a changed number or a negation; with `swap`, also a content
 * word swapped for one of another part (the last resort: it reads less naturally).
 */
export const alterStatement = (
  sentence: string,
  language: TLocale,
  others: readonly string[],
  swap = true,
): string | null => {
  for (const altered of [
    alterNumber(sentence),
    alterNegation(sentence, language),
    swap ? alterSwap(sentence, others) : null,
  ]) {
    if (altered && !areAnswersSimilar(altered, sentence))
      return altered.replace(/\s+/g, ' ').trim();
  }
  return null;
};

const stripEnd = (text: string) => text.replace(/[\s.!?…:;,]+$/u, '');

/** A sentence cut into a stem and an ending of at most 100 characters, or null if too short. */
const splitSentence = (sentence: string): { stem: string; ending: string } | null => {
  const words = stripEnd(sentence).split(/\s+/);
  if (words.length < 6) return null;
  let at = Math.ceil(words.length / 2);
  while (at < words.length - 2 && charCount(words.slice(at).join(' ')) > TEXT_LIMITS.answer)
    at += 1;
  const ending = words.slice(at).join(' ');
  if (at < 3 || charCount(ending) > TEXT_LIMITS.answer) return null;
  return { stem: words.slice(0, at).join(' '), ending };
};

/** The last `count` words of a sentence, as a distractor ending. */
const endingOf = (sentence: string, count: number): string | null => {
  const words = stripEnd(sentence).split(/\s+/);
  if (words.length < count + 2) return null;
  const ending = words.slice(-count).join(' ');
  return charCount(ending) <= TEXT_LIMITS.answer && /\p{L}/u.test(ending) ? ending : null;
};

const response = (text: string) => clampText(text, TEXT_LIMITS.response) || DEFAULT_ANSWER_RESPONSE;

export type TAssessmentSource = {
  day: number;
  language: TLocale;
  /** Sentences of the lesson itself: the assessment asks about what the learner read. */
  sentences: readonly string[];
  /** Sentences of the other lessons, for distractors and altered statements. */
  others: readonly string[];
  /** The lesson title: a sentence used as the title is asked about last. */
  title?: string;
  /** The lesson's key terms, best first, and those of the other lessons (terms.ts). */
  terms?: readonly TTerm[];
  otherTerms?: readonly TTerm[];
};

/** The sentences to ask about, most informative first, the title's own sentence last. */
const candidatesOf = (source: TAssessmentSource) => {
  const sorted = byWordsDescending(source.sentences.filter(isStatement));
  const isTitle = (sentence: string) => !!source.title && areAnswersSimilar(sentence, source.title);
  return [...sorted.filter((s) => !isTitle(s)), ...sorted.filter(isTitle)];
};

const BLANK = '_____';
/** Text ending with an elided article or preposition ("l'", "dell'"). */
const ELIDED = /\p{L}['’]$/u;
/** How many of a lesson's best terms a question may be built on. */
const CLOZE_TERMS = 8;

/** The sentence with one of the lesson's key terms swapped for a term of the same kind. */
const alterTerm = (sentence: string, source: TAssessmentSource): string | null => {
  const lessonText = source.sentences.join(' ');
  for (const term of (source.terms ?? []).slice(0, CLOZE_TERMS)) {
    const at = termIndex(sentence, term.text);
    if (at < 0 || ELIDED.test(sentence.slice(0, at))) continue;
    const [other] = sameKindTerms(term, source.otherTerms ?? [], lessonText, 1);
    if (!other) continue;
    // A term opening the sentence keeps its capital.
    const replacement = at === 0 ? other.charAt(0).toUpperCase() + other.slice(1) : other;
    return `${sentence.slice(0, at)}${replacement}${sentence.slice(at + term.text.length)}`;
  }
  return null;
};

const trueFalseFrom = (source: TAssessmentSource): TAssessment | null => {
  const texts = TEXTS[source.language];
  const candidates = candidatesOf(source);
  const first = candidates[0];
  if (!first) return null;
  let original = first;
  let statement = first;
  // True and false statements alternate every two days (so "random" courses get both too);
  // a key term swapped for one of the same kind from another lesson is preferred, then a changed
  // number or a negation. A word swapped for any other word reads garbled ("the sender by
  // trust", issue 27): without a change that keeps the sentence whole, the statement is true.
  if (Math.ceil(source.day / 2) % 2 === 0) {
    found: for (const pass of ['term', 'number or negation'] as const) {
      for (const candidate of candidates) {
        const altered =
          pass === 'term'
            ? alterTerm(candidate, source)
            : alterStatement(candidate, source.language, source.others, false);
        if (altered) {
          original = candidate;
          statement = altered;
          break found;
        }
      }
    }
  }
  const isTrue = statement === original;
  const question = clampText(texts.trueFalse(statement), TEXT_LIMITS.question);
  return {
    question,
    type: 'true_false',
    mandatory: true,
    answers: [
      {
        text: texts.trueLabel,
        correct: isTrue,
        response: response(isTrue ? texts.correct(original) : texts.wrong(original)),
      },
      {
        text: texts.falseLabel,
        correct: !isTrue,
        response: response(isTrue ? texts.wrong(original) : texts.correct(original)),
      },
    ],
    thank_you_message: null,
  };
};

/** "a"/"an" for an English term, as it would be written before it. */
const englishArticle = (term: string) => (/^[aeiou]/i.test(term) ? 'an' : 'a');

/**
 * A multiple-choice question on a key term of the lesson: one of its sentences with the term
 * blanked out, the term and up to three terms of the same kind from other lessons as answers.
 */
const clozeFrom = (source: TAssessmentSource): TAssessment | null => {
  const texts = TEXTS[source.language];
  const lessonText = source.sentences.join(' ');
  const sentences = candidatesOf(source);
  for (const term of (source.terms ?? []).slice(0, CLOZE_TERMS)) {
    for (const sentence of sentences) {
      const at = termIndex(sentence, term.text);
      // The term must not open the sentence (the question reads up to the blank), nor follow an
      // elided article ("l'ordine"), which would not fit another term.
      if (at <= 0 || ELIDED.test(sentence.slice(0, at))) continue;
      let before = sentence.slice(0, at);
      let withArticle = (text: string) => text;
      // "a doubt" / "an objection": the article goes with the answer, so none gives it away.
      const article = source.language === 'en' ? /(?:^|\s)(an?) $/i.exec(before) : null;
      if (article?.[1]) {
        before = before.slice(0, before.length - article[1].length - 1);
        withArticle = (text) => `${englishArticle(text)} ${text}`;
      }
      // The question reads a few words before the blank.
      if (wordCount(before) < 2) continue;
      const pool = (source.otherTerms ?? []).filter((other) => !article || !other.plural);
      const distractors = sameKindTerms(term, pool, lessonText, 3);
      if (distractors.length < 2) break;
      const question = texts.cloze(`${before}${BLANK}${sentence.slice(at + term.text.length)}`);
      if (charCount(question) > TEXT_LIMITS.question) continue;
      const answers = distractors.map((text) => ({
        text: clampText(withArticle(text), TEXT_LIMITS.answer),
        correct: false,
        response: response(texts.wrong(sentence)),
      }));
      // The right answer moves from day to day.
      answers.splice(source.day % (answers.length + 1), 0, {
        text: clampText(withArticle(term.text), TEXT_LIMITS.answer),
        correct: true,
        response: response(texts.correct(sentence)),
      });
      return {
        question,
        type: 'multiple_choice',
        mandatory: true,
        answers,
        thank_you_message: null,
      };
    }
  }
  return null;
};

const multipleChoiceFrom = (source: TAssessmentSource): TAssessment | null => {
  const cloze = clozeFrom(source);
  if (cloze) return cloze;
  const texts = TEXTS[source.language];
  for (const sentence of candidatesOf(source)) {
    const split = splitSentence(sentence);
    if (!split) continue;
    const size = split.ending.split(/\s+/).length;
    const distractors: string[] = [];
    const pool = [...source.others, ...source.sentences.filter((other) => other !== sentence)];
    for (const other of pool) {
      if (distractors.length >= 3) break;
      const ending = endingOf(other, size);
      if (
        ending &&
        !areAnswersSimilar(ending, split.ending) &&
        !distractors.some((taken) => areAnswersSimilar(taken, ending))
      ) {
        distractors.push(ending);
      }
    }
    if (distractors.length === 0) continue;
    const answers = distractors.map((text) => ({
      text,
      correct: false,
      response: response(texts.wrong(sentence)),
    }));
    // The right answer moves from day to day.
    const position = source.day % (answers.length + 1);
    answers.splice(position, 0, {
      text: split.ending,
      correct: true,
      response: response(texts.correct(sentence)),
    });
    const stem = clampText(split.stem, TEXT_LIMITS.question - charCount(texts.complete('')));
    return {
      question: texts.complete(stem),
      type: 'multiple_choice',
      mandatory: true,
      answers: answers.slice(0, MAX_ANSWERS),
      thank_you_message: null,
    };
  }
  return null;
};

/**
 * An assessment of one of the allowed types built from the lesson's sentences (the first type
 * that the text allows, in the order given), or null when the text has no usable sentence.
 */
export const buildAssessment = (
  source: TAssessmentSource,
  types: readonly TAssessmentType[],
): TAssessment | null => {
  for (const type of types) {
    const built =
      type === 'true_false'
        ? trueFalseFrom(source)
        : type === 'multiple_choice'
          ? multipleChoiceFrom(source)
          : null;
    // Every generated question ends with the standard thank-you, in the course language.
    if (built) return { ...built, thank_you_message: TEXTS[source.language].thankYou };
  }
  return null;
};

/** The type order for a lesson: its assessment choice, alternating by day for "random". */
export const typeOrderFor = (
  allowed: readonly TAssessmentType[],
  day: number,
): TAssessmentType[] =>
  allowed.length > 1 && day % 2 === 0 ? [...allowed].reverse() : [...allowed];

/**
 * Reading time of a lesson: everything the learner reads (intro, content, question and answers)
 * at about 200 words a minute, rounded up, within §5's 1 to 300.
 */
export const learningMinutesFor = (text: string, assessment: TAssessment | null): number => {
  const read = [
    text,
    assessment?.question ?? '',
    ...(assessment?.answers.map((answer) => answer.text) ?? []),
  ].join(' ');
  return Math.min(
    LEARNING_MINUTES.max,
    Math.max(LEARNING_MINUTES.min, Math.ceil(wordCount(read) / WORDS_PER_MINUTE)),
  );
};

// --- Lessons ----------------------------------------------------------------------------------

/**
 * An intro: the first sentences, up to about 300 characters and less than half of the text (so
 * it does not repeat the whole content), at least one sentence, never over the 600 of §5.
 */
export const introFrom = (all: readonly string[]): string => {
  // A piece of a sentence cut off where the text began (a page, a slide) does not open a lesson.
  // Nor does a line of code (a function's synopsis before its description).
  const first = all.findIndex(
    (sentence) => !/^[\p{Ll},;:)\]–—-]/u.test(sentence) && !looksLikeCode(sentence),
  );
  const sentences = first > 0 ? all.slice(first) : all;
  const total = sentences.reduce((sum, sentence) => sum + sentence.length + 1, 0);
  const target = Math.min(INTRO_TARGET, total / 2);
  const kept: string[] = [];
  let used = 0;
  for (const sentence of sentences) {
    if (kept.length > 0 && used + sentence.length + 1 > target) break;
    kept.push(sentence);
    used += sentence.length + 1;
  }
  return clampText(kept.join(' '), TEXT_LIMITS.topicIntro);
};

export type TOfflineOptions = {
  count: number;
  language: TLocale;
  types: readonly TAssessmentType[];
};

export type TGeneratedLessons = { lessons: TLesson[]; warnings: string[] };

/**
 * The parts' titles: their headings without numbering; a part that goes on with the section
 * before it gets that section's title and its number in the run ("Handling objections (2)");
 * a part of a text without headings has none (its first sentence is used).
 */
const titlesOf = (units: readonly TUnit[]): (string | null)[] => {
  let run = 1;
  return units.map((unit) => {
    if (unit.heading) {
      run = 1;
      return titleOf(unit.heading);
    }
    if (!unit.continues) return null;
    run += 1;
    return `${titleOf(unit.continues)} (${run})`;
  });
};

/** Lists taken in turns (the best term of each lesson, then the second of each, …). */
const interleave = <T>(lists: readonly (readonly T[])[]): T[] => {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((list) => list.length));
  for (let at = 0; at < longest; at += 1) {
    for (const list of lists) if (at < list.length) out.push(list[at] as T);
  }
  return out;
};

/** A draft's lessons made from the document's blocks without any AI service. */
export const generateOfflineLessons = (
  blocks: readonly TBlock[],
  { count, language, types }: TOfflineOptions,
): TGeneratedLessons => {
  const warnings: string[] = [];
  const units = splitIntoParts(blocks, count, language);
  let shortened = false;
  const titles = titlesOf(units);
  const drafts = units.map((unit, index) => {
    const paragraphs = paragraphsOf(unit).map((block) => block.text);
    const allSentences = paragraphs.flatMap((text) => sentencesOf(text, language));
    const content = paragraphsToHtml(unit.blocks, TEXT_LIMITS.topicContent, language);
    if (content.cut) shortened = true;
    const visible = stripHtml(content.html.replace(/<\/p>/g, '</p>\n'));
    return {
      day: index + 1,
      title: clampText(titles[index] ?? allSentences[0] ?? '', TEXT_LIMITS.lessonTitle),
      intro: introFrom(allSentences),
      content: content.html,
      sentences: sentencesOf(visible, language),
      visible,
    };
  });
  if (units.length < count) {
    warnings.push(fill(MESSAGES.aiWarningFewerLessons, { count: units.length, requested: count }));
  }
  if (shortened) warnings.push(MESSAGES.aiWarningContentShortened);

  const terms = lessonTerms(
    drafts.map((draft) => draft.sentences),
    language,
  );
  const lessons: TLesson[] = [];
  for (const [index, draft] of drafts.entries()) {
    const others = drafts.filter((other) => other !== draft).flatMap((other) => other.sentences);
    const assessment = buildAssessment(
      {
        day: draft.day,
        language,
        sentences: draft.sentences,
        others,
        title: draft.title,
        terms: terms[index],
        otherTerms: interleave(terms.filter((_, other) => other !== index)),
      },
      typeOrderFor(types, draft.day),
    );
    if (!assessment) warnings.push(fill(MESSAGES.aiWarningAssessmentMissing, { day: draft.day }));
    const parsed = ZLessonSchema.safeParse({
      day: draft.day,
      language,
      title: draft.title,
      topic_intro: draft.intro,
      topic_content: draft.content,
      learning_minutes: learningMinutesFor(`${draft.intro} ${draft.visible}`, assessment),
      media: null,
      assessment,
    });
    // Every part comes from real text, so this holds; a part that does not is left out.
    if (parsed.success) lessons.push(parsed.data);
  }
  return { lessons, warnings };
};

// --- The writing helpers, offline -------------------------------------------------------------

const summaryHtml = (blocks: readonly TBlock[], language: string): string => {
  const points = blocks
    .filter((block) => block.kind === 'paragraph')
    .map((block) => sentencesOf(block.text, language)[0] ?? '')
    .filter(Boolean)
    .slice(0, 5);
  const items: string[] = [];
  let used = 0;
  for (const point of points) {
    const text = clampText(point, TEXT_LIMITS.topicContent - used);
    if (!text || used + charCount(text) > TEXT_LIMITS.topicContent) break;
    items.push(`<li>${escapeHtml(text)}</li>`);
    used += charCount(text);
  }
  return items.length > 0 ? `<ul>${items.join('')}</ul>` : '';
};

/** What a writing helper gives without an AI service, from the content's own sentences. */
export const offlineHelper = (id: TAiPromptId, content: string, language: TLocale): string => {
  const blocks = textToBlocks(content);
  const sentences = blocks
    .filter((block) => block.kind === 'paragraph')
    .flatMap((block) => sentencesOf(block.text, language));
  const heading = blocks[0]?.kind === 'heading' ? blocks[0].text : null;
  switch (id) {
    case 'lesson-title':
      return clampText(heading ?? sentences[0] ?? content, TEXT_LIMITS.lessonTitle);
    case 'topic-intro':
      return introFrom(sentences.length > 0 ? sentences : [content]);
    case 'topic-content':
      return paragraphsToHtml(blocks, TEXT_LIMITS.topicContent, language).html;
    case 'summary':
      return summaryHtml(blocks, language);
    case 'quiz-question': {
      const statement = byWordsDescending(sentences.filter(isStatement))[0] ?? sentences[0] ?? '';
      return clampText(TEXTS[language].trueFalse(statement), TEXT_LIMITS.question);
    }
  }
};
