import type { CcpDataProvider } from '@ccp/data-provider';
import type { AuthProvider, DataProvider } from '@refinedev/core';

import { ROUTES, TOKENS_STORAGE_KEY } from '../config.ts';
import type { TProviders } from './create.ts';

// The http client, the providers and zod (~30 KB gzip) load on first need, not with /login:
// a visitor without tokens needs none of them until the sign-in form is submitted.

let loading: Promise<TProviders> | null = null;
let loaded: TProviders | null = null;

export const loadProviders = (): Promise<TProviders> => {
  loading ??= import('./create.ts').then(({ createProviders }) => {
    loaded = createProviders();
    return loaded;
  });
  return loading;
};

/** The providers if they are loaded already (no request, no import). */
export const loadedProviders = (): TProviders | null => loaded;

/** Whether this browser holds tokens, read without loading the client. */
export const hasStoredTokens = (): boolean => {
  try {
    return window.localStorage.getItem(TOKENS_STORAGE_KEY) !== null;
  } catch {
    return false;
  }
};

// Without tokens and before the client exists there can be no half-done login either.
const certainlySignedOut = () => loaded === null && !hasStoredTokens();

/** Refine's auth provider: @ccp/data-provider's, loaded on first use. */
export const lazyAuthProvider: AuthProvider = {
  login: async (params) => (await loadProviders()).auth.login(params as never),
  logout: async (params) => {
    if (certainlySignedOut()) return { success: true, redirectTo: ROUTES.login };
    return (await loadProviders()).auth.logout(params);
  },
  check: async (params) => {
    if (certainlySignedOut()) return { authenticated: false, redirectTo: ROUTES.login };
    return (await loadProviders()).auth.check(params);
  },
  onError: async (error) => (loaded ? loaded.auth.onError(error) : {}),
  getIdentity: async (params) => {
    if (certainlySignedOut()) return null;
    return (await loadProviders()).auth.getIdentity(params);
  },
};

const forward =
  <K extends Exclude<keyof CcpDataProvider, 'getApiUrl'>>(method: K) =>
  async (params: Parameters<CcpDataProvider[K]>[0]) => {
    const { data } = await loadProviders();
    return (data[method] as (input: typeof params) => ReturnType<CcpDataProvider[K]>)(params);
  };

/** Refine's data provider: @ccp/data-provider's, loaded on first use. */
export const lazyDataProvider = {
  getApiUrl: () => window.location.origin,
  getList: forward('getList'),
  getOne: forward('getOne'),
  create: forward('create'),
  update: forward('update'),
  deleteOne: forward('deleteOne'),
  custom: forward('custom'),
} as unknown as DataProvider;
