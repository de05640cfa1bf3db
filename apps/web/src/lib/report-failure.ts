import type { ApiError } from '@ccp/data-provider';

import { reactionMessage } from './messages.ts';
import { uiEvents } from './ui-events.ts';

/**
 * Shows a failure the way the http client would have (spec §7), for calls made with
 * `meta.errorFeedback: 'caller'` whose page had nothing better to say (a 422 without fields on
 * screen, a 5xx on a form). Failures the client already showed are not shown twice.
 */
export const reportFailure = (error: unknown) => {
  const reaction = (error as Partial<ApiError> | null)?.reaction;
  if (reaction?.type === 'toast') uiEvents.emit('toast', reactionMessage(reaction));
  else if (reaction?.type === 'errorModal') {
    uiEvents.emit('errorModal', reactionMessage(reaction));
  }
};

/**
 * Whether the client left this failure to the page: it opened no upgrade modal and did not end
 * the session (with `errorFeedback: 'caller'`, toasts and error modals are the page's to show).
 */
export const isLeftToCaller = (error: unknown): boolean => {
  const type = (error as Partial<ApiError> | null)?.reaction?.type;
  return type === undefined || type === 'toast' || type === 'errorModal';
};
