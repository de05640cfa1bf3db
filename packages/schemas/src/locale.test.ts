import { describe, expect, it } from 'vitest';

import { localeOf, negotiateLocale } from './locale.ts';

describe('localeOf', () => {
  it.each([
    ['it', 'it'],
    ['it-IT', 'it'],
    ['de_CH.UTF-8', 'de'],
    ['EN', 'en'],
    ['fr-FR', null],
    ['C.UTF-8', null],
    ['', null],
    [undefined, null],
  ])('%s → %s', (tag, locale) => {
    expect(localeOf(tag)).toBe(locale);
  });
});

describe('negotiateLocale (Accept-Language)', () => {
  it.each([
    ['it-IT,it;q=0.9,en;q=0.8', 'it'],
    ['de', 'de'],
    ['fr-FR,fr;q=0.9,de;q=0.8,en;q=0.7', 'de'],
    ['en;q=0.5, it;q=0.9', 'it'],
    ['it;q=0, de;q=0.1', 'de'],
    ['fr, es', 'en'],
    ['*', 'en'],
    ['it;q=abc, de', 'de'],
    ['', 'en'],
    [undefined, 'en'],
  ])('%s → %s', (header, locale) => {
    expect(negotiateLocale(header)).toBe(locale);
  });
});
