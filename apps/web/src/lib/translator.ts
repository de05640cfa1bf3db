// The part of i18next the sign-in screen uses, over a language's texts: nested keys, `{{name}}`
// values, `count` plurals (`key_zero`, then `key_one`/`key_other` by Intl.PluralRules, then
// `key`), `defaultValue`, and the key itself for a text that is not there. A signed-out /login
// renders with it instead of evaluating and initialising i18next (84 KB of source) first
// (issue 32); translator.test.ts checks it answers as i18next does for every sign-in text.

export type TTextOptions = Record<string, unknown> & { count?: number; defaultValue?: string };
export type TTranslate = (key: string, options?: TTextOptions) => string;

type Texts = Record<string, unknown>;

const isTexts = (value: unknown): value is Texts => typeof value === 'object' && value !== null;

const textAt = (texts: Texts, key: string): string | undefined => {
  let node: unknown = texts;
  for (const part of key.split('.')) {
    if (!isTexts(node)) return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
};

// i18next's default prefix and suffix, values unescaped (i18n.ts: escapeValue false).
const PLACEHOLDER = /\{\{\s*([\w.]+)\s*\}\}/g;

const interpolate = (text: string, values: TTextOptions) =>
  text.includes('{{')
    ? text.replace(PLACEHOLDER, (placeholder, name: string) => {
        const value = values[name];
        // i18next leaves the placeholder of a value it was not given.
        if (value === undefined) return placeholder;
        return typeof value === 'string' ? value : JSON.stringify(value);
      })
    : text;

export const createTranslator = (language: string, texts: Texts): TTranslate => {
  // Made on the first counted text: the first render of /login has none.
  let plurals: Intl.PluralRules | undefined;
  const counted = (key: string, count: number) => {
    plurals ??= new Intl.PluralRules(language);
    return (
      (count === 0 ? textAt(texts, `${key}_zero`) : undefined) ??
      textAt(texts, `${key}_${plurals.select(count)}`)
    );
  };
  return (key, options = {}) => {
    const text =
      (options.count === undefined ? undefined : counted(key, options.count)) ??
      textAt(texts, key) ??
      options.defaultValue ??
      key;
    return interpolate(text, options);
  };
};
