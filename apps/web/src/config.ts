import type { TLocale } from '@ccp/schemas';

// Web-only settings. Links can be changed at build time through VITE_* variables.

const env = import.meta.env as Record<string, string | undefined>;

export const LINKS = {
  supportEmail: env.VITE_SUPPORT_EMAIL ?? 'support@ccp.example',
  salesBooking: env.VITE_SALES_BOOKING_URL ?? 'https://ccp.example/book-a-demo',
  marketingSite: env.VITE_MARKETING_SITE_URL ?? 'https://ccp.example',
} as const;

/** Where the tokens live in localStorage (read without loading the client, see providers/lazy.ts). */
export const TOKENS_STORAGE_KEY = 'ccp.tokens';
export const LANGUAGE_STORAGE_KEY = 'ccp.language';

/**
 * Each language named in itself, as language pickers do (the same in every interface language).
 * Written out rather than asked of Intl.DisplayNames, whose first call costs ~15 ms on /login.
 */
export const LANGUAGE_NAMES: Record<TLocale, string> = {
  en: 'English',
  it: 'Italiano',
  de: 'Deutsch',
};

/** Seconds shown on /2fa after a successful setup before going to the dashboard. */
export const TWO_FACTOR_REDIRECT_SECONDS = 5;

export const ROUTES = {
  login: '/login',
  logout: '/logout',
  twoFactor: '/2fa',
  dashboard: '/dashboard',
  faq: '/faq',
  coursesCreate: '/courses/create',
  coursesImport: '/courses/import',
  learners: '/learners',
  insights: '/insights',
} as const;
