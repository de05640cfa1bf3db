import type { TDeliveryFailureReason } from '@ccp/schemas';
import type { ErrorVerdict } from './message.ts';

// From a provider's refusal to the one word a trainer is told (issue 25). A connector may name
// the reason itself (`verdict.reason`); otherwise the provider's code is looked up in the
// channel's table (its module's `failureCodes`, channels/<channel>/index.ts), and a code no table
// knows falls back on what the failure means (its kind).

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

/**
 * The reason a trainer is told for a failed send, `providerCodes` being the channel's table of
 * the codes its connector names (its module's `failureCodes`: who or what was refused).
 */
export const failureReasonOf = (
  verdict: Pick<ErrorVerdict, 'kind' | 'code' | 'reason'>,
  providerCodes: Readonly<Record<string, TDeliveryFailureReason>>,
): TDeliveryFailureReason => {
  if (verdict.reason) return verdict.reason;
  if (REASONS_OF_OUR_OWN.has(verdict.code)) return verdict.code as TDeliveryFailureReason;
  return providerCodes[verdict.code] ?? BY_KIND[verdict.kind];
};
