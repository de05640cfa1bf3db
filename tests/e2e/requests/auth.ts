import { PLATFORM, REFRESH_COOKIE_NAME, REFRESH_COOKIE_PATH } from '@ccp/schemas';
import type { APIRequestContext, BrowserContext } from '@playwright/test';

import { ACCOUNTS, DEMO_PASSWORD, DEMO_TOTP_SECRET } from '../helpers/accounts.ts';
import type { TAccount } from '../helpers/accounts.ts';
import { setUpSecret, withFreshCode } from '../helpers/totp.ts';

/** The web app's "maybe signed in" flag in localStorage (apps/web/src/config.ts). */
export const SESSION_FLAG_STORAGE_KEY = 'ccp.signed-in';
/** Where the web app kept both tokens before issue 30 (apps/web/src/config.ts): removed on start. */
export const LEGACY_TOKENS_STORAGE_KEY = 'ccp.tokens';

export type TStoredTokens = { access_token: string; refresh_token: string; expires_at?: number };

type TStorageEntry = { name: string; value: string };

/**
 * A browser signed in as the web app leaves it (issue 30): the refresh token as the server's
 * HttpOnly cookie on the refresh path, and the flag in localStorage; the access token is not
 * kept anywhere, the app asks the cookie for one on its first load.
 */
export const signedInState = (
  baseURL: string,
  refreshToken: string,
  localStorage: TStorageEntry[] = [],
) => ({
  cookies: [
    {
      name: REFRESH_COOKIE_NAME,
      value: refreshToken,
      domain: new URL(baseURL).hostname,
      path: REFRESH_COOKIE_PATH,
      expires: -1,
      httpOnly: true,
      // Plain http to a loopback host: the server leaves Secure out (refresh-cookie.ts).
      secure: false,
      sameSite: 'Strict' as const,
    },
  ],
  origins: [
    {
      origin: baseURL,
      localStorage: [{ name: SESSION_FLAG_STORAGE_KEY, value: '1' }, ...localStorage],
    },
  ],
});

/** The refresh cookie a browser holds now (each page load rotates it), or null. */
export const refreshCookieOf = async (context: BrowserContext): Promise<string | null> =>
  (await context.cookies()).find((cookie) => cookie.name === REFRESH_COOKIE_NAME)?.value ?? null;

/**
 * Waits, at the end of a test, for the app's refresh calls still on their way: the server spends
 * the old cookie when it answers, so the cookie handed to the next test must be the new one.
 */
export const trackRefreshCalls = (context: BrowserContext) => {
  let pending = 0;
  const waiting: (() => void)[] = [];
  const isRefresh = (url: string) => new URL(url).pathname === REFRESH_COOKIE_PATH;
  const ended = (request: { url: () => string }) => {
    if (!isRefresh(request.url())) return;
    pending -= 1;
    if (pending === 0) for (const resolve of waiting.splice(0)) resolve();
  };
  context.on('request', (request) => {
    if (isRefresh(request.url())) pending += 1;
  });
  context.on('requestfinished', ended);
  context.on('requestfailed', ended);
  return {
    settled: async () => {
      if (pending === 0) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        new Promise<void>((resolve) => waiting.push(resolve)),
        // A bound, not a wait: a call that never ends leaves the cookie as it is.
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, 5_000);
        }),
      ]);
      clearTimeout(timer);
    },
  };
};

type TTokenData = { access_token: string; refresh_token: string; expires_in?: number };

const dataOf = async <T>(
  response: Awaited<ReturnType<APIRequestContext['post']>>,
  what: string,
) => {
  if (!response.ok()) {
    throw new Error(`${what} answered ${response.status()}: ${await response.text()}`);
  }
  return ((await response.json()) as { data: T }).data;
};

/**
 * Signs a demo account in through the API (password, then a fresh TOTP code: from the demo
 * secret, or the one the account set up during this run) and answers the tokens in the shape the
 * web app stores them.
 */
export const apiSignIn = async (
  request: APIRequestContext,
  account: TAccount,
): Promise<TStoredTokens> => {
  const email = ACCOUNTS[account];
  const secret = setUpSecret(email) ?? DEMO_TOTP_SECRET;
  const first = await dataOf<TTokenData>(
    await request.post('/api/v1/users/oauth/token', {
      data: { username: email, password: DEMO_PASSWORD, platform: PLATFORM },
    }),
    `Signing in ${email}`,
  );
  const full = await withFreshCode(email, secret, async (code) =>
    dataOf<TTokenData>(
      await request.post('/api/v1/users/oauth/2fa-token', {
        headers: { authorization: `Bearer ${first.access_token}` },
        data: { refresh_token: first.refresh_token, platform: PLATFORM, code },
      }),
      `The 2FA code of ${email}`,
    ),
  );
  return {
    access_token: full.access_token,
    refresh_token: full.refresh_token,
    ...(full.expires_in ? { expires_at: Date.now() + full.expires_in * 1000 } : {}),
  };
};

/** Ends a sign-in on the server (revokes its tokens); a sign-in already ended is fine. */
export const apiSignOut = async (request: APIRequestContext, accessToken: string) => {
  await request.post('/api/v1/users/oauth/logout', {
    headers: { authorization: `Bearer ${accessToken}` },
  });
};

/**
 * Ends a browser's sign-in from its refresh cookie: one already ended or spent is fine, and so is
 * a server already stopped (the AI specs' own may stop before the worker's sign-ins are ended).
 */
export const apiSignOutBrowser = async (request: APIRequestContext, refreshToken: string) => {
  const response = await request
    .post(REFRESH_COOKIE_PATH, { data: { refresh_token: refreshToken, platform: PLATFORM } })
    .catch(() => null);
  if (!response?.ok()) return;
  const { data } = (await response.json()) as { data: TTokenData };
  await apiSignOut(request, data.access_token);
};
