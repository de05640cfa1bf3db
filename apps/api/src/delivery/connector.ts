import type { TChannelKey, TDeliveryFailureReason } from '@ccp/schemas';

import { parseRetryAfterMs } from '../lib/retry-after.ts';
import type { AcceptedMessage } from './channel-messages.ts';
import type { ChannelMessage } from './render.ts';
import type { RenderedPayload } from './render-common.ts';

// The contract of a real delivery connector (one per provider, in channels/<channel>/): find
// the learner on the provider, send a rendered message, and say what a failure means, so the
// scheduler retries what is safe to retry and never resends what may have gone out.

/**
 * What a failed call means:
 * - `retry`: the provider refused before doing anything (a 503, a refused connection): try again later;
 * - `rate_limited`: the provider asked to slow down; `retryAfterMs` from its Retry-After (none:
 *   exponential backoff);
 * - `window_closed`: the provider only takes a template now (WhatsApp's 24-hour window);
 * - `permanent`: it will fail again (unknown user, app not installed, revoked token);
 * - `unknown_outcome`: the message may have gone out (a timeout after sending): never resent.
 */
export type SendErrorKind =
  'retry' | 'rate_limited' | 'window_closed' | 'permanent' | 'unknown_outcome';

export type ErrorVerdict = {
  kind: SendErrorKind;
  retryAfterMs?: number;
  /** The provider's own code (`users_not_found`, `131047`...), kept as the failure's detail. */
  code: string;
  /** What a trainer is told; unset: failure-reasons.ts reads it from the code and the kind. */
  reason?: TDeliveryFailureReason;
};

/** A failure with its verdict, thrown by a connector or the adapter around it. */
export class ChannelSendError extends Error {
  readonly verdict: ErrorVerdict;
  constructor(message: string, verdict: ErrorVerdict) {
    super(message);
    this.name = 'ChannelSendError';
    this.verdict = verdict;
  }
}

/** A company's connection to a provider, its secrets decrypted. */
export type Connection = {
  uuid: string;
  companyUuid: string;
  channel: TChannelKey;
  status: string;
  providerIds: Record<string, string>;
  /** The key inbound webhooks are routed by, once proven (null or absent: none yet). */
  providerKey?: string | null;
  secrets: Record<string, string>;
};

/** Where a learner is on the provider: a user id and, where the provider needs one, a conversation. */
export type Identity = {
  providerUserId: string;
  conversationId: string | null;
  lastInboundAt: string | null;
};

/** An identity as saved, with the contact it was resolved from (a changed contact resolves again). */
export type KnownIdentity = Identity & { address: string };

/** What a successful connection test found (ids the provider gave, the key webhooks name). */
export type ConnectionCheck = {
  providerIds: Record<string, string>;
  /** The routing key the provider itself vouched for (null: none proven yet). */
  providerKey: string | null;
  /**
   * A key the administrator typed that the provider did not vouch for (Google Chat's project
   * number): it routes nothing until a signed event proves it, and is refused when another
   * company already proved it.
   */
  claimedKey?: string | null;
};

export type Connector = {
  channel: TChannelKey;
  /** Sends per second per connection the provider takes (its documented limit, kept under). */
  ratePerSecond: number;
  /** The learner's id on the provider, from the contact the learner was imported with. */
  resolveIdentity: (
    connection: Connection,
    learner: { uuid: string; address: string },
  ) => Promise<Identity>;
  /**
   * Sends one message; answers the provider's message id and, when only a notice could go
   * (WhatsApp outside its window), the messages that wait for the learner's reply; and the
   * payload it sent (several messages as one, `asOnePayload`), for the outbox record.
   */
  send: (
    connection: Connection,
    identity: Identity,
    message: ChannelMessage,
  ) => Promise<{
    providerMessageId: string;
    pending?: RenderedPayload[];
    payload: RenderedPayload;
    /** Each message that went, by its id, where the provider reports on them later (receipts). */
    accepted?: AcceptedMessage[];
  }>;
  /** Calls the provider with the connection's credentials; throws when they do not work. */
  test: (connection: Connection) => Promise<ConnectionCheck>;
  classifyError: (error: unknown) => ErrorVerdict;
};

/** The message of any thrown value. */
export const errorText = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/**
 * A provider's Retry-After (seconds or an HTTP date) in ms, at least a second; undefined when it
 * sent none, and the scheduler backs off exponentially instead.
 */
export const retryAfterMs = (value: string | null | undefined): number | undefined => {
  const ms = parseRetryAfterMs(value);
  return ms === null ? undefined : Math.max(1000, ms);
};
