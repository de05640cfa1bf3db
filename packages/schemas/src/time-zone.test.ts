import { describe, expect, it } from 'vitest';

import {
  countryOfTimeZone,
  normalizeTimeZone,
  timeZoneOfPhone,
  timeZonesOfCountry,
} from './time-zone.ts';

describe('time zones through Intl', () => {
  it('normalizes known zones to Intl’s spelling and refuses the rest', () => {
    expect(normalizeTimeZone(' america/new_york ')).toBe('America/New_York');
    expect(normalizeTimeZone('Europe/Rome')).toBe('Europe/Rome');
    expect(normalizeTimeZone('Mars/Olympus')).toBeNull();
    expect(normalizeTimeZone('')).toBeNull();
  });

  it('knows the zones of a country and the country of a zone', () => {
    expect(timeZonesOfCountry('IT')).toEqual(['Europe/Rome']);
    expect(timeZonesOfCountry('US')).toContain('America/New_York');
    expect(countryOfTimeZone('America/New_York')).toBe('US');
    expect(countryOfTimeZone('Europe/Berlin')).toBe('DE');
    expect(countryOfTimeZone('UTC')).toBeUndefined();
  });

  it('defaults a phone to its country’s zone when that country keeps one time', () => {
    expect(timeZoneOfPhone('+393331234567')).toBe('Europe/Rome');
    expect(timeZoneOfPhone('+353871234567')).toBe('Europe/Dublin');
    expect(timeZoneOfPhone('+447700900123')).toBe('Europe/London');
    // Germany's Büsingen enclave keeps Berlin's time.
    expect(timeZoneOfPhone('+4915112345678')).toBe('Europe/Berlin');
    // Several times: the company's zone applies.
    expect(timeZoneOfPhone('+12125550100')).toBeNull();
    expect(timeZoneOfPhone('+34600000000')).toBeNull();
    expect(timeZoneOfPhone(null)).toBeNull();
  });
});
