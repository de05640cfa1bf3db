import { phoneCountry, toE164 } from './phone-number.ts';

// National phone numbers of import files (`ccp learners import --default-country IT`): a number
// written without the international prefix is read with the file's country through the same
// libphonenumber rules as the learner form, so "333 123 4567" in an Italian file is
// +393331234567.

/** A two-letter country the phone rules know (any case). */
export const isKnownCountry = (country: string): boolean => phoneCountry(country) !== undefined;

const SEPARATORS = /[\s\-.()]/g;

/**
 * A phone cell in international form: unchanged when it starts with `+` or is empty; `00…` is
 * read as `+…`; otherwise read as a national number of the country. Anything that is not a
 * possible number stays as written, for the phone rule to refuse with its message.
 */
export const withCountryCode = (raw: string, country: string | undefined): string => {
  const known = phoneCountry(country);
  if (!known) return raw;
  const cleaned = raw.replace(SEPARATORS, '');
  if (cleaned === '' || cleaned.startsWith('+') || !/^\d+$/.test(cleaned)) return raw;
  const international = cleaned.startsWith('00') ? `+${cleaned.slice(2)}` : cleaned;
  return toE164(international, known) ?? raw;
};
