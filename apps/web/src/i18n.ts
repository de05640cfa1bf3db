import { DEFAULT_LOCALE, LOCALES } from '@ccp/schemas';
import type { TLocale } from '@ccp/schemas';
import type { I18nProvider } from '@refinedev/core';
import type { ConfigProviderProps } from 'antd';
import i18n from 'i18next';
import type { TFunction } from 'i18next';
import { initReactI18next } from 'react-i18next';
import defaultBootTexts from 'virtual:boot-texts/default';

import { LANGUAGE_STORAGE_KEY } from './config.ts';

type TAntdLocale = ConfigProviderProps['locale'];
type TLanguagePack = { texts: Record<string, unknown>; antd: TAntdLocale };

// The texts come from the root locales/*.json, bundled at build time: one chunk per language, so
// a page loads only the language it shows (antd's own English is built in).
const PACKS: Record<TLocale, () => Promise<TLanguagePack>> = {
  en: async () => ({ texts: (await import('../../../locales/en.json')).default, antd: undefined }),
  it: async () => {
    const [texts, antd] = await Promise.all([
      import('../../../locales/it.json'),
      import('antd/es/locale/it_IT'),
    ]);
    return { texts: texts.default, antd: antd.default };
  },
  de: async () => {
    const [texts, antd] = await Promise.all([
      import('../../../locales/de.json'),
      import('antd/es/locale/de_DE'),
    ]);
    return { texts: texts.default, antd: antd.default };
  },
};

// The sign-in screen's texts of each language (boot/boot-texts.ts): all a signed-out /login
// needs before the user types. The default language's are in the entry itself (0.9 KB gzip): no
// request and no task between the entry and the first render, in which the browser would paint
// an empty frame first (issue 32); the other languages' load as chunks of their own.
const BOOT_PACKS: Record<TLocale, () => Promise<Record<string, unknown>>> = {
  en: async () => (await import('virtual:boot-texts/en')).default,
  it: async () => (await import('virtual:boot-texts/it')).default,
  de: async () => (await import('virtual:boot-texts/de')).default,
};

const antdLocales = new Map<TLocale, TAntdLocale>();
/** The languages whose whole texts are loaded (not only the sign-in screen's). */
const complete = new Set<TLocale>();

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

const ensurePack = async (lng: TLocale) => {
  if (complete.has(lng)) return;
  const pack = await PACKS[lng]();
  antdLocales.set(lng, pack.antd);
  // Deep, over the sign-in texts if those came first.
  i18n.addResourceBundle(lng, 'translation', pack.texts, true, true);
  complete.add(lng);
};

/** The interface language's whole texts (a signed-out /login starts with its own only). */
export const loadAllTexts = (): Promise<void> => ensurePack(currentLanguage());

const reflect = (lng: string) => {
  if (isLocale(lng)) document.documentElement.lang = lng;
};

/**
 * i18next in the detected language, with its whole texts, or with the sign-in screen's only
 * (`signInOnly`: the rest follows with loadAllTexts, and what shows re-renders when it arrives).
 */
export const initI18n = async ({ signInOnly = false } = {}): Promise<void> => {
  const lng = detectLanguage();
  const texts = signInOnly
    ? lng === DEFAULT_LOCALE
      ? defaultBootTexts
      : await BOOT_PACKS[lng]()
    : await PACKS[lng]().then((pack) => {
        antdLocales.set(lng, pack.antd);
        complete.add(lng);
        return pack.texts;
      });
  i18n.on('languageChanged', reflect);
  await i18n.use(initReactI18next).init({
    lng,
    // The locale parity test keeps every language complete, so no fallback chain is needed.
    fallbackLng: false,
    supportedLngs: [...LOCALES],
    resources: { [lng]: { translation: texts } },
    interpolation: { escapeValue: false },
    // Texts added later (the whole language after the sign-in screen's) re-render what shows.
    react: { bindI18nStore: 'added' },
  });
  reflect(lng);
};

export const currentLanguage = (): TLocale =>
  isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;

/** Switches the interface language: texts, antd's locale, `<html lang>`, and remembers it. */
export const changeLanguage = async (lng: TLocale): Promise<void> => {
  await ensurePack(lng);
  await i18n.changeLanguage(lng);
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, lng);
  } catch {
    // Private mode without storage: the choice lasts until the tab closes.
  }
};

/** The texts of a language other than the interface's (a lesson's language), loaded first. */
export const textsIn = async (lng: TLocale): Promise<TFunction> => {
  await ensurePack(lng);
  return i18n.getFixedT(lng);
};

export const antdLocaleFor = (lng: TLocale): TAntdLocale => antdLocales.get(lng);

/** Refine's bridge to the same i18next instance (refine-v5 notes §5: defaults reach i18next). */
export const i18nProvider: I18nProvider = {
  translate: (key, options, defaultMessage) => {
    if (typeof options === 'string') return i18n.t(key, { defaultValue: options });
    const params = (options ?? {}) as Record<string, unknown>;
    return i18n.t(key, { ...params, defaultValue: defaultMessage ?? params.defaultValue ?? key });
  },
  changeLocale: (lng) => changeLanguage(isLocale(lng) ? lng : DEFAULT_LOCALE),
  getLocale: currentLanguage,
};
