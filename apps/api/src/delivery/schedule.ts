import { DELIVERY_TIME_ZONE, addCalendarDays, addCalendarMonths } from '@ccp/schemas';
import type { TDistribution, TExclusionDay } from '@ccp/schemas';

// When lessons go out: wall-clock times in Europe/Rome (CET, with its summer time) turned into
// UTC instants, and the rules of the Distribution (repeat, weekends skipped) turned into dates.

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

const romeParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: DELIVERY_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** Rome's offset from UTC at an instant, in minutes: 60 in winter (CET), 120 in summer (CEST). */
export const romeOffsetMinutes = (instantMs: number): number => {
  const parts = romeParts.formatToParts(new Date(instantMs));
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((entry) => entry.type === type)?.value ?? 0);
  const wall = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return Math.round((wall - Math.floor(instantMs / 1000) * 1000) / MINUTE_MS);
};

const splitNumbers = (text: string, separator: string) => text.split(separator).map(Number);

/**
 * The UTC instant of a wall-clock date ('YYYY-MM-DD') and time ('HH:mm') in Europe/Rome.
 * A time the spring change skips (02:30 on the last Sunday of March) is read with the winter
 * offset, so it lands an hour later on the clock (03:30 CEST); a time the autumn change repeats
 * is its first occurrence (summer time). That is the "compatible" reading of Temporal and RFC 5545.
 */
export const romeInstant = (date: string, time: string): Date => {
  const [year = 0, month = 1, day = 1] = splitNumbers(date, '-');
  const [hour = 0, minute = 0] = splitNumbers(time, ':');
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // The offsets in force half a day either side cover any change on that date.
  const before = romeOffsetMinutes(wall - 12 * HOUR_MS);
  const after = romeOffsetMinutes(wall + 12 * HOUR_MS);
  const candidates = [...new Set([before, after])]
    .map((offset) => wall - offset * MINUTE_MS)
    .filter((instant) => wall - romeOffsetMinutes(instant) * MINUTE_MS === instant)
    .sort((a, b) => a - b);
  return new Date(candidates[0] ?? wall - before * MINUTE_MS);
};

/** The instant of a 'YYYY-MM-DDTHH:mm' local (Rome) date and time, e.g. the enrolment close time. */
export const romeLocalDateTime = (value: string): Date => {
  const [date = '', time = '00:00'] = value.split('T');
  return romeInstant(date, time);
};

const WEEKDAY_OF: Record<TExclusionDay, number> = { sunday: 0, saturday: 6 };

/** 0 Sunday … 6 Saturday, for a calendar date. */
export const weekdayOf = (date: string): number => {
  const [year = 0, month = 1, day = 1] = splitNumbers(date, '-');
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
};

export type ScheduleRules = Pick<
  TDistribution,
  'repeat_period' | 'repeat_every' | 'time' | 'start_date' | 'exclusion_days'
>;

export type LessonSlot = {
  /** Rome calendar date. */
  date: string;
  /** ISO UTC instant of the send. */
  at: string;
};

/**
 * The next `count` send slots of a Distribution: the start date at `time` (Rome), then every
 * `repeat_every` days, weeks or months (months from the start date, so 31 Jan → 28 Feb → 31 Mar).
 * Excluded weekdays: with a daily repeat the slot is skipped (the next lesson takes the next
 * allowed slot); with a weekly or monthly repeat it moves to the following allowed day, since
 * a weekly cadence on a Saturday would otherwise never send. Slots at or before `notBefore` are
 * skipped (a late opt-in starts at the next slot, a resumed course from its new start).
 */
export const lessonSlots = (
  rules: ScheduleRules,
  count: number,
  notBefore?: Date,
): LessonSlot[] => {
  const slots: LessonSlot[] = [];
  if (!rules.start_date || count <= 0) return slots;
  const excluded = new Set(rules.exclusion_days.map((day) => WEEKDAY_OF[day]));
  const every = Math.max(1, Math.trunc(rules.repeat_every));
  const floor = notBefore?.getTime() ?? Number.NEGATIVE_INFINITY;
  // Bounded: at most two of seven days are excluded, and the notBefore skip is finite in practice.
  const maxCandidates = count * 4 + 4000;
  for (let index = 0; slots.length < count && index < maxCandidates; index += 1) {
    let date =
      rules.repeat_period === 'Month'
        ? addCalendarMonths(rules.start_date, index * every)
        : addCalendarDays(
            rules.start_date,
            index * every * (rules.repeat_period === 'Week' ? 7 : 1),
          );
    if (excluded.has(weekdayOf(date))) {
      if (rules.repeat_period === 'Day') continue;
      while (excluded.has(weekdayOf(date))) date = addCalendarDays(date, 1);
    }
    const at = romeInstant(date, rules.time);
    if (at.getTime() <= floor) continue;
    slots.push({ date, at: at.toISOString() });
  }
  return slots;
};
