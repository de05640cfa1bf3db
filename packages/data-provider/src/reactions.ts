import { MESSAGES } from '@ccp/schemas';

import type { ApiError, TReaction } from './api-error.ts';

export type TRequestRole = 'refresh' | 'logout' | 'other';

/**
 * Spec §7, in one place: what a failed call shows the user. 401s on ordinary calls are not
 * decided here: the client refreshes and retries them first, and reports `logout` if that fails.
 */
export const reactionFor = (error: ApiError, role: TRequestRole): TReaction => {
  if (error.isNetworkError) return { type: 'toast', message: MESSAGES.networkError };
  if (error.message === MESSAGES.invalidCredentials) return { type: 'silent' };
  if (error.message === MESSAGES.tooManyAttempts) {
    return { type: 'errorModal', message: MESSAGES.slowDown };
  }
  if (error.code === 'INVALID_REFRESH_TOKEN' || error.message === MESSAGES.invalidRefreshToken) {
    return { type: 'logout' };
  }
  if (error.status === 401) {
    if (role === 'logout') return { type: 'silent' };
    return { type: 'logout' };
  }
  if (error.status >= 500) return { type: 'toast', message: MESSAGES.internalServerError };
  if (error.status === 402) {
    return {
      type: 'upgrade',
      message: error.message || null,
      ...(error.limit ? { limit: error.limit } : {}),
    };
  }
  if (error.status === 422 || error.status === 403 || error.status === 429) {
    return { type: 'errorModal', message: error.message || MESSAGES.invalidDataNoInfo };
  }
  if (error.status === 404) return { type: 'toast', message: error.message || MESSAGES.notFound };
  return { type: 'toast', message: `${MESSAGES.serverErrorPrefix} ${error.message}`.trim() };
};
