import {
  SUBSCRIPTION_FUNCTION_KEYS,
  limitReachedMessage,
  messageKey,
  messageTemplateOf,
} from '@ccp/schemas';
import type { TFieldErrors, TLocale, TMessageKey } from '@ccp/schemas';

import { t } from './texts.ts';
import type { TTextKey, TTextParams } from './texts.ts';

// The API's messages are English where they are made (MESSAGES, the shared zod schemas, the
// publish check) and are said in the request's language last, by the errors plugin. A message
// that is filled in travels as its key and values (`localText`); a fixed MESSAGES text is its own
// key (`messageKey`); for texts made elsewhere (zod issues, filled templates, the publish check's
// "Day 3 (en), option 2: …") the key is found again from the English text.

/** A text by key, with the values of its placeholders. */
export type TLocalText = { key: TTextKey; params?: TTextParams };

export const localText = (key: TTextKey, params?: TTextParams): TLocalText =>
  params ? { key, params } : { key };

/** A text of MESSAGES by its key, e.g. `messageText('importCsvBroken', { line: 3 })`. */
export const messageText = (key: TMessageKey, params?: TTextParams): TLocalText =>
  localText(`validation.${key}`, params);

const LIMIT_TEXTS = new Map(
  SUBSCRIPTION_FUNCTION_KEYS.map((feature) => [limitReachedMessage(feature), feature] as const),
);

// The subjects `publishMessage` (packages/schemas) puts before a lesson problem.
const PUBLISH =
  /^(?:Day (?<day>\d+) \((?<language>[a-z]{2})\)|Lesson (?<lesson>\d+))(?:, option (?<option>\d+))?: (?<message>.+)$/s;

const upperFirst = (value: string) => `${value.charAt(0).toUpperCase()}${value.slice(1)}`;
const lowerFirst = (value: string) => `${value.charAt(0).toLowerCase()}${value.slice(1)}`;

const publishProblem = (message: string, lang: TLocale): string | undefined => {
  const groups = PUBLISH.exec(message)?.groups;
  if (!groups?.message) return undefined;
  const inner = translateKnown(upperFirst(groups.message), lang);
  if (inner === undefined) return undefined;
  // After the colon English and Italian go on in lower case; German keeps its capitals (nouns).
  const said = lang === 'de' ? inner : lowerFirst(inner);
  const { day, language, lesson, option } = groups;
  if (day !== undefined && language !== undefined) {
    return option === undefined
      ? t(lang, 'server.publish.day', { day, language, message: said })
      : t(lang, 'server.publish.dayOption', { day, language, option, message: said });
  }
  if (lesson === undefined) return undefined;
  return option === undefined
    ? t(lang, 'server.publish.lesson', { lesson, message: said })
    : t(lang, 'server.publish.lessonOption', { lesson, option, message: said });
};

/** A message the locale files know, said in `lang`; undefined for a text they do not know. */
export const translateKnown = (message: string, lang: TLocale): string | undefined => {
  const key = messageKey(message);
  if (key) return t(lang, `validation.${key}`);
  const template = messageTemplateOf(message);
  if (template) return t(lang, `validation.${template.key}`, template.params);
  const feature = LIMIT_TEXTS.get(message);
  if (feature) return t(lang, `server.limitReached.${feature}`);
  return publishProblem(message, lang);
};

/** An English API message in `lang`; a text the locale files do not know stays as it is. */
export const localizeMessage = (message: string, lang: TLocale): string =>
  lang === 'en' ? message : (translateKnown(message, lang) ?? message);

/**
 * A reason of the import error report: `field: message` (imports/rows.ts), or a message. Read for
 * every failed row, so the usual shape is tried first (about 1 µs a reason).
 */
export const localizeReason = (reason: string, lang: TLocale): string => {
  if (lang === 'en') return reason;
  const groups = /^(?<field>[\w.]+): (?<message>.+)$/s.exec(reason)?.groups;
  if (groups?.field && groups.message) {
    const said = translateKnown(groups.message, lang);
    if (said !== undefined) return `${groups.field}: ${said}`;
  }
  return localizeMessage(reason, lang);
};

export const localizeFieldErrors = (errors: TFieldErrors, lang: TLocale): TFieldErrors =>
  lang === 'en'
    ? errors
    : Object.fromEntries(
        Object.entries(errors).map(([path, messages]) => [
          path,
          messages.map((message) => localizeMessage(message, lang)),
        ]),
      );

/** The text of a TLocalText in `lang`. */
export const sayText = (local: TLocalText, lang: TLocale): string =>
  t(lang, local.key, local.params);
