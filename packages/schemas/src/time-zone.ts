import { Metadata, getCountries, getCountryCallingCode } from 'libphonenumber-js';
import type { CountryCode } from 'libphonenumber-js';

// A learner's time zone (issue 28, "The learner's hours"): IANA names as Intl knows them (no tz
// package: Node and the browsers carry the tz database), the zones of a country from CLDR through
// Intl.Locale, and the default a phone number gives. Shared by the API (learner writes, import
// rows, planning) and the web's learner form.

const canonical = new Map<string, string | null>();

/**
 * A time zone Intl knows, in its own spelling ('america/new_york' → 'America/New_York'); null
 * for anything else. Cached: an import checks the same few names on every row.
 */
export const normalizeTimeZone = (value: string | null | undefined): string | null => {
  const text = value?.trim();
  if (!text) return null;
  const known = canonical.get(text);
  if (known !== undefined) return known;
  let zone: string | null;
  try {
    zone = new Intl.DateTimeFormat('en-US', { timeZone: text }).resolvedOptions().timeZone;
  } catch {
    zone = null;
  }
  // Bounded: a file of garbage must not grow the cache without end.
  if (canonical.size < 5000) canonical.set(text, zone);
  return zone;
};

/** True for a time zone Intl knows. */
export const isTimeZone = (value: string): boolean => normalizeTimeZone(value) !== null;

// Node 20 answers the zones of a region with the `timeZones` getter, Node 24 and the browsers
// of 2025 with `getTimeZones()` as well (the Intl Locale Info proposal renamed it).
type TLocaleInfo = { getTimeZones?: () => string[]; timeZones?: string[] };

/** The time zones of a country (ISO 3166-1 alpha-2), in Intl's spelling; [] when unknown. */
export const timeZonesOfCountry = (country: string): string[] => {
  try {
    const info = new Intl.Locale(`und-${country.toUpperCase()}`) as unknown as TLocaleInfo;
    const zones = info.getTimeZones?.() ?? info.timeZones ?? [];
    return zones.map((zone) => normalizeTimeZone(zone) ?? zone);
  } catch {
    return [];
  }
};

let countryByZone: Map<string, string> | undefined;

/** The country a zone belongs to ('America/New_York' → 'US'); undefined for 'UTC' and the like. */
export const countryOfTimeZone = (zone: string | null | undefined): string | undefined => {
  if (!zone) return undefined;
  if (!countryByZone) {
    countryByZone = new Map();
    for (const country of getCountries()) {
      for (const entry of timeZonesOfCountry(country)) {
        if (!countryByZone.has(entry)) countryByZone.set(entry, country);
      }
    }
  }
  return countryByZone.get(normalizeTimeZone(zone) ?? zone);
};

// libphonenumber's metadata names the main country of a calling code first (+39: Italy before
// the Vatican, +44: the United Kingdom before Guernsey); its Metadata class answers it, untyped.
type TCallingCodes = { getCountryCodeForCallingCode: (code: string) => CountryCode | undefined };

const offsetName = (zone: string, instant: Date): string =>
  new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(instant)
    .find((part) => part.type === 'timeZoneName')?.value ?? '';

// A winter and a summer instant of either hemisphere.
const SAMPLES = [new Date(Date.UTC(2026, 0, 15, 12)), new Date(Date.UTC(2026, 6, 15, 12))];

/**
 * The first of a country's zones when all of them keep the same time (Germany's Berlin and its
 * Büsingen enclave), else null (Spain's Madrid and Canary Islands, the six zones of the US).
 */
const singleTime = (zones: readonly string[]): string | null => {
  const [first] = zones;
  if (!first) return null;
  const offsets = SAMPLES.map((instant) => offsetName(first, instant));
  return zones.every((zone) =>
    SAMPLES.every((instant, index) => offsetName(zone, instant) === offsets[index]),
  )
    ? first
    : null;
};

let callingCodes: Set<string> | undefined;
const zoneByCallingCode = new Map<string, string | null>();

/** The zone of a calling code's main country, when it keeps one time; computed once per code. */
const callingCodeZone = (code: string): string | null | undefined => {
  callingCodes ??= new Set(getCountries().map((country) => getCountryCallingCode(country)));
  if (!callingCodes.has(code)) return undefined;
  let zone = zoneByCallingCode.get(code);
  if (zone === undefined) {
    const main = (new Metadata() as unknown as TCallingCodes).getCountryCodeForCallingCode(code);
    zone = main ? singleTime(timeZonesOfCountry(main)) : null;
    zoneByCallingCode.set(code, zone);
  }
  return zone;
};

/**
 * The time zone a phone number suggests: its country's, when that country has one zone
 * (+39… → Europe/Rome); null for a country of several zones (+1, +7, +61) or no number, where
 * the company's zone applies. Read from the calling code alone (they are prefix-free): a parse
 * per row would cost an import of 100,000 learners over two seconds.
 */
export const timeZoneOfPhone = (e164: string | null | undefined): string | null => {
  if (!e164?.startsWith('+')) return null;
  for (let length = 1; length <= 3; length += 1) {
    const zone = callingCodeZone(e164.slice(1, 1 + length));
    if (zone !== undefined) return zone;
  }
  return null;
};

/** Every time zone Intl knows, for a picker. */
export const timeZoneNames = (): string[] => Intl.supportedValuesOf('timeZone');
