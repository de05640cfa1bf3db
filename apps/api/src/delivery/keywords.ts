import { LOCALES } from '@ccp/schemas';

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
  | 'server.channel.stopWords';

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
