import type { TFieldErrors, TLimitPayload, TMessageKey } from '@ccp/schemas';

/**
 * A text a reaction shows. A server text comes as sent (the server already said it in the
 * request's language); a text the client chose itself (no response, the slow-down modal, "Server
 * error: …") carries its `key` in MESSAGES (`validation.<key>` in locales/), so the host shows it in
 * the user's language, and `detail` follows it.
 */
export type TReactionText = { message: string; key?: TMessageKey; detail?: string };

/** What the client did about a failure (spec §7 "Client handling of answers"). */
export type TReaction =
  | ({ type: 'toast' } & TReactionText)
  | ({ type: 'errorModal' } & TReactionText)
  | { type: 'upgrade'; message: string | null; limit?: TLimitPayload }
  | { type: 'logout' }
  | { type: 'silent' };

/**
 * The one error the client throws. `status` 0 means no response arrived. `statusCode` and `errors`
 * make it a Refine `HttpError`, so antd forms put 422 field errors on their fields.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly statusCode: number;
  readonly code: string;
  readonly errors: TFieldErrors | undefined;
  readonly limit: TLimitPayload | undefined;
  /** Set once the host was told (toast, modal, logout), so callers do not tell the user twice. */
  reaction: TReaction | undefined;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    errors?: TFieldErrors;
    limit?: TLimitPayload;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.statusCode = init.status;
    this.code = init.code;
    this.errors = init.errors;
    this.limit = init.limit;
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;
