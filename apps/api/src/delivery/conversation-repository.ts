import type { TChannelKey } from '@ccp/schemas';
import type { CompiledQuery } from 'kysely';

import type { Db } from '../db/index.ts';
import type { Clock } from '../lib/clock.ts';
import { newUuid } from '../lib/ids.ts';
import type { Executor } from './enrolment.ts';
import type { Feedback } from './message.ts';

// The SQL of the learner's conversation (issue 28): the learner_events the delivery code logs for
// what the lesson sends' own columns do not keep (each feedback, each repeat, who paused or resumed
// a learner), and what the learner page reads of one learner in one course. A course's rows for
// one learner are bounded by its days (a lesson send, a few receipts and reminders, a repeat or
// two each), so they are read whole and the route pages the days.

/** Who changed an enrolment: the learner (RESUME, STOP), the scheduler (auto-pause) or a trainer. */
export type EnrolmentActor =
  { by: 'learner' } | { by: 'scheduler' } | { by: 'trainer'; uuid: string; name: string };

/** What an enrolment's event says: paused (why), resumed or stopped, and by whom. */
type EnrolmentChange =
  | { type: 'paused'; reason: 'unanswered' | 'trainer'; by: EnrolmentActor }
  | { type: 'resumed' | 'stopped'; by: EnrolmentActor };

/** Logs an enrolment change (pause, resume, STOP) on each of these enrolments. */
export const logEnrolmentEvents = async (
  trx: Executor,
  enrolmentUuids: string[],
  change: EnrolmentChange,
  nowIso: string,
): Promise<void> => {
  if (enrolmentUuids.length === 0) return;
  const enrolments = await trx
    .selectFrom('enrollments')
    .select(['company_uuid', 'course_uuid', 'learner_uuid'])
    .where('uuid', 'in', enrolmentUuids)
    .execute();
  const { by } = change;
  const payload = JSON.stringify({
    ...(change.type === 'paused' ? { reason: change.reason } : {}),
    by: by.by,
    ...(by.by === 'trainer' ? { user_uuid: by.uuid, user_name: by.name } : {}),
  });
  if (enrolments.length === 0) return;
  await trx
    .insertInto('learner_events')
    .values(
      enrolments.map((row) => ({
        uuid: newUuid(),
        company_uuid: row.company_uuid,
        course_uuid: row.course_uuid,
        learner_uuid: row.learner_uuid,
        delivery_uuid: null,
        type: change.type,
        correct: null,
        occurred_at: nowIso,
        payload,
        created_at: nowIso,
      })),
    )
    .execute();
};

/** The lesson send a delivery event is about. */
type SendRef = { uuid: string; company_uuid: string; course_uuid: string; learner_uuid: string };

/**
 * What the scheduler logs of a lesson send for the conversation, written with the send's
 * records: a feedback (sent or not; its kind, a repeat's, the completion), a question closed, a
 * repeat sent or missed, a repeat's answer, a notice.
 */
export type SendEventType =
  'feedback' | 'question_closed' | 'repeat_sent' | 'repeat_missed' | 'repeat_answered' | 'notice';

/** A learner event on a lesson send, compiled (it goes with the send's finish). */
export const sendEvent = (
  db: Db,
  row: SendRef,
  type: SendEventType,
  at: string,
  payload: Record<string, unknown>,
  correct: boolean | null = null,
): CompiledQuery =>
  db
    .insertInto('learner_events')
    .values({
      uuid: newUuid(),
      company_uuid: row.company_uuid,
      course_uuid: row.course_uuid,
      learner_uuid: row.learner_uuid,
      delivery_uuid: row.uuid,
      type,
      correct: correct === null ? null : correct ? 1 : 0,
      occurred_at: at,
      payload: JSON.stringify(payload),
      created_at: at,
    })
    .compile();

/**
 * The feedback as the learner's conversation keeps it: what they were told (the answer's
 * response, or that a later answer no longer counts; with the completion on the last lesson),
 * whether it went, and whether it answered a repeat.
 */
export const feedbackEvent = (
  deps: { db: Db; clock: Clock },
  row: SendRef,
  told: Feedback,
  sent: boolean,
  repeat = false,
): CompiledQuery =>
  sendEvent(deps.db, row, 'feedback', deps.clock.now().toISOString(), {
    kind: told.kind,
    sent,
    ...(repeat ? { repeat: true } : {}),
    ...(told.kind === 'answer' && told.completion ? { completion: told.completion } : {}),
  });

export type ConversationSources = {
  enrolment: {
    uuid: string;
    channel: TChannelKey;
    status: string;
    invitation_sent_at: string | null;
    invitation_failed_at: string | null;
    invitation_failure_code: string | null;
    invitation_failure_detail: string | null;
    paused_at: string | null;
    pause_reason: string | null;
    resumed_at: string | null;
  };
  sends: {
    uuid: string;
    day: number;
    language: string;
    channel: TChannelKey;
    status: string;
    sent_at: string | null;
    updated_at: string;
    delivered_at: string | null;
    read_at: string | null;
    answered_at: string | null;
    answer_correct: number | null;
    answer_index: number | null;
    failure_code: string | null;
    failure_detail: string | null;
    feedback_status: string | null;
    feedback_at: string | null;
  }[];
  events: {
    delivery_uuid: string | null;
    type: string;
    correct: number | null;
    occurred_at: string;
    payload: string | null;
  }[];
  /** Each lesson's question, by day and language (a send's answer index names its text). */
  assessments: { day: number; language: string; assessment: string | null }[];
};

export const conversationRepository = {
  /** Everything the conversation of one enrolment is made of. */
  sources: async (
    db: Db,
    enrolment: { uuid: string; course_uuid: string; learner_uuid: string },
  ): Promise<ConversationSources> => {
    const [row, sends, events, assessments] = await Promise.all([
      db
        .selectFrom('enrollments')
        .select([
          'uuid',
          'channel',
          'status',
          'invitation_sent_at',
          'invitation_failed_at',
          'invitation_failure_code',
          'invitation_failure_detail',
          'paused_at',
          'pause_reason',
          'resumed_at',
        ])
        .where('uuid', '=', enrolment.uuid)
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('lesson_deliveries')
        .select([
          'uuid',
          'day',
          'language',
          'channel',
          'status',
          'sent_at',
          'updated_at',
          'delivered_at',
          'read_at',
          'answered_at',
          'answer_correct',
          'answer_index',
          'failure_code',
          'failure_detail',
          'feedback_status',
          'feedback_at',
        ])
        .where('enrollment_uuid', '=', enrolment.uuid)
        .orderBy('day')
        .execute(),
      db
        .selectFrom('learner_events')
        .select(['delivery_uuid', 'type', 'correct', 'occurred_at', 'payload'])
        .where('learner_uuid', '=', enrolment.learner_uuid)
        .where('course_uuid', '=', enrolment.course_uuid)
        .orderBy('occurred_at')
        .execute(),
      db
        .selectFrom('lessons')
        .innerJoin('languages', 'languages.uuid', 'lessons.language_uuid')
        .select(['lessons.day', 'languages.short_name as language', 'lessons.assessment'])
        .where('lessons.course_uuid', '=', enrolment.course_uuid)
        .execute(),
    ]);
    return {
      enrolment: {
        uuid: row.uuid,
        channel: row.channel as TChannelKey,
        status: row.status,
        invitation_sent_at: row.invitation_sent_at ?? null,
        invitation_failed_at: row.invitation_failed_at ?? null,
        invitation_failure_code: row.invitation_failure_code ?? null,
        invitation_failure_detail: row.invitation_failure_detail ?? null,
        paused_at: row.paused_at ?? null,
        pause_reason: row.pause_reason ?? null,
        resumed_at: row.resumed_at ?? null,
      },
      sends: sends.map((send) => ({
        ...send,
        day: Number(send.day),
        channel: send.channel as TChannelKey,
        answer_correct: send.answer_correct === null ? null : Number(send.answer_correct),
        answer_index:
          send.answer_index === null || send.answer_index === undefined
            ? null
            : Number(send.answer_index),
        failure_code: send.failure_code ?? null,
        failure_detail: send.failure_detail ?? null,
        feedback_status: send.feedback_status ?? null,
        feedback_at: send.feedback_at ?? null,
      })),
      events: events.map((event) => ({
        ...event,
        correct: event.correct === null ? null : Number(event.correct),
      })),
      assessments: assessments.map((lesson) => ({ ...lesson, day: Number(lesson.day) })),
    };
  },
};
