import { DEFAULT_LOCALE, LOCALES } from '@ccp/schemas';
import type { TLocale } from '@ccp/schemas';
import { useSyncExternalStore } from 'react';

import { LANGUAGE_STORAGE_KEY } from '../config.ts';
import type { TTranslate } from './translator.ts';

// The interface language and the translator of its texts, as the screens shared by the sign-in
// screen and the app read them (useTexts). A signed-out /login starts with a small translator
// over the sign-in texts (main.tsx); i18next (i18n.ts, a chunk of its own) takes over once
// loaded, with the same texts, and publishes every change of language or texts here.

export type TTexts = { language: TLocale; t: TTranslate };

export const isLocale = (value: unknown): value is TLocale =>
  typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

const storedLanguage = (): TLocale | null => {
  try {
    const stored = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLocale(stored) ? stored : null;
  } catch {
    return null;
  }
};

/** The chosen language (kept across reloads), else the browser's first supported one. */
export const detectLanguage = (): TLocale => {
  const stored = storedLanguage();
  if (stored) return stored;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLocale(base)) return base;
  }
  return DEFAULT_LOCALE;
};

/** Keeps the user's choice for the next visits. */
export const rememberLanguage = (language: TLocale) => {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Private mode without storage: the choice lasts until the tab closes.
  }
};

// Until texts are shown, keys: nothing renders before main.tsx or i18n.ts shows some.
let current: TTexts | null = null;
const listeners = new Set<() => void>();

export const currentTexts = (): TTexts =>
  (current ??= { language: detectLanguage(), t: (key) => key });

export const currentLanguage = (): TLocale => currentTexts().language;

/** Shows `language`'s texts: whatever reads them re-renders, and `<html lang>` follows. */
export const showTexts = (language: TLocale, t: TTranslate) => {
  current = { language, t };
  document.documentElement.lang = language;
  for (const listener of listeners) listener();
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/** The interface language and its translator; re-renders when either changes. */
export const useTexts = (): TTexts => useSyncExternalStore(subscribe, currentTexts, currentTexts);

// i18next and the language's whole texts: not part of the entry.
const loadI18n = () => import('../i18n.ts');

/**
 * i18next with the interface language's whole texts (a signed-out /login starts with its own
 * only): loaded once the user types, and before the app renders.
 */
export const loadAllTexts = async (): Promise<void> => (await loadI18n()).initI18n();

/** Switches the interface language: texts, antd's locale, `<html lang>`, and remembers it. */
export const changeLanguage = async (language: TLocale): Promise<void> =>
  (await loadI18n()).switchLanguage(language);
