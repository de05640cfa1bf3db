import type { TFieldErrors, TLimitPayload } from '@ccp/schemas';

/** What the client did about a failure (spec §7 "Client handling of answers"). */
export type TReaction =
  | { type: 'toast'; message: string }
  | { type: 'errorModal'; message: string }
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
