import { reminderPolicyOf } from '@ccp/schemas';
import type { TChannelKey, TDistribution, TPauseReason } from '@ccp/schemas';
import type { CompiledQuery } from 'kysely';

import type { Db } from '../db/index.ts';
import { selectInChunks } from '../lib/chunks.ts';
import { logEnrolmentEvents } from './conversation-repository.ts';
import type { EnrolmentActor } from './conversation-repository.ts';
import type { LessonSendRow } from './deliveries-repository.ts';
import { lessonSends, MESSAGE_COLUMNS } from './deliveries-repository.ts';
import { cancelEnrolmentDeliveries, loadCoursePlan, planEnrolment } from './enrolment.ts';
import type { DeliveryDeps, Executor } from './enrolment.ts';
import type { Notice } from './message.ts';

// A learner's enrolment paused and resumed (issue 28). A paused learner stays `enrolled` (so every
// figure still counts them) with `paused_at` and `pause_reason`; their lessons are held. Paused
// by the scheduler after the course's
// number of consecutive unanswered lessons, or by a trainer; resumed by the learner (RESUME,
// RIPRENDI, WEITER) or a trainer, its held lessons planned again from the next slot; ended when
// the learner writes STOP. Each change queues a one-line confirmation for the learner (`notice`),
// sent by the scheduler as one more message of their latest lesson send.

/** What a learner's notice is sent with: their latest lesson send, and which confirmation. */
export type NoticeRow = LessonSendRow & { notice: Notice };

/** Enrolments the learner's STOP ends: everything still going (paused too), or waiting to go. */
const STOPPABLE = ['invited', 'enrolled'];

/**
 * The lesson send a confirmation goes with: the latest one sent, else (nothing sent yet: a learner
 * invited, or joined with the first lesson tomorrow) the first one planned, whatever became of it
 * (a STOP cancels it): the notice needs only its course, learner and channel.
 */
const noticeCarrier = async (trx: Executor, enrolmentUuids: string[]) => {
  const ofEnrolments = () =>
    trx
      .selectFrom('lesson_deliveries')
      .select('uuid')
      .where('enrollment_uuid', 'in', enrolmentUuids);
  const latest = await ofEnrolments()
    .where('status', '=', 'sent')
    .orderBy('sent_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return latest ?? ofEnrolments().orderBy('day').orderBy('uuid').limit(1).executeTakeFirst();
};

/** Queues a confirmation with these enrolments' lesson send (noticeCarrier). */
const queueNotice = async (
  trx: Executor,
  enrolmentUuids: string[],
  notice: Notice,
  nowIso: string,
): Promise<void> => {
  if (enrolmentUuids.length === 0) return;
  const carrier = await noticeCarrier(trx, enrolmentUuids);
  if (!carrier) return;
  await trx
    .updateTable('lesson_deliveries')
    .set({ notice, updated_at: nowIso })
    .where('uuid', '=', carrier.uuid)
    .execute();
};

/**
 * Whether the enrolment's last `count` lessons whose answer window closed (answered, or marked
 * missed) since its last resume were all left unanswered.
 */
const unansweredStreak = async (
  db: Db,
  enrolment: { uuid: string; resumed_at: string | null },
  count: number,
): Promise<boolean> => {
  const closed = await db
    .selectFrom('lesson_deliveries')
    .select(['answered_at', 'missed_at'])
    .where('enrollment_uuid', '=', enrolment.uuid)
    .where('status', '=', 'sent')
    .where((eb) => eb.or([eb('answered_at', 'is not', null), eb('missed_at', 'is not', null)]))
    .$if(enrolment.resumed_at !== null, (query) =>
      query.where('sent_at', '>', enrolment.resumed_at!),
    )
    .orderBy('day', 'desc')
    .limit(count)
    .execute();
  return closed.length === count && closed.every((row) => row.answered_at === null);
};

/**
 * Pauses enrolled, unpaused enrolments, logged with who paused them and why (the learner page's
 * conversation); answers those that were.
 */
const pause = async (
  trx: Executor,
  enrolmentUuids: string[],
  reason: Exclude<TPauseReason, 'stop'>,
  by: EnrolmentActor,
  nowIso: string,
): Promise<string[]> => {
  if (enrolmentUuids.length === 0) return [];
  const paused = await trx
    .updateTable('enrollments')
    .set({ pause_reason: reason, paused_at: nowIso, updated_at: nowIso })
    .where('uuid', 'in', enrolmentUuids)
    .where('status', '=', 'enrolled')
    .where('paused_at', 'is', null)
    .returning('uuid')
    .execute();
  const uuids = paused.map((row) => row.uuid);
  await logEnrolmentEvents(trx, uuids, { type: 'paused', reason, by }, nowIso);
  return uuids;
};

/** The learner's enrolments going on a channel, paused or not. */
const enrolledOnChannel = async (
  db: Db,
  learner: { companyUuid: string; learnerUuid: string; channel: TChannelKey },
  paused: boolean,
): Promise<string[]> => {
  const rows = await db
    .selectFrom('enrollments')
    .select('uuid')
    .where('company_uuid', '=', learner.companyUuid)
    .where('learner_uuid', '=', learner.learnerUuid)
    .where('channel', '=', learner.channel)
    .where('status', '=', 'enrolled')
    .where('paused_at', paused ? 'is not' : 'is', null)
    .execute();
  return rows.map((row) => row.uuid);
};

export const pauseRepository = {
  /**
   * After questions were marked missed: each of their enrolments whose course pauses after N
   * unanswered lessons, and whose last N closed questions went unanswered, is paused and told
   * how to resume. Answers how many were paused.
   */
  pauseUnanswered: async (db: Db, missedDeliveries: string[], nowIso: string): Promise<number> => {
    const enrolments = await selectInChunks(missedDeliveries, (part) =>
      db
        .selectFrom('lesson_deliveries as d')
        .innerJoin('enrollments as e', 'e.uuid', 'd.enrollment_uuid')
        .innerJoin('courses as c', 'c.uuid', 'e.course_uuid')
        .select(['e.uuid', 'e.resumed_at', 'c.distribution'])
        .distinct()
        .where('d.uuid', 'in', part)
        .where('e.status', '=', 'enrolled')
        .where('e.paused_at', 'is', null)
        .execute(),
    );
    let paused = 0;
    for (const enrolment of enrolments) {
      const { auto_pause_after: after } = reminderPolicyOf(
        enrolment.distribution ? (JSON.parse(enrolment.distribution) as TDistribution) : null,
      );
      const streak = { uuid: enrolment.uuid, resumed_at: enrolment.resumed_at ?? null };
      if (after === 0 || !(await unansweredStreak(db, streak, after))) continue;
      await db.transaction().execute(async (trx) => {
        const done = await pause(trx, [enrolment.uuid], 'unanswered', { by: 'scheduler' }, nowIso);
        await queueNotice(trx, done, 'paused', nowIso);
        paused += done.length;
      });
    }
    return paused;
  },

  /**
   * Resumes paused enrolments: enrolled again, their unsent lessons planned from the next slot
   * after now (as a resumed course's are), and the learner told once. `by`: the learner's RESUME
   * or a trainer. Answers those resumed.
   */
  resume: (
    deps: DeliveryDeps,
    enrolmentUuids: string[],
    by: EnrolmentActor = { by: 'learner' },
  ): Promise<string[]> => {
    const now = deps.clock.now();
    const nowIso = now.toISOString();
    return deps.db.transaction().execute(async (trx) => {
      const resumed: string[] = [];
      for (const uuid of enrolmentUuids) {
        const enrolment = await trx
          .updateTable('enrollments')
          .set({ pause_reason: null, paused_at: null, resumed_at: nowIso, updated_at: nowIso })
          .where('uuid', '=', uuid)
          .where('status', '=', 'enrolled')
          .where('paused_at', 'is not', null)
          .returning(['uuid', 'course_uuid', 'learner_uuid', 'channel'])
          .executeTakeFirst();
        if (!enrolment) continue;
        const plan = await loadCoursePlan(trx, enrolment.course_uuid);
        if (plan) await planEnrolment(trx, plan, enrolment, now);
        resumed.push(enrolment.uuid);
      }
      await logEnrolmentEvents(trx, resumed, { type: 'resumed', by }, nowIso);
      await queueNotice(trx, resumed, 'resumed', nowIso);
      return resumed;
    });
  },

  /**
   * The learner wrote STOP on a channel: every enrolment of theirs on it ends (dropped, its
   * unsent lessons canceled) and is marked as asked with STOP. Answers how many ended.
   */
  stop: (
    deps: DeliveryDeps,
    learner: { companyUuid: string; learnerUuid: string; channel: TChannelKey },
  ): Promise<number> => {
    const nowIso = deps.clock.now().toISOString();
    return deps.db.transaction().execute(async (trx) => {
      const stopped = await trx
        .updateTable('enrollments')
        .set({ status: 'dropped', pause_reason: 'stop', paused_at: nowIso, updated_at: nowIso })
        .where('company_uuid', '=', learner.companyUuid)
        .where('learner_uuid', '=', learner.learnerUuid)
        .where('channel', '=', learner.channel)
        .where('status', 'in', STOPPABLE)
        .returning('uuid')
        .execute();
      const uuids = stopped.map((row) => row.uuid);
      await cancelEnrolmentDeliveries(trx, uuids, nowIso);
      await logEnrolmentEvents(trx, uuids, { type: 'stopped', by: { by: 'learner' } }, nowIso);
      await queueNotice(trx, uuids, 'stopped', nowIso);
      return uuids.length;
    });
  },

  /**
   * RESUME from a learner with nothing paused on the channel, but lessons still coming there (the
   * first one tomorrow, say): they are told their course continues, and nothing changes.
   * Answers how many enrolments that was (none: the RESUME answers nothing).
   */
  confirmRunning: async (
    deps: DeliveryDeps,
    learner: { companyUuid: string; learnerUuid: string; channel: TChannelKey },
  ): Promise<number> => {
    const running = await enrolledOnChannel(deps.db, learner, false);
    await queueNotice(deps.db, running, 'resumed', deps.clock.now().toISOString());
    return running.length;
  },

  /** The learner's paused enrolments on a channel (what their RESUME resumes). */
  pausedOnChannel: (
    db: Db,
    learner: { companyUuid: string; learnerUuid: string; channel: TChannelKey },
  ): Promise<string[]> => enrolledOnChannel(db, learner, true),

  /**
   * A trainer pauses one enrolment (enrolled only); answers whether it was. The learner is not
   * messaged: the paused notice tells how to resume after unanswered lessons, and a trainer's
   * pause is theirs to lift.
   */
  pauseByTrainer: async (
    db: Db,
    enrolmentUuid: string,
    trainer: { uuid: string; name: string },
    nowIso: string,
  ): Promise<boolean> =>
    db
      .transaction()
      .execute(
        async (trx) =>
          (await pause(trx, [enrolmentUuid], 'trainer', { by: 'trainer', ...trainer }, nowIso))
            .length === 1,
      ),

  /** A learner's enrolment as a trainer acts on it, with the course's creator; undefined: none. */
  enrolmentOf: (db: Db, companyUuid: string, learnerUuid: string, enrolmentUuid: string) =>
    db
      .selectFrom('enrollments as e')
      .innerJoin('courses as c', 'c.uuid', 'e.course_uuid')
      .select(['e.uuid', 'e.status', 'e.paused_at', 'c.creator_uuid'])
      .where('e.uuid', '=', enrolmentUuid)
      .where('e.learner_uuid', '=', learnerUuid)
      .where('e.company_uuid', '=', companyUuid)
      .where('c.deleted_at', 'is', null)
      .executeTakeFirst(),

  /** The enrolment's status now and when its next lesson goes (null: none planned). */
  stateOf: async (
    db: Db,
    enrolmentUuid: string,
  ): Promise<{ status: string; pause_reason: string | null; next_lesson_at: string | null }> => {
    const enrolment = await db
      .selectFrom('enrollments')
      .select(['status', 'pause_reason'])
      .where('uuid', '=', enrolmentUuid)
      .executeTakeFirstOrThrow();
    const next = await db
      .selectFrom('lesson_deliveries')
      .select((eb) => eb.fn.min('scheduled_for').as('at'))
      .where('enrollment_uuid', '=', enrolmentUuid)
      .where('status', '=', 'scheduled')
      .executeTakeFirst();
    return {
      status: enrolment.status,
      pause_reason: enrolment.pause_reason ?? null,
      next_lesson_at: next?.at ?? null,
    };
  },

  /** Confirmations waiting to go, a batch at a time. */
  queuedNotices: (db: Db, limit: number): Promise<NoticeRow[]> =>
    lessonSends(db)
      .select([...MESSAGE_COLUMNS, 'd.notice as notice'])
      .where('d.notice', 'is not', null)
      .orderBy('d.updated_at')
      .limit(limit)
      .execute() as Promise<NoticeRow[]>,

  /** Takes a queued confirmation once: attempted once, never sent twice. */
  claimNotice: (db: Db, row: NoticeRow): CompiledQuery =>
    db
      .updateTable('lesson_deliveries')
      .set({ notice: null })
      .where('uuid', '=', row.uuid)
      .where('notice', '=', row.notice)
      .compile(),
};
