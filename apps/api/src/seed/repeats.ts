import { MISSED_ANSWER_HOURS, deliveryCalendarDate } from '@ccp/schemas';
import type { Insertable } from 'kysely';

import type { Database } from '../db/types.ts';
import { hasStuck, repeatSendAt } from '../delivery/repeat-schedule.ts';
import type { RepeatAnswer, RepeatCalendar } from '../delivery/repeat-schedule.ts';
import type { Random } from './random.ts';

// The demo's "Repeat questions until they stick" history (issue 28): for a course that repeats
// questions, what the scheduler would have done with each lesson question answered wrong or
// missed up to `now` — repeats on the days FSRS picks (repeat-schedule.ts, the scheduler's own
// arithmetic), the learner answering them a little better each time — so Insights shows a
// plausible retention, right after repetition included.

type DeliveryRow = Insertable<Database['lesson_deliveries']>;
type RepeatRow = Insertable<Database['question_repeats']>;

const MINUTE = 60_000;
const MISSED_MS = MISSED_ANSWER_HOURS * 60 * MINUTE;
/** A question seen again is answered right a little more often than the first time. */
const PRACTICE_BONUS = 0.15;

export type RepeatHabit = { answer: number; correct: number; answerMinutes: [number, number] };

type Outcome = Pick<
  RepeatRow,
  'status' | 'send_at' | 'sends' | 'sent_at' | 'answer_correct' | 'feedback_status' | 'feedback_at'
> & { history: RepeatAnswer[]; rightAt: string | null };

/** One question's repeats, until it sticks, ends, waits for a later day, or waits for an answer. */
const playRepeats = (
  random: Random,
  first: RepeatAnswer,
  calendar: RepeatCalendar,
  targetRetention: number,
  habit: RepeatHabit,
  nowMs: number,
): Outcome => {
  const history = [first];
  const outcome: Outcome = {
    status: 'ended',
    send_at: null,
    sends: 0,
    sent_at: null,
    answer_correct: null,
    feedback_status: null,
    feedback_at: null,
    history,
    rightAt: null,
  };
  for (;;) {
    if (hasStuck(history)) return { ...outcome, status: 'stuck' };
    const sendAt = repeatSendAt(history, targetRetention, calendar);
    if (!sendAt) return { ...outcome, status: 'ended' };
    const date = deliveryCalendarDate(sendAt);
    calendar.repeatsOn.set(date, (calendar.repeatsOn.get(date) ?? 0) + 1);
    if (sendAt.getTime() > nowMs)
      return { ...outcome, status: 'waiting', send_at: sendAt.toISOString() };
    const sentAt = sendAt.getTime() + random.int(1, 40) * 1000;
    outcome.sends = (outcome.sends ?? 0) + 1;
    outcome.sent_at = new Date(sentAt).toISOString();
    const answerAt = sentAt + random.int(habit.answerMinutes[0], habit.answerMinutes[1]) * MINUTE;
    if (random.chance(habit.answer) && answerAt - sentAt < MISSED_MS) {
      if (answerAt > nowMs) return { ...outcome, status: 'sent', answer_correct: null };
      const right = random.chance(Math.min(0.95, habit.correct + PRACTICE_BONUS));
      const at = new Date(answerAt).toISOString();
      history.push({ at, right });
      outcome.answer_correct = right ? 1 : 0;
      outcome.feedback_status = 'sent';
      outcome.feedback_at = at;
      if (right) outcome.rightAt ??= at;
      continue;
    }
    if (sentAt + MISSED_MS > nowMs) return { ...outcome, status: 'sent', answer_correct: null };
    history.push({ at: new Date(sentAt + MISSED_MS).toISOString(), right: false });
  }
};

/**
 * The repeats of one enrolment's lesson questions answered wrong or missed (its sends, in day
 * order); sets `repeat_right_at` on the sends whose repeat was answered right.
 */
export const seedRepeats = (
  random: Random,
  rows: DeliveryRow[],
  settings: { time: string; targetRetention: number },
  habit: RepeatHabit,
  nowMs: number,
): RepeatRow[] => {
  const lessonsOn = new Map<string, Date>();
  for (const row of rows) {
    const at = new Date(row.scheduled_for);
    lessonsOn.set(deliveryCalendarDate(at), at);
  }
  const last = rows.at(-1)?.scheduled_for;
  const calendar: RepeatCalendar = {
    time: settings.time,
    lessonsOn,
    repeatsOn: new Map(),
    lastLessonDate: deliveryCalendarDate(new Date(last ?? 0)),
  };
  const repeats: RepeatRow[] = [];
  for (const row of rows) {
    if (row.status !== 'sent' || !(row.answer_correct === 0 || row.missed_at)) continue;
    const firstAt = (row.answered_at ?? row.missed_at)!;
    const outcome = playRepeats(
      random,
      { at: firstAt, right: false },
      calendar,
      settings.targetRetention,
      habit,
      nowMs,
    );
    if (outcome.rightAt) row.repeat_right_at = outcome.rightAt;
    const lastAnswer = outcome.history.at(-1)?.at ?? firstAt;
    repeats.push({
      delivery_uuid: row.uuid,
      company_uuid: row.company_uuid,
      course_uuid: row.course_uuid,
      learner_uuid: row.learner_uuid,
      enrollment_uuid: row.enrollment_uuid,
      status: outcome.status,
      send_at: outcome.send_at,
      history: JSON.stringify(outcome.history),
      sends: outcome.sends,
      sent_at: outcome.sent_at,
      answer_index: null,
      answer_correct: outcome.answer_correct,
      feedback_status: outcome.feedback_status,
      feedback_at: outcome.feedback_at,
      created_at: firstAt,
      updated_at: outcome.sent_at && outcome.sent_at > lastAnswer ? outcome.sent_at : lastAnswer,
    });
  }
  return repeats;
};
