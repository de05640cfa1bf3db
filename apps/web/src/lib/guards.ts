import { ROUTES } from '../config.ts';

/**
 * Where a visitor stands (spec §2 route guards): `setup` is signed in with the password but
 * without two-factor authentication yet; a half-done login waiting for its code is `anonymous`.
 */
export type TAuthState = 'anonymous' | 'setup' | 'signedIn';

/**
 * Who a route is for: `public` the unauthenticated pages (/login), `setup` the 2FA setup,
 * `private` the authenticated pages, `open` pages for anyone (FAQ, not found), `logout` /logout.
 */
export type TRouteAccess = 'public' | 'setup' | 'private' | 'open' | 'logout';

export type TCheckResult = { authenticated: boolean; redirectTo?: string };

/** The auth provider's `check()` answer as a state. */
export const authStateFrom = (check: TCheckResult | undefined): TAuthState => {
  if (check?.authenticated) return 'signedIn';
  return check?.redirectTo === ROUTES.twoFactor ? 'setup' : 'anonymous';
};

/** Only same-site paths are followed after signing in (no `//evil.example`, no `https:`). */
export const safeReturnPath = (value: string | null | undefined): string | null => {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return null;
  }
  return value;
};

const returnPathOf = (search: string | undefined): string | null =>
  safeReturnPath(new URLSearchParams(search ?? '').get('to'));

const loginWithReturn = (location: { pathname: string; search?: string }): string => {
  const target = `${location.pathname}${location.search ?? ''}`;
  if (location.pathname === '/' || location.pathname === ROUTES.dashboard) return ROUTES.login;
  return `${ROUTES.login}?to=${encodeURIComponent(target)}`;
};

/**
 * The redirect a guard performs, or null to show the route:
 * - unauthenticated visitors on authenticated pages go to /login (remembering where they were);
 * - signed in without 2FA goes to /2fa, except on /2fa and /logout;
 * - signed-in visitors on unauthenticated pages (/login, /2fa) go to /dashboard, or back to the
 *   page that sent them to /login (`?to=`).
 */
export const guardRedirect = (
  access: TRouteAccess,
  state: TAuthState,
  location: { pathname: string; search?: string },
): string | null => {
  if (access === 'logout') return null;
  if (state === 'setup') return access === 'setup' ? null : ROUTES.twoFactor;
  switch (access) {
    case 'public':
      return state === 'signedIn' ? (returnPathOf(location.search) ?? ROUTES.dashboard) : null;
    case 'setup':
      return state === 'signedIn' ? ROUTES.dashboard : ROUTES.login;
    case 'private':
      return state === 'signedIn' ? null : loginWithReturn(location);
    case 'open':
      return null;
  }
};
