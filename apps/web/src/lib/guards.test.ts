import { describe, expect, it } from 'vitest';

import { authStateFrom, guardRedirect, safeReturnPath } from './guards.ts';
import type { TAuthState, TRouteAccess } from './guards.ts';

const at = (pathname: string, search = '') => ({ pathname, search });

describe('guardRedirect (spec §2 route guards)', () => {
  it('sends unauthenticated visitors on authenticated pages to /login, remembering the page', () => {
    expect(guardRedirect('private', 'anonymous', at('/learners', '?page=2'))).toBe(
      '/login?to=%2Flearners%3Fpage%3D2',
    );
    expect(guardRedirect('private', 'anonymous', at('/dashboard'))).toBe('/login');
    expect(guardRedirect('private', 'anonymous', at('/'))).toBe('/login');
  });

  it('sends a signed-in user without 2FA to /2fa everywhere but /2fa and /logout', () => {
    const cases: [TRouteAccess, string, string | null][] = [
      ['private', '/dashboard', '/2fa'],
      ['public', '/login', '/2fa'],
      ['open', '/faq', '/2fa'],
      ['open', '/no-such-page', '/2fa'],
      ['setup', '/2fa', null],
      ['logout', '/logout', null],
    ];
    const results = cases.map(([access, path]) => guardRedirect(access, 'setup', at(path)));
    expect(results).toEqual(cases.map(([, , expected]) => expected));
  });

  it('sends signed-in visitors on unauthenticated pages to /dashboard', () => {
    expect(guardRedirect('public', 'signedIn', at('/login'))).toBe('/dashboard');
    expect(guardRedirect('setup', 'signedIn', at('/2fa'))).toBe('/dashboard');
  });

  it('returns a visitor who just signed in to the page that sent them to /login', () => {
    expect(guardRedirect('public', 'signedIn', at('/login', '?to=%2Flearners%3Fpage%3D2'))).toBe(
      '/learners?page=2',
    );
    expect(guardRedirect('public', 'signedIn', at('/login', '?to=https://evil.example'))).toBe(
      '/dashboard',
    );
  });

  it('lets each visitor see the pages meant for them', () => {
    const allowed: [TRouteAccess, TAuthState][] = [
      ['public', 'anonymous'],
      ['private', 'signedIn'],
      ['open', 'anonymous'],
      ['open', 'signedIn'],
      ['logout', 'anonymous'],
      ['logout', 'signedIn'],
    ];
    const results = allowed.map(([access, state]) => guardRedirect(access, state, at('/x')));
    expect(results).toEqual(allowed.map(() => null));
  });

  it('keeps /2fa for the setup step only: anonymous visitors sign in first', () => {
    expect(guardRedirect('setup', 'anonymous', at('/2fa'))).toBe('/login');
  });
});

describe('authStateFrom', () => {
  it("reads the auth provider's check answer", () => {
    expect(authStateFrom({ authenticated: true })).toBe('signedIn');
    expect(authStateFrom({ authenticated: false, redirectTo: '/2fa' })).toBe('setup');
    expect(authStateFrom({ authenticated: false, redirectTo: '/login' })).toBe('anonymous');
    expect(authStateFrom(undefined)).toBe('anonymous');
  });
});

describe('safeReturnPath', () => {
  it('follows same-site paths only', () => {
    expect(safeReturnPath('/learners?page=2')).toBe('/learners?page=2');
    expect(safeReturnPath('//evil.example/x')).toBeNull();
    expect(safeReturnPath('/\\evil.example')).toBeNull();
    expect(safeReturnPath('https://evil.example')).toBeNull();
    expect(safeReturnPath('')).toBeNull();
    expect(safeReturnPath(null)).toBeNull();
  });
});
