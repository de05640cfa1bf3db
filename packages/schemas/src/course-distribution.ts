import { z } from 'zod';

import {
  CHANNEL_KEYS,
  DELIVERY_TIME_ZONE,
  DELIVERY_WINDOW_MONTHS,
  AUTO_PAUSE_AFTER_MAX,
  DISTRIBUTION_DEFAULTS,
  LEGACY_REMINDER_POLICY,
  REMINDER_COUNT_MAX,
  REMINDER_INTERVAL_HOURS_MAX,
  REMINDER_POLICY_DEFAULTS,
  REPEAT_PERIODS,
  TARGET_RETENTION_RANGE,
} from './constants.ts';
import { MESSAGES } from './messages.ts';

// Delivery settings (spec §3 Distribution) and the delivery date window of spec §5.

/** The days a delivery may skip (spec §3 "weekends skipped"). */
export const EXCLUSION_DAYS = ['saturday', 'sunday'] as const;
export type TExclusionDay = (typeof EXCLUSION_DAYS)[number];

/** A wall-clock time, HH:mm (24 hours). */
export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written YYYY-MM-DD (2026-02-29 is not one). */
export const isCalendarDate = (value: string): boolean => {
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
};

/** True for a local date and time written YYYY-MM-DDTHH:mm. */
export const isLocalDateTime = (value: string): boolean => {
  const [date, time, ...rest] = value.split('T');
  return rest.length === 0 && !!date && !!time && isCalendarDate(date) && TIME_PATTERN.test(time);
};

const unique = <T>(values: T[]): T[] => [...new Set(values)];

/** A whole number from `min` to `max`, with one message for every way it can be wrong. */
const wholeNumber = (min: number, max: number, message: string, fallback: number) =>
  z
    .number({ error: message })
    .int({ message })
    .min(min, { message })
    .max(max, { message })
    .default(fallback);

export const ZDistributionSchema = z.object({
  repeat_period: z
    .enum(REPEAT_PERIODS, { error: MESSAGES.repeatPeriodInvalid })
    .default(DISTRIBUTION_DEFAULTS.repeat_period),
  repeat_every: z
    .number({ error: MESSAGES.repeatEveryMin })
    .int({ message: MESSAGES.repeatEveryMin })
    .min(1, { message: MESSAGES.repeatEveryMin })
    .default(DISTRIBUTION_DEFAULTS.repeat_every),
  /** HH:mm in CET (Europe/Rome). */
  time: z
    .string({ error: MESSAGES.deliveryTimeInvalid })
    .regex(TIME_PATTERN, { message: MESSAGES.deliveryTimeInvalid })
    .default(DISTRIBUTION_DEFAULTS.time),
  /** YYYY-MM-DD; any valid date for a draft, the delivery window is checked on publishing. */
  start_date: z
    .string({ error: MESSAGES.deliveryDateInvalid })
    .refine(isCalendarDate, { message: MESSAGES.deliveryDateInvalid })
    .nullable()
    .default(null),
  channels: z
    .array(z.enum(CHANNEL_KEYS, { error: MESSAGES.channelUnknown }), {
      error: MESSAGES.channelUnknown,
    })
    .transform(unique)
    .default([]),
  disabled_enrolment_opt_in: z
    .boolean({ error: MESSAGES.booleanInvalid })
    .default(DISTRIBUTION_DEFAULTS.disabled_enrolment_opt_in),
  exclusion_days: z
    .array(z.enum(EXCLUSION_DAYS, { error: MESSAGES.exclusionDayInvalid }), {
      error: MESSAGES.exclusionDayInvalid,
    })
    .transform(unique)
    .default([]),
  /**
   * Off (the default, spec §9): `time` is CET for everyone. On: `time` is read in each learner's
   * own time zone, so a learner in New York gets the 08:00 lesson at 08:00 New York time.
   */
  learner_time_zone: z.boolean({ error: MESSAGES.booleanInvalid }).default(false),
  /** A question answered wrong or not at all comes back (FSRS) until right twice in a row. */
  repeat_questions: z
    .boolean({ error: MESSAGES.booleanInvalid })
    .default(DISTRIBUTION_DEFAULTS.repeat_questions),
  /** The recall probability FSRS schedules repeats for, in percent. */
  target_retention: z
    .number({ error: MESSAGES.targetRetentionInvalid })
    .int({ error: MESSAGES.targetRetentionInvalid })
    .min(TARGET_RETENTION_RANGE.min, { error: MESSAGES.targetRetentionInvalid })
    .max(TARGET_RETENTION_RANGE.max, { error: MESSAGES.targetRetentionInvalid })
    .default(DISTRIBUTION_DEFAULTS.target_retention),
  /** Reminders of a lesson still unread (issue 28): 0 to 5. */
  reminder_count: wholeNumber(
    0,
    REMINDER_COUNT_MAX,
    MESSAGES.reminderCountRange,
    REMINDER_POLICY_DEFAULTS.reminder_count,
  ),
  /** Hours from the delivery to the first reminder, and between reminders. */
  reminder_interval_hours: wholeNumber(
    1,
    REMINDER_INTERVAL_HOURS_MAX,
    MESSAGES.reminderIntervalRange,
    REMINDER_POLICY_DEFAULTS.reminder_interval_hours,
  ),
  /** The learner is paused after this many consecutive unanswered lessons; 0: never. */
  auto_pause_after: wholeNumber(
    0,
    AUTO_PAUSE_AFTER_MAX,
    MESSAGES.autoPauseAfterRange,
    REMINDER_POLICY_DEFAULTS.auto_pause_after,
  ),
  /** YYYY-MM-DDTHH:mm in CET, or null for no closing time. */
  enrollment_close_time: z
    .string({ error: MESSAGES.enrollmentCloseTimeInvalid })
    .refine(isLocalDateTime, { message: MESSAGES.enrollmentCloseTimeInvalid })
    .nullable()
    .default(null),
});
export type TDistribution = z.infer<typeof ZDistributionSchema>;

export type TReminderPolicy = Pick<
  TDistribution,
  'reminder_count' | 'reminder_interval_hours' | 'auto_pause_after'
>;

/** A stored distribution's reminder policy; one saved before the policy keeps the old behaviour. */
export const reminderPolicyOf = (
  distribution: Partial<TReminderPolicy> | null | undefined,
): TReminderPolicy => ({
  reminder_count: distribution?.reminder_count ?? LEGACY_REMINDER_POLICY.reminder_count,
  reminder_interval_hours:
    distribution?.reminder_interval_hours ?? LEGACY_REMINDER_POLICY.reminder_interval_hours,
  auto_pause_after: distribution?.auto_pause_after ?? LEGACY_REMINDER_POLICY.auto_pause_after,
});
export type TDistributionInput = z.input<typeof ZDistributionSchema>;

const pad = (value: number, width = 2) => String(value).padStart(width, '0');
const formatDate = (year: number, month: number, day: number) =>
  `${pad(year, 4)}-${pad(month)}-${pad(day)}`;

/** The calendar date (YYYY-MM-DD) of an instant in the delivery time zone, Europe/Rome. */
export const deliveryCalendarDate = (instant: Date): string => {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: DELIVERY_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(instant);
  const part = (type: string) => Number(parts.find((entry) => entry.type === type)?.value);
  return formatDate(part('year'), part('month'), part('day'));
};

const splitDate = (date: string): [number, number, number] => {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  return [year, month, day];
};

/** A calendar date plus whole days. */
export const addCalendarDays = (date: string, days: number): string => {
  const [year, month, day] = splitDate(date);
  const moved = new Date(Date.UTC(year, month - 1, day + days));
  return formatDate(moved.getUTCFullYear(), moved.getUTCMonth() + 1, moved.getUTCDate());
};

/** A calendar date plus whole months; a day the target month lacks becomes its last day. */
export const addCalendarMonths = (date: string, months: number): string => {
  const [year, month, day] = splitDate(date);
  const first = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(
    Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0),
  ).getUTCDate();
  return formatDate(first.getUTCFullYear(), first.getUTCMonth() + 1, Math.min(day, lastDay));
};

/** The first and last allowed delivery dates: tomorrow to 3 months ahead, Europe/Rome days. */
export const deliveryDateWindow = (now: Date): { from: string; to: string } => {
  const today = deliveryCalendarDate(now);
  return {
    from: addCalendarDays(today, 1),
    to: addCalendarMonths(today, DELIVERY_WINDOW_MONTHS),
  };
};

/**
 * The delivery date rule of spec §5: required, and from tomorrow to 3 months ahead inclusive
 * in Europe/Rome calendar days. Answers the message to show, or null when the date is fine.
 */
export const validateDeliveryDate = (
  startDate: string | null | undefined,
  now: Date,
): string | null => {
  if (!startDate) return MESSAGES.deliveryDateRequired;
  if (!isCalendarDate(startDate)) return MESSAGES.deliveryDateInvalid;
  const { from, to } = deliveryDateWindow(now);
  return startDate < from || startDate > to ? MESSAGES.deliveryDateRange : null;
};
