import { ApiError } from '@ccp/data-provider';
import type { HttpClient, TokenStore } from '@ccp/data-provider';

import type { SessionFlag } from './session-flag.ts';

/**
 * The web's token store (issue 30): the access token in `inner` (memory), the refresh token only
 * in the HttpOnly cookie the server sets. Holding a token raises the "maybe signed in" flag and
 * losing it (sign-out, a refused refresh) clears it, which signs the other tabs out as well.
 */
export const flaggedTokenStore = (inner: TokenStore, flag: SessionFlag): TokenStore => ({
  get: () => inner.get(),
  set: (tokens) => {
    inner.set(tokens);
    flag.set();
  },
  clear: () => {
    inner.clear();
    flag.clear();
  },
});

/**
 * What a page load does before deciding who is there: with an access token in memory, nothing;
 * without one and without the flag (a stranger), nothing either; with the flag, one refresh from
 * the cookie (concurrent callers share it). The server refusing it (no cookie, a spent or revoked
 * one: any 4xx) ends the session here and in the other tabs; a lost connection or a server
 * failure keeps the flag, so the next load tries again.
 */
export const sessionResumer = (
  client: Pick<HttpClient, 'tokens' | 'refresh'>,
  flag: SessionFlag,
): (() => Promise<boolean>) => {
  let running: Promise<boolean> | null = null;
  return () => {
    if (client.tokens.get()) return Promise.resolve(true);
    if (!flag.isSet()) return Promise.resolve(false);
    running ??= client
      .refresh()
      .then(
        () => true,
        (error: unknown) => {
          if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
            client.tokens.clear();
          }
          return false;
        },
      )
      .finally(() => {
        running = null;
      });
    return running;
  };
};
