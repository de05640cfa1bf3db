import { DELIVERY_TIME_ZONE, addCalendarDays, addCalendarMonths } from '@ccp/schemas';
import type { TDistribution, TExclusionDay, TQuietHours } from '@ccp/schemas';

// When lessons go out: wall-clock times in a time zone (Europe/Rome, CET with its summer time,
// unless the course reads its time in each learner's own zone) turned into UTC instants, the
// rules of the Distribution (repeat, weekends skipped) turned into dates, and the learner's hours
// (quiet hours, public holidays) delaying a send, never dropping it.

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

// One formatter per zone: building one costs far more than formatting with it.
const formatters = new Map<string, Intl.DateTimeFormat>();
const formatterOf = (zone: string): Intl.DateTimeFormat => {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
};

/** The wall clock of an instant in a zone, as UTC milliseconds of the same reading. */
const wallMs = (zone: string, instantMs: number): number => {
  const parts = formatterOf(zone).formatToParts(new Date(instantMs));
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((entry) => entry.type === type)?.value ?? 0);
  return Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
};

/** A zone's offset from UTC at an instant, in minutes (Rome: 60 in winter, 120 in summer). */
export const zoneOffsetMinutes = (zone: string, instantMs: number): number =>
  Math.round((wallMs(zone, instantMs) - Math.floor(instantMs / 1000) * 1000) / MINUTE_MS);

/** Rome's offset from UTC at an instant, in minutes: 60 in winter (CET), 120 in summer (CEST). */
export const romeOffsetMinutes = (instantMs: number): number =>
  zoneOffsetMinutes(DELIVERY_TIME_ZONE, instantMs);

const pad = (value: number) => String(value).padStart(2, '0');

/** The calendar date ('YYYY-MM-DD') and time ('HH:mm') of an instant in a zone. */
export const wallClock = (zone: string, instantMs: number): { date: string; time: string } => {
  const wall = new Date(wallMs(zone, instantMs));
  return {
    date: `${wall.getUTCFullYear()}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}`,
    time: `${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}`,
  };
};

const splitNumbers = (text: string, separator: string) => text.split(separator).map(Number);

/**
 * The UTC instant of a wall-clock date ('YYYY-MM-DD') and time ('HH:mm') in a zone.
 * A time the spring change skips (02:30 on the last Sunday of March in Rome) is read with the
 * winter offset, so it lands an hour later on the clock (03:30 CEST); a time the autumn change
 * repeats is its first occurrence (summer time). That is the "compatible" reading of Temporal
 * and RFC 5545.
 */
export const zonedInstant = (date: string, time: string, zone: string): Date => {
  const [year = 0, month = 1, day = 1] = splitNumbers(date, '-');
  const [hour = 0, minute = 0] = splitNumbers(time, ':');
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // The offsets in force half a day either side cover any change on that date.
  const before = zoneOffsetMinutes(zone, wall - 12 * HOUR_MS);
  const after = zoneOffsetMinutes(zone, wall + 12 * HOUR_MS);
  const candidates = [...new Set([before, after])]
    .map((offset) => wall - offset * MINUTE_MS)
    .filter((instant) => wall - zoneOffsetMinutes(zone, instant) * MINUTE_MS === instant)
    .sort((a, b) => a - b);
  return new Date(candidates[0] ?? wall - before * MINUTE_MS);
};

/** The UTC instant of a wall-clock date and time in Europe/Rome (see zonedInstant). */
export const romeInstant = (date: string, time: string): Date =>
  zonedInstant(date, time, DELIVERY_TIME_ZONE);

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
> &
  Partial<Pick<TDistribution, 'learner_time_zone'>>;

/**
 * One learner's hours, for planning their sends: their zone, whether the course reads its time in
 * it, the company's quiet hours (local) and the public holidays of their country. Without it (or
 * with none of these) a send is the Distribution's time in Rome, as spec §9 has it.
 */
export type LearnerHours = {
  timeZone: string;
  /** The course's `learner_time_zone`: its time is read in `timeZone`, not in Rome. */
  localTime: boolean;
  quiet: TQuietHours | null;
  /** The name of the public holiday on a local date ('YYYY-MM-DD'), or null. */
  holiday: ((date: string) => string | null) | null;
};

/** Why a send is later than the Distribution's time: quiet hours, or a public holiday. */
export type SlotDelay = { reason: 'quiet_hours' } | { reason: 'holiday'; holiday: string };

export type LessonSlot = {
  /** Calendar date of the send: in Rome, or in the learner's zone when hours are given. */
  date: string;
  /** ISO UTC instant of the send. */
  at: string;
  /** Only on a delayed send. */
  delay?: SlotDelay;
};

const minutesOf = (time: string): number => {
  const [hour = 0, minute = 0] = splitNumbers(time, ':');
  return hour * 60 + minute;
};

/** The instant moved to the end of the quiet hours when it falls inside them (local time). */
const afterQuietHours = (instantMs: number, zone: string, quiet: TQuietHours): number | null => {
  const local = wallClock(zone, instantMs);
  const minute = minutesOf(local.time);
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  // 20:00–08:00 spans midnight: inside from 20:00 to the day's end and from its start to 08:00.
  const inside = start < end ? minute >= start && minute < end : minute >= start || minute < end;
  if (!inside) return null;
  const endDate = start > end && minute >= start ? addCalendarDays(local.date, 1) : local.date;
  return zonedInstant(endDate, quiet.end, zone).getTime();
};

// A holiday moves a weekly or monthly send to the next day; no country has a month of them.
const MAX_HOLIDAY_DAYS = 31;

/**
 * The next `count` send slots of a Distribution: the start date at `time` (Rome, or the learner's
 * zone when the course says so), then every `repeat_every` days, weeks or months (months from the
 * start date, so 31 Jan → 28 Feb → 31 Mar).
 * Excluded weekdays: with a daily repeat the slot is skipped (the next lesson takes the next
 * allowed slot); with a weekly or monthly repeat it moves to the following allowed day, since
 * a weekly cadence on a Saturday would otherwise never send. With `hours`, a send inside the quiet
 * hours waits for their end, and one on a public holiday of the learner is treated as an excluded
 * day: delayed, never dropped. Slots at or before `notBefore` are skipped (a late opt-in starts
 * at the next slot, a resumed course from its new start).
 */
export const lessonSlots = (
  rules: ScheduleRules,
  count: number,
  notBefore?: Date,
  hours?: LearnerHours,
): LessonSlot[] => {
  const slots: LessonSlot[] = [];
  if (!rules.start_date || count <= 0) return slots;
  const excluded = new Set(rules.exclusion_days.map((day) => WEEKDAY_OF[day]));
  const every = Math.max(1, Math.trunc(rules.repeat_every));
  const floor = notBefore?.getTime() ?? Number.NEGATIVE_INFINITY;
  const zone = hours?.localTime ? hours.timeZone : DELIVERY_TIME_ZONE;
  const daily = rules.repeat_period === 'Day';
  const nextAllowed = (date: string) => {
    let next = date;
    while (excluded.has(weekdayOf(next))) next = addCalendarDays(next, 1);
    return next;
  };
  // A daily slot skipped for a holiday: the lesson it would have carried goes out next, delayed.
  let carried: SlotDelay | undefined;
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
      if (daily) continue;
      date = nextAllowed(date);
    }
    if (!hours) {
      const at = romeInstant(date, rules.time);
      if (at.getTime() > floor) slots.push({ date, at: at.toISOString() });
      continue;
    }
    let slot: LessonSlot | undefined;
    for (let tries = 0; !slot && tries < MAX_HOLIDAY_DAYS; tries += 1) {
      const nominal = zonedInstant(date, rules.time, zone).getTime();
      const quiet = hours.quiet ? afterQuietHours(nominal, hours.timeZone, hours.quiet) : null;
      const at = quiet ?? nominal;
      const local = wallClock(hours.timeZone, at).date;
      const holiday = hours.holiday?.(local) ?? null;
      if (holiday !== null) {
        carried = { reason: 'holiday', holiday };
        if (daily) break;
        date = nextAllowed(addCalendarDays(date, 1));
        continue;
      }
      const delay = carried ?? (quiet !== null ? { reason: 'quiet_hours' as const } : undefined);
      slot = { date: local, at: new Date(at).toISOString(), ...(delay ? { delay } : {}) };
    }
    if (!slot) continue;
    carried = undefined;
    if (Date.parse(slot.at) > floor) slots.push(slot);
  }
  return slots;
};
