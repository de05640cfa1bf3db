import { retryAfterMs } from '../connector.ts';
import type { ErrorVerdict } from '../message.ts';

// The plain-fetch clients' shared part (Webex, WhatsApp, Teams, Google Chat): a JSON call with a
// timeout, a provider error carrying the HTTP status, Retry-After and the provider's code, and
// the usual reading of those.

export class ProviderHttpError extends Error {
  readonly status: number;
  readonly retryAfter: string | null;
  readonly providerCode: string;
  readonly body: unknown;
  constructor(
    status: number,
    providerCode: string,
    message: string,
    retryAfter: string | null,
    body: unknown,
  ) {
    super(message);
    this.name = 'ProviderHttpError';
    this.status = status;
    this.providerCode = providerCode;
    this.retryAfter = retryAfter;
    this.body = body;
  }
}

/** A failure before any byte reached the provider (refused, not resolved). */
export class ProviderUnreachableError extends Error {}

const REQUEST_TIMEOUT_MS = 10_000;

export type JsonCall = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  token?: string;
  body?: unknown;
  form?: Record<string, string>;
  /** Reads the provider's own error code out of an error body. */
  codeOf?: (body: never) => string | undefined;
};

export const callJson = async <T>({
  method = 'GET',
  url,
  token,
  body,
  form,
  codeOf,
}: JsonCall): Promise<T> => {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        accept: 'application/json',
      },
      body:
        body !== undefined
          ? JSON.stringify(body)
          : form
            ? new URLSearchParams(form).toString()
            : undefined,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code ?? '';
    if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'].includes(code)) {
      throw new ProviderUnreachableError(`${new URL(url).host} unreachable (${code})`);
    }
    throw error;
  }
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  if (!response.ok) {
    const code = codeOf?.(parsed as never) ?? `http_${response.status}`;
    throw new ProviderHttpError(
      response.status,
      code,
      `${response.status} ${code}: ${typeof parsed === 'string' ? parsed.slice(0, 200) : JSON.stringify(parsed).slice(0, 300)}`,
      response.headers.get('retry-after'),
      parsed,
    );
  }
  return parsed as T;
};

/**
 * The HTTP reading of a failure: 429 waits Retry-After, 503 and an unreachable host are tried
 * again, another 4xx is permanent, and anything else (a 500, a timeout) may have been done.
 */
export const classifyHttpError = (error: unknown): ErrorVerdict => {
  if (error instanceof ProviderUnreachableError) return { kind: 'retry', code: 'unreachable' };
  if (error instanceof ProviderHttpError) {
    if (error.status === 429) {
      return {
        kind: 'rate_limited',
        code: error.providerCode,
        retryAfterMs: retryAfterMs(error.retryAfter),
      };
    }
    if (error.status === 503) return { kind: 'retry', code: error.providerCode };
    if (error.status >= 400 && error.status < 500)
      return { kind: 'permanent', code: error.providerCode };
    return { kind: 'unknown_outcome', code: error.providerCode };
  }
  return { kind: 'unknown_outcome', code: 'error' };
};
