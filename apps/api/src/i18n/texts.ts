import type { TLocale } from '@ccp/schemas';

// Every text the server says, from the one home of texts, locales/: the shared files (the API's
// messages are `validation.<key>`, the error codes `errors.<CODE>`) and the server-only files
// (channel messages, mails, generated assessments, GET /translations), mounted under `server.`.
// Static imports, so tsx, vitest and a bundle read the same files without a path at run time.
import de from '../../../../locales/de.json' with { type: 'json' };
import en from '../../../../locales/en.json' with { type: 'json' };
import it from '../../../../locales/it.json' with { type: 'json' };
import serverDe from '../../../../locales/server/de.json' with { type: 'json' };
import serverEn from '../../../../locales/server/en.json' with { type: 'json' };
import serverIt from '../../../../locales/server/it.json' with { type: 'json' };

type TTree = { readonly [key: string]: string | TTree };

/** The dotted keys of a locale tree's texts: `channel.day`, `mail.import.rows`, … */
type TLeaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : TLeaves<T[K], `${P}${K}.`>;
}[keyof T & string];

export type TServerTextKey = `server.${TLeaves<typeof serverEn>}`;
export type TSharedTextKey = TLeaves<Pick<typeof en, 'validation' | 'errors'>>;
/** A key of a text the server may say. */
export type TTextKey = TServerTextKey | TSharedTextKey;
export type TTextParams = Readonly<Record<string, string | number>>;

const flatten = (tree: TTree, prefix: string, into: Map<string, string>): Map<string, string> => {
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') into.set(full, value);
    else flatten(value, full, into);
  }
  return into;
};

const load = (shared: TTree, server: TTree) =>
  flatten(server, 'server', flatten(shared, '', new Map()));

const TEXTS: Record<TLocale, ReadonlyMap<string, string>> = {
  en: load(en, serverEn),
  it: load(it, serverIt),
  de: load(de, serverDe),
};

/** Fills `{{name}}` placeholders in one pass, so a value that contains `{{x}}` stays as it is. */
export const interpolate = (text: string, params: TTextParams = {}): string =>
  text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );

/** A text that may be missing (a key built at run time); undefined when no language has it. */
export const maybeText = (lang: TLocale, key: string, params?: TTextParams): string | undefined => {
  // The locale parity test keeps every language complete; English covers a key added carelessly.
  const template = TEXTS[lang].get(key) ?? TEXTS.en.get(key);
  return template === undefined ? undefined : interpolate(template, params);
};

/** The text of `key` in `lang`, its `{{placeholders}}` filled from `params`. */
export const t = (lang: TLocale, key: TTextKey, params?: TTextParams): string =>
  maybeText(lang, key, params) ?? key;

/** Every text under `prefix.` in `lang`, keyed by the rest of the key (GET /translations). */
export const textsUnder = (lang: TLocale, prefix: string): Map<string, string> => {
  const start = `${prefix}.`;
  const found = new Map<string, string>();
  for (const [key, value] of TEXTS[lang]) {
    if (key.startsWith(start)) found.set(key.slice(start.length), value);
  }
  return found;
};
