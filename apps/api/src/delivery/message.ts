import type {
  TAssessment,
  TChannelKey,
  TConnectionProof,
  TDeliveryFailureReason,
  TLessonMedia,
  TLocale,
} from '@ccp/schemas';

// The words every channel speaks: the message the scheduler hands a channel, the payload a
// renderer makes of it, where a learner is on a provider, a company's connection and what a
// failure means. Types only, importing nothing of delivery/: renderers, connectors, webhooks and
// the scheduler all stand on this file, so none of them needs another to name what it passes on.

/** `repeats`: a day's questions asked again, in one message (issue 28, `repeats`). */
export type MessageKind = 'lesson' | 'reminder' | 'invitation' | 'feedback' | 'repeats';

/**
 * A question asked again ("Repeat questions until they stick"): the lesson send whose question it
 * is (its answers come back under that send, as the lesson's did) and that lesson.
 */
export type RepeatQuestion = { deliveryUuid: string; lesson: LessonContent };

/** How the learner did over the course, told with the feedback on its last lesson. */
export type Completion = { answered: number; right: number };

/**
 * What an answer is told (issue 28): right or wrong (null: an open answer, nobody's call yet)
 * with the chosen answer's response, or the thank-you message; or that a later answer no longer
 * counts. On the course's last lesson it closes with the learner's completion.
 */
export type Feedback =
  | { kind: 'answer'; correct: boolean | null; text: string; completion: Completion | null }
  | { kind: 'already_answered' }
  | { kind: 'notice'; notice: Notice };

/**
 * A one-line confirmation of the learner's enrolment changing (issue 28): paused after unanswered
 * lessons (with how to resume), resumed, or stopped.
 */
export type Notice = 'paused' | 'resumed' | 'stopped';

export type LessonContent = {
  day: number;
  title: string;
  topic_intro: string;
  /** HTML. */
  topic_content: string;
  learning_minutes: number;
  media: TLessonMedia | null;
  assessment: TAssessment | null;
};

export type ChannelMessage = {
  kind: MessageKind;
  channel: TChannelKey;
  companyUuid: string;
  courseUuid: string;
  courseName: string;
  /** The lesson send this message belongs to; null for an invitation. */
  deliveryUuid: string | null;
  language: TLocale;
  recipient: {
    learnerUuid: string;
    firstName: string;
    lastName: string;
    /** The e-mail (Teams, Slack, Webex, Google Chat) or phone (WhatsApp) the channel reaches. */
    address: string;
    /**
     * Where the learner is on the channel, when the sender already read it with the message
     * (null: none saved yet; absent: not read, the connector looks it up).
     */
    identity?: KnownIdentity | null;
  };
  /** The lesson, for a lesson or its reminder. */
  lesson: LessonContent | null;
  /** Number of lesson days of the course ("Day 2 of 5"). */
  totalDays: number;
  /** A feedback message's content. */
  feedback?: Feedback;
  /**
   * A `repeats` message's questions, in order (at most REPEATS_PER_DAY): `deliveryUuid` and
   * `lesson` are the first one's.
   */
  repeats?: RepeatQuestion[];
};

/**
 * An answered question to close: the lesson's message as the provider knows it, and the answer
 * the learner chose (null: an open answer), shown marked in place of the buttons.
 */
export type ClosedQuestion = {
  providerMessageId: string;
  message: ChannelMessage;
  answerIndex: number | null;
};

/** A channel's payload: JSON the channel's API takes. */
export type RenderedPayload = Record<string, unknown>;

/** Where a learner is on the provider: a user id and, where the provider needs one, a conversation. */
export type Identity = {
  providerUserId: string;
  conversationId: string | null;
  lastInboundAt: string | null;
};

/** An identity as saved, with the contact it was resolved from (a changed contact resolves again). */
export type KnownIdentity = Identity & { address: string };

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
  /** What the test proved of the path a lesson takes, and what it could not (issue 29). */
  proofs?: TConnectionProof[];
  /**
   * The credentials work but the provider has not yet proved its requests reach this connection
   * (a signed event): `awaiting_verification` until one arrives.
   */
  awaitsVerification?: boolean;
};

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

/**
 * One message that went: the provider's id, whether it was the notice outside the window, and
 * which part of a lesson send it was (absent: a notice, or a send of one message).
 */
export type AcceptedMessage = { providerMessageId: string; template: boolean; part?: number };
