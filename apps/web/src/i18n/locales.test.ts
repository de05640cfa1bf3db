import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ERROR_CODES, LOCALES, MESSAGES, SUBSCRIPTION_FUNCTION_KEYS } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

// The locale files must stay complete and parallel: every key in every language, none empty, the
// same placeholders, the spec's English texts unchanged, and real translations, not copies. The
// server-only texts (locales/server/*.json: channel messages, mails, generated assessments, GET
// /translations) are checked with them, under `server.`; the web app never bundles them.

const LOCALES_DIR = path.resolve(import.meta.dirname, '../../../../locales');

type TTree = { [key: string]: string | TTree };

const flatten = (tree: TTree, prefix = ''): Map<string, string> => {
  const flat = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') flat.set(full, value);
    else for (const [k, v] of flatten(value, full)) flat.set(k, v);
  }
  return flat;
};

const read = (file: string) =>
  JSON.parse(readFileSync(path.join(LOCALES_DIR, file), 'utf8')) as TTree;

const load = (lng: string) =>
  new Map([...flatten(read(`${lng}.json`)), ...flatten(read(`server/${lng}.json`), 'server')]);

const locales = new Map(LOCALES.map((lng) => [lng, load(lng)]));
const en = locales.get('en')!;

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}|\{(\w+)\}/g)].map((m) => m[1] ?? m[2]).sort();

describe('locales/*.json', () => {
  it.each(LOCALES.filter((lng) => lng !== 'en'))('%s has exactly the keys of en', (lng) => {
    const keys = [...locales.get(lng)!.keys()];
    const missing = [...en.keys()].filter((key) => !locales.get(lng)!.has(key));
    const extra = keys.filter((key) => !en.has(key));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  });

  it.each(LOCALES)('%s has no empty text', (lng) => {
    const empty = [...locales.get(lng)!].filter(([, value]) => value.trim() === '');
    expect(empty.map(([key]) => key)).toEqual([]);
  });

  it.each(LOCALES.filter((lng) => lng !== 'en'))('%s keeps the placeholders of en', (lng) => {
    const wrong = [...en]
      .filter(([key, value]) => {
        const other = locales.get(lng)!.get(key);
        return other !== undefined && placeholders(other).join() !== placeholders(value).join();
      })
      .map(([key]) => key);
    expect(wrong).toEqual([]);
  });

  it.each(LOCALES.filter((lng) => lng !== 'en'))('%s is a translation, not a copy of en', (lng) => {
    const other = locales.get(lng)!;
    const same = [...en].filter(
      ([key, value]) => other.get(key) === value && /\p{L}{4}/u.test(value),
    );
    // Product names, acronyms and loanwords (Dashboard, Password) may stay; whole sentences may not.
    expect(same.length / en.size).toBeLessThan(0.05);
    expect(same.filter(([, value]) => value.split(' ').length > 3)).toEqual([]);
  });

  it('has every plural form it uses', () => {
    const ones = [...en.keys()].filter((key) => key.endsWith('_one'));
    expect(ones.filter((key) => !en.has(key.replace(/_one$/, '_other')))).toEqual([]);
  });

  it('has the spec English of every message as validation.<key>', () => {
    const differing = Object.entries(MESSAGES)
      .filter(([key, text]) => en.get(`validation.${key}`) !== text)
      .map(([key]) => key);
    expect(differing).toEqual([]);
  });

  // Issue 27: one word for one thing in each language. Italian learners are "discenti" (not
  // also "partecipanti"); WhatsApp is spelt its own way in every language.
  const OTHER_WORDS: Record<string, RegExp[]> = {
    en: [/Whatsapp/],
    it: [/Whatsapp/, /partecipant[ei]/i],
    de: [/Whatsapp/],
  };
  it.each(LOCALES)('%s calls each thing by one word', (lng) => {
    const words = OTHER_WORDS[lng] ?? [];
    const others = [...locales.get(lng)!]
      .filter(([, value]) => words.some((word) => word.test(value)))
      .map(([key]) => key);
    expect(others).toEqual([]);
  });

  it('translates every error code and plan function', () => {
    expect(ERROR_CODES.filter((code) => !en.has(`errors.${code}`))).toEqual([]);
    expect(
      SUBSCRIPTION_FUNCTION_KEYS.filter((key) => !en.has(`enum.subscriptionFunction.${key}`)),
    ).toEqual([]);
  });
});
