import { createHttpClient, memoryTokenStore, signOut } from '@ccp/data-provider';
import type {
  ClientEvents,
  HttpClient,
  TokenStore,
  TReactionText,
  TTokens,
} from '@ccp/data-provider';
import type { TLocale } from '@ccp/schemas';

import { credentialsFile, resolveApiUrl } from './config.ts';
import { credentialsRefreshLock, fileTokenStore } from './credentials-store.ts';
import { AuthError, NOT_SIGNED_IN, SESSION_EXPIRED } from './errors.ts';
import type { CliIo } from './io.ts';
import { printErr } from './io.ts';
import { resolveLanguage } from './language.ts';
import { specText } from './texts.ts';

/** Options every command receives from the program (see cli.ts). */
export type GlobalOptions = {
  apiUrl?: string;
  /** False with --no-input. */
  input?: boolean;
  /** --lang: the language of the server's messages and of the spec's texts. */
  lang?: TLocale;
};

/** A reaction's text: the server's as sent (already in `lang`), the client's own by its key. */
const sayReaction = (reaction: TReactionText, lang: TLocale): string => {
  if (!reaction.key) return reaction.message;
  const text = specText(lang, reaction.key);
  return reaction.detail ? `${text} ${reaction.detail}` : text;
};

/**
 * The HTTP client's events (spec §7 reactions) as stderr lines: the CLI's toast and modal. A
 * failed refresh has already cleared the stored session; the command then exits 4.
 */
export const cliClientEvents = (io: CliIo, apiUrl: string, lang: TLocale = 'en'): ClientEvents => ({
  toast: (_message, reaction) => {
    const text = sayReaction(reaction, lang);
    printErr(io, reaction.key === 'networkError' ? `${text} (${apiUrl})` : text);
  },
  errorModal: (_message, reaction) => printErr(io, sayReaction(reaction, lang)),
  upgrade: (reaction) =>
    printErr(
      io,
      `${reaction.message ?? 'This needs a higher plan.'} Upgrade your plan in the web app to continue.`,
    ),
  logout: () => printErr(io, SESSION_EXPIRED),
});

export type CliSession = {
  apiUrl: string;
  /** The language the API is asked to answer in (--lang, LC_ALL, LANG). */
  lang: TLocale;
  /** The session stored for this API URL. */
  store: TokenStore;
  client: HttpClient;
};

/** The shared HTTP client over the stored session of the chosen API URL. */
export const openSession = (options: GlobalOptions, io: CliIo): CliSession => {
  const apiUrl = resolveApiUrl(options.apiUrl, io);
  const lang = resolveLanguage(options.lang, io);
  const file = credentialsFile(io);
  const store = fileTokenStore({ file, apiUrl, warn: (message) => printErr(io, message) });
  const client = createHttpClient({
    apiUrl,
    tokens: store,
    events: cliClientEvents(io, apiUrl, lang),
    refreshLock: credentialsRefreshLock(file),
    language: () => lang,
  });
  return { apiUrl, lang, store, client };
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
  lang: TLocale = 'en',
): Promise<void> => {
  const client = createHttpClient({
    apiUrl,
    tokens: memoryTokenStore(tokens),
    events,
    language: () => lang,
  });
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
