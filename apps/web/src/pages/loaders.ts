import { ROUTES } from '../config.ts';
import { pageLoaderFor } from '../resources.ts';

// Each page is its own chunk. main.tsx starts loading the page of the address the browser opened
// while the entry and the language load, instead of after the first render. The resources' pages
// are in resources.ts; these are the pages that belong to no resource.

export const pageLoaders = {
  twoFactor: () => import('./two-factor/index.tsx'),
  logout: () => import('./logout/index.tsx'),
  faq: () => import('./faq/index.tsx'),
  notFound: () => import('./errors/not-found.tsx'),
};

export const authenticatedLayoutLoader = () =>
  import('../components/layout/authenticated-layout.tsx');

const OTHER_PAGES: Record<string, () => Promise<unknown>> = {
  [ROUTES.twoFactor]: pageLoaders.twoFactor,
  [ROUTES.faq]: pageLoaders.faq,
};

/** Starts loading what the first screen at `pathname` needs (the guard may still redirect). */
export const preloadFor = (pathname: string, signedIn: boolean) => {
  void (OTHER_PAGES[pathname] ?? pageLoaderFor(pathname))?.();
  if (signedIn && pathname !== ROUTES.login) void authenticatedLayoutLoader();
};
