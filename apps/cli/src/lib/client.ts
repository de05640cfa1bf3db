import { createHttpClient, memoryTokenStore, sessionFor, signOut } from '@ccp/data-provider';
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
import { AuthError, NOT_SIGNED_IN, SESSION_EXPIRED, TOKEN_REFUSED, UsageError } from './errors.ts';
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
  /** --classroom: a classroom's name or uuid (else CCP_CLASSROOM, else the first). */
  classroom?: string;
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
export const cliClientEvents = (
  io: CliIo,
  apiUrl: string,
  lang: TLocale = 'en',
  endedText: string = SESSION_EXPIRED,
): ClientEvents => ({
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
  logout: () => printErr(io, endedText),
});

export type CliSession = {
  apiUrl: string;
  /** The language the API is asked to answer in (--lang, LC_ALL, LANG). */
  lang: TLocale;
  /** The session stored for this API URL, or CCP_TOKEN's. */
  store: TokenStore;
  client: HttpClient;
  /** True when the bearer is CCP_TOKEN (a personal API token): no login, nothing stored. */
  usesToken: boolean;
};

/** The shared HTTP client over the stored session of the chosen API URL. */
export const openSession = (options: GlobalOptions, io: CliIo): CliSession => {
  const apiUrl = resolveApiUrl(options.apiUrl, io);
  const lang = resolveLanguage(options.lang, io);
  const token = io.env.CCP_TOKEN?.trim();
  if (token) {
    // A CI job's token: no refresh token, so a refused token ends the run with exit 4.
    const store = memoryTokenStore({ access_token: token, refresh_token: '' });
    const client = createHttpClient({
      apiUrl,
      tokens: store,
      events: cliClientEvents(io, apiUrl, lang, TOKEN_REFUSED),
      language: () => lang,
    });
    return { apiUrl, lang, store, client, usesToken: true };
  }
  const file = credentialsFile(io);
  const store = fileTokenStore({ file, apiUrl, warn: (message) => printErr(io, message) });
  const client = createHttpClient({
    apiUrl,
    tokens: store,
    events: cliClientEvents(io, apiUrl, lang),
    refreshLock: credentialsRefreshLock(file),
    language: () => lang,
  });
  return { apiUrl, lang, store, client, usesToken: false };
};

/** Like openSession, for commands that need a signed-in user: exits 4 before any request if not. */
export const requireSession = (options: GlobalOptions, io: CliIo): CliSession => {
  const session = openSession(options, io);
  if (!session.store.get()) throw new AuthError(NOT_SIGNED_IN);
  return session;
};

/**
 * Makes --classroom (or CCP_CLASSROOM), a name or a uuid, the current classroom of the session;
 * without either the first classroom stays current (spec §1). An unknown one is a usage error
 * naming the classrooms there are.
 */
export const useClassroom = async (
  session: CliSession,
  options: GlobalOptions,
  io: CliIo,
): Promise<void> => {
  const wanted = (options.classroom ?? io.env.CCP_CLASSROOM)?.trim();
  if (!wanted) return;
  const state = sessionFor(session.client);
  const rooms = await state.classrooms();
  const found =
    rooms.find((room) => room.uuid === wanted) ??
    rooms.find((room) => room.name.toLowerCase() === wanted.toLowerCase());
  if (!found) {
    throw new UsageError(
      `No classroom "${wanted}". Classrooms: ${rooms.map((room) => room.name).join(', ')}.`,
    );
  }
  await state.selectClassroom(found.uuid);
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
