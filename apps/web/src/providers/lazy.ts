import type { CcpDataProvider } from '@ccp/data-provider';
import type {
  AuthProvider,
  BaseRecord,
  CreateParams,
  CustomParams,
  DeleteOneParams,
  GetListParams,
  GetOneParams,
  UpdateParams,
} from '@refinedev/core';

import { PENDING_SETUP_STORAGE_KEY, ROUTES } from '../config.ts';
import type { TProviders } from './create.ts';
import { sessionFlag } from './session-flag.ts';

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

/**
 * Whether this browser may hold a session (the flag, see session-flag.ts), read without loading
 * the client: the refresh cookie itself is out of any script's reach.
 */
export const maybeSignedIn = (): boolean => sessionFlag().isSet();

/** Whether this tab is in the middle of a first-time 2FA setup (see providers/create.ts). */
const hasPendingSetup = (): boolean => {
  try {
    return window.sessionStorage.getItem(PENDING_SETUP_STORAGE_KEY) !== null;
  } catch {
    return false;
  }
};

// Without the flag or a setup in progress, and before the client exists, nobody is signed in: a
// stranger's visit sends no refresh call.
const certainlySignedOut = () => loaded === null && !maybeSignedIn() && !hasPendingSetup();

/** Refine's auth provider: @ccp/data-provider's, loaded on first use. */
export const lazyAuthProvider: AuthProvider = {
  login: async (params) => (await loadProviders()).auth.login(params),
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

/** Refine's data provider: @ccp/data-provider's, loaded on first use. */
export const lazyDataProvider: CcpDataProvider = {
  getApiUrl: () => window.location.origin,
  getList: async <TData extends BaseRecord = BaseRecord>(params: GetListParams) =>
    (await loadProviders()).data.getList<TData>(params),
  getOne: async <TData extends BaseRecord = BaseRecord>(params: GetOneParams) =>
    (await loadProviders()).data.getOne<TData>(params),
  create: async <TData extends BaseRecord = BaseRecord, TVariables = object>(
    params: CreateParams<TVariables>,
  ) => (await loadProviders()).data.create<TData, TVariables>(params),
  update: async <TData extends BaseRecord = BaseRecord, TVariables = object>(
    params: UpdateParams<TVariables>,
  ) => (await loadProviders()).data.update<TData, TVariables>(params),
  deleteOne: async <TData extends BaseRecord = BaseRecord, TVariables = object>(
    params: DeleteOneParams<TVariables>,
  ) => (await loadProviders()).data.deleteOne<TData, TVariables>(params),
  custom: async <TData extends BaseRecord = BaseRecord, TQuery = unknown, TPayload = unknown>(
    params: CustomParams<TQuery, TPayload>,
  ) => (await loadProviders()).data.custom<TData, TQuery, TPayload>(params),
};
