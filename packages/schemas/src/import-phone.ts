import { getCountries, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { CountryCode, NumberType, PhoneNumber } from 'libphonenumber-js/max';

import { z } from 'zod';

import { PHONE_PREFERRED_COUNTRIES } from './constants.ts';
import { fillMessage, normalizeHeaderName } from './import-columns.ts';
import type { TImportColumnIndexes, TImportHeader } from './import-columns.ts';
import { MESSAGES } from './messages.ts';
import { isKnownCountry } from './phone-country.ts';
import { phoneCountry } from './phone-number.ts';

// The phone of an import row as it will be stored, or why it cannot be (issue 26). A lesson sent
// to a wrong WhatsApp number is a privacy incident, so a number is read only when one reading is
// plausible: libphonenumber's "max" metadata (the number patterns per country and type, not only
// the lengths the learner form checks) says whether it is valid in a country and whether it is a
// mobile. A national number is tried in the file's country and in the countries a file of ours
// evidently comes from; when another of them reads it better, the row is reported with the
// readings, never rewritten to the default country.

/** What a stored number is, for the preview and the WhatsApp warning. */
export const IMPORT_PHONE_TYPES = ['mobile', 'landline', 'mobile_or_landline', 'other'] as const;
export type TImportPhoneType = (typeof IMPORT_PHONE_TYPES)[number];

export type TImportPhone = {
  /** E.164: `+` and digits, the trunk `(0)` of international numbers dropped. */
  e164: string;
  /** ISO code of the number's country. */
  country: string | null;
  type: TImportPhoneType;
};

export type TImportPhoneReading =
  | { ok: true; phone: TImportPhone | null }
  | { ok: false; reason: string; candidates: TImportPhone[] };

/**
 * Countries a national number of an import is also tried in, besides the file's country and the
 * row's country column: spec §9's markets (Italy, Ireland). A number valid in two of them is
 * reported unless the file's country reads it as the only mobile (decision in docs/decisions.md).
 */
export const IMPORT_PHONE_EVIDENT_COUNTRIES: readonly CountryCode[] = PHONE_PREFERRED_COUNTRIES.map(
  (code) => code.toUpperCase() as CountryCode,
);

// Types a learner's own number can have; a national reading as voicemail, premium rate, pager,
// shared cost… is not a person's number (353861234567 is an Italian voicemail number as well as
// Ireland's +353 86 123 4567 without its plus).
const PERSONAL_TYPES: Partial<Record<NumberType & string, TImportPhoneType>> = {
  MOBILE: 'mobile',
  FIXED_LINE: 'landline',
  FIXED_LINE_OR_MOBILE: 'mobile_or_landline',
  PERSONAL_NUMBER: 'other',
  VOIP: 'other',
  UAN: 'other',
};

const SEPARATORS = /[\s\-./()]/g;

const personal = (parsed: PhoneNumber | undefined): TImportPhone | null => {
  if (!parsed?.isValid()) return null;
  const type = parsed.getType();
  const kind = type === undefined ? 'other' : PERSONAL_TYPES[type];
  if (!kind) return null;
  return { e164: parsed.number, country: parsed.country ?? null, type: kind };
};

const distinct = (readings: readonly TImportPhone[]): TImportPhone[] =>
  readings.filter(
    (reading, index) => readings.findIndex((other) => other.e164 === reading.e164) === index,
  );

const isMobile = (phone: TImportPhone) =>
  phone.type === 'mobile' || phone.type === 'mobile_or_landline';

/** `+353 87 555 0199 (IE)` for a message. */
export const describeImportPhone = (phone: TImportPhone): string => {
  const parsed = parsePhoneNumberFromString(phone.e164);
  const shown = parsed?.formatInternational() ?? phone.e164;
  return phone.country ? `${shown} (${phone.country})` : shown;
};

const candidatesText = (candidates: readonly TImportPhone[]) =>
  candidates.map(describeImportPhone).join(' · ');

const refuse = (
  template: string,
  number: string,
  country: string,
  candidates: TImportPhone[],
): TImportPhoneReading => ({
  ok: false,
  reason: fillMessage(template, {
    number,
    country,
    candidates: candidatesText(candidates),
  }),
  candidates,
});

export type TImportPhoneOptions = {
  /** The file's country of national numbers (ISO code). */
  defaultCountry: string;
  /** The row's own country (a country column: code or name), which wins over the file's. */
  rowCountry?: string | undefined;
  /** The country chosen for the phone's column (upload field `phone_countries`), which wins over both. */
  columnCountry?: string | undefined;
};

/**
 * Where the country of a national number comes from, strongest first (decision in
 * docs/decisions.md): the user's choice for the phone's column ("Mobile (Ireland)" is Irish
 * whoever the learner is), then the row's country column (where this learner is), then the
 * file's country. The first two are statements about the number, so their reading is stored
 * when valid; the file's country is a guess, checked against the other evident countries.
 */
export const IMPORT_PHONE_COUNTRY_PRECEDENCE = ['column', 'row', 'file'] as const;
export type TImportPhoneCountrySource = (typeof IMPORT_PHONE_COUNTRY_PRECEDENCE)[number];

/** The country national numbers of one cell are read in, and which choice gave it. */
export const importPhoneCountryOf = (
  options: TImportPhoneOptions,
): { country: CountryCode; source: TImportPhoneCountrySource } => {
  const given: Record<TImportPhoneCountrySource, CountryCode | undefined> = {
    column: phoneCountry(options.columnCountry),
    row: countryOfCell(options.rowCountry),
    file: phoneCountry(options.defaultCountry),
  };
  for (const source of IMPORT_PHONE_COUNTRY_PRECEDENCE) {
    const country = given[source];
    if (country) return { country, source };
  }
  return { country: 'IT', source: 'file' };
};

/**
 * Reads one phone cell of an import. Empty: no phone. `+…` or `00…`: the international number
 * (a trunk `(0)` dropped). National (leading 0, or digits that are no international number):
 * valid in the row's or the file's country, and not better read in another evident country.
 * Digits that lost their `+` (a spreadsheet number): read by their country code when that is the
 * only personal reading. Anything else is refused with a reason naming the readings and the fix.
 */
export const readImportPhone = (
  raw: string | null | undefined,
  options: TImportPhoneOptions,
): TImportPhoneReading => {
  const text = raw?.trim() ?? '';
  if (text === '') return { ok: true, phone: null };
  const { country, source } = importPhoneCountryOf(options);
  const chosen = source !== 'file';
  const cleaned = text.replace(SEPARATORS, '');
  const international = cleaned.startsWith('+')
    ? cleaned
    : cleaned.startsWith('00')
      ? `+${cleaned.slice(2)}`
      : null;
  if (international !== null) {
    // libphonenumber drops the "(0)" people write after the country code (+49 (0)151 …).
    const phone = personal(parsePhoneNumberFromString(text.replace(/^\s*00/, '+')));
    return phone ? { ok: true, phone } : refuse(MESSAGES.importPhoneInvalid, text, country, []);
  }
  if (!/^\d+$/.test(cleaned)) return refuse(MESSAGES.importPhoneInvalid, text, country, []);

  const countries = [country, ...IMPORT_PHONE_EVIDENT_COUNTRIES.filter((code) => code !== country)];
  const national = countries.map((code) => ({
    code,
    phone: personal(parsePhoneNumberFromString(cleaned, code)),
  }));
  const own = national[0]?.phone ?? null;
  // Digits without a trunk 0 may be a whole international number whose + was lost.
  const lostPlus = cleaned.startsWith('0')
    ? null
    : personal(parsePhoneNumberFromString(`+${cleaned}`));
  const readings = distinct(
    [own, ...national.slice(1).map((entry) => entry.phone), lostPlus].filter(
      (phone): phone is TImportPhone => phone !== null,
    ),
  );
  if (readings.length === 0) return refuse(MESSAGES.importPhoneInvalid, text, country, []);
  // A column's country or the row's country column says where the number is: its reading wins.
  if (own && chosen) return { ok: true, phone: own };
  if (readings.length === 1) {
    const [only] = readings as [TImportPhone];
    if (own && only.e164 === own.e164) return { ok: true, phone: own };
    // Valid only as a number of another country: named, never rewritten silently, unless the
    // digits carry that country's code (a lost +), which says where the number is from.
    if (lostPlus && only.e164 === lostPlus.e164) return { ok: true, phone: lostPlus };
    return refuse(MESSAGES.importPhoneOtherCountry, text, country, readings);
  }
  // Several readings: the file's country wins only with the one mobile among them (an Italian
  // mobile is no Irish number; 087 555 0199 is an Italian landline and an Irish mobile).
  if (own && isMobile(own) && readings.filter(isMobile).length === 1) {
    return { ok: true, phone: own };
  }
  return refuse(MESSAGES.importPhoneAmbiguous, text, country, readings);
};

/** Whether a channel can use the number: WhatsApp needs a mobile (a landline is a warning). */
export const isLandline = (phone: TImportPhone | null): boolean => phone?.type === 'landline';

// Country names as exports write them, in the app's languages (Intl knows them in browsers and in
// Node's full ICU): "Ireland", "Irlanda", "Irland", "Deutschland" → the ISO code.
let countryNames: Map<string, CountryCode> | undefined;
const normalizedName = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

const namesOfCountries = (): Map<string, CountryCode> => {
  if (countryNames) return countryNames;
  countryNames = new Map();
  for (const language of ['en', 'it', 'de']) {
    const names = new Intl.DisplayNames([language], { type: 'region' });
    for (const code of getCountries()) {
      const name = names.of(code);
      if (name && name !== code) countryNames.set(normalizedName(name), code);
    }
  }
  return countryNames;
};

/** The country of a country cell: an ISO code (`IE`) or a name in en/it/de; undefined otherwise. */
export const countryOfCell = (value: string | undefined): CountryCode | undefined => {
  const text = value?.trim() ?? '';
  if (text === '') return undefined;
  return phoneCountry(text) ?? namesOfCountries().get(normalizedName(text));
};

// ---------------------------------------------------------------------------------------------
// The country of national numbers per phone column (a file with "Mobile (Ireland)" and "Office
// phone"): the upload's `phone_countries`, the CLI's `--phone-country`, the mapping step's select.

/**
 * `{ "Mobile (Ireland)": "IE" }`: a phone column's header, as the file writes it (matched like
 * the column overrides: case, accents, spaces and punctuation do not matter) → ISO country.
 */
export const ZImportPhoneCountriesSchema = z.record(
  z.string().trim().min(1).max(255),
  z
    .string()
    .trim()
    .toUpperCase()
    .refine(isKnownCountry, { error: MESSAGES.importPhoneCountryInvalid }),
  { error: MESSAGES.importPhoneCountriesInvalid },
);
export type TImportPhoneCountries = z.infer<typeof ZImportPhoneCountriesSchema>;

/**
 * `Mobile (Ireland)=IE` (or several, e.g. repeated `--phone-country` flags) as phone countries.
 * The header may hold `=`: the last one separates the country. Throws an Error naming the part.
 */
export const parseImportPhoneCountries = (
  texts: string | readonly string[],
): TImportPhoneCountries => {
  const countries: TImportPhoneCountries = {};
  for (const text of typeof texts === 'string' ? [texts] : texts) {
    const at = text.lastIndexOf('=');
    const header = at === -1 ? '' : text.slice(0, at).trim();
    const country = at === -1 ? '' : text.slice(at + 1).trim();
    if (header === '' || !isKnownCountry(country)) {
      throw new Error(
        `"${text.trim()}" is not HEADER=COUNTRY with a two-letter country code such as IE.`,
      );
    }
    countries[header] = country.toUpperCase();
  }
  return countries;
};

/**
 * The matched columns with the chosen countries of their phone columns (`phoneCountries`, by
 * position, read by the shared row check), and a problem for each chosen header that is not a
 * column of the file read as a phone.
 */
export const applyImportPhoneCountries = (
  matched: Pick<TImportHeader, 'columns' | 'matches'>,
  chosen: TImportPhoneCountries | undefined,
): { columns: TImportColumnIndexes; problems: string[] } => {
  const entries = Object.entries(chosen ?? {});
  if (entries.length === 0) return { columns: matched.columns, problems: [] };
  const phoneCountries: Record<number, string> = {};
  const problems: string[] = [];
  for (const [header, country] of entries) {
    const wanted = normalizeHeaderName(header);
    const phones = matched.matches.filter(
      (match) => match.column === 'phone' && normalizeHeaderName(match.header) === wanted,
    );
    if (phones.length === 0) {
      problems.push(fillMessage(MESSAGES.importPhoneCountryColumn, { column: header.trim() }));
    }
    for (const match of phones) phoneCountries[match.index] = country.toUpperCase();
  }
  return { columns: { ...matched.columns, phoneCountries }, problems };
};
