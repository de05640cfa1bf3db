import { createRequire } from 'node:module';

import type { TLocale } from '@ccp/schemas';
import { areAnswersSimilar } from '@ccp/schemas';
import type nlpType from 'compromise';

// The key terms of each lesson of an offline draft (issue 13): what a question asks about, and
// the terms of the same kind from the other lessons that make its wrong answers. English noun
// phrases come from compromise (a tagger with its lexicon in the package, offline); Italian and
// German go by language-neutral rules: runs of content words after an article, capitalised
// nouns in German, ranked by how much more often they occur in the lesson than in the rest.

// compromise takes about half a second to load (its lexicon): it is loaded at the first English
// draft, not with the server (its CommonJS build, kept out of the bundle in scripts/build.js).
const loadModule = createRequire(import.meta.url);
let tagger: typeof nlpType | null = null;
const nlp = (text: string) => {
  tagger ??= loadModule('compromise') as typeof nlpType;
  return tagger(text);
};

/** Whether the English tagger finds two people in the text, or reads half its words as a name. */
export const isPersonName = (text: string): boolean => {
  const words = text.trim().split(/\s+/).length;
  const names = nlp(text).people().out('array') as string[];
  const named = names.reduce((sum, name) => sum + name.trim().split(/\s+/).length, 0);
  return names.length >= 2 || named * 2 >= words;
};

/** A key term: its text as written in the lesson, and its kind (to match distractors to). */
export type TTerm = {
  text: string;
  words: number;
  plural: boolean | null;
  /** Grammatical gender where an article tells it (Italian); an article before a blank agrees. */
  gender?: 'm' | 'f' | null;
  capital: boolean;
};

/** A term as found in a sentence: plural when its article or the tagger says so (null: unknown). */
type TFound = { text: string; plural: boolean | null; gender?: 'm' | 'f' | null };

const ARTICLES: Record<TLocale, Set<string>> = {
  en: new Set('a an the this that these those its their your our'.split(' ')),
  it: new Set(
    "il lo la i gli le un uno una l' del dello della dei degli delle al allo alla ai agli alle dal dalla dai nel nello nella nei negli nelle sul sulla sui questo questa questi queste"
      .split(' ')
      .concat(["l'", 'un’', "un'", 'l’']),
  ),
  de: new Set(
    'der die das den dem des ein eine einen einem einer eines kein keine keinen keinem keiner dieser diese dieses diesen diesem'.split(
      ' ',
    ),
  ),
};

// Words that carry no fact of their own, in the three languages (the first words of a term's
// run are cut at them).
const STOPWORDS = new Set(
  [
    'about above after again all almost also always and another any anyone anything are because been before being between both but can could does done down during each either else even ever every few for from had has have having here how however into its just like made make many may might more most much must never next not now often once only other our out over own same she should since some such than that then there these they this those through too under until upon very was were what when where which while who whom why will with within without would yet you your something someone everything everyone nothing nobody thing things way ways lot kind',
    'mio mia miei mie tuo tua tuoi tue suo sua suoi sue nostro nostra nostri nostre vostro vostra vostri vostre anche ancora attraverso che chi come con cosa dalla dopo dove durante essere fare fino hanno loro mentre molto nella nelle negli non ogni oppure per perché però più poco poi prima quale quali quando quanto quella quelle quelli quello questa queste questi questo sempre senza sono sotto stato subito sulla tra tutte tutti tutto una uno verso già',
    'aber alle allem allen aller alles als also am andere anderen auch auf aus bei beim bereits bin bis bist da damit dann darf dass dein deine dem den denn der des dessen die dies diese diesem diesen dieser dieses doch dort durch ein eine einem einen einer eines etwa euch für gegen hat hatte hier ihm ihn ihr ihre im immer in ins ist jede jedem jeden jeder jedes jetzt kann kein keine können man mehr mit muss nach nicht noch nun nur ob oder ohne sehr sein seine sich sie sind so soll sollte über um und uns unter viel vom von vor wann war waren was weil wenn werden wie wieder wir wird wo zu zum zur zwischen',
    // Number words: a count is asked about by true/false, not as a term.
    'one two three four five six seven eight nine ten hundred thousand uno due tre quattro cinque sei sette otto nove dieci cento mille eins zwei drei vier fünf sechs sieben acht neun zehn hundert tausend',
    // Units of time and measure (issue 27: "hour" offered beside "laptop"): they say how much
    // of a fact, not what it is about, so no answer is made of one.
    'second seconds minute minutes hour hours day days week weeks month months year years percent time times per cent secondo secondi minuto minuti ora ore giorno giorni settimana settimane mese mesi anno anni percento volta volte sekunde sekunden minute minuten stunde stunden tag tage tagen woche wochen monat monate jahr jahre jahren prozent mal',
    // Pronouns the tagger takes for nouns ("watched by others").
    'others another anybody somebody everybody altri altre entrambi andere anderen beide',
  ]
    .join(' ')
    .split(' '),
);

const NOT_TERM_TAGS = new Set(['Determiner', 'Possessive', 'Pronoun', 'Gerund', 'Adverb']);

const WORD = /[\p{L}][\p{L}\p{N}'’-]*/gu;

const isContentWord = (word: string) =>
  [...word].length >= 3 && !STOPWORDS.has(word.toLowerCase()) && /^\p{L}+(?:-\p{L}+)*$/u.test(word);

/** Italian articles of the plural: the term after one is plural, after another singular. */
const PLURAL_ARTICLES = new Set(
  'i gli le dei degli delle ai agli alle dai dagli dalle nei negli nelle sui sugli sulle questi queste'.split(
    ' ',
  ),
);

/** Italian articles and articled prepositions of either gender. */
const ITALIAN_GENDER: Record<string, 'm' | 'f'> = Object.fromEntries([
  ...'il lo un uno i gli del dello dei degli al allo ai agli dal dallo dai dagli nel nello nei negli sul sullo sui sugli questo questi'
    .split(' ')
    .map((article) => [article, 'm'] as const),
  ...'la una le della delle alla alle dalla dalle nella nelle sulla sulle questa queste'
    .split(' ')
    .map((article) => [article, 'f'] as const),
]);

/** Italian adjectives that usually stand before their noun. */
const PRENOMINAL = new Set(
  'primo prima primi prime ultimo ultima ultimi ultime nuovo nuova nuovi nuove breve brevi stesso stessa stessi stesse altro altra altri altre grande grandi piccolo piccola piccoli piccole buon buona buoni buone vero vera veri vere'.split(
    ' ',
  ),
);

/** Italian "of" between two nouns ("note del cliente"), kept inside a term. */
const ITALIAN_OF = new Set('di del dello della dei degli delle'.split(' '));

/** A word without an elided article before it ("l'ordine" → "ordine"). */
const bare = (word: string) => word.replace(/^\p{L}{1,4}['’]/u, '');
const elided = (word: string) => /^(?:l|un|dell|all|dall|nell|sull)['’]\p{L}/iu.test(word);

/**
 * German terms: a capitalised noun anywhere but at the start of a sentence (or after an
 * article), with the adjectives an article leads into ("die letzte Bestellung").
 */
const germanTerms = (words: readonly string[]): TFound[] => {
  const terms: TFound[] = [];
  let adjectives: string[] | null = null;
  words.forEach((word, index) => {
    const article = ARTICLES.de.has(word.toLowerCase());
    if (/^\p{Lu}/u.test(word) && isContentWord(word) && (index > 0 || adjectives)) {
      // "die" is also the feminine singular: German plurals are left unknown.
      terms.push({ text: [...(adjectives ?? []).slice(-1), word].join(' '), plural: null });
      adjectives = null;
    } else if (article) adjectives = [];
    else if (adjectives && /^\p{Ll}/u.test(word) && isContentWord(word)) adjectives.push(word);
    else adjectives = null;
  });
  return terms;
};

/**
 * Italian (and any other language's) terms: the word an article leads into, with a noun joined
 * by "di" ("la lista di controllo"); an adjective or a verb after it cannot be told apart, so
 * neither is taken.
 */
const articleTerms = (words: readonly string[], language: TLocale): TFound[] => {
  const terms: TFound[] = [];
  words.forEach((word, index) => {
    const previous = words[index - 1]?.toLowerCase() ?? '';
    if (!ARTICLES[language].has(previous) && !elided(word)) return;
    let noun = bare(word);
    let after = index + 1;
    // "l'ultimo ordine", "una breve lista": an adjective that comes first goes with its noun.
    if (PRENOMINAL.has(noun.toLowerCase()) && isContentWord(words[after] ?? '')) {
      noun = `${noun} ${words[after]}`;
      after += 1;
    }
    if (!isContentWord(bare(word))) return;
    const [of, next] = [words[after] ?? '', words[after + 1] ?? ''];
    const text =
      ITALIAN_OF.has(of.toLowerCase()) && isContentWord(bare(next))
        ? `${noun} ${of} ${bare(next)}`
        : noun;
    if (text.split(' ').length <= 3) {
      terms.push({
        text,
        // Every Italian article tells the number; an elided one ("l'", "un'") is singular.
        plural: language === 'it' ? PLURAL_ARTICLES.has(previous) : null,
        gender: language === 'it' ? (ITALIAN_GENDER[previous] ?? null) : null,
      });
    }
  });
  return terms;
};

/** Terms of a sentence for Italian and German: see the header. */
const neutralTerms = (sentence: string, language: TLocale): TFound[] => {
  const words = [...sentence.matchAll(WORD)].map((match) => match[0]);
  return language === 'de' ? germanTerms(words) : articleTerms(words, language);
};

const verbForms = new Map<string, boolean>();

/**
 * A word that, alone, is a verb in the third person ("starts", "rings") and not a noun: in a
 * sentence the tagger sometimes takes it for a plural noun ending a phrase ("sales call starts").
 */
const isVerbForm = (word: string): boolean => {
  const key = word.toLowerCase();
  let verb = verbForms.get(key);
  if (verb === undefined) {
    const alone = nlp(key);
    verb = alone.has('#PresentTense') && !alone.has('#Infinitive') && !alone.has('#Noun');
    verbForms.set(key, verb);
  }
  return verb;
};

const isAdjectiveOnly = (tags: readonly string[]) =>
  tags.includes('Adjective') && !tags.includes('Noun');

type TNounJson = { terms: { text: string; tags: string[] }[]; noun?: { isPlural?: boolean } };

/** English noun phrases without their determiner, as compromise tags them. */
const englishTerms = (sentence: string): TFound[] =>
  (nlp(sentence).nouns().json() as TNounJson[])
    .map((noun) => {
      const kept = noun.terms.filter((term) => !term.tags.some((tag) => NOT_TERM_TAGS.has(tag)));
      // A phrase ends with its noun: "keep the company safe" is no "company safe" (issue 27).
      while (kept.length > 1 && isAdjectiveOnly(kept.at(-1)?.tags ?? [])) kept.pop();
      const words = kept
        // Punctuation only at a word's ends is not the word's ("value."); inside ("file/block")
        // it is, and such a word is no term.
        .map((term) => term.text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
        .filter(Boolean);
      while (words.length > 0 && isVerbForm(words.at(-1) ?? '')) words.pop();
      return { words, plural: noun.noun?.isPlural ?? null };
    })
    .filter(({ words }) => words.length > 0 && words.length <= 3 && words.every(isContentWord))
    .map(({ words, plural }) => ({ text: words.join(' '), plural }));

const termsOfSentence = (sentence: string, language: TLocale): TFound[] =>
  language === 'en' ? englishTerms(sentence) : neutralTerms(sentence, language);

/**
 * The key terms of each lesson, best first: a term scores by its uses in the lesson, weighed
 * down by the number of lessons it occurs in (the document's subject is in all of them and
 * tells nothing about one), up for a phrase of more than one word.
 */
export const lessonTerms = (
  lessons: readonly (readonly string[])[],
  language: TLocale,
): TTerm[][] => {
  const perLesson = lessons.map((sentences) => {
    const counts = new Map<string, TFound & { count: number }>();
    for (const sentence of sentences) {
      for (const { text, plural, gender } of termsOfSentence(sentence, language)) {
        // The tagger splits a hyphenated or dotted word: only a term standing whole counts.
        if (termIndex(sentence, text) < 0) continue;
        const key = text.toLowerCase();
        const entry = counts.get(key) ?? { text, plural, gender, count: 0 };
        entry.count += 1;
        counts.set(key, entry);
      }
    }
    return counts;
  });
  const lessonsWith = new Map<string, number>();
  for (const counts of perLesson) {
    for (const key of counts.keys()) lessonsWith.set(key, (lessonsWith.get(key) ?? 0) + 1);
  }
  return perLesson.map((counts) =>
    [...counts.entries()]
      .map(([key, { text, plural, gender, count }]) => ({
        term: {
          text,
          words: text.split(' ').length,
          plural,
          gender: gender ?? null,
          capital: /^\p{Lu}/u.test(text),
        },
        score:
          count *
          Math.log(1 + lessons.length / (lessonsWith.get(key) ?? 1)) *
          (text.includes(' ') ? 1.5 : 1),
      }))
      .sort((a, b) => b.score - a.score)
      .map(({ term }) => term),
  );
};

/**
 * Where a term stands in a sentence as a whole word (or phrase), or -1. A word joined to the
 * term by a hyphen, dot, slash or @ makes it part of a longer one ("look-alike domains",
 * "invoice.html", "name@example.com"): issue 27 found "alike domains" and "html" as answers.
 */
export const termIndex = (sentence: string, term: string): number => {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return (
    new RegExp(
      `(?<![\\p{L}\\p{N}]|[\\p{L}\\p{N}][-./@])${escaped}(?![\\p{L}\\p{N}]|[-./@][\\p{L}\\p{N}])`,
      'u',
    ).exec(sentence)?.index ?? -1
  );
};

/**
 * Up to `count` terms of the same kind as `term` from `pool` (other lessons' terms): the same
 * number of words, plural and capitalisation first, never one the lesson itself uses or one
 * too like the term or each other.
 */
export const sameKindTerms = (
  term: TTerm,
  pool: readonly TTerm[],
  lessonText: string,
  count: number,
): string[] => {
  const lower = lessonText.toLowerCase();
  // The same number (an article before the blank agrees with it), the same length or one word
  // off, the same capitalisation.
  const differ = <T>(a: T | null | undefined, b: T | null | undefined) =>
    a !== null && a !== undefined && b !== null && b !== undefined && a !== b;
  const fit = (candidate: TTerm) =>
    differ(candidate.plural, term.plural) || differ(candidate.gender, term.gender)
      ? 0
      : (candidate.words === term.words
          ? 4
          : Math.abs(candidate.words - term.words) === 1
            ? 2
            : 0) + (candidate.capital === term.capital ? 1 : 0);
  const chosen: string[] = [];
  for (const candidate of [...pool].sort((a, b) => fit(b) - fit(a))) {
    if (chosen.length >= count) break;
    if (fit(candidate) < 3) continue;
    if (termIndex(lower, candidate.text.toLowerCase()) >= 0) continue;
    if (areAnswersSimilar(candidate.text, term.text)) continue;
    if (chosen.some((taken) => areAnswersSimilar(taken, candidate.text))) continue;
    chosen.push(candidate.text);
  }
  return chosen;
};
