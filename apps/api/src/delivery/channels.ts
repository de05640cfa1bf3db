import { CHANNEL_KEYS, INLINE_RATE_LIMIT_WAIT_MS } from '@ccp/schemas';
import type { TChannelKey } from '@ccp/schemas';
import type { CompiledQuery } from 'kysely';

import type { Db } from '../db/index.ts';
import { preparedQuery } from '../db/prepared.ts';

// Where the scheduler has always found it: a send's records are written with its own.
export { writeRecords } from '../db/prepared.ts';
import type { Clock } from '../lib/clock.ts';
import { newUuid } from '../lib/ids.ts';
import { ChannelSendError, errorText } from './connector.ts';
import { CHANNELS } from './channels/index.ts';
import { summaryOf } from './render-common.ts';
import type { ChannelMessage, ClosedQuestion, ErrorVerdict } from './message.ts';

/**
 * How the scheduler reaches a channel. A real connector (a Teams bot, a Slack app, the WhatsApp
 * Cloud API, a Webex bot, a Google Chat app) implements `send` with its webhook or bot API and
 * throws on failure; the scheduler paces calls to `rateLimitPerSecond` and retries a failed
 * send up to `maxRetries` times with exponential backoff.
 */
export type ChannelAdapter = {
  key: TChannelKey;
  send: (message: ChannelMessage) => Promise<SendReceipt>;
  /** Sends per second the provider accepts; 0 or Infinity: no pacing. */
  rateLimitPerSecond: number;
  /** Further attempts after a failed first one. */
  maxRetries: number;
  /** What a failure means (connector.ts); default: retry with backoff. */
  classifyError?: (error: unknown) => ErrorVerdict;
  /** Edits an answered question so it cannot be answered again (connector.ts); absent: cannot. */
  closeQuestion?: (question: ClosedQuestion) => Promise<void>;
};

export type ChannelAdapters = Record<TChannelKey, ChannelAdapter>;

/**
 * A message sent: the provider's id, and the rows the send leaves behind (its outbox row, where
 * the learner was found), compiled: the caller writes them with its own record of the send in
 * one transaction (the scheduler: with the lesson's finish and the next lesson's claim).
 */
export type SendReceipt = { providerMessageId: string; records?: CompiledQuery[] };

// The outbox is a database write, so it is paced only loosely; real connectors use the
// provider's limits (Slack about 1 message a second per channel, WhatsApp Cloud API 80/s...).
const OUTBOX_RATE_PER_SECOND = 200;
const OUTBOX_MAX_RETRIES = 3;

type OutboxValues = [
  uuid: string,
  companyUuid: string,
  deliveryUuid: string | null,
  kind: string,
  channel: TChannelKey,
  recipient: string,
  subject: string,
  body: string,
  at: string,
];

// Every message sent is one row: prepared once (db/prepared.ts), it is the scheduler's per-lesson write.
const insertSent = preparedQuery<OutboxValues>(
  9,
  (db, uuid, companyUuid, deliveryUuid, kind, channel, recipient, subject, body, at) =>
    db.insertInto('outbox_messages').values({
      uuid,
      company_uuid: companyUuid,
      delivery_uuid: deliveryUuid,
      kind,
      channel,
      recipient,
      subject,
      body,
      status: 'sent',
      attempts: 1,
      last_error: null,
      created_at: at,
      sent_at: at,
    }),
);

/** A message as sent, for `outbox_messages` (the delivery history): its row, compiled. */
export const outboxRecord = (
  deps: { db: Db; clock: Clock },
  channel: TChannelKey,
  message: ChannelMessage,
  {
    uuid = newUuid(),
    recipient,
    body,
  }: { uuid?: string; recipient: string; body: Record<string, unknown> },
): CompiledQuery =>
  insertSent.bind(
    deps.db,
    uuid,
    message.companyUuid,
    message.deliveryUuid,
    message.kind,
    channel,
    recipient,
    summaryOf(message),
    JSON.stringify(body),
    deps.clock.now().toISOString(),
  );

/**
 * The default adapter of every channel: it renders the channel's payload and records it in
 * `outbox_messages` as sent (kind lesson, reminder or invitation). Real connectors replace it.
 */
export const createOutboxAdapters = (deps: { db: Db; clock: Clock }): ChannelAdapters =>
  Object.fromEntries(
    CHANNEL_KEYS.map((key) => {
      const adapter: ChannelAdapter = {
        key,
        rateLimitPerSecond: OUTBOX_RATE_PER_SECOND,
        maxRetries: OUTBOX_MAX_RETRIES,
        send: async (message) => {
          const uuid = newUuid();
          const record = outboxRecord(deps, key, message, {
            uuid,
            recipient: message.recipient.address,
            body: CHANNELS[key].render(message),
          });
          return { providerMessageId: uuid, records: [record] };
        },
      };
      return [key, adapter];
    }),
  ) as ChannelAdapters;

export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

export type SendOutcome =
  | { ok: true; providerMessageId: string; records: CompiledQuery[]; attempts: number }
  | {
      ok: false;
      error: string;
      attempts: number;
      verdict: ErrorVerdict;
      /** Set when the provider asked for a pause too long to wait now: try again after it. */
      retryAfterMs?: number;
    };

// A provider asking for a longer pause than this is not waited for inside the send: the item is
// tried again at a later tick, and the channel's other learners keep flowing (a Slack Tier-3
// limit on one look-up method must not stall every lesson for a minute, issue 25).
const MAX_INLINE_WAIT_MS = INLINE_RATE_LIMIT_WAIT_MS;

const verdictOf = (adapter: ChannelAdapter, error: unknown): ErrorVerdict => {
  if (error instanceof ChannelSendError) return error.verdict;
  return adapter.classifyError?.(error) ?? { kind: 'retry', code: 'error' };
};

/**
 * Sends through an adapter. A failure the provider refused before doing anything is retried up
 * to `adapter.maxRetries` times after `baseDelayMs`, then twice that... (exponential backoff); a
 * provider's Retry-After (with any failure) is waited when it is short, and the item is handed
 * back to be tried at a later tick when it is long; a permanent failure, a closed window or a send
 * that may have gone out (a timeout) is not retried. A failure without Retry-After backs off
 * exponentially.
 */
export const sendWithRetries = async (
  adapter: ChannelAdapter,
  message: ChannelMessage,
  { baseDelayMs, sleep }: { baseDelayMs: number; sleep: Sleep },
): Promise<SendOutcome> => {
  for (let attempt = 0; ; attempt += 1) {
    try {
      const { providerMessageId, records = [] } = await adapter.send(message);
      return { ok: true, providerMessageId, records, attempts: attempt + 1 };
    } catch (error) {
      const verdict = verdictOf(adapter, error);
      const failed = (retryAfterMs?: number): SendOutcome => ({
        ok: false,
        error: errorText(error),
        attempts: attempt + 1,
        verdict,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      });
      const retriable = verdict.kind === 'retry' || verdict.kind === 'rate_limited';
      if (!retriable) return failed();
      // A provider's Retry-After is waited whatever the failure (Teams sends one with a 503 too).
      const wait = verdict.retryAfterMs ?? baseDelayMs * 2 ** attempt;
      if (verdict.retryAfterMs !== undefined && wait > MAX_INLINE_WAIT_MS) return failed(wait);
      if (attempt >= adapter.maxRetries) {
        return verdict.kind === 'rate_limited' ? failed(Math.max(wait, 1000)) : failed();
      }
      await sleep(wait);
    }
  }
};

/**
 * A token bucket per adapter: up to one second's worth of sends at once, then one every
 * 1/rate seconds. Real (monotonic) time, not the app clock: it paces calls to a provider.
 */
export const createRateLimiter = (
  ratePerSecond: number,
  { now = () => performance.now(), sleep = realSleep }: { now?: () => number; sleep?: Sleep } = {},
) => {
  const unlimited = !(ratePerSecond > 0) || !Number.isFinite(ratePerSecond);
  const capacity = Math.max(1, ratePerSecond);
  let tokens = capacity;
  let last = now();
  return async (): Promise<void> => {
    if (unlimited) return;
    for (;;) {
      const current = now();
      tokens = Math.min(capacity, tokens + ((current - last) * ratePerSecond) / 1000);
      last = current;
      if (tokens >= 1) {
        tokens -= 1;
        return;
      }
      await sleep(Math.ceil(((1 - tokens) * 1000) / ratePerSecond));
    }
  };
};

const limiters = new WeakMap<ChannelAdapter, () => Promise<void>>();

/** The adapter's pacing, shared by every tick of the process. */
export const limiterOf = (adapter: ChannelAdapter): (() => Promise<void>) => {
  let limiter = limiters.get(adapter);
  if (!limiter) {
    limiter = createRateLimiter(adapter.rateLimitPerSecond);
    limiters.set(adapter, limiter);
  }
  return limiter;
};
