import { describe, expect, it } from 'vitest';

import {
  countryOfPhone,
  nationalPhone,
  phoneCountries,
  phoneCountry,
  toE164,
} from './phone-number.ts';

describe('phone numbers through libphonenumber', () => {
  it('reads national numbers with the default country, international ones as they are', () => {
    expect(toE164('333 123 4567', 'IT')).toBe('+393331234567');
    expect(toE164('06 1234567', 'IT')).toBe('+39061234567'); // Italy keeps its leading 0
    expect(toE164('087 123 4567', 'IE')).toBe('+353871234567'); // Ireland drops it
    expect(toE164('0171 1234567', 'DE')).toBe('+491711234567');
    expect(toE164('+49 171 1234567', 'IT')).toBe('+491711234567');
    expect(toE164('0039 333 1234567')).toBeNull(); // no country to read the 00 prefix with
    expect(toE164('0039 333 1234567', 'IT')).toBe('+393331234567');
  });

  it('refuses impossible numbers and empty input', () => {
    expect(toE164('12', 'IT')).toBeNull();
    expect(toE164('333 12', 'IT')).toBeNull();
    expect(toE164('+1', 'US')).toBeNull();
    expect(toE164('   ')).toBeNull();
    expect(toE164(null)).toBeNull();
  });

  it('knows countries by code, Italy and Ireland first, and splits a stored number back', () => {
    expect(phoneCountry('ie')).toBe('IE');
    expect(phoneCountry('XX')).toBeUndefined();
    expect(phoneCountries().slice(0, 2)).toEqual([
      { code: 'IT', callingCode: '39' },
      { code: 'IE', callingCode: '353' },
    ]);
    expect(countryOfPhone('+353871234567')).toBe('IE');
    expect(nationalPhone('+393331234567')).toBe('333 123 4567');
  });
});
