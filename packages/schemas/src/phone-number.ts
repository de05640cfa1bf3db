import { getCountries, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js';
import type { CountryCode } from 'libphonenumber-js';

import { PHONE_PREFERRED_COUNTRIES } from './constants.ts';

// Phone numbers as people write them, through libphonenumber (Google's rules per country, the
// metadata that checks lengths): national numbers read with a default country ("333 123 4567"
// in Italy is +393331234567, "087 123 4567" in Ireland +353871234567), international ones as
// they are, impossible ones refused. The learner form and the learner imports share it.

export type TPhoneCountry = CountryCode;

const KNOWN = new Set<string>(getCountries());

/** An ISO 3166-1 alpha-2 code the phone rules know, upper-cased; undefined otherwise. */
export const phoneCountry = (value: string | null | undefined): TPhoneCountry | undefined => {
  const upper = value?.trim().toUpperCase();
  return upper && KNOWN.has(upper) ? (upper as TPhoneCountry) : undefined;
};

/** The E.164 form of a number (+ and digits), or null when it is not a possible number. */
export const toE164 = (
  input: string | null | undefined,
  defaultCountry?: TPhoneCountry,
): string | null => {
  const text = input?.trim();
  if (!text) return null;
  const parsed = parsePhoneNumberFromString(text, defaultCountry);
  return parsed?.isValid() ? parsed.number : null;
};

/** The country of an E.164 number, for a form that shows country and national number apart. */
export const countryOfPhone = (e164: string | null | undefined): TPhoneCountry | undefined =>
  e164 ? parsePhoneNumberFromString(e164)?.country : undefined;

/** The national format of an E.164 number ("333 123 4567"), or the number as it is. */
export const nationalPhone = (e164: string): string =>
  parsePhoneNumberFromString(e164)?.formatNational() ?? e164;

/** Every country with its calling code: spec §9's preferred ones (Italy, Ireland) first. */
export const phoneCountries = (): { code: TPhoneCountry; callingCode: string }[] => {
  const preferred = PHONE_PREFERRED_COUNTRIES.map((code) => code.toUpperCase() as TPhoneCountry);
  const rest = getCountries().filter((code) => !preferred.includes(code));
  return [...preferred, ...rest].map((code) => ({
    code,
    callingCode: getCountryCallingCode(code),
  }));
};
