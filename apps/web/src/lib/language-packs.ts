import type { TLocale } from '@ccp/schemas';
import type { ConfigProviderProps } from 'antd';

// Each language's texts, as chunks of their own (loaded through these functions only, so the
// entry holds none of them): a page loads only the language it shows.

export type TAntdLocale = ConfigProviderProps['locale'];
export type TLanguagePack = { texts: Record<string, unknown>; antd: TAntdLocale };

/** The whole language, from the root locales/*.json, with antd's (its English is built in). */
export const LANGUAGE_PACKS: Record<TLocale, () => Promise<TLanguagePack>> = {
  en: async () => ({
    texts: (await import('../../../../locales/en.json')).default,
    antd: undefined,
  }),
  it: async () => {
    const [texts, antd] = await Promise.all([
      import('../../../../locales/it.json'),
      import('antd/es/locale/it_IT'),
    ]);
    return { texts: texts.default, antd: antd.default };
  },
  de: async () => {
    const [texts, antd] = await Promise.all([
      import('../../../../locales/de.json'),
      import('antd/es/locale/de_DE'),
    ]);
    return { texts: texts.default, antd: antd.default };
  },
};

/**
 * The sign-in screen's texts (boot/boot-texts.ts): all a signed-out /login needs before the user
 * types. main.tsx holds the default language's itself; these are the chunks of the others.
 */
export const SIGN_IN_TEXTS: Record<TLocale, () => Promise<Record<string, unknown>>> = {
  en: async () => (await import('virtual:boot-texts/en')).default,
  it: async () => (await import('virtual:boot-texts/it')).default,
  de: async () => (await import('virtual:boot-texts/de')).default,
};
