import type { TChannelKey } from '@ccp/schemas';

import { parseRetryAfterMs } from '../lib/retry-after.ts';
import type {
  AcceptedMessage,
  ChannelMessage,
  ClosedQuestion,
  Connection,
  ConnectionCheck,
  ErrorVerdict,
  Identity,
  RenderedPayload,
} from './message.ts';

// The contract of a real delivery connector (one per provider, in channels/<channel>/): find
// the learner on the provider, send a rendered message, and say what a failure means, so the
// scheduler retries what is safe to retry and never resends what may have gone out.

/** A failure with its verdict, thrown by a connector or the adapter around it. */
export class ChannelSendError extends Error {
  readonly verdict: ErrorVerdict;
  constructor(message: string, verdict: ErrorVerdict) {
    super(message);
    this.name = 'ChannelSendError';
    this.verdict = verdict;
  }
}

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
  /**
   * Closes a lesson's question once it is answered (issue 28): the message `providerMessageId`
   * (as `send` answered it) is edited to show the chosen answer without its buttons, so it
   * cannot be answered twice. Absent where the provider cannot edit a message (WhatsApp).
   */
  closeQuestion?: (
    connection: Connection,
    identity: Identity,
    question: ClosedQuestion,
  ) => Promise<void>;
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
