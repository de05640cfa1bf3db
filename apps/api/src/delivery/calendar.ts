import { DELIVERY_TIME_ZONE, EXCLUSION_DAYS } from '@ccp/schemas';
import type { TDeliveryCalendar, TExclusionDay } from '@ccp/schemas';

import { lessonSlots, romeOffsetMinutes, weekdayOf } from './schedule.ts';
import type { ScheduleRules } from './schedule.ts';

// The wizard's calendar preview: the sends of a Distribution as the scheduler computes them
// (lessonSlots, the one schedule function), with the wall time and offset in Rome, the
// daylight-saving changes between sends, and the dates the skipped weekdays left out.

const pad = (value: number) => String(value).padStart(2, '0');

const offsetText = (minutes: number) => {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
};

const romeTime = (instantMs: number) => {
  const wall = new Date(instantMs + romeOffsetMinutes(instantMs) * 60_000);
  return `${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}`;
};

const WEEKDAY_NAMES: Record<number, TExclusionDay | undefined> = { 0: 'sunday', 6: 'saturday' };

/** Every send of `days` lesson days under `rules`, as the wizard shows them. */
export const deliveryCalendar = (rules: ScheduleRules, days: number): TDeliveryCalendar => {
  const slots = lessonSlots(rules, days);
  let previousOffset: number | null = null;
  const calendar = slots.map((slot, index) => {
    const instant = Date.parse(slot.at);
    const offset = romeOffsetMinutes(instant);
    const changed = previousOffset !== null && previousOffset !== offset;
    previousOffset = offset;
    return {
      day: index + 1,
      date: slot.date,
      at: slot.at,
      time: romeTime(instant),
      offset: offsetText(offset),
      offset_changed: changed,
    };
  });
  // The same rules without exclusions: their dates before the last send that are not sends were
  // skipped (a daily course) or moved (weekly, monthly) because of an excluded weekday.
  const skipped: TDeliveryCalendar['skipped'] = [];
  if (rules.exclusion_days.length > 0 && slots.length > 0) {
    const last = slots[slots.length - 1]!.date;
    const sent = new Set(slots.map((slot) => slot.date));
    const free = lessonSlots({ ...rules, exclusion_days: [] }, days * 2 + 10);
    for (const slot of free) {
      if (slot.date > last) break;
      const weekday = WEEKDAY_NAMES[weekdayOf(slot.date)];
      if (!sent.has(slot.date) && weekday && EXCLUSION_DAYS.includes(weekday)) {
        skipped.push({ date: slot.date, weekday });
      }
    }
  }
  return { time_zone: DELIVERY_TIME_ZONE, slots: calendar, skipped };
};
