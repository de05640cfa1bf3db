import { PLATFORM } from '@ccp/schemas';
import type { APIRequestContext } from '@playwright/test';

import { ACCOUNTS, DEMO_PASSWORD, DEMO_TOTP_SECRET } from '../helpers/accounts.ts';
import type { TAccount } from '../helpers/accounts.ts';
import { setUpSecret, withFreshCode } from '../helpers/totp.ts';

/** What the web app keeps in localStorage (apps/web/src/config.ts TOKENS_STORAGE_KEY). */
export const TOKENS_STORAGE_KEY = 'ccp.tokens';

export type TStoredTokens = { access_token: string; refresh_token: string; expires_at?: number };

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
