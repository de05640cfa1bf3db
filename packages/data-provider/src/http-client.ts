import {
  CSRF_HEADER,
  MESSAGES,
  PLATFORM,
  REFRESH_COOKIE_HEADER,
  ZErrorBodySchema,
} from '@ccp/schemas';

import { ApiError } from './api-error.ts';
import type { TReaction } from './api-error.ts';
import { reactionFor } from './reactions.ts';
import type { TRequestRole } from './reactions.ts';
import type { TokenStore, TTokens } from './token-store.ts';
import { canReportUploadProgress, xhrFetch } from './utils/xhr-fetch.ts';
import type { TUploadProgress } from './utils/xhr-fetch.ts';

export const REFRESH_PATH = '/api/v1/users/oauth/refresh';
export const LOGOUT_PATH = '/api/v1/users/oauth/logout';

/**
 * How the host shows what the client decided: the web renders toasts and modals, the CLI prints.
 * A text the client chose itself comes with its key (`reaction.key`), for the host's language.
 */
export type ClientEvents = {
  toast?: (message: string, reaction: Extract<TReaction, { type: 'toast' }>) => void;
  errorModal?: (message: string, reaction: Extract<TReaction, { type: 'errorModal' }>) => void;
  upgrade?: (reaction: Extract<TReaction, { type: 'upgrade' }>) => void;
  /** Tokens are already cleared; the host forgets the user and goes to /logout. */
  logout?: () => void;
};

export type QueryValue =
  string | number | boolean | null | undefined | readonly (string | number)[];

export type RequestOptions = {
  query?: Record<string, QueryValue>;
  /** JSON body. */
  body?: unknown;
  /** Multipart body; wins over `body`. */
  form?: FormData;
  /**
   * A body the caller encoded (a multipart stream with upload progress): sent as is with its
   * content type. A stream can be read once, so the caller makes sure the session is fresh.
   */
  raw?: { body: BodyInit; contentType: string; length?: number };
  /** `text`: answer the body as text (CSV) instead of parsing JSON. */
  /** `bytes`: the body as it came (a report in its file's own encoding), as a Uint8Array. */
  responseType?: 'json' | 'text' | 'bytes';
  signal?: AbortSignal;
  /** Called as the body is sent (in a browser: through XMLHttpRequest, see xhrFetch). */
  onUploadProgress?: TUploadProgress;
  /** Send the bearer token (default true). */
  auth?: boolean;
  /** Use this bearer instead of the stored one (the first login step's token). */
  bearer?: string;
  /** Failures for which this returns true are thrown without telling the host. */
  quiet?: (error: ApiError) => boolean;
  /** Overrides the client's `timeoutMs` for this call (0: none). */
  timeoutMs?: number;
};

export type HttpClient = {
  readonly apiUrl: string;
  readonly tokens: TokenStore;
  readonly platform: string;
  request: <T>(method: string, path: string, options?: RequestOptions) => Promise<T>;
  get: <T>(path: string, options?: RequestOptions) => Promise<T>;
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => Promise<T>;
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => Promise<T>;
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) => Promise<T>;
  delete: <T>(path: string, options?: RequestOptions) => Promise<T>;
  /** Rotates the refresh token; concurrent callers share one request. */
  refresh: () => Promise<TTokens>;
};

/** Runs `task` while holding a lock shared by every holder of the same tokens. */
export type RefreshLock = <T>(task: () => Promise<T>) => Promise<T>;

export type HttpClientOptions = {
  apiUrl: string;
  tokens: TokenStore;
  events?: ClientEvents;
  fetch?: typeof globalThis.fetch;
  platform?: string;
  /**
   * Serialises refreshes with other clients of the same token store (browser tabs, CLI
   * processes). The server revokes the whole session when a spent refresh token comes back, so
   * two holders must not both rotate it: under the lock, a client that finds the tokens already
   * rotated by another takes those instead of refreshing.
   */
  refreshLock?: RefreshLock;
  /**
   * The user's language (en, it, de), read on every request and sent as `Accept-Language`: the
   * API answers its messages in it. Without it the server answers English.
   */
  language?: () => string | null | undefined;
  /**
   * How long one call may take, answer included, before it fails with `TIMEOUT` (0 or unset: no
   * limit). A browser has its own limits; the CLI sets this from --timeout.
   */
  timeoutMs?: number;
  /**
   * Retries of idempotent calls (GET, HEAD, PUT, DELETE) whose connection failed or that were
   * answered 502, 503 or 504: up to `attempts` more tries, waiting `baseDelayMs` doubled each time
   * (capped at `maxDelayMs`) or what the answer's Retry-After asks. Off unless set.
   */
  retry?: RetryPolicy;
  /**
   * The browser's way (issue 30): the server keeps the refresh token in an HttpOnly cookie no
   * script can read, so the token store holds only the access token (with an empty refresh token)
   * and a refresh sends the cookie with the CSRF header instead of a body token. With no tokens
   * at all (a reload) a refresh still asks: the cookie may hold a session.
   */
  refreshCookie?: boolean;
};

export type RetryPolicy = {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Injected by tests. */
  sleep?: (ms: number) => Promise<void>;
};

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
const RETRY_STATUSES = new Set([502, 503, 504]);

/** Retry-After as seconds or an HTTP date, in ms; null when absent or unreadable. */
export const retryAfterMs = (header: string | null, now = Date.now()): number | null => {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
};

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A body that is not the API's JSON: another server (a web page, a proxy) answered. */
const notCcpApi = (status: number) =>
  new ApiError({ status, code: 'NOT_CCP_API', message: MESSAGES.notCcpApi });

// AbortSignal.timeout() aborts with a DOMException named TimeoutError (also an Error in Node).
const isTimeout = (reason: unknown) =>
  typeof reason === 'object' && reason !== null && (reason as Error).name === 'TimeoutError';

const withoutLock: RefreshLock = (task) => task();

const buildUrl = (apiUrl: string, path: string, query?: Record<string, QueryValue>): string => {
  const url = new URL(path.replace(/^\/+/, ''), apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value as readonly (string | number)[])
        url.searchParams.append(`${key}[]`, String(item));
    } else url.searchParams.set(key, String(value));
  }
  return url.toString();
};

const messageOf = (value: unknown): string =>
  value && typeof value === 'object' && 'message' in value && typeof value.message === 'string'
    ? value.message
    : '';

/**
 * Parses the spec's `{ error: {...} }` body; any other body (`{ error: { message } }` without a
 * code, `{ message }`) still becomes an ApiError with its status and text.
 */
const errorFromResponse = async (response: Response): Promise<ApiError> => {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const type = response.headers.get('content-type') ?? '';
  if (body === undefined && /html/i.test(type)) return notCcpApi(response.status);
  const parsed = ZErrorBodySchema.safeParse(body);
  if (parsed.success) {
    const { code, message, errors, limit } = parsed.data.error;
    return new ApiError({ status: response.status, code, message, errors, limit });
  }
  const inner = body && typeof body === 'object' && 'error' in body ? body.error : undefined;
  const message = messageOf(inner) || messageOf(body);
  return new ApiError({ status: response.status, code: `HTTP_${response.status}`, message });
};

const tokensFrom = (data: {
  access_token: string;
  refresh_token: string;
  expires_in?: number;
}): TTokens => ({
  access_token: data.access_token,
  refresh_token: data.refresh_token,
  ...(data.expires_in ? { expires_at: Date.now() + data.expires_in * 1000 } : {}),
});

/**
 * The HTTP client shared by the web app and the CLI: bearer auth, one refresh for any number of
 * concurrent 401s, and the spec's reactions to failures reported through `events`.
 */
export const createHttpClient = ({
  apiUrl,
  tokens,
  events = {},
  fetch: fetchImpl = (...args) => globalThis.fetch(...args),
  platform = PLATFORM,
  refreshLock = withoutLock,
  language,
  timeoutMs = 0,
  retry,
  refreshCookie = false,
}: HttpClientOptions): HttpClient => {
  let refreshing: Promise<TTokens> | null = null;

  const tell = (error: ApiError, role: TRequestRole, quiet?: RequestOptions['quiet']): ApiError => {
    if (error.reaction) return error;
    const reaction = reactionFor(error, role);
    error.reaction = reaction;
    if (reaction.type === 'logout') {
      tokens.clear();
      events.logout?.();
      return error;
    }
    if (quiet?.(error)) return error;
    if (reaction.type === 'toast') events.toast?.(reaction.message, reaction);
    else if (reaction.type === 'errorModal') events.errorModal?.(reaction.message, reaction);
    else if (reaction.type === 'upgrade') events.upgrade?.(reaction);
    return error;
  };

  const send = async (
    method: string,
    path: string,
    options: RequestOptions,
    bearer: string | null,
  ) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    let body: BodyInit | undefined;
    if (options.raw) {
      body = options.raw.body;
      headers['content-type'] = options.raw.contentType;
      if (options.raw.length !== undefined) headers['content-length'] = String(options.raw.length);
    } else if (options.form) body = options.form;
    else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    // The server sets the cookie only on the calls that answer full tokens.
    if (refreshCookie) headers[REFRESH_COOKIE_HEADER] = '1';
    if (refreshCookie && path === REFRESH_PATH) headers[CSRF_HEADER] = '1';
    const lang = language?.();
    if (lang) headers['accept-language'] = lang;
    // A streamed upload may rightly take longer than any one limit: only its caller bounds it.
    const limit = options.timeoutMs ?? (options.raw ? 0 : timeoutMs);
    const timer = limit > 0 ? AbortSignal.timeout(limit) : undefined;
    const signal =
      timer && options.signal
        ? AbortSignal.any([timer, options.signal])
        : (timer ?? options.signal);
    const url = buildUrl(apiUrl, path, options.query);
    const canRetry = retry !== undefined && IDEMPOTENT.has(method.toUpperCase()) && !options.raw;
    for (let attempt = 0; ; attempt += 1) {
      const again = canRetry && attempt < retry.attempts;
      const wait = (ms: number | null) =>
        (retry?.sleep ?? defaultSleep)(
          Math.min(ms ?? retry!.baseDelayMs * 2 ** attempt, retry!.maxDelayMs),
        );
      let response: Response;
      try {
        const transport =
          options.onUploadProgress && canReportUploadProgress()
            ? xhrFetch(options.onUploadProgress)
            : fetchImpl;
        response = await transport(url, {
          method: method.toUpperCase(),
          headers,
          body,
          signal,
          // Node's fetch needs this for a stream body (a no-op for other bodies and in browsers).
          ...(options.raw ? { duplex: 'half' } : {}),
          // A reload while the cookie refresh is on its way must not drop its answer: the server
          // has spent the old cookie, and the browser presenting it again revokes the session.
          ...(refreshCookie && path === REFRESH_PATH ? { keepalive: true } : {}),
        });
      } catch (cause) {
        if (timer?.aborted || isTimeout(signal?.reason) || isTimeout(cause)) {
          throw new ApiError({ status: 0, code: 'TIMEOUT', message: MESSAGES.responseTimeout });
        }
        if (options.signal?.aborted) throw cause;
        if (again) {
          await wait(null);
          continue;
        }
        throw new ApiError({ status: 0, code: 'NETWORK_ERROR', message: MESSAGES.networkError });
      }
      if (again && RETRY_STATUSES.has(response.status)) {
        await response.body?.cancel().catch(() => undefined);
        await wait(retryAfterMs(response.headers.get('retry-after')));
        continue;
      }
      return response;
    }
  };

  const rotate = async (current: TTokens | null): Promise<TTokens> => {
    // In cookie mode the browser sends the refresh token: the body has none.
    const body = current?.refresh_token
      ? { refresh_token: current.refresh_token, platform }
      : { platform };
    const response = await send('POST', REFRESH_PATH, { body }, null);
    if (!response.ok) {
      const error = await errorFromResponse(response);
      // Without a cookie the server finds no refresh token at all (422, a missing field): in
      // cookie mode that is nobody signed in, which ends as a sign-out, not as invalid data.
      if (refreshCookie && !current?.refresh_token && error.status === 422) {
        throw new ApiError({
          status: 401,
          code: 'UNAUTHENTICATED',
          message: MESSAGES.unauthenticated,
        });
      }
      throw error;
    }
    const { data } = (await response.json()) as {
      data: { access_token: string; refresh_token: string; expires_in?: number };
    };
    const next = tokensFrom(data);
    tokens.set(next);
    return next;
  };

  // What tells that another holder rotated the tokens: the refresh token, or in cookie mode
  // (where the store has none) the access token.
  const rotationMark = (held: TTokens | null | undefined) =>
    refreshCookie ? held?.access_token : held?.refresh_token;

  const refresh = (): Promise<TTokens> => {
    const seen = rotationMark(tokens.get());
    refreshing ??= refreshLock(async () => {
      const current = tokens.get();
      if (refreshCookie) {
        if (seen !== undefined && current && current.access_token !== seen) return current;
        return rotate(null);
      }
      if (!current?.refresh_token) {
        throw new ApiError({
          status: 401,
          code: 'UNAUTHENTICATED',
          message: MESSAGES.unauthenticated,
        });
      }
      // Another tab or process rotated the tokens while this one waited for the lock.
      if (seen !== undefined && current.refresh_token !== seen) return current;
      return rotate(current);
    }).finally(() => {
      refreshing = null;
    });
    return refreshing;
  };

  const request = async <T>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<T> => {
    const role: TRequestRole =
      path === REFRESH_PATH ? 'refresh' : path === LOGOUT_PATH ? 'logout' : 'other';
    const useAuth = options.auth !== false;
    const bearerFor = () =>
      options.bearer ?? (useAuth ? (tokens.get()?.access_token ?? null) : null);
    let response: Response;
    try {
      const firstBearer = bearerFor();
      response = await send(method, path, options, firstBearer);
      // An expired access token: refresh once (shared by concurrent calls) and retry once. In
      // cookie mode a sign-out does too: only its answer clears the cookie the script cannot.
      const refreshes = role === 'other' || (role === 'logout' && refreshCookie);
      if (response.status === 401 && refreshes && useAuth && !options.bearer) {
        // Skip the refresh when another call already rotated the tokens while this one was in flight.
        const rotatedMeanwhile =
          refreshing === null && (tokens.get()?.access_token ?? null) !== firstBearer;
        if (!rotatedMeanwhile) {
          try {
            await refresh();
          } catch (error) {
            const failure =
              error instanceof ApiError
                ? error
                : new ApiError({
                    status: 401,
                    code: 'UNAUTHENTICATED',
                    message: MESSAGES.unauthenticated,
                  });
            // A sign-out whose session is gone already has nothing left to say.
            if (role === 'logout') failure.reaction = { type: 'silent' };
            throw tell(failure, 'refresh', options.quiet);
          }
        }
        response = await send(method, path, options, bearerFor());
      }
    } catch (error) {
      if (error instanceof ApiError) throw tell(error, role, options.quiet);
      throw error;
    }
    if (!response.ok) throw tell(await errorFromResponse(response), role, options.quiet);
    if (response.status === 204) return undefined as T;
    if (options.responseType === 'bytes') return new Uint8Array(await response.arrayBuffer()) as T;
    let text: string;
    try {
      text = await response.text();
    } catch (cause) {
      const failure = isTimeout(cause)
        ? new ApiError({ status: 0, code: 'TIMEOUT', message: MESSAGES.responseTimeout })
        : new ApiError({ status: 0, code: 'NETWORK_ERROR', message: MESSAGES.networkError });
      if (options.signal?.aborted && !isTimeout(cause)) throw cause;
      throw tell(failure, role, options.quiet);
    }
    if (options.responseType === 'text') return text as T;
    if (!text) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw tell(notCcpApi(response.status), role, options.quiet);
    }
  };

  return {
    apiUrl,
    tokens,
    platform,
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, body, options) => request('POST', path, { ...options, body }),
    put: (path, body, options) => request('PUT', path, { ...options, body }),
    patch: (path, body, options) => request('PATCH', path, { ...options, body }),
    delete: (path, options) => request('DELETE', path, options),
    refresh,
  };
};
