import { DEFAULT_LOCALE, LOCALES } from '@ccp/schemas';
import type { TLocale } from '@ccp/schemas';
import type { I18nProvider } from '@refinedev/core';
import i18n from 'i18next';
import type { TFunction } from 'i18next';
import { initReactI18next } from 'react-i18next';

import { LANGUAGE_PACKS } from './lib/language-packs.ts';
import type { TAntdLocale } from './lib/language-packs.ts';
import { currentLanguage, isLocale, rememberLanguage, showTexts } from './lib/texts.ts';
import type { TTextOptions } from './lib/translator.ts';

// i18next, a chunk of its own: the app's screens read it through react-i18next, the screens the
// sign-in screen shares with the app through lib/texts.ts, where it publishes its language and
// texts. A signed-out /login renders before it loads (main.tsx, issue 32).

const antdLocales = new Map<TLocale, TAntdLocale>();
/** The languages whose whole texts are loaded. */
const complete = new Set<TLocale>();

const loadPack = async (lng: TLocale) => {
  const pack = await LANGUAGE_PACKS[lng]();
  antdLocales.set(lng, pack.antd);
  complete.add(lng);
  return pack.texts;
};

const ensurePack = async (lng: TLocale) => {
  if (complete.has(lng)) return;
  i18n.addResourceBundle(lng, 'translation', await loadPack(lng), true, true);
};

// A new translator each time, so what reads lib/texts.ts re-renders.
const publish = () => {
  if (isLocale(i18n.language)) {
    showTexts(i18n.language, (key, options?: TTextOptions) => i18n.t(key, options));
  }
};

const start = async (lng: TLocale) => {
  const texts = await loadPack(lng);
  i18n.on('languageChanged', publish);
  await i18n.use(initReactI18next).init({
    lng,
    // The locale parity test keeps every language complete, so no fallback chain is needed.
    fallbackLng: false,
    supportedLngs: [...LOCALES],
    resources: { [lng]: { translation: texts } },
    interpolation: { escapeValue: false },
    react: { bindI18nStore: 'added' },
  });
  // Texts added later (another language's, for a lesson) re-render what shows. The store
  // exists once initialised.
  i18n.store.on('added', publish);
  publish();
};

let started: Promise<void> | null = null;

/** i18next in `lng` (the interface language), with its whole texts; once. */
export const initI18n = (lng: TLocale = currentLanguage()): Promise<void> =>
  (started ??= start(lng));

/** Switches the interface language: texts, antd's locale, `<html lang>`, and remembers it. */
export const switchLanguage = async (lng: TLocale): Promise<void> => {
  // The first load is the new language's own (a switch on /login before the user typed).
  await initI18n(lng);
  await ensurePack(lng);
  await i18n.changeLanguage(lng);
  rememberLanguage(lng);
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
  changeLocale: (lng) => switchLanguage(isLocale(lng) ? lng : DEFAULT_LOCALE),
  getLocale: currentLanguage,
};
