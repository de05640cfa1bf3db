import { MISSED_ANSWER_HOURS, REPEATS_PER_DAY, deliveryCalendarDate } from '@ccp/schemas';
import type { TDistribution } from '@ccp/schemas';
import type { CompiledQuery } from 'kysely';

import type { Db } from '../db/index.ts';
import { feedbackEvent, sendEvent } from './conversation-repository.ts';
import { endOfOutcome } from './deliveries-repository.ts';
import { loadCoursePlan } from './enrolment.ts';
import { addressOf, feedbackOf, lessonMessage } from './outgoing.ts';
import { hasStuck, repeatSendAt } from './repeat-schedule.ts';
import type { RepeatAnswer } from './repeat-schedule.ts';
import { parseHistory, repeatsRepository } from './repeats-repository.ts';
import type {
  DueRepeatRow,
  OpenRepeatRow,
  RepeatCandidate,
  RepeatFeedbackRow,
} from './repeats-repository.ts';
import type { ChannelAdapter } from './channels.ts';
import type { ChannelMessage, LessonContent } from './message.ts';
import type { Drain, TickContext } from './scheduler.ts';

// "Repeat questions until they stick" (issue 28) in the scheduler's one claim-send loop: lesson
// questions answered wrong or missed start repeating (planned by FSRS, repeat-schedule.ts), due
// repeats go as a question message of their own after the day's lesson, a repeat left unanswered
// for 72 hours counts as missed, and the feedback on a repeat's answer goes like a lesson's.
// A repeat is known by the lesson send whose question it asks again: its buttons carry that
// send's id, so an answer comes back through the same webhooks.

const HOUR_MS = 60 * 60 * 1000;

type RepeatSettings = Pick<TDistribution, 'time' | 'target_retention'>;
type NextState = {
  history: RepeatAnswer[];
  status: 'waiting' | 'stuck' | 'ended';
  sendAt: Date | null;
};

/** After an answer (or a miss): stuck after two right in a row, else the next repeat's time. */
const nextState = async (
  db: Db,
  settings: RepeatSettings,
  repeat: { uuid: string; enrollment_uuid: string },
  history: RepeatAnswer[],
): Promise<NextState> => {
  if (hasStuck(history)) return { history, status: 'stuck', sendAt: null };
  const calendar = await repeatsRepository.calendarOf(
    db,
    repeat.enrollment_uuid,
    repeat.uuid,
    settings.time,
  );
  const sendAt = repeatSendAt(history, settings.target_retention, calendar);
  return { history, status: sendAt ? 'waiting' : 'ended', sendAt };
};

type PlannedCandidate = RepeatCandidate & { history: RepeatAnswer[]; sendAt: Date | null };

/** Repeats on each day, counting those this batch planned for the same enrolment. */
const withPlanned = (
  repeatsOn: Map<string, number>,
  planned: PlannedCandidate[],
  enrollmentUuid: string,
): Map<string, number> => {
  const counts = new Map(repeatsOn);
  for (const other of planned) {
    if (other.enrollment_uuid !== enrollmentUuid || !other.sendAt) continue;
    const date = deliveryCalendarDate(other.sendAt);
    counts.set(date, (counts.get(date) ?? 0) + 1);
  }
  return counts;
};

/**
 * Lesson questions answered wrong or missed, in courses that repeat them, with their first
 * repeat's time. A batch's repeats count towards each other's days (two a day at most).
 */
const plannedCandidates = async (db: Db, limit: number): Promise<PlannedCandidate[]> => {
  const courses = new Map(
    (await repeatsRepository.repeatingCourses(db)).map((course) => [course.uuid, course]),
  );
  if (courses.size === 0) return [];
  const planned: PlannedCandidate[] = [];
  for (const row of await repeatsRepository.candidates(db, [...courses.keys()], limit)) {
    const course = courses.get(row.course_uuid)!;
    const history = [{ at: (row.answered_at ?? row.missed_at)!, right: false }];
    const calendar = await repeatsRepository.calendarOf(
      db,
      row.enrollment_uuid,
      row.uuid,
      course.time,
    );
    const repeatsOn = withPlanned(calendar.repeatsOn, planned, row.enrollment_uuid);
    const sendAt = repeatSendAt(history, course.targetRetention, { ...calendar, repeatsOn });
    planned.push({ ...row, history, sendAt });
  }
  return planned;
};

/** A question answered wrong or missed starts repeating (no provider is called). */
export const plannedRepeats = (ctx: TickContext): Drain<PlannedCandidate> => ({
  local: true,
  select: (limit) => plannedCandidates(ctx.app.db, limit),
  claim: (row) => repeatsRepository.plan(ctx.app.db, row, row.history, row.sendAt, ctx.nowIso),
  send: async () => [],
});

/** The course's repeat settings, from the tick's cache. */
const settingsOf = async (ctx: TickContext, courseUuid: string) =>
  (await ctx.lookups.planOf(courseUuid))?.distribution ?? null;

/** A due repeat with the lesson it asks again and the course's number of days. */
type Askable = { row: DueRepeatRow; lesson: LessonContent; totalDays: number };

/**
 * The learner's other repeats due now, claimed to go with `row` (at most REPEATS_PER_DAY in all):
 * a day's repeats are one message per learner. One another tick took stays with it.
 */
const claimSiblings = async (ctx: TickContext, row: DueRepeatRow): Promise<DueRepeatRow[]> => {
  const { app, nowIso } = ctx;
  const others = await repeatsRepository.dueWith(app.db, row, nowIso, REPEATS_PER_DAY - 1);
  const claimed: DueRepeatRow[] = [];
  for (const other of others) {
    const taken = await app.db.executeQuery(repeatsRepository.claim(app.db, other.uuid, nowIso));
    if (Number(taken.numAffectedRows) === 1) claimed.push(other);
  }
  return claimed;
};

/** One question again as its lesson's message; two or more as one `repeats` message. */
const repeatsMessage = (
  adapter: ChannelAdapter,
  address: string,
  asked: [Askable, ...Askable[]],
): ChannelMessage => {
  const [first] = asked;
  const message = lessonMessage(
    'lesson',
    adapter,
    first.row,
    address,
    first.lesson,
    first.totalDays,
  );
  if (asked.length === 1) return message;
  return {
    ...message,
    kind: 'repeats',
    repeats: asked.map(({ row, lesson }) => ({ deliveryUuid: row.uuid, lesson })),
  };
};

/**
 * Every repeat due now, after the day's lessons (the tick sends those first): the lesson's
 * question again, a learner's repeats of the day together in one message. One that does not go
 * is tried the next day.
 */
export const dueRepeats = (ctx: TickContext): Drain<DueRepeatRow> => {
  const { app, nowIso } = ctx;
  const later = async (row: DueRepeatRow): Promise<CompiledQuery[]> => {
    const settings = await settingsOf(ctx, row.course_uuid);
    const next = settings
      ? await nextState(app.db, settings, row, parseHistory(row.history))
      : { history: parseHistory(row.history), status: 'ended' as const, sendAt: null };
    return [repeatsRepository.reschedule(app.db, row.uuid, 'sending', next, nowIso)];
  };
  const allLater = async (rows: DueRepeatRow[]) => (await Promise.all(rows.map(later))).flat();
  /** The repeat's lesson, still with its question (null: gone, or no question now). */
  const askableOf = async (row: DueRepeatRow): Promise<Askable | null> => {
    const [plan, lesson] = await ctx.lookups.lessonOf(row);
    return plan && lesson?.assessment ? { row, lesson, totalDays: plan.days.length } : null;
  };
  return {
    select: (limit) => repeatsRepository.due(app.db, nowIso, limit),
    claim: (row) => repeatsRepository.claim(app.db, row.uuid, nowIso),
    send: async (row, adapter) => {
      const rows = [row, ...(await claimSiblings(ctx, row))];
      const found = await Promise.all(rows.map(askableOf));
      const asked = found.filter((item): item is Askable => item !== null);
      const gone = await allLater(rows.filter((_, index) => found[index] === null));
      const address = addressOf(row.channel, row);
      const [first, ...more] = asked;
      if (!first || !address) return [...gone, ...(await allLater(asked.map((item) => item.row)))];
      const outcome = await ctx.send(adapter, repeatsMessage(adapter, address, [first, ...more]));
      const end = endOfOutcome(adapter.key, outcome, app.clock.now());
      if (!outcome.ok || end.status !== 'sent') {
        app.log.warn({ delivery: row.uuid }, 'repeat not sent');
        return [...gone, ...(await allLater(asked.map((item) => item.row)))];
      }
      const at = app.clock.now().toISOString();
      return [
        ...outcome.records,
        ...gone,
        ...asked.flatMap((item) => [
          repeatsRepository.sent(app.db, item.row.uuid, at),
          sendEvent(app.db, item.row, 'repeat_sent', at, {}),
        ]),
      ];
    },
  };
};

/** A repeat unanswered 72 hours after it went counts as missed: it comes back (Again). */
export const missedRepeats = (ctx: TickContext): Drain<OpenRepeatRow> => {
  const { app, now, nowIso } = ctx;
  const cutoff = new Date(now.getTime() - MISSED_ANSWER_HOURS * HOUR_MS).toISOString();
  return {
    local: true,
    select: (limit) => repeatsRepository.open(app.db, cutoff, limit),
    claim: (row) => repeatsRepository.claim(app.db, row.uuid, nowIso, 'sent'),
    send: async (row) => {
      const missedAt = new Date(Date.parse(row.sent_at) + MISSED_ANSWER_HOURS * HOUR_MS);
      const history = [...parseHistory(row.history), { at: missedAt.toISOString(), right: false }];
      const settings = await settingsOf(ctx, row.course_uuid);
      const next = settings
        ? await nextState(app.db, settings, row, history)
        : { history, status: 'ended' as const, sendAt: null };
      return [
        repeatsRepository.reschedule(app.db, row.uuid, 'sending', next, nowIso),
        sendEvent(app.db, row, 'repeat_missed', missedAt.toISOString(), {}),
      ];
    },
  };
};

/** The feedback on a repeat's answer: the chosen answer's response, as for a lesson's. */
export const repeatFeedback = (ctx: TickContext): Drain<RepeatFeedbackRow> => {
  const { app, nowIso } = ctx;
  const finish = (row: RepeatFeedbackRow, sent: boolean) =>
    repeatsRepository.finishFeedback(app.db, row.uuid, sent, app.clock.now().toISOString());
  return {
    select: (limit) => repeatsRepository.feedbackQueued(app.db, limit),
    claim: (row) => repeatsRepository.claimFeedback(app.db, row.uuid, nowIso),
    send: async (row, adapter) => {
      const [plan, lesson] = await ctx.lookups.lessonOf(row);
      const address = addressOf(row.channel, row);
      if (!plan || !address) return [finish(row, false)];
      const message = lessonMessage('feedback', adapter, row, address, lesson, plan.days.length);
      const told = feedbackOf(row, lesson, null);
      const outcome = await ctx.send(adapter, { ...message, feedback: told });
      const logged = feedbackEvent(app, row, told, outcome.ok, true);
      if (!outcome.ok) {
        app.log.warn({ delivery: row.uuid, error: outcome.error }, 'repeat feedback not sent');
        return [finish(row, false), logged];
      }
      return [...outcome.records, finish(row, true), logged];
    },
  };
};

/**
 * An answer to a lesson send's question while its repeat waits for one: recorded on the repeat
 * (the lesson's own first answer stays as it was), the next repeat planned, the feedback queued.
 * False when no repeat waits (the answer is the lesson's).
 */
export const answerRepeat = async (
  db: Db,
  deliveryUuid: string,
  answer: { correct: boolean; index: number | null; text?: string },
  at: string,
): Promise<boolean> => {
  const repeat = await repeatsRepository.waitingAnswer(db, deliveryUuid);
  if (!repeat) return false;
  const distribution = (await loadCoursePlan(db, repeat.course_uuid))?.distribution;
  const history = [...parseHistory(repeat.history), { at, right: answer.correct }];
  const next = distribution
    ? await nextState(db, distribution, { ...repeat, uuid: deliveryUuid }, history)
    : { history, status: 'ended' as const, sendAt: null };
  return db.transaction().execute(async (trx) => {
    const taken = await trx.executeQuery(
      repeatsRepository.reschedule(db, deliveryUuid, 'sent', next, at),
    );
    if (Number(taken.numAffectedRows) !== 1) return false;
    await trx.executeQuery(repeatsRepository.answered(db, deliveryUuid, answer, at));
    if (answer.correct) {
      await trx.executeQuery(repeatsRepository.rightAfterRepeat(db, deliveryUuid, at));
    }
    const text = answer.text === undefined ? {} : { text: answer.text };
    await trx.executeQuery(
      sendEvent(db, { ...repeat, uuid: deliveryUuid }, 'repeat_answered', at, text, answer.correct),
    );
    return true;
  });
};
