import type { TLocale } from '@ccp/schemas';

// Web-only settings. Links can be changed at build time through VITE_* variables.

const env = import.meta.env as Record<string, string | undefined>;

export const LINKS = {
  supportEmail: env.VITE_SUPPORT_EMAIL ?? 'support@ccp.example',
  salesBooking: env.VITE_SALES_BOOKING_URL ?? 'https://ccp.example/book-a-demo',
  marketingSite: env.VITE_MARKETING_SITE_URL ?? 'https://ccp.example',
} as const;

/**
 * "Maybe signed in" (`'1'`), in localStorage: no secret, it only decides whether a page load asks
 * the refresh cookie for a session before showing /login (providers/session-flag.ts). The tokens
 * themselves are never in Web Storage: the access token in memory, the refresh token in an
 * HttpOnly cookie (issue 30).
 */
export const SESSION_FLAG_STORAGE_KEY = 'ccp.signed-in';
/** Where versions before issue 30 kept both tokens: removed on start, never read. */
export const LEGACY_TOKENS_STORAGE_KEY = 'ccp.tokens';
export const LANGUAGE_STORAGE_KEY = 'ccp.language';
/** The first-time 2FA setup in progress, in sessionStorage (read without loading the client). */
export const PENDING_SETUP_STORAGE_KEY = 'ccp.pending-setup';
/** Each user's chosen classroom: `ccp.classroom.<user uuid>` in localStorage. */
export const CLASSROOM_STORAGE_PREFIX = 'ccp.classroom.';
/** The last course shown on /insights, per classroom: `ccp.insights.course.<classroom uuid>`. */
export const INSIGHTS_COURSE_STORAGE_PREFIX = 'ccp.insights.course.';

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

/** Learners per page in the learners centre; further pages are appended (spec §4). */
export const LEARNERS_PAGE_SIZE = 25;

/** Course cards per page on the dashboard; further pages are appended (spec §4). */
export const DASHBOARD_PAGE_SIZE = 24;

export const ROUTES = {
  login: '/login',
  logout: '/logout',
  twoFactor: '/2fa',
  dashboard: '/dashboard',
  faq: '/faq',
  coursesCreate: '/courses/create',
  coursesImport: '/courses/import',
  learners: '/learners',
  learnersListCreate: '/learners/list/create',
  learnersUpload: '/learners/upload',
  insights: '/insights',
  exports: '/exports',
  apiTokens: '/account/tokens',
  account: '/account',
  plan: '/account/plan',
  team: '/team',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  invitation: '/invitation',
  channels: '/channels',
} as const;

/** The wizard on an existing course (a draft resumes where it stands). */
export const courseWizardPath = (uuid: string) =>
  `${ROUTES.coursesCreate}/${encodeURIComponent(uuid)}`;

/**
 * A step of the wizard on a course: the spec's courses-create-content, -delivery and -finish
 * (paths not shown in the spec) are /courses/create/{uuid}/content, /delivery and /finish.
 */
export const courseStepPath = (uuid: string, step: 'intro' | 'content' | 'delivery' | 'finish') =>
  `${courseWizardPath(uuid)}/${step}`;

/** Insights preselecting a course (the dashboard's "view report"). */
export const courseReportPath = (uuid: string) =>
  `${ROUTES.insights}?course=${encodeURIComponent(uuid)}`;

/** A learner's page (spec §2 /learners/view/{uuid}). */
export const learnerViewPath = (uuid: string) =>
  `${ROUTES.learners}/view/${encodeURIComponent(uuid)}`;

/** A learner's form (spec §2 /learners/mode/{uuid}): `new` creates one. */
export const learnerEditPath = (uuid: string) =>
  `${ROUTES.learners}/mode/${encodeURIComponent(uuid)}`;
