import { DELIVERY_TIME_ZONE, EXCLUSION_DAYS } from '@ccp/schemas';
import type { TDeliveryCalendar, TExclusionDay } from '@ccp/schemas';

import { lessonSlots, wallClock, weekdayOf, zoneOffsetMinutes } from './schedule.ts';
import type { LearnerHours, ScheduleRules } from './schedule.ts';

// The wizard's calendar preview: the sends of a Distribution as the scheduler computes them
// (lessonSlots, the one schedule function), for one learner's hours when given, with the wall
// time and offset in their zone (Rome without), the daylight-saving changes between sends, the
// sends quiet hours or a holiday delayed, and the dates the skipped weekdays left out.

const pad = (value: number) => String(value).padStart(2, '0');

const offsetText = (minutes: number) => {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
};

const WEEKDAY_NAMES: Record<number, TExclusionDay | undefined> = { 0: 'sunday', 6: 'saturday' };

/** Every send of `days` lesson days under `rules` (and a learner's `hours`), as the wizard shows them. */
export const deliveryCalendar = (
  rules: ScheduleRules,
  days: number,
  hours?: LearnerHours,
): TDeliveryCalendar => {
  const zone = hours?.timeZone ?? DELIVERY_TIME_ZONE;
  const slots = lessonSlots(rules, days, undefined, hours);
  let previousOffset: number | null = null;
  const calendar = slots.map((slot, index) => {
    const instant = Date.parse(slot.at);
    const offset = zoneOffsetMinutes(zone, instant);
    const changed = previousOffset !== null && previousOffset !== offset;
    previousOffset = offset;
    return {
      day: index + 1,
      date: slot.date,
      at: slot.at,
      time: wallClock(zone, instant).time,
      offset: offsetText(offset),
      offset_changed: changed,
      delayed: slot.delay?.reason ?? null,
      holiday: slot.delay?.reason === 'holiday' ? slot.delay.holiday : null,
    };
  });
  // The same rules without exclusions: their dates before the last send that are not sends were
  // skipped (a daily course) or moved (weekly, monthly) because of an excluded weekday.
  const skipped: TDeliveryCalendar['skipped'] = [];
  if (rules.exclusion_days.length > 0 && slots.length > 0) {
    const last = slots[slots.length - 1]!.date;
    const sent = new Set(slots.map((slot) => slot.date));
    const free = lessonSlots({ ...rules, exclusion_days: [] }, days * 2 + 10, undefined, hours);
    for (const slot of free) {
      if (slot.date > last) break;
      const weekday = WEEKDAY_NAMES[weekdayOf(slot.date)];
      if (!sent.has(slot.date) && weekday && EXCLUSION_DAYS.includes(weekday)) {
        skipped.push({ date: slot.date, weekday });
      }
    }
  }
  return { time_zone: zone, slots: calendar, skipped };
};
