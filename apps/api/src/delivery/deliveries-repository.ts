import type { TChannelKey, TDeliveryFailureReason } from '@ccp/schemas';
import { sql } from 'kysely';
import type { CompiledQuery, ExpressionBuilder } from 'kysely';

import type { Db } from '../db/index.ts';
import { preparedQuery } from '../db/prepared.ts';
import type { Database } from '../db/types.ts';
import { newUuid } from '../lib/ids.ts';
import type { SendOutcome } from './channels.ts';
import { CHANNELS } from './channels/index.ts';
import { failureReasonOf } from './failure-reasons.ts';

// The SQL of the scheduler's work on `lesson_deliveries`, `enrollments` and `learner_events`:
// what is due (due lessons, invitations, unread lessons to remind, questions left unanswered),
// the claim that takes one row exactly once (a conditional UPDATE), and how it ended (issue 25):
// sent only with the provider's message id; failed with a reason a trainer is told and the
// provider's own words; deferred (back to scheduled, not before a time) when the provider asked
// for a pause. The scheduler (scheduler.ts) orchestrates; the statements live here. Claims and
// finishes are compiled statements: the scheduler writes a finish with the next row's claim.

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

const claimInvitationQuery = preparedQuery<[at: string, uuid: string]>(2, (db, at, uuid) =>
  db
    .updateTable('enrollments')
    .set({ invitation_sent_at: at, updated_at: at })
    .where('uuid', '=', uuid)
    .where('status', '=', 'invited')
    .where('invitation_sent_at', 'is', null),
);
// `sent`: the reminders the row had when selected, so each reminder is claimed once.
const claimReminderQuery = preparedQuery<[at: string, uuid: string, sent: number]>(
  3,
  (db, at, uuid, sent) =>
    db
      .updateTable('lesson_deliveries')
      .set((eb) => ({
        reminders_sent: eb('reminders_sent', '+', 1),
        last_reminder_at: at,
        updated_at: at,
      }))
      .where('uuid', '=', uuid)
      .where('reminders_sent', '=', sql<number>`${sent}`)
      .where('read_at', 'is', null),
);
const claimMissedQuery = preparedQuery<[missedAt: string, uuid: string]>(2, (db, missedAt, uuid) =>
  db
    .updateTable('lesson_deliveries')
    .set({ missed_at: missedAt, updated_at: missedAt })
    .where('uuid', '=', uuid)
    .where('missed_at', 'is', null)
    .where('answered_at', 'is', null),
);

/** Courses whose lessons go out and whose learners may still opt in. */
const LIVE_COURSE_STATUSES = ['scheduled', 'active'];
// A delivered course still reminds its last lessons; paused, canceled and archived ones do not.
const REMINDING_COURSE_STATUSES = ['scheduled', 'active', 'delivered'];
// Learners still in the course (completed: every lesson sent, the last ones maybe unread).
const REMINDED_ENROLMENTS = ['enrolled', 'completed'];

/**
 * What a due lesson and a reminder select of their delivery, course and learner, and where the
 * learner is on the channel (`i`, left-joined: a connector then need not look it up per send).
 */
export const MESSAGE_COLUMNS = [
  'd.uuid',
  'd.company_uuid',
  'd.course_uuid',
  'd.learner_uuid',
  'd.day',
  'd.language',
  'd.channel',
  'c.name as course_name',
  'l.first_name',
  'l.last_name',
  'l.email',
  'l.phone',
  'i.address as identity_address',
  'i.provider_user_id',
  'i.conversation_id',
  'i.last_inbound_at',
] as const;

/** A lesson send with what its message needs (a due lesson, or an unread one to remind). */
/** Who a message goes to, for which course, on which channel (an invitation's, a lesson's). */
type RecipientRow = {
  uuid: string;
  company_uuid: string;
  course_uuid: string;
  learner_uuid: string;
  channel: string;
  course_name: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
};

export type LessonSendRow = RecipientRow & {
  day: number;
  language: string;
  identity_address: string | null;
  provider_user_id: string | null;
  conversation_id: string | null;
  last_inbound_at: string | null;
};

export type DueLessonRow = LessonSendRow & { learner_deleted_at: string | null };

/** An unread lesson with the reminders it had. */
export type ReminderRow = LessonSendRow & { reminders_sent: number };

/**
 * Which reminders are due (issue 28): of these courses (one reminder policy), lessons unread with
 * fewer than `count` reminders, delivered and last reminded before `cutoff` (now − the hours).
 */
export type DueReminders = { courses: string[]; count: number; cutoff: string };

export type InvitationRow = RecipientRow & {
  locale: string;
  invitation_attempts: number | undefined;
};

export type OpenQuestionRow = {
  uuid: string;
  company_uuid: string;
  course_uuid: string;
  learner_uuid: string;
  channel: string;
  sent_at: string | null;
  delivered_at: string | null;
};

type LearnerEvent = {
  companyUuid: string;
  courseUuid: string;
  learnerUuid: string;
  deliveryUuid: string;
  type: 'missed' | 'reminder' | 'question_not_closed';
  at: string;
  payload: Record<string, unknown> | null;
};

/** The send of a delivery joined with its course, learner and channel identity. */
export const lessonSends = (db: Db) =>
  db
    .selectFrom('lesson_deliveries as d')
    .innerJoin('courses as c', 'c.uuid', 'd.course_uuid')
    .innerJoin('learners as l', 'l.uuid', 'd.learner_uuid')
    .leftJoin('learner_channel_identities as i', (join) =>
      join.onRef('i.learner_uuid', '=', 'd.learner_uuid').onRef('i.channel', '=', 'd.channel'),
    );

/** True when the delivery's lesson (day and language) asks a question. */
const hasAssessment = (
  eb: ExpressionBuilder<Database & { d: Database['lesson_deliveries'] }, 'd'>,
) =>
  eb.exists(
    eb
      .selectFrom('lessons')
      .innerJoin('languages', 'languages.uuid', 'lessons.language_uuid')
      .select('lessons.uuid')
      .whereRef('lessons.course_uuid', '=', 'd.course_uuid')
      .whereRef('lessons.day', '=', 'd.day')
      .whereRef('languages.short_name', '=', 'd.language')
      .where('lessons.assessment', 'is not', null),
  );

export const deliveriesRepository = {
  /**
   * Lessons due at `nowIso`, of enrolled learners of live courses, in the order they were
   * planned (UUIDv7 ids: the sends walk the table page after page).
   */
  dueLessons: (db: Db, nowIso: string, limit: number): Promise<DueLessonRow[]> =>
    lessonSends(db)
      .innerJoin('enrollments as e', 'e.uuid', 'd.enrollment_uuid')
      .select([...MESSAGE_COLUMNS, 'l.deleted_at as learner_deleted_at'])
      .where('d.status', '=', 'scheduled')
      .where('d.scheduled_for', '<=', nowIso)
      // A lesson the provider asked to slow down for waits its turn; a deferred one is never
      // picked again in the same tick, whose loop would otherwise spin on it.
      .where((eb) =>
        eb.or([eb('d.next_attempt_at', 'is', null), eb('d.next_attempt_at', '<=', nowIso)]),
      )
      .where('e.status', '=', 'enrolled')
      // A paused learner's lessons are held until they are resumed (issue 28).
      .where('e.paused_at', 'is', null)
      .where('c.status', 'in', LIVE_COURSE_STATUSES)
      .where('c.deleted_at', 'is', null)
      .orderBy('d.scheduled_for')
      .orderBy('d.uuid')
      .limit(limit)
      .execute(),

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

  /**
   * Opt-in invitations to send: invited learners of live courses not asked yet, or whose failed
   * invitation's retry time has come (one with none waits for a Resend).
   */
  pendingInvitations: (db: Db, nowIso: string, limit: number): Promise<InvitationRow[]> =>
    db
      .selectFrom('enrollments as e')
      .innerJoin('courses as c', 'c.uuid', 'e.course_uuid')
      .innerJoin('learners as l', 'l.uuid', 'e.learner_uuid')
      .select([
        'e.uuid',
        'e.company_uuid',
        'e.course_uuid',
        'e.learner_uuid',
        'e.channel',
        'c.name as course_name',
        'l.first_name',
        'l.last_name',
        'l.email',
        'l.phone',
        'l.locale',
        'e.invitation_attempts',
      ])
      .where('e.status', '=', 'invited')
      .where('e.invitation_sent_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb('e.invitation_failure_code', 'is', null),
          eb('e.invitation_retry_at', '<=', nowIso),
        ]),
      )
      .where('l.deleted_at', 'is', null)
      .where('c.status', 'in', LIVE_COURSE_STATUSES)
      .where('c.deleted_at', 'is', null)
      .orderBy('e.created_at')
      .orderBy('e.uuid')
      .limit(limit)
      .execute(),

  /** Claims an invitation (invitation_sent_at set): a second tick or server skips it. */
  claimInvitation: (db: Db, uuid: string, at: string): CompiledQuery =>
    claimInvitationQuery.bind(db, at, uuid),

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
  invitationFailed: (
    db: Db,
    uuid: string,
    at: string,
    why: Failure,
    retryAt: string | null,
  ): CompiledQuery =>
    db
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
      .compile(),

  /**
   * Lessons sent before `cutoff` (and delivered before it, when the channel said so), still
   * unread and unanswered and never reminded, of courses that still remind.
   */
  unreadLessons: (db: Db, due: DueReminders, limit: number): Promise<ReminderRow[]> =>
    lessonSends(db)
      .select([...MESSAGE_COLUMNS, 'd.reminders_sent'])
      .where(sql<boolean>`d.status = 'sent' and d.read_at is null`)
      .where('d.reminders_sent', '<', due.count)
      .where('d.course_uuid', 'in', due.courses)
      .where('d.sent_at', '<=', due.cutoff)
      .where((eb) => eb(eb.fn.coalesce('d.delivered_at', 'd.sent_at'), '<=', due.cutoff))
      .where((eb) =>
        eb.or([eb('d.last_reminder_at', 'is', null), eb('d.last_reminder_at', '<=', due.cutoff)]),
      )
      .where('d.answered_at', 'is', null)
      .where('c.status', 'in', REMINDING_COURSE_STATUSES)
      .where('c.deleted_at', 'is', null)
      .where('l.deleted_at', 'is', null)
      // A paused learner, or one who wrote STOP, is not reminded (issue 28).
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('enrollments as e')
            .select('e.uuid')
            .whereRef('e.uuid', '=', 'd.enrollment_uuid')
            .where('e.status', 'in', REMINDED_ENROLMENTS)
            .where('e.paused_at', 'is', null),
        ),
      )
      .orderBy('d.sent_at')
      .limit(limit)
      .execute(),

  /**
   * Courses that may have a lesson to remind, with their distribution (whose reminder policy
   * says how many and how far apart): live or just delivered, with an unread lesson sent.
   */
  remindingCourses: (db: Db): Promise<{ uuid: string; distribution: string | null }[]> =>
    db
      .selectFrom('courses as c')
      .select(['c.uuid', 'c.distribution'])
      .where('c.status', 'in', REMINDING_COURSE_STATUSES)
      .where('c.deleted_at', 'is', null)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('lesson_deliveries as d')
            .select('d.uuid')
            .whereRef('d.course_uuid', '=', 'c.uuid')
            .where(sql<boolean>`d.status = 'sent' and d.read_at is null`),
        ),
      )
      .execute(),

  /** Claims a lesson's next reminder: a second tick, or a read in between, skips it. */
  claimReminder: (db: Db, row: ReminderRow, at: string): CompiledQuery =>
    claimReminderQuery.bind(db, at, row.uuid, Number(row.reminders_sent)),

  /**
   * Questions sent before `cutoff` (and delivered before it, when the channel said so) with
   * neither an answer nor a missed mark.
   */
  openQuestions: (db: Db, cutoff: string, limit: number): Promise<OpenQuestionRow[]> =>
    db
      .selectFrom('lesson_deliveries as d')
      .select([
        'd.uuid',
        'd.company_uuid',
        'd.course_uuid',
        'd.learner_uuid',
        'd.channel',
        'd.sent_at',
        'd.delivered_at',
      ])
      // Literals, so the partial index on open questions applies.
      .where(sql<boolean>`d.status = 'sent' and d.answered_at is null and d.missed_at is null`)
      .where('d.sent_at', '<=', cutoff)
      .where((eb) => eb(eb.fn.coalesce('d.delivered_at', 'd.sent_at'), '<=', cutoff))
      .where(hasAssessment)
      .orderBy('d.sent_at')
      .limit(limit)
      .execute(),

  /** Marks a question missed at `missedAt`, unless it was answered or marked meanwhile. */
  claimMissed: (db: Db, uuid: string, missedAt: string): CompiledQuery =>
    claimMissedQuery.bind(db, missedAt, uuid),

  /** A learner event the scheduler records (a reminder sent, a question missed), compiled. */
  event: (db: Db, event: LearnerEvent): CompiledQuery =>
    db
      .insertInto('learner_events')
      .values({
        uuid: newUuid(),
        company_uuid: event.companyUuid,
        course_uuid: event.courseUuid,
        learner_uuid: event.learnerUuid,
        delivery_uuid: event.deliveryUuid,
        type: event.type,
        correct: null,
        occurred_at: event.at,
        payload: event.payload ? JSON.stringify(event.payload) : null,
        created_at: event.at,
      })
      .compile(),
};
