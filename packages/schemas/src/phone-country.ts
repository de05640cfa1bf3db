// National phone numbers of import files (`ccp learners import --default-country IT`): a number
// written without the international prefix gets the country's calling code, so "333 123 4567"
// in an Italian file is +393331234567.

/** ISO 3166-1 alpha-2 → calling code, for the countries trainers' files come from. */
export const COUNTRY_CALLING_CODES: Readonly<Record<string, string>> = {
  AD: '376',
  AE: '971',
  AL: '355',
  AR: '54',
  AT: '43',
  AU: '61',
  BA: '387',
  BE: '32',
  BG: '359',
  BR: '55',
  BY: '375',
  CA: '1',
  CH: '41',
  CL: '56',
  CN: '86',
  CO: '57',
  CY: '357',
  CZ: '420',
  DE: '49',
  DK: '45',
  DZ: '213',
  EE: '372',
  EG: '20',
  ES: '34',
  FI: '358',
  FR: '33',
  GB: '44',
  GR: '30',
  HK: '852',
  HR: '385',
  HU: '36',
  ID: '62',
  IE: '353',
  IL: '972',
  IN: '91',
  IS: '354',
  IT: '39',
  JP: '81',
  KE: '254',
  KR: '82',
  LI: '423',
  LT: '370',
  LU: '352',
  LV: '371',
  MA: '212',
  MC: '377',
  MD: '373',
  ME: '382',
  MK: '389',
  MT: '356',
  MX: '52',
  MY: '60',
  NG: '234',
  NL: '31',
  NO: '47',
  NZ: '64',
  PE: '51',
  PH: '63',
  PK: '92',
  PL: '48',
  PT: '351',
  RO: '40',
  RS: '381',
  RU: '7',
  SA: '966',
  SE: '46',
  SG: '65',
  SI: '386',
  SK: '421',
  SM: '378',
  TH: '66',
  TN: '216',
  TR: '90',
  TW: '886',
  UA: '380',
  US: '1',
  VA: '379',
  VN: '84',
  ZA: '27',
};

// Where the leading 0 belongs to the number itself (Italian landlines: 06 … is +39 06 …) rather
// than being a trunk prefix dropped in international form (German 0170 … is +49 170 …).
const KEEPS_LEADING_ZERO = new Set(['IT', 'SM', 'VA']);
// The North American trunk prefix is 1, as in 1 212 555 0100.
const NANP = new Set(['US', 'CA']);

export const isKnownCountry = (country: string): boolean =>
  Object.prototype.hasOwnProperty.call(COUNTRY_CALLING_CODES, country.toUpperCase());

const SEPARATORS = /[\s\-.()]/g;

/**
 * A phone cell in international form: unchanged when it starts with `+` or is empty; `00…` →
 * `+…`; otherwise the country's calling code is put in front (its trunk prefix dropped). Only
 * digits are rewritten: anything else is left for the phone rule to refuse.
 */
export const withCountryCode = (raw: string, country: string | undefined): string => {
  if (!country) return raw;
  const cleaned = raw.replace(SEPARATORS, '');
  if (cleaned === '' || cleaned.startsWith('+') || !/^\d+$/.test(cleaned)) return raw;
  if (cleaned.startsWith('00')) return `+${cleaned.slice(2)}`;
  const code = COUNTRY_CALLING_CODES[country.toUpperCase()];
  if (!code) return raw;
  const upper = country.toUpperCase();
  let national = cleaned;
  if (NANP.has(upper)) {
    if (national.length === 11 && national.startsWith('1')) national = national.slice(1);
  } else if (!KEEPS_LEADING_ZERO.has(upper) && national.startsWith('0')) {
    national = national.slice(1);
  }
  return `+${code}${national}`;
};
