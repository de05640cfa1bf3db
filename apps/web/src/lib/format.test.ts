import dayjs from 'dayjs';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { formatDate, formatNumber, formatPercent } from './format.ts';

describe('formatDate (spec §9: dd-MM-yyyy hh:mm)', () => {
  it('shows day, month, year, then the 24-hour time', () => {
    expect(formatDate(new Date(2026, 2, 5, 14, 7))).toBe('05-03-2026 14:07');
    expect(formatDate(new Date(2026, 11, 31, 8, 0))).toBe('31-12-2026 08:00');
  });

  it('shows nothing for a missing or invalid date', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('not a date')).toBe('');
  });

  it('reads ISO strings in local time', () => {
    const iso = '2026-07-01T06:30:00Z';
    expect(formatDate(iso)).toBe(dayjs(iso).format('DD-MM-YYYY HH:mm'));
  });
});

describe('formatNumber: in the interface language’s format (Italian in Italian)', () => {
  beforeAll(() => i18n.init({ lng: 'en', resources: {} }));
  afterEach(() => i18n.changeLanguage('en'));

  it('English groups with commas and a decimal point', async () => {
    await i18n.changeLanguage('en');
    expect(formatNumber(1234567.5)).toBe('1,234,567.5');
    expect(formatPercent(66.666)).toBe('66.7%');
  });

  it('Italian and German group thousands with dots and use a decimal comma', async () => {
    await i18n.changeLanguage('de');
    expect(formatNumber(1234567.5)).toBe('1.234.567,5');
    await i18n.changeLanguage('it');
    expect(formatNumber(1234567.5)).toBe('1.234.567,5');
    expect(formatNumber(100000)).toBe('100.000');
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(null)).toBe('');
  });

  it('shows rates with one decimal', async () => {
    await i18n.changeLanguage('it');
    expect(formatPercent(66.666)).toBe('66,7%');
    expect(formatPercent(100)).toBe('100%');
  });
});
