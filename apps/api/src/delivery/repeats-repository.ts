import { deliveryCalendarDate } from '@ccp/schemas';
import type { CompiledQuery } from 'kysely';

import type { Db } from '../db/index.ts';
import { parseDistribution } from '../courses/courses-repository.ts';
import type { LessonSendRow } from './deliveries-repository.ts';
import { lessonSends, MESSAGE_COLUMNS } from './deliveries-repository.ts';
import type { RepeatAnswer, RepeatCalendar } from './repeat-schedule.ts';

// The SQL of "Repeat questions until they stick" (issue 28, table question_repeats, 0037): which
// lesson sends' questions start repeating, which repeats are due, their claim and send, the
// answers to them and the feedback on those answers.

/** Courses whose repeats still go: live ones, and delivered ones for 30 days after. */
const REPEATING_COURSE_STATUSES = ['scheduled', 'active', 'delivered'];
/** A learner gets repeats while enrolled, and after the last lesson (completed). */
const REPEATING_ENROLMENT_STATUSES = ['enrolled', 'completed'];

/** A course with repeats on, and its target retention (percent). */
export type RepeatingCourse = { uuid: string; time: string; targetRetention: number };

/** A lesson send whose question was answered wrong or missed, and has no repeat yet. */
export type RepeatCandidate = {
  uuid: string;
  company_uuid: string;
  course_uuid: string;
  learner_uuid: string;
  enrollment_uuid: string;
  channel: string;
  answered_at: string | null;
  missed_at: string | null;
};

/** A repeat due now, with what its message needs (the lesson send's `uuid`, day, language). */
export type DueRepeatRow = LessonSendRow & { enrollment_uuid: string; history: string };

/** A repeat's answer whose feedback is waiting. */
export type RepeatFeedbackRow = LessonSendRow & {
  answer_index: number | null;
  answer_correct: number | null;
  feedback_status: 'pending';
};

/** A repeat sent and not answered in time. */
export type OpenRepeatRow = {
  uuid: string;
  company_uuid: string;
  learner_uuid: string;
  channel: string;
  course_uuid: string;
  enrollment_uuid: string;
  history: string;
  sent_at: string;
};

export const parseHistory = (text: string): RepeatAnswer[] => JSON.parse(text) as RepeatAnswer[];

const repeatSends = (db: Db) =>
  lessonSends(db)
    .innerJoin('question_repeats as r', 'r.delivery_uuid', 'd.uuid')
    .innerJoin('enrollments as e', 'e.uuid', 'r.enrollment_uuid');

/** Repeats due now of learners and courses they may still go to, earliest first. */
const dueRepeatRows = (db: Db, nowIso: string) =>
  repeatSends(db)
    .select([...MESSAGE_COLUMNS, 'r.enrollment_uuid', 'r.history'])
    .where('r.status', '=', 'waiting')
    .where('r.send_at', '<=', nowIso)
    .where('e.status', 'in', REPEATING_ENROLMENT_STATUSES)
    // A paused learner's lessons are held until they are resumed, and so are their repeats.
    .where('e.paused_at', 'is', null)
    .where('c.status', 'in', REPEATING_COURSE_STATUSES)
    .where('c.deleted_at', 'is', null)
    .where('l.deleted_at', 'is', null)
    .orderBy('r.send_at')
    .orderBy('r.delivery_uuid');

export const repeatsRepository = {
  /** Courses with "Repeat questions until they stick" on whose repeats may still go. */
  repeatingCourses: async (db: Db): Promise<RepeatingCourse[]> => {
    const rows = await db
      .selectFrom('courses')
      .select(['uuid', 'distribution'])
      .where('status', 'in', REPEATING_COURSE_STATUSES)
      .where('deleted_at', 'is', null)
      .execute();
    return rows.flatMap((row) => {
      const distribution = parseDistribution(row.distribution);
      return distribution?.repeat_questions
        ? [
            {
              uuid: row.uuid,
              time: distribution.time,
              targetRetention: distribution.target_retention,
            },
          ]
        : [];
    });
  },

  /** Lesson sends of these courses answered wrong or missed that have no repeat yet. */
  candidates: (db: Db, courseUuids: string[], limit: number): Promise<RepeatCandidate[]> =>
    db
      .selectFrom('lesson_deliveries as d')
      .select([
        'd.uuid',
        'd.company_uuid',
        'd.course_uuid',
        'd.learner_uuid',
        'd.enrollment_uuid',
        'd.channel',
        'd.answered_at',
        'd.missed_at',
      ])
      .where('d.course_uuid', 'in', courseUuids)
      .where((eb) => eb.or([eb('d.answer_correct', '=', 0), eb('d.missed_at', 'is not', null)]))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('question_repeats as r')
              .select('r.delivery_uuid')
              .whereRef('r.delivery_uuid', '=', 'd.uuid'),
          ),
        ),
      )
      .orderBy('d.uuid')
      .limit(limit)
      .execute(),

  /** The enrolment's lesson days and the repeats already planned, for choosing a repeat's day. */
  calendarOf: async (
    db: Db,
    enrollmentUuid: string,
    except: string,
    time: string,
  ): Promise<RepeatCalendar> => {
    const [lessons, repeats] = await Promise.all([
      db
        .selectFrom('lesson_deliveries')
        .select('scheduled_for')
        .where('enrollment_uuid', '=', enrollmentUuid)
        .orderBy('scheduled_for')
        .execute(),
      db
        .selectFrom('question_repeats')
        .select('send_at')
        .where('enrollment_uuid', '=', enrollmentUuid)
        .where('delivery_uuid', '!=', except)
        .where('send_at', 'is not', null)
        .execute(),
    ]);
    const lessonsOn = new Map<string, Date>();
    for (const lesson of lessons) {
      const at = new Date(lesson.scheduled_for);
      lessonsOn.set(deliveryCalendarDate(at), at);
    }
    const repeatsOn = new Map<string, number>();
    for (const repeat of repeats) {
      const date = deliveryCalendarDate(new Date(repeat.send_at!));
      repeatsOn.set(date, (repeatsOn.get(date) ?? 0) + 1);
    }
    const last = lessons.at(-1)?.scheduled_for;
    return {
      time,
      lessonsOn,
      repeatsOn,
      lastLessonDate: deliveryCalendarDate(new Date(last ?? 0)),
    };
  },

  /** A lesson send's question starts repeating (once: a second plan changes nothing). */
  plan: (
    db: Db,
    row: RepeatCandidate,
    history: RepeatAnswer[],
    sendAt: Date | null,
    at: string,
  ): CompiledQuery =>
    db
      .insertInto('question_repeats')
      .values({
        delivery_uuid: row.uuid,
        company_uuid: row.company_uuid,
        course_uuid: row.course_uuid,
        learner_uuid: row.learner_uuid,
        enrollment_uuid: row.enrollment_uuid,
        status: sendAt ? 'waiting' : 'ended',
        send_at: sendAt?.toISOString() ?? null,
        history: JSON.stringify(history),
        sends: 0,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.column('delivery_uuid').doNothing())
      .compile(),

  /** Repeats due now of learners and courses they may still go to, earliest first. */
  due: (db: Db, nowIso: string, limit: number): Promise<DueRepeatRow[]> =>
    dueRepeatRows(db, nowIso).limit(limit).execute(),

  /**
   * The enrolment's other repeats due now (at most `limit`), to go in one message with `except`
   * (a day's repeats are one message per learner).
   */
  dueWith: (
    db: Db,
    except: { uuid: string; enrollment_uuid: string },
    nowIso: string,
    limit: number,
  ): Promise<DueRepeatRow[]> =>
    dueRepeatRows(db, nowIso)
      .where('r.enrollment_uuid', '=', except.enrollment_uuid)
      .where('r.delivery_uuid', '!=', except.uuid)
      .limit(limit)
      .execute(),

  /** Takes a repeat once: a due one (waiting → sending), or a missed one (sent → sending). */
  claim: (db: Db, uuid: string, at: string, from: 'waiting' | 'sent' = 'waiting'): CompiledQuery =>
    db
      .updateTable('question_repeats')
      .set({ status: 'sending', updated_at: at })
      .where('delivery_uuid', '=', uuid)
      .where('status', '=', from)
      .compile(),

  /** A repeat went: it waits for the learner's answer, with none yet. */
  sent: (db: Db, uuid: string, at: string): CompiledQuery =>
    db
      .updateTable('question_repeats')
      .set((eb) => ({
        status: 'sent',
        sent_at: at,
        sends: eb('sends', '+', 1),
        answer_index: null,
        answer_correct: null,
        feedback_status: null,
        updated_at: at,
      }))
      .where('delivery_uuid', '=', uuid)
      .compile(),

  /** The repeat's next state: waiting for `sendAt`, stuck, or ended; with the answers so far. */
  reschedule: (
    db: Db,
    uuid: string,
    from: string,
    next: { history: RepeatAnswer[]; status: 'waiting' | 'stuck' | 'ended'; sendAt: Date | null },
    at: string,
  ): CompiledQuery =>
    db
      .updateTable('question_repeats')
      .set({
        status: next.status,
        send_at: next.sendAt?.toISOString() ?? null,
        history: JSON.stringify(next.history),
        updated_at: at,
      })
      .where('delivery_uuid', '=', uuid)
      .where('status', '=', from)
      .compile(),

  /** Repeats sent before `cutoff` and still unanswered (missed). */
  open: (db: Db, cutoff: string, limit: number): Promise<OpenRepeatRow[]> =>
    db
      .selectFrom('question_repeats as r')
      .innerJoin('lesson_deliveries as d', 'd.uuid', 'r.delivery_uuid')
      .select([
        'r.delivery_uuid as uuid',
        'r.company_uuid',
        'r.learner_uuid',
        'd.channel',
        'r.course_uuid',
        'r.enrollment_uuid',
        'r.history',
        'r.sent_at',
      ])
      .where('r.status', '=', 'sent')
      .where('r.sent_at', '<=', cutoff)
      .orderBy('r.sent_at')
      .limit(limit)
      .execute() as Promise<OpenRepeatRow[]>,

  /** The repeat waiting for an answer to this lesson send's question, if any. */
  waitingAnswer: (db: Db, deliveryUuid: string) =>
    db
      .selectFrom('question_repeats')
      .select([
        'delivery_uuid',
        'company_uuid',
        'course_uuid',
        'learner_uuid',
        'enrollment_uuid',
        'history',
      ])
      .where('delivery_uuid', '=', deliveryUuid)
      .where('status', '=', 'sent')
      .executeTakeFirst(),

  /** The answer to a repeat, its feedback queued (the reschedule goes with it). */
  answered: (
    db: Db,
    uuid: string,
    answer: { correct: boolean; index: number | null },
    at: string,
  ): CompiledQuery =>
    db
      .updateTable('question_repeats')
      .set({
        answer_correct: answer.correct ? 1 : 0,
        answer_index: answer.index,
        feedback_status: 'pending',
        updated_at: at,
      })
      .where('delivery_uuid', '=', uuid)
      .compile(),

  /**
   * A repeat of the send's question answered right: the first time counts (the retention insight,
   * 0040); the lesson's own first answer stays as it was.
   */
  rightAfterRepeat: (db: Db, uuid: string, at: string): CompiledQuery =>
    db
      .updateTable('lesson_deliveries')
      .set({ repeat_right_at: at })
      .where('uuid', '=', uuid)
      .where('repeat_right_at', 'is', null)
      .compile(),

  /** Feedback on repeats' answers waiting to go. */
  feedbackQueued: (db: Db, limit: number): Promise<RepeatFeedbackRow[]> =>
    repeatSends(db)
      .select([
        ...MESSAGE_COLUMNS,
        'r.answer_index',
        'r.answer_correct',
        'r.feedback_status as feedback_status',
      ])
      .where('r.feedback_status', '=', 'pending')
      .orderBy('r.updated_at')
      .limit(limit)
      .execute() as Promise<RepeatFeedbackRow[]>,

  /** Takes a repeat's feedback once (pending → sending). */
  claimFeedback: (db: Db, uuid: string, at: string): CompiledQuery =>
    db
      .updateTable('question_repeats')
      .set({ feedback_status: 'sending', feedback_at: at })
      .where('delivery_uuid', '=', uuid)
      .where('feedback_status', '=', 'pending')
      .compile(),

  /** How a repeat's claimed feedback ended. */
  finishFeedback: (db: Db, uuid: string, sent: boolean, at: string): CompiledQuery =>
    db
      .updateTable('question_repeats')
      .set({ feedback_status: sent ? 'sent' : 'failed', feedback_at: at })
      .where('delivery_uuid', '=', uuid)
      .where('feedback_status', '=', 'sending')
      .compile(),
};
