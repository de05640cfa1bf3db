import { ROUTES } from '../config.ts';

// Each page is its own chunk. main.tsx starts loading the page of the address the browser opened
// while the entry and the language load, instead of after the first render.

export const pageLoaders = {
  twoFactor: () => import('./two-factor/index.tsx'),
  logout: () => import('./logout/index.tsx'),
  dashboard: () => import('./dashboard/index.tsx'),
  faq: () => import('./faq/index.tsx'),
  notFound: () => import('./errors/not-found.tsx'),
  courseCreate: () => import('./courses/create.tsx'),
  courseImport: () => import('./courses/import.tsx'),
  learners: () => import('./learners/list.tsx'),
  insights: () => import('./insights/index.tsx'),
};

export const authenticatedLayoutLoader = () =>
  import('../components/layout/authenticated-layout.tsx');

const PRELOAD: Record<string, () => Promise<unknown>> = {
  [ROUTES.twoFactor]: pageLoaders.twoFactor,
  [ROUTES.dashboard]: pageLoaders.dashboard,
  [ROUTES.faq]: pageLoaders.faq,
};

/** Starts loading what the first screen at `pathname` needs (the guard may still redirect). */
export const preloadFor = (pathname: string, signedIn: boolean) => {
  void PRELOAD[pathname]?.();
  if (signedIn && pathname !== ROUTES.login) void authenticatedLayoutLoader();
};
