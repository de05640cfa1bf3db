import { createHttpClient, memoryTokenStore, sessionFor, signOut } from '@ccp/data-provider';
import type {
  ClientEvents,
  HttpClient,
  TokenStore,
  TReactionText,
  TTokens,
} from '@ccp/data-provider';
import type { TLocale } from '@ccp/schemas';

import { API_URL_EXAMPLE, credentialsFile, resolveApiUrl, resolveTimeoutMs } from './config.ts';
import { credentialsRefreshLock, fileTokenStore, rememberedApiUrl } from './credentials-store.ts';
import type { FileTokenStore } from './credentials-store.ts';
import { AuthError, SESSION_EXPIRED, TOKEN_REFUSED, UsageError, notSignedIn } from './errors.ts';
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
  /** --timeout in seconds (else CCP_TIMEOUT, else 60); 0: no limit. */
  timeout?: number;
};

/** How often an idempotent call is tried again after a lost connection or a 502/503/504. */
const RETRY = { attempts: 3, baseDelayMs: 500, maxDelayMs: 30_000 } as const;

/** The client settings every command shares: the timeout and the retries. */
export const clientTuning = (options: GlobalOptions, io: CliIo) => ({
  timeoutMs: resolveTimeoutMs(options.timeout, io),
  retry: RETRY,
});

/** The API URL a command talks to: --api-url, CCP_API_URL, the one signed in to last, the default. */
export const apiUrlOf = (options: GlobalOptions, io: CliIo): string =>
  resolveApiUrl(options.apiUrl, io, rememberedApiUrl(credentialsFile(io)));

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
  timeoutMs = 0,
): ClientEvents => ({
  toast: (_message, reaction) => {
    const text = sayReaction(reaction, lang);
    if (reaction.key === 'networkError') printErr(io, `${text} (${apiUrl})`);
    else if (reaction.key === 'responseTimeout') {
      printErr(
        io,
        `${text} (${apiUrl}: no answer within ${timeoutMs / 1000} s; --timeout or CCP_TIMEOUT sets the limit, 0 for none)`,
      );
    } else if (reaction.key === 'notCcpApi') {
      printErr(io, `${text} (${apiUrl}; expected an address such as ${API_URL_EXAMPLE})`);
    } else printErr(io, text);
  },
  errorModal: (_message, reaction) => printErr(io, sayReaction(reaction, lang)),
  upgrade: (reaction) =>
    printErr(
      io,
      `${reaction.message ?? 'This needs a higher plan.'}${reaction.limit ? ` (${reaction.limit.feature}: required ${reaction.limit.required}, limit ${reaction.limit.limit})` : ''} Upgrade your plan in the web app to continue.`,
    ),
  logout: () => printErr(io, endedText),
});

export type CliSession = {
  apiUrl: string;
  /** The language the API is asked to answer in (--lang, LC_ALL, LANG). */
  lang: TLocale;
  /** The session stored for this API URL, or CCP_TOKEN's. */
  store: TokenStore | FileTokenStore;
  client: HttpClient;
  /** True when the bearer is CCP_TOKEN (a personal API token): no login, nothing stored. */
  usesToken: boolean;
};

/** The shared HTTP client over the stored session of the chosen API URL. */
export const openSession = (options: GlobalOptions, io: CliIo): CliSession => {
  const token = io.env.CCP_TOKEN?.trim();
  // A token run reads nothing from the config dir either: the URL comes from flag or env.
  const apiUrl = token ? resolveApiUrl(options.apiUrl, io) : apiUrlOf(options, io);
  const lang = resolveLanguage(options.lang, io);
  const tuning = clientTuning(options, io);
  if (token) {
    // A CI job's token: no refresh token, so a refused token ends the run with exit 4.
    const store = memoryTokenStore({ access_token: token, refresh_token: '' });
    const client = createHttpClient({
      apiUrl,
      tokens: store,
      events: cliClientEvents(io, apiUrl, lang, TOKEN_REFUSED, tuning.timeoutMs),
      language: () => lang,
      ...tuning,
    });
    return { apiUrl, lang, store, client, usesToken: true };
  }
  const file = credentialsFile(io);
  const store = fileTokenStore({ file, apiUrl, warn: (message) => printErr(io, message) });
  const client = createHttpClient({
    apiUrl,
    tokens: store,
    events: cliClientEvents(io, apiUrl, lang, SESSION_EXPIRED, tuning.timeoutMs),
    refreshLock: credentialsRefreshLock(file),
    language: () => lang,
    ...tuning,
  });
  return { apiUrl, lang, store, client, usesToken: false };
};

/** Like openSession, for commands that need a signed-in user: exits 4 before any request if not. */
export const requireSession = (options: GlobalOptions, io: CliIo): CliSession => {
  const session = openSession(options, io);
  if (!session.store.get()) throw new AuthError(notSignedIn(session.apiUrl));
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
  tuning: Partial<ReturnType<typeof clientTuning>> = {},
): Promise<void> => {
  const client = createHttpClient({
    apiUrl,
    tokens: memoryTokenStore(tokens),
    events,
    language: () => lang,
    ...tuning,
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
