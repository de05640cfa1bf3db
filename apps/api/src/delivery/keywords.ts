import { LOCALES } from '@ccp/schemas';
import type { TAssessment } from '@ccp/schemas';

import { t } from '../i18n/texts.ts';

// Words a learner types instead of an answer, read the same on every channel: the invitation's
// yes and no, and the enrolment's RESUME and STOP (issue 28). Each is the whole message, any case,
// in any of our languages (a learner may write in another than the course's); the words are in
// locales/server `channel.*Words`.

/** A typed message as compared: trimmed of quotes, stars and end punctuation, lower case. */
export const normalizeWord = (text: string): string =>
  text
    .normalize('NFC')
    .toLowerCase()
    .replace(/^[\s"'¡¿*_]+|[\s"'.!?…*_]+$/gu, '')
    .replace(/\s+/g, ' ');

type WordsKey =
  | 'server.channel.joinWords'
  | 'server.channel.declineWords'
  | 'server.channel.resumeWords'
  | 'server.channel.stopWords'
  | 'server.channel.trueWords'
  | 'server.channel.falseWords';

/** The words of every language for one meaning. */
export const wordsOf = (key: WordsKey): Set<string> =>
  new Set(LOCALES.flatMap((lang) => t(lang, key).split('|').map(normalizeWord)));

const RESUME_WORDS = wordsOf('server.channel.resumeWords');
const STOP_WORDS = wordsOf('server.channel.stopWords');

/** What a learner asks of their enrolment: RESUME (RIPRENDI, WEITER) or STOP; null otherwise. */
export type EnrolmentKeyword = 'resume' | 'stop';

export const enrolmentKeyword = (text: string): EnrolmentKeyword | null => {
  const word = normalizeWord(text);
  if (STOP_WORDS.has(word)) return 'stop';
  if (RESUME_WORDS.has(word)) return 'resume';
  return null;
};

const TRUE_WORDS = wordsOf('server.channel.trueWords');
const FALSE_WORDS = wordsOf('server.channel.falseWords');

/** A single letter A–K naming an answer ("B", "b)", "(c)"). */
const LETTER = /^\(?([a-k])\)?$/;
/** An answer's number ("2", "2)"; "2." loses its dot to normalizeWord). */
const NUMBER = /^\(?([1-9]\d?)\)?$/;

/**
 * Which answer of a choice question a typed message names, instead of tapping (issue 28): its
 * number ("2"), its letter ("B"), its text, or for a true/false question true or false in any of
 * our languages (TRUE, vero, wahr). True/false answers are the wizard's "True" then "False"
 * (in the lesson's language): one whose text is a true (false) word is taken, else the first
 * (second). Null when the message names none of them.
 */
export const typedChoice = (assessment: TAssessment, text: string): number | null => {
  const { answers } = assessment;
  const word = normalizeWord(text);
  const inRange = (index: number) => (index >= 0 && index < answers.length ? index : null);
  const number = NUMBER.exec(word);
  if (number) return inRange(Number(number[1]) - 1);
  const byText = answers.findIndex((answer) => normalizeWord(answer.text) === word);
  if (byText >= 0) return byText;
  const letter = LETTER.exec(word);
  if (letter) return inRange(letter[1]!.charCodeAt(0) - 'a'.charCodeAt(0));
  if (assessment.type !== 'true_false') return null;
  const truth = TRUE_WORDS.has(word) ? true : FALSE_WORDS.has(word) ? false : null;
  if (truth === null) return null;
  const words = truth ? TRUE_WORDS : FALSE_WORDS;
  const named = answers.findIndex((answer) => words.has(normalizeWord(answer.text)));
  return named >= 0 ? named : inRange(truth ? 0 : 1);
};
