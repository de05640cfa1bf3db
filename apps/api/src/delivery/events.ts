import { MESSAGES } from '@ccp/schemas';
import type { TChannelEvent, TChannelEventResult } from '@ccp/schemas';
import { sql } from 'kysely';

import { AppError } from '../lib/app-error.ts';
import { newUuid } from '../lib/ids.ts';
import {
  cancelEnrolmentDeliveries,
  enrolmentCloseAt,
  loadCoursePlan,
  planEnrolment,
} from './enrolment.ts';
import type { DeliveryDeps, Executor } from './enrolment.ts';

// What a channel reports back (delivered, read, answered, opted in, declined), applied to the
// lesson sends and enrolments and logged in learner_events. Each event changes a row only from
// its "not yet" state (a conditional UPDATE), so a repeated event is a duplicate, not a count.

export type ChannelCaller = { companyUuid: string; channel: string };

const LIVE_COURSE_STATUSES = ['scheduled', 'active'];

// ISO UTC timestamps compare as text.
const later = (first: string, ...others: (string | null | undefined)[]): string =>
  others.reduce<string>((max, value) => (value && value > max ? value : max), first);
const earlier = (a: string, b: string): string => (a < b ? a : b);

const notFoundAt = (index: number, field: string, message: string) =>
  new AppError('NOT_FOUND', message, { errors: { [`events.${index}.${field}`]: [message] } });
const refusedAt = (index: number, field: string, message: string) =>
  new AppError('VALIDATION_FAILED', message, {
    errors: { [`events.${index}.${field}`]: [message] },
  });

type Applied = 'recorded' | 'duplicate';

const logEvent = async (
  trx: Executor,
  values: {
    companyUuid: string;
    courseUuid: string;
    learnerUuid: string;
    deliveryUuid: string | null;
    type: string;
    correct: number | null;
    occurredAt: string;
    payload: Record<string, unknown>;
    nowIso: string;
  },
) => {
  await trx
    .insertInto('learner_events')
    .values({
      uuid: newUuid(),
      company_uuid: values.companyUuid,
      course_uuid: values.courseUuid,
      learner_uuid: values.learnerUuid,
      delivery_uuid: values.deliveryUuid,
      type: values.type,
      correct: values.correct,
      occurred_at: values.occurredAt,
      payload: JSON.stringify(values.payload),
      created_at: values.nowIso,
    })
    .execute();
};

/**
 * delivered / read / answered on one lesson send. Times are kept in order: an event is never
 * earlier than the send, a read sets a missing delivered time, an answer a missing read time,
 * and nothing is later than now.
 */
const applyDeliveryEvent = async (
  trx: Executor,
  caller: ChannelCaller,
  event: TChannelEvent,
  index: number,
  nowIso: string,
): Promise<Applied> => {
  const delivery = await trx
    .selectFrom('lesson_deliveries')
    .selectAll()
    .where('uuid', '=', event.delivery_uuid!)
    .where('company_uuid', '=', caller.companyUuid)
    .where('channel', '=', caller.channel)
    .executeTakeFirst();
  if (!delivery) throw notFoundAt(index, 'delivery_uuid', MESSAGES.deliveryNotFound);
  if (delivery.status !== 'sent' || !delivery.sent_at) {
    throw refusedAt(index, 'delivery_uuid', MESSAGES.lessonNotSentYet);
  }
  const reported = new Date(event.occurred_at).toISOString();
  const at = earlier(later(reported, delivery.sent_at), nowIso);
  const base = {
    companyUuid: delivery.company_uuid,
    courseUuid: delivery.course_uuid,
    learnerUuid: delivery.learner_uuid,
    deliveryUuid: delivery.uuid,
    nowIso,
  };
  const update = trx.updateTable('lesson_deliveries').where('uuid', '=', delivery.uuid);

  if (event.type === 'delivered') {
    const result = await update
      .set({ delivered_at: at, updated_at: nowIso })
      .where('delivered_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return 'duplicate';
    await logEvent(trx, { ...base, type: 'delivered', correct: null, occurredAt: at, payload: {} });
    return 'recorded';
  }

  if (event.type === 'read') {
    const readAt = later(at, delivery.delivered_at);
    const result = await update
      .set({
        read_at: readAt,
        delivered_at: sql<string>`coalesce(delivered_at, ${readAt})`,
        updated_at: nowIso,
      })
      .where('read_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return 'duplicate';
    await logEvent(trx, { ...base, type: 'read', correct: null, occurredAt: readAt, payload: {} });
    return 'recorded';
  }

  // answered: only a lesson that asked a question can be answered, and only the first answer counts.
  const lesson = await trx
    .selectFrom('lessons')
    .innerJoin('languages', 'languages.uuid', 'lessons.language_uuid')
    .select('lessons.assessment')
    .where('lessons.course_uuid', '=', delivery.course_uuid)
    .where('lessons.day', '=', delivery.day)
    .where('languages.short_name', '=', delivery.language)
    .executeTakeFirst();
  if (!lesson?.assessment) throw refusedAt(index, 'answer', MESSAGES.lessonHasNoAssessment);
  const answer = event.answer!;
  const answeredAt = later(at, delivery.read_at, delivery.delivered_at);
  const result = await update
    .set({
      answered_at: answeredAt,
      answer_correct: answer.correct ? 1 : 0,
      read_at: sql<string>`coalesce(read_at, ${answeredAt})`,
      delivered_at: sql<string>`coalesce(delivered_at, ${answeredAt})`,
      updated_at: nowIso,
    })
    .where('answered_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return 'duplicate';
  await logEvent(trx, {
    ...base,
    type: 'answered',
    correct: answer.correct ? 1 : 0,
    occurredAt: answeredAt,
    payload: answer.text === undefined ? {} : { text: answer.text },
  });
  return 'recorded';
};

/**
 * opted_in / declined on an enrolment. Opting in is accepted while the course is scheduled or
 * active and its enrolment close time has not passed; the learner's unsent lessons are then
 * planned from the next slot. Declining stops the lessons still to come.
 */
const applyEnrolmentEvent = async (
  trx: Executor,
  caller: ChannelCaller,
  event: TChannelEvent,
  index: number,
  now: Date,
): Promise<Applied> => {
  const nowIso = now.toISOString();
  const enrolment = await trx
    .selectFrom('enrollments')
    .selectAll()
    .where('course_uuid', '=', event.course_uuid!)
    .where('learner_uuid', '=', event.learner_uuid!)
    .where('company_uuid', '=', caller.companyUuid)
    .where('channel', '=', caller.channel)
    .executeTakeFirst();
  if (!enrolment) throw notFoundAt(index, 'learner_uuid', MESSAGES.enrolmentNotFound);
  const reported = new Date(event.occurred_at).toISOString();
  const at = earlier(reported, nowIso);
  const base = {
    companyUuid: enrolment.company_uuid,
    courseUuid: enrolment.course_uuid,
    learnerUuid: enrolment.learner_uuid,
    deliveryUuid: null,
    correct: null,
    occurredAt: at,
    payload: {},
    nowIso,
  };

  if (event.type === 'declined') {
    const result = await trx
      .updateTable('enrollments')
      .set({ status: 'declined', updated_at: nowIso })
      .where('uuid', '=', enrolment.uuid)
      .where('status', 'in', ['invited', 'enrolled'])
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return 'duplicate';
    await cancelEnrolmentDeliveries(trx, [enrolment.uuid], nowIso);
    await logEvent(trx, { ...base, type: 'declined' });
    return 'recorded';
  }

  if (enrolment.status === 'enrolled' || enrolment.status === 'completed') return 'duplicate';
  const plan = await loadCoursePlan(trx, enrolment.course_uuid);
  if (
    !plan ||
    plan.course.deleted_at !== null ||
    !LIVE_COURSE_STATUSES.includes(plan.course.status)
  ) {
    throw refusedAt(index, 'course_uuid', MESSAGES.courseNotDelivering);
  }
  const closeAt = enrolmentCloseAt(plan.distribution);
  if (enrolment.status === 'dropped' || (closeAt && closeAt.getTime() <= now.getTime())) {
    throw refusedAt(index, 'course_uuid', MESSAGES.enrolmentClosed);
  }
  const result = await trx
    .updateTable('enrollments')
    .set({ status: 'enrolled', enrolled_at: at, updated_at: nowIso })
    .where('uuid', '=', enrolment.uuid)
    .where('status', 'in', ['invited', 'declined'])
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return 'duplicate';
  await planEnrolment(trx, plan, enrolment, now);
  await logEvent(trx, { ...base, type: 'opted_in' });
  return 'recorded';
};

/**
 * Applies a batch of channel events for the caller's company and channel, all or nothing:
 * an unknown delivery or enrolment answers 404, a refused one 422, and nothing is recorded.
 */
export const applyChannelEvents = async (
  deps: DeliveryDeps,
  caller: ChannelCaller,
  events: TChannelEvent[],
): Promise<TChannelEventResult[]> => {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const results: TChannelEventResult[] = [];
    for (const [index, event] of events.entries()) {
      const status =
        event.type === 'opted_in' || event.type === 'declined'
          ? await applyEnrolmentEvent(trx, caller, event, index, now)
          : await applyDeliveryEvent(trx, caller, event, index, now.toISOString());
      results.push({ index, type: event.type, status });
    }
    return results;
  });
};
