import { ERROR_CODE_STATUS, MESSAGES } from '@ccp/schemas';
import type { TErrorCode, TMessageKey } from '@ccp/schemas';

import type { ApiError, TReaction, TReactionText } from './api-error.ts';

export type TRequestRole = 'refresh' | 'logout' | 'other';

// The spec names these failures by their English text; a server that sends no code (or one we do
// not know) is still recognised by it.
const SPEC_TEXTS: Partial<Record<TErrorCode, string>> = {
  INVALID_CREDENTIALS: MESSAGES.invalidCredentials,
  TOO_MANY_ATTEMPTS: MESSAGES.tooManyAttempts,
  INVALID_REFRESH_TOKEN: MESSAGES.invalidRefreshToken,
  INVALID_CODE: MESSAGES.invalidCode,
};

const isErrorCode = (code: string): code is TErrorCode => Object.hasOwn(ERROR_CODE_STATUS, code);

/**
 * Whether a failure is `code`: by the code the server sent, whatever the language of its message;
 * by the spec's English text only when the server sent no code we know.
 */
export const failureIs = (error: Pick<ApiError, 'code' | 'message'>, code: TErrorCode): boolean => {
  if (isErrorCode(error.code)) return error.code === code;
  const text = SPEC_TEXTS[code];
  return text !== undefined && error.message === text;
};

/** A text the client chose itself, by its key (the host translates it). */
const own = (key: TMessageKey): TReactionText => ({ message: MESSAGES[key], key });

/** The server's text as it was sent, or the client's own when the server sent none. */
const sent = (message: string, fallback: TMessageKey): TReactionText =>
  message ? { message } : own(fallback);

/**
 * Spec §7, in one place: what a failed call shows the user. Decided on the error `code` first
 * (the message is in the user's language), with the spec's English texts as the fallback for a
 * server that sends only text. 401s on ordinary calls are not decided here: the client refreshes
 * and retries them first, and reports `logout` if that fails.
 */
export const reactionFor = (error: ApiError, role: TRequestRole): TReaction => {
  if (error.code === 'TIMEOUT') return { type: 'toast', ...own('responseTimeout') };
  if (error.code === 'NOT_CCP_API') return { type: 'toast', ...own('notCcpApi') };
  if (error.isNetworkError) return { type: 'toast', ...own('networkError') };
  if (failureIs(error, 'INVALID_CREDENTIALS')) return { type: 'silent' };
  if (failureIs(error, 'TOO_MANY_ATTEMPTS')) return { type: 'errorModal', ...own('slowDown') };
  if (failureIs(error, 'INVALID_REFRESH_TOKEN')) return { type: 'logout' };
  if (error.status === 401) {
    if (role === 'logout') return { type: 'silent' };
    return { type: 'logout' };
  }
  if (error.status >= 500) return { type: 'toast', ...own('internalServerError') };
  if (error.status === 402) {
    return {
      type: 'upgrade',
      message: error.message || null,
      ...(error.limit ? { limit: error.limit } : {}),
    };
  }
  if (error.status === 422 || error.status === 403 || error.status === 429) {
    return { type: 'errorModal', ...sent(error.message, 'invalidDataNoInfo') };
  }
  if (error.status === 404) return { type: 'toast', ...sent(error.message, 'notFound') };
  return {
    type: 'toast',
    message: `${MESSAGES.serverErrorPrefix} ${error.message}`.trim(),
    key: 'serverErrorPrefix',
    ...(error.message ? { detail: error.message } : {}),
  };
};
