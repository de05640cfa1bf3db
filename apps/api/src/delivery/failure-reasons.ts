import type { TChannelKey, TDeliveryFailureReason } from '@ccp/schemas';
import type { ErrorVerdict } from './message.ts';

// From a provider's refusal to the one word a trainer is told (issue 25). A connector may name
// the reason itself (`verdict.reason`); otherwise the provider's code is looked up here, and a code
// no table knows falls back on what the failure means (its kind).

/** Provider codes that say who or what was refused, by channel (each provider's error reference). */
const PROVIDER_CODES: Record<TChannelKey, Readonly<Record<string, TDeliveryFailureReason>>> = {
  // https://api.slack.com/methods/users.lookupByEmail#errors, /methods/chat.postMessage#errors
  slack: {
    users_not_found: 'learner_not_found',
    user_not_found: 'learner_not_found',
    user_disabled: 'learner_not_found',
    account_inactive: 'auth_failed',
    invalid_auth: 'auth_failed',
    not_authed: 'auth_failed',
    token_revoked: 'auth_failed',
    token_expired: 'auth_failed',
    missing_scope: 'auth_failed',
    no_permission: 'auth_failed',
    team_access_not_granted: 'auth_failed',
    invalid_blocks: 'message_rejected',
    invalid_blocks_format: 'message_rejected',
    msg_too_long: 'message_rejected',
    too_many_attachments: 'message_rejected',
    cannot_dm_bot: 'learner_not_found',
  },
  // channels/whatsapp/client.ts GRAPH_ERRORS names Meta's codes
  // (https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes)
  whatsapp: {
    message_undeliverable: 'undeliverable',
    recipient_not_allowed: 'learner_not_found',
    template_invalid: 'message_rejected',
    invalid_request: 'message_rejected',
    access_token_invalid: 'auth_failed',
    permission_denied: 'auth_failed',
    account_locked: 'auth_failed',
    phone_number_not_registered: 'auth_failed',
    whatsapp_error: 'provider_error',
    pair_rate_limited: 'rate_limited',
  },
  // https://learn.microsoft.com/en-us/azure/bot-service/rest-api/bot-framework-rest-connector-api-reference#error-codes
  'ms-teams': {
    not_installed: 'app_not_installed',
    conversation_not_found: 'app_not_installed',
    unauthorized: 'auth_failed',
    rejected: 'message_rejected',
  },
  // channels/google-chat/client.ts names Google's errors (https://developers.google.com/workspace/chat/api/reference/rest)
  'google-chat': {
    app_not_added: 'app_not_installed',
    credentials_invalid: 'auth_failed',
    permission_denied: 'auth_failed',
    service_account_invalid: 'auth_failed',
    message_invalid: 'message_rejected',
  },
  // https://developer.webex.com/docs/basics (HTTP status codes; `errors[].description`)
  webex: {
    person_not_found: 'learner_not_found',
    http_401: 'auth_failed',
    http_403: 'auth_failed',
    http_400: 'message_rejected',
  },
};

const BY_KIND: Record<ErrorVerdict['kind'], TDeliveryFailureReason> = {
  retry: 'provider_unavailable',
  rate_limited: 'rate_limited',
  window_closed: 'window_closed',
  permanent: 'provider_error',
  unknown_outcome: 'unknown_outcome',
};

const REASONS_OF_OUR_OWN: ReadonlySet<string> = new Set<TDeliveryFailureReason>([
  'channel_not_connected',
  'channel_connection_error',
  'no_contact',
  'learner_not_found',
  'app_not_installed',
  'interrupted',
]);

/** The reason a trainer is told for a failed send on `channel`. */
export const failureReasonOf = (
  channel: TChannelKey,
  verdict: Pick<ErrorVerdict, 'kind' | 'code' | 'reason'>,
): TDeliveryFailureReason => {
  if (verdict.reason) return verdict.reason;
  if (REASONS_OF_OUR_OWN.has(verdict.code)) return verdict.code as TDeliveryFailureReason;
  return PROVIDER_CODES[channel][verdict.code] ?? BY_KIND[verdict.kind];
};
