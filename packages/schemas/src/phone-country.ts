import { countryOfPhone, phoneCountry, toE164 } from './phone-number.ts';

// National phone numbers of import files (`ccp learners import --default-country IT`): a number
// written without the international prefix is read with the file's country through the same
// libphonenumber rules as the learner form, so "333 123 4567" in an Italian file is
// +393331234567.

/** A two-letter country the phone rules know (any case). */
export const isKnownCountry = (country: string): boolean => phoneCountry(country) !== undefined;

const SEPARATORS = /[\s\-.()]/g;
// +1 numbers: the calling code 1 is also the trunk prefix (1 212 555 0100).
const NANP_TRUNK = /^\+1/;

/**
 * A phone cell in international form: unchanged when it starts with `+` or is empty; `00…` is
 * read as `+…`; otherwise read as a national number of the country. Anything that is not a
 * possible number, or digits that are a possible number both ways, stays as written, for the
 * phone rule to refuse with its message.
 */
export const withCountryCode = (raw: string, country: string | undefined): string => {
  const known = phoneCountry(country);
  if (!known) return raw;
  const cleaned = raw.replace(SEPARATORS, '');
  if (cleaned === '' || cleaned.startsWith('+') || !/^\d+$/.test(cleaned)) return raw;
  if (cleaned.startsWith('00')) return toE164(`+${cleaned.slice(2)}`) ?? raw;
  // Digits that are also a whole number of this country with its code (a spreadsheet cell typed
  // as a number loses its +: 393331234567) are reported, not guessed. In North America the
  // leading 1 is also the trunk prefix people dial, so there it is read as one.
  const international = toE164(`+${cleaned}`);
  if (international && countryOfPhone(international) === known && !NANP_TRUNK.test(international)) {
    return raw;
  }
  return toE164(cleaned, known) ?? raw;
};
