import {
  ApiError,
  authProvider,
  createHttpClient,
  createSession,
  dataProvider,
  failureIs,
  memoryTokenStore,
  webStoragePendingStore,
} from '@ccp/data-provider';
import type { CcpAuthProvider } from '@ccp/data-provider';

import { PENDING_SETUP_STORAGE_KEY } from '../config.ts';
import { currentLanguage } from '../lib/texts.ts';
import { classroomChoiceStore } from '../lib/classroom-choice.ts';
import { reactionMessage } from '../lib/messages.ts';
import { uiEvents } from '../lib/ui-events.ts';
import { flaggedTokenStore, sessionResumer } from './cookie-session.ts';
import { sessionFlag } from './session-flag.ts';

/**
 * The http client and the Refine providers of @ccp/data-provider. The client decides what a
 * failure shows (spec §7); the web only renders it, through the UI event bus.
 */
export const createProviders = () => {
  const flag = sessionFlag();
  const client = createHttpClient({
    apiUrl: window.location.origin,
    // Issue 30: the access token only in this tab's memory, the refresh token only in the
    // HttpOnly cookie; an injected script finds neither in Web Storage.
    tokens: flaggedTokenStore(memoryTokenStore(), flag),
    refreshCookie: true,
    // Tabs share the refresh cookie, which works once: one refreshes at a time (the Web Locks
    // API), so each presents the cookie the previous refresh set.
    refreshLock: <T>(task: () => Promise<T>): Promise<T> =>
      'locks' in navigator ? (navigator.locks.request('ccp.refresh', task) as Promise<T>) : task(),
    // The API answers its messages in the language shown, read on every request.
    language: currentLanguage,
    events: {
      toast: (_text, reaction) => uiEvents.emit('toast', reactionMessage(reaction)),
      errorModal: (_text, reaction) => uiEvents.emit('errorModal', reactionMessage(reaction)),
      upgrade: ({ message, limit }) =>
        uiEvents.emit('upgrade', { message, ...(limit ? { limit } : {}) }),
      logout: () => uiEvents.emit('logout', undefined),
    },
  });
  const resume = sessionResumer(client, flag);
  const session = createSession(client, { classroomChoice: classroomChoiceStore });
  warmSession(resume, session);
  exposeForDebugging(client);
  const auth = authProvider(client, {
    session,
    // A first-time 2FA setup survives a reload of the tab, never longer than its token.
    pendingStore: webStoragePendingStore(window.sessionStorage, PENDING_SETUP_STORAGE_KEY),
  });
  return {
    client,
    session,
    auth: resumingFirst(auth, resume),
    data: dataProvider(client, { session }),
    signInFailures,
  };
};

/**
 * The guards ask `check` and pages ask `getIdentity` before anything else: after a page load they
 * wait for the cookie's session to be resumed (one refresh, only while the flag says there may be
 * one), so a signed-in user never sees /login flash by. A sign-out opened by its address resumes
 * too: only the server's answer to it clears the cookie.
 */
const resumingFirst = (auth: CcpAuthProvider, resume: () => Promise<boolean>): CcpAuthProvider => ({
  ...auth,
  check: async (params) => {
    await resume();
    return auth.check(params);
  },
  getIdentity: async (params) => {
    await resume();
    return auth.getIdentity(params);
  },
  logout: async (params) => {
    await resume();
    return auth.logout(params);
  },
});

/**
 * Signed in, every first screen needs the user and their classrooms: asked for as soon as the
 * client exists (main.tsx loads it alongside the app), so they are known by the app's first render
 * instead of being asked after it. The session keeps them; a failure is simply asked again (and
 * shown) by the app's own first call.
 */
const warmSession = (resume: () => Promise<boolean>, session: ReturnType<typeof createSession>) => {
  resume()
    .then(async (resumed) => {
      if (!resumed) return;
      await session.identity();
      await session.classrooms();
    })
    .catch(() => undefined);
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

const codeOf = (error: unknown): string | undefined =>
  error instanceof Error && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;

/**
 * The sign-in failures the login and 2FA pages show themselves (the client stays silent about
 * them), by code: the message is in the user's language. A wrong code at sign-in and a wrong
 * setup pair are both INVALID_CODE; each page asks only about its own step.
 */
export const signInFailures = {
  invalidCredentials: (error: unknown) =>
    error instanceof ApiError && failureIs(error, 'INVALID_CREDENTIALS'),
  invalidOtp: (error: unknown) => codeOf(error) === 'INVALID_CODE',
  wrongSetupCodes: (error: unknown) => codeOf(error) === 'INVALID_CODE',
};

export type TProviders = ReturnType<typeof createProviders>;
