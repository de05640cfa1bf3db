import { createHttpClient, memoryTokenStore, signOut } from '@ccp/data-provider';
import type { ClientEvents, HttpClient, TokenStore, TTokens } from '@ccp/data-provider';
import { MESSAGES } from '@ccp/schemas';

import { credentialsFile, resolveApiUrl } from './config.ts';
import { credentialsRefreshLock, fileTokenStore } from './credentials-store.ts';
import { AuthError, NOT_SIGNED_IN, SESSION_EXPIRED } from './errors.ts';
import type { CliIo } from './io.ts';
import { printErr } from './io.ts';

/** Options every command receives from the program (see cli.ts). */
export type GlobalOptions = {
  apiUrl?: string;
  /** False with --no-input. */
  input?: boolean;
};

/**
 * The HTTP client's events (spec §7 reactions) as stderr lines: the CLI's toast and modal. A
 * failed refresh has already cleared the stored session; the command then exits 4.
 */
export const cliClientEvents = (io: CliIo, apiUrl: string): ClientEvents => ({
  toast: (message) =>
    printErr(io, message === MESSAGES.networkError ? `${message} (${apiUrl})` : message),
  errorModal: (message) => printErr(io, message),
  upgrade: (reaction) =>
    printErr(
      io,
      `${reaction.message ?? 'This needs a higher plan.'} Upgrade your plan in the web app to continue.`,
    ),
  logout: () => printErr(io, SESSION_EXPIRED),
});

export type CliSession = {
  apiUrl: string;
  /** The session stored for this API URL. */
  store: TokenStore;
  client: HttpClient;
};

/** The shared HTTP client over the stored session of the chosen API URL. */
export const openSession = (options: GlobalOptions, io: CliIo): CliSession => {
  const apiUrl = resolveApiUrl(options.apiUrl, io);
  const file = credentialsFile(io);
  const store = fileTokenStore({ file, apiUrl, warn: (message) => printErr(io, message) });
  const client = createHttpClient({
    apiUrl,
    tokens: store,
    events: cliClientEvents(io, apiUrl),
    refreshLock: credentialsRefreshLock(file),
  });
  return { apiUrl, store, client };
};

/** Like openSession, for commands that need a signed-in user: exits 4 before any request if not. */
export const requireSession = (options: GlobalOptions, io: CliIo): CliSession => {
  const session = openSession(options, io);
  if (!session.store.get()) throw new AuthError(NOT_SIGNED_IN);
  return session;
};

/**
 * Ends a session on the server. An access token older than its lifetime is refreshed first:
 * logging out with it would answer 401 and leave the refresh token alive for its 30 days.
 * Failures are not fatal (signing out always works locally); `events` decides who hears of them.
 */
export const revokeSession = async (
  apiUrl: string,
  tokens: TTokens,
  events: ClientEvents = {},
): Promise<void> => {
  const client = createHttpClient({ apiUrl, tokens: memoryTokenStore(tokens), events });
  if (tokens.expires_at !== undefined && tokens.expires_at <= Date.now()) {
    try {
      await client.refresh();
    } catch {
      // A dead refresh token: nothing left to revoke.
      return;
    }
  }
  await signOut(client);
};
