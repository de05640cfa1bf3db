import { MESSAGES, messageKey } from '@ccp/schemas';
import type { TLocale, TMessageKey } from '@ccp/schemas';

// The texts of the spec (MESSAGES) in the user's language, from the one home of texts, locales/.
// Static imports: a bundled ccp carries them without a path computed at run time.
import de from '../../../../locales/de.json' with { type: 'json' };
import it from '../../../../locales/it.json' with { type: 'json' };

const VALIDATION: Record<Exclude<TLocale, 'en'>, Readonly<Record<string, string>>> = {
  it: it.validation,
  de: de.validation,
};

/** A spec text by its key, in `lang` (English is MESSAGES itself). */
export const specText = (lang: TLocale, key: TMessageKey): string =>
  lang === 'en' ? MESSAGES[key] : (VALIDATION[lang][key] ?? MESSAGES[key]);

/** A spec text given in English (a zod issue of the shared schemas) in `lang`; others as given. */
export const sayText = (lang: TLocale, text: string): string => {
  const key = messageKey(text);
  return key ? specText(lang, key) : text;
};
