import { DEFAULT_LOCALE, LOCALES } from './constants.ts';
import type { TLocale } from './constants.ts';

// Which interface language a client asked for: the API reads `Accept-Language`, the CLI reads
// --lang, LC_ALL or LANG. Only the language part counts (it-IT, it_IT.UTF-8 and it are Italian).

export const isLocale = (value: unknown): value is TLocale =>
  typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/** The supported language of a tag (`it-IT`, `de_CH.UTF-8`, `EN`), or null. */
export const localeOf = (tag: string | null | undefined): TLocale | null => {
  const base = (tag ?? '')
    .trim()
    .toLowerCase()
    .split(/[-_.@]/)[0];
  return isLocale(base) ? base : null;
};

/**
 * The best supported language of an `Accept-Language` header (RFC 9110 §12.5.4): by q-value, then
 * by order; `q=0` refuses a language. English when the header is missing or names none we have.
 */
export const negotiateLocale = (header: string | null | undefined): TLocale => {
  if (!header) return DEFAULT_LOCALE;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params
        .map((param) => /^\s*q\s*=\s*(.*?)\s*$/i.exec(param)?.[1])
        .find((value) => value !== undefined);
      const weight = q === undefined ? 1 : Number(q);
      return { locale: localeOf(tag), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.locale !== null && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranked[0]?.locale ?? DEFAULT_LOCALE;
};

// Language names an import cell may hold instead of a code, in each app language.
const LANGUAGE_NAMES = new Map<string, TLocale>([
  ['english', 'en'],
  ['inglese', 'en'],
  ['englisch', 'en'],
  ['italian', 'it'],
  ['italiano', 'it'],
  ['italienisch', 'it'],
  ['german', 'de'],
  ['tedesco', 'de'],
  ['deutsch', 'de'],
]);

/**
 * The language of an import cell: a code (`it`), a BCP 47 tag (`en-IE`, `de_DE`) or a name in
 * English, Italian or German ("Italiano", "Englisch"), any case; null for anything else.
 */
export const localeOfName = (value: string | null | undefined): TLocale | null => {
  const text = (value ?? '').trim();
  if (text === '') return null;
  const name = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
  return (
    LANGUAGE_NAMES.get(name) ??
    (/^[a-z]{2,3}([-_][a-z0-9]{2,8})*$/i.test(text) ? localeOf(text) : null)
  );
};
