import {
  REPEAT_DAYS_AFTER_LAST_LESSON,
  REPEAT_RIGHT_IN_A_ROW,
  REPEATS_PER_DAY,
  addCalendarDays,
  deliveryCalendarDate,
} from '@ccp/schemas';
import { Rating, createEmptyCard, fsrs, generatorParameters } from 'ts-fsrs';

import { romeInstant } from './schedule.ts';

// "Repeat questions until they stick" (issue 28), the arithmetic without the database: when a
// question answered wrong or not at all comes back, scheduled by FSRS from the learner's own
// answers to it (Again for wrong or missed, Good for right) at the course's target retention, on
// which day (a later one, with that day's lesson, at most REPEATS_PER_DAY a day) and until when.

/** One of the learner's answers to the question: when, and whether it was right (missed: no). */
export type RepeatAnswer = { at: string; right: boolean };

/** Answered right REPEAT_RIGHT_IN_A_ROW times in a row: the question has stuck. */
export const hasStuck = (history: RepeatAnswer[]): boolean =>
  history.length >= REPEAT_RIGHT_IN_A_ROW &&
  history.slice(-REPEAT_RIGHT_IN_A_ROW).every((answer) => answer.right);

/**
 * When FSRS next wants the question, replaying the learner's answers to it as reviews. Short-term
 * steps are off: a chat question comes back on a later day, not in ten minutes; no fuzz, so a
 * schedule can be checked.
 */
export const fsrsDue = (history: RepeatAnswer[], targetRetentionPercent: number): Date => {
  const scheduler = fsrs(
    generatorParameters({
      request_retention: targetRetentionPercent / 100,
      enable_fuzz: false,
      enable_short_term: false,
    }),
  );
  const first = history[0];
  let card = createEmptyCard(first ? new Date(first.at) : new Date(0));
  for (const answer of history) {
    card = scheduler.next(
      card,
      new Date(answer.at),
      answer.right ? Rating.Good : Rating.Again,
    ).card;
  }
  return card.due;
};

/** What choosing a repeat's day needs to know of the learner's enrolment. */
export type RepeatCalendar = {
  /** The course's delivery time (HH:mm, Rome), for days without a lesson. */
  time: string;
  /** When each of the enrolment's lessons goes, by its Rome calendar date. */
  lessonsOn: Map<string, Date>;
  /** The Rome calendar date of the enrolment's last lesson. */
  lastLessonDate: string;
  /** Repeats already planned for the enrolment, by Rome calendar date. */
  repeatsOn: Map<string, number>;
};

/**
 * When the repeat goes: on the first day from FSRS's due date (at the earliest the day after the
 * last answer) that has room for it, with that day's lesson (its send time) or, without one, at
 * the course's time; null once that is over REPEAT_DAYS_AFTER_LAST_LESSON days after the last
 * lesson (the repeats end there).
 */
export const repeatSendAt = (
  history: RepeatAnswer[],
  targetRetentionPercent: number,
  calendar: RepeatCalendar,
): Date | null => {
  const last = history.at(-1);
  const dayAfterAnswer = addCalendarDays(deliveryCalendarDate(new Date(last?.at ?? 0)), 1);
  const dueDate = deliveryCalendarDate(fsrsDue(history, targetRetentionPercent));
  const lastDate = addCalendarDays(calendar.lastLessonDate, REPEAT_DAYS_AFTER_LAST_LESSON);
  let date = dueDate > dayAfterAnswer ? dueDate : dayAfterAnswer;
  while ((calendar.repeatsOn.get(date) ?? 0) >= REPEATS_PER_DAY) date = addCalendarDays(date, 1);
  if (date > lastDate) return null;
  return calendar.lessonsOn.get(date) ?? romeInstant(date, calendar.time);
};
