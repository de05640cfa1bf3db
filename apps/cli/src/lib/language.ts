import { DEFAULT_LOCALE, localeOf } from '@ccp/schemas';
import type { TLocale } from '@ccp/schemas';
import { InvalidArgumentError } from 'commander';

import type { CliIo } from './io.ts';

// Which language ccp asks the API to answer in (and says the spec's texts in). No texts here:
// cli.ts reads this for --lang, and `ccp --help` must not load the locale files.

/** `--lang` as given: en, it, de, or a tag of one (it-IT, de_CH.UTF-8). */
export const parseLangOption = (value: string): TLocale => {
  const locale = localeOf(value);
  if (!locale) throw new InvalidArgumentError('Expected en, it or de.');
  return locale;
};

/**
 * The language of ccp's messages: --lang, else the locale of the environment as POSIX reads it
 * (the first of LC_ALL, LC_MESSAGES and LANG that is set; `it_IT.UTF-8` is Italian), else English.
 * A locale we do not have (fr_FR, C) means English.
 */
export const resolveLanguage = (flag: TLocale | undefined, io: Pick<CliIo, 'env'>): TLocale => {
  if (flag) return flag;
  const { LC_ALL, LC_MESSAGES, LANG } = io.env;
  const tag = [LC_ALL, LC_MESSAGES, LANG].find((value) => value !== undefined && value !== '');
  return localeOf(tag) ?? DEFAULT_LOCALE;
};
