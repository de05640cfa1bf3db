import type { TChannelKey, TDeliveryFailureReason } from '@ccp/schemas';
import type { CompiledQuery } from 'kysely';

import type { Db } from '../db/index.ts';
import { preparedQuery } from '../db/prepared.ts';
import type { SendOutcome } from './channels.ts';
import { CHANNELS } from './channels/index.ts';
import { failureReasonOf } from './failure-reasons.ts';

// How a send ended, as the rows of `lesson_deliveries` and `enrollments` record it (issue 25):
// sent only with the provider's message id; failed with a reason a trainer is told and the
// provider's own words; deferred (back to scheduled, not before a time) when the provider asked
// for a pause. The scheduler orchestrates; the statements live here.

/** Why a send did not go: the reason word and the provider's own words. */
export type Failure = { reason: TDeliveryFailureReason; detail: string };

/** A send's end, before it is written. */
export type SendEnd =
  | { status: 'sent'; providerMessageId: string }
  | { status: 'failed'; failure: Failure }
  | { status: 'deferred'; failure: Failure; retryAt: string }
  | { status: 'canceled' };

// The provider's words are kept as a detail, not a log: a page of them is enough.
const DETAIL_MAX = 500;

/** A failure of our own (no contact, not connected) or of the provider. */
export const failure = (reason: TDeliveryFailureReason, detail = ''): Failure => ({
  reason,
  detail: detail.slice(0, DETAIL_MAX),
});

/** What an adapter's outcome means for the row: sent, failed with its reason, or tried later. */
export const endOfOutcome = (channel: TChannelKey, outcome: SendOutcome, now: Date): SendEnd => {
  if (outcome.ok) return { status: 'sent', providerMessageId: outcome.providerMessageId };
  const why = failure(
    failureReasonOf(outcome.verdict, CHANNELS[channel].failureCodes),
    `${outcome.verdict.code}: ${outcome.error}`,
  );
  if (outcome.retryAfterMs !== undefined) {
    const retryAt = new Date(now.getTime() + outcome.retryAfterMs).toISOString();
    return { status: 'deferred', failure: why, retryAt };
  }
  return { status: 'failed', failure: why };
};

// A due lesson's claim (scheduled → sending: from here it is never sent again) and its finish.
const claimDelivery = preparedQuery<[updatedAt: string, uuid: string]>(2, (db, updatedAt, uuid) =>
  db
    .updateTable('lesson_deliveries')
    .set({ status: 'sending', updated_at: updatedAt })
    .where('uuid', '=', uuid)
    .where('status', '=', 'scheduled'),
);
const finishSent = preparedQuery<[at: string, providerMessageId: string, uuid: string]>(
  3,
  (db, at, providerMessageId, uuid) =>
    db
      .updateTable('lesson_deliveries')
      .set({
        status: 'sent',
        updated_at: at,
        sent_at: at,
        provider_message_id: providerMessageId,
        failure_code: null,
        failure_detail: null,
        next_attempt_at: null,
      })
      .where('uuid', '=', uuid)
      .where('status', '=', 'sending'),
);
const finishFailed = preparedQuery<[at: string, code: string, detail: string, uuid: string]>(
  4,
  (db, at, code, detail, uuid) =>
    db
      .updateTable('lesson_deliveries')
      .set({ status: 'failed', updated_at: at, failure_code: code, failure_detail: detail })
      .where('uuid', '=', uuid)
      .where('status', '=', 'sending'),
);
const finishDeferred = preparedQuery<
  [at: string, code: string, detail: string, retryAt: string, uuid: string]
>(5, (db, at, code, detail, retryAt, uuid) =>
  db
    .updateTable('lesson_deliveries')
    .set({
      status: 'scheduled',
      updated_at: at,
      failure_code: code,
      failure_detail: detail,
      next_attempt_at: retryAt,
    })
    .where('uuid', '=', uuid)
    .where('status', '=', 'sending'),
);
const finishCanceled = preparedQuery<[at: string, uuid: string]>(2, (db, at, uuid) =>
  db
    .updateTable('lesson_deliveries')
    .set({ status: 'canceled', updated_at: at })
    .where('uuid', '=', uuid)
    .where('status', '=', 'sending'),
);

export const deliveriesRepository = {
  /** The claim of a due lesson, compiled: it takes the row only while it is still scheduled. */
  claim: (db: Db, uuid: string, at: string): CompiledQuery => claimDelivery.bind(db, at, uuid),

  /** The finish of a claimed lesson, compiled (written with its send's records). */
  finish: (db: Db, uuid: string, at: string, end: SendEnd): CompiledQuery => {
    switch (end.status) {
      case 'sent':
        return finishSent.bind(db, at, end.providerMessageId, uuid);
      case 'failed':
        return finishFailed.bind(db, at, end.failure.reason, end.failure.detail, uuid);
      case 'deferred':
        return finishDeferred.bind(
          db,
          at,
          end.failure.reason,
          end.failure.detail,
          end.retryAt,
          uuid,
        );
      case 'canceled':
        return finishCanceled.bind(db, at, uuid);
    }
  },

  /**
   * Rows claimed by a tick that died (`sending` since before `before`) fail as interrupted and
   * are never resent: the provider may have them.
   */
  failInterrupted: async (db: Db, before: string, at: string): Promise<number> => {
    const result = await db
      .updateTable('lesson_deliveries')
      .set({ status: 'failed', updated_at: at, failure_code: 'interrupted', failure_detail: '' })
      .where('status', '=', 'sending')
      .where('updated_at', '<', before)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  /** Claims an invitation (invitation_sent_at set): a second tick or server skips it. */
  claimInvitation: async (db: Db, uuid: string, at: string): Promise<boolean> => {
    const claim = await db
      .updateTable('enrollments')
      .set({ invitation_sent_at: at, updated_at: at })
      .where('uuid', '=', uuid)
      .where('status', '=', 'invited')
      .where('invitation_sent_at', 'is', null)
      .executeTakeFirst();
    return Number(claim.numUpdatedRows) === 1;
  },

  /** An invitation that went: its earlier failure, if any, is cleared. */
  invitationSent: (db: Db, uuid: string, at: string): CompiledQuery =>
    db
      .updateTable('enrollments')
      .set({
        invitation_failure_code: null,
        invitation_failure_detail: null,
        invitation_failed_at: null,
        invitation_retry_at: null,
        updated_at: at,
      })
      .where('uuid', '=', uuid)
      .compile(),

  /**
   * An invitation that did not go is not "sent": it keeps why, and when it is tried again
   * (`retryAt`; null: it waits for a Resend).
   */
  invitationFailed: async (
    db: Db,
    uuid: string,
    at: string,
    why: Failure,
    retryAt: string | null,
  ): Promise<void> => {
    await db
      .updateTable('enrollments')
      .set((eb) => ({
        invitation_sent_at: null,
        invitation_failure_code: why.reason,
        invitation_failure_detail: why.detail,
        invitation_failed_at: at,
        invitation_retry_at: retryAt,
        invitation_attempts: eb('invitation_attempts', '+', 1),
        updated_at: at,
      }))
      .where('uuid', '=', uuid)
      .execute();
  },
};
