import { readFileSync } from 'node:fs';
import path from 'node:path';

import { LOCALES } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { BOOT_TEXT_KEYS, pickTexts } from './boot-texts.ts';

// A signed-out /login shows with the sign-in screen's texts only (main.tsx): a text its modules
// name outside BOOT_TEXT_KEYS would show as its key until the whole language arrives.

const SRC = path.resolve(import.meta.dirname, '..');
const LOCALES_DIR = path.resolve(SRC, '../../../locales');
/** The modules the sign-in screen renders before the user types (boot/sign-in-shell.tsx). */
const SIGN_IN_MODULES = [
  'boot/sign-in-shell.tsx',
  'boot/sign-in-feedback.tsx',
  'pages/login/index.tsx',
  'components/layout/public-layout.tsx',
  'components/layout/footer.tsx',
  'components/layout/logo.tsx',
  'components/layout/language-switch.tsx',
  'components/layout/offline-banner.tsx',
  'components/plain/auth-card.tsx',
  'components/plain/controls.tsx',
  'lib/use-page-title.ts',
];

const namedKeys = () =>
  SIGN_IN_MODULES.flatMap((file) =>
    [...readFileSync(path.join(SRC, file), 'utf8').matchAll(/\bt\(\s*'([\w.-]+)'/g)].map(
      (match) => match[1]!,
    ),
  );

const lookUp = (texts: Record<string, unknown>, key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], texts);

describe('the sign-in screen’s own texts', () => {
  it('hold every text the sign-in screen names, in every language', () => {
    const keys = namedKeys();
    expect(keys.length).toBeGreaterThan(20);
    for (const language of LOCALES) {
      const texts = JSON.parse(
        readFileSync(path.join(LOCALES_DIR, `${language}.json`), 'utf8'),
      ) as Record<string, unknown>;
      const boot = pickTexts(texts, BOOT_TEXT_KEYS);
      // A counted text is there in its plural forms (`low_one`, `low_other`).
      const missing = keys.filter(
        (key) => typeof (lookUp(boot, key) ?? lookUp(boot, `${key}_other`)) !== 'string',
      );
      expect({ language, missing }).toEqual({ language, missing: [] });
      // A small part of the language: what /login loads before the user types.
      expect(JSON.stringify(boot).length).toBeLessThan(JSON.stringify(texts).length / 8);
    }
  });

  it('names a missing text instead of leaving it out', () => {
    expect(() => pickTexts({ app: {} }, ['app.name'])).toThrow('No text "app.name"');
    expect(pickTexts({ a: { b: 'x', c: 'y' }, d: 'z' }, ['a.b'])).toEqual({ a: { b: 'x' } });
  });
});
