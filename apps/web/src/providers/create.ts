import {
  ApiError,
  authProvider,
  createHttpClient,
  createSession,
  dataProvider,
  webStoragePendingStore,
  webStorageTokenStore,
} from '@ccp/data-provider';

import { MESSAGES } from '@ccp/schemas';

import { PENDING_SETUP_STORAGE_KEY, TOKENS_STORAGE_KEY } from '../config.ts';
import { classroomChoiceStore } from '../lib/classroom-choice.ts';
import { describeMessage } from '../lib/messages.ts';
import { uiEvents } from '../lib/ui-events.ts';

/**
 * The http client and the Refine providers of @ccp/data-provider. The client decides what a
 * failure shows (spec §7); the web only renders it, through the UI event bus.
 */
export const createProviders = () => {
  const client = createHttpClient({
    apiUrl: window.location.origin,
    tokens: webStorageTokenStore(window.localStorage, TOKENS_STORAGE_KEY),
    // Tabs share the tokens in localStorage: one refreshes at a time (the Web Locks API).
    refreshLock: <T>(task: () => Promise<T>): Promise<T> =>
      'locks' in navigator ? (navigator.locks.request('ccp.refresh', task) as Promise<T>) : task(),
    events: {
      toast: (text) => uiEvents.emit('toast', describeMessage(text)),
      errorModal: (text) => uiEvents.emit('errorModal', describeMessage(text)),
      upgrade: ({ message, limit }) =>
        uiEvents.emit('upgrade', { message, ...(limit ? { limit } : {}) }),
      logout: () => uiEvents.emit('logout', undefined),
    },
  });
  const session = createSession(client, { classroomChoice: classroomChoiceStore });
  exposeForDebugging(client);
  return {
    client,
    session,
    auth: authProvider(client, {
      session,
      // A first-time 2FA setup survives a reload of the tab, never longer than its token.
      pendingStore: webStoragePendingStore(window.sessionStorage, PENDING_SETUP_STORAGE_KEY),
    }),
    data: dataProvider(client, { session }),
    signInFailures,
  };
};

const DEBUG_STORAGE_KEY = 'ccp.debug';

/**
 * With `localStorage['ccp.debug'] = '1'`, `window.ccpClient.request(method, path, body)` sends a
 * call through the app's own client, so its answer shows as the app would show it (the browser
 * tests use it to meet a real 402). It can do nothing the signed-in user's tokens cannot.
 */
const exposeForDebugging = (client: ReturnType<typeof createHttpClient>) => {
  try {
    if (window.localStorage.getItem(DEBUG_STORAGE_KEY) !== '1') return;
  } catch {
    return;
  }
  Object.assign(window, {
    ccpClient: {
      request: (method: string, path: string, body?: unknown) =>
        client.request(method, path, body === undefined ? {} : { body }),
    },
  });
};

/** The sign-in failures the login page shows itself (the client stays silent about them). */
export const signInFailures = {
  invalidCredentials: (error: unknown) =>
    error instanceof ApiError &&
    (error.code === 'INVALID_CREDENTIALS' || error.message === MESSAGES.invalidCredentials),
  invalidOtp: (error: unknown) => error instanceof Error && error.message === MESSAGES.otpInvalid,
  wrongSetupCodes: (error: unknown) =>
    error instanceof Error && error.message === MESSAGES.otpWrongSetup,
};

export type TProviders = ReturnType<typeof createProviders>;
