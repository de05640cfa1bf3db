import { readFileSync } from 'node:fs';
import path from 'node:path';

import { LOCALES } from '@ccp/schemas';
import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';

import { BOOT_TEXT_KEYS, pickTexts } from '../boot/boot-texts.ts';
import { createTranslator } from './translator.ts';

// A signed-out /login renders with createTranslator until i18next takes over (main.tsx): the
// takeover must change nothing the user sees, so both answer alike for every sign-in text.

const LOCALES_DIR = path.resolve(import.meta.dirname, '../../../../locales');

const leafKeys = (texts: Record<string, unknown>, prefix = ''): string[] =>
  Object.entries(texts).flatMap(([name, value]) =>
    typeof value === 'string'
      ? [`${prefix}${name}`]
      : leafKeys(value as Record<string, unknown>, `${prefix}${name}.`),
  );

const i18nextOver = async (language: string, texts: Record<string, unknown>) => {
  const i18n = createInstance();
  // The settings of src/i18n.ts that decide how a text reads.
  await i18n.init({
    lng: language,
    fallbackLng: false,
    resources: { [language]: { translation: texts } },
    interpolation: { escapeValue: false },
  });
  return i18n;
};

describe('the sign-in screen’s translator', () => {
  it('answers as i18next does for every sign-in text, its counts and values', async () => {
    for (const language of LOCALES) {
      const all = JSON.parse(
        readFileSync(path.join(LOCALES_DIR, `${language}.json`), 'utf8'),
      ) as Record<string, unknown>;
      const texts = pickTexts(all, BOOT_TEXT_KEYS);
      const i18n = await i18nextOver(language, texts);
      const t = createTranslator(language, texts);
      // A counted text is asked for without its plural suffix.
      const keys = new Set(leafKeys(texts).map((key) => key.replace(/_(zero|one|other)$/, '')));
      const optionSets = [
        {},
        { name: 'Content Creators Platform' },
        ...[0, 1, 2, 21].map((count) => ({ count })),
      ];
      for (const key of keys) {
        for (const options of optionSets) {
          expect({ language, key, options, text: t(key, options) }).toEqual({
            language,
            key,
            options,
            text: i18n.t(key, options),
          });
        }
      }
      expect(t('layout.footer.note', { name: 'X' })).toMatch(/^X/);
    }
  });

  it('answers a text it does not have as i18next does: its default, else its key', async () => {
    const texts = { validation: { offline: 'Offline.' } };
    const i18n = await i18nextOver('en', texts);
    const t = createTranslator('en', texts);
    for (const [key, options] of [
      ['validation.tooMany', { defaultValue: 'Wow, slow down…' }],
      ['validation.tooMany', {}],
      ['validation.offline.more', {}],
    ] as const) {
      expect(t(key, options)).toBe(i18n.t(key, options));
    }
    expect(t('validation.tooMany')).toBe('validation.tooMany');
  });
});
