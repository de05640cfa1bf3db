import { z } from 'zod';

import { dataEnvelope } from './common.ts';
import { DELIVERY_TIME_ZONE } from './constants.ts';
import { TIME_PATTERN } from './course-distribution.ts';
import { MESSAGES } from './messages.ts';
import { normalizeTimeZone } from './time-zone.ts';

// The company's delivery hours (issue 28, "The learner's hours"): its own time zone (the one a
// learner without their own is in), quiet hours in each learner's local time, and the country
// whose public holidays delay lessons. Each delays a lesson, never drops it (docs/decisions.md).

/** An IANA time zone, normalized to Intl's spelling ('america/new_york' → 'America/New_York'). */
export const ZTimeZoneSchema = z
  .string({ error: MESSAGES.timeZoneInvalid })
  .transform((value, ctx) => {
    const zone = normalizeTimeZone(value);
    if (zone === null) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.timeZoneInvalid, input: value });
      return z.NEVER;
    }
    return zone;
  });

/** A learner's own time zone; empty or absent means none (the phone's or the company's applies). */
export const ZLearnerTimeZoneSchema = z
  .string({ error: MESSAGES.timeZoneInvalid })
  .nullish()
  .transform((value) => value?.trim() || null)
  .pipe(ZTimeZoneSchema.nullable());

const wallTime = z
  .string({ error: MESSAGES.quietHoursInvalid })
  .regex(TIME_PATTERN, { message: MESSAGES.quietHoursInvalid });

/** From `start` to `end` in the learner's local time; 20:00–08:00 spans midnight. */
export const ZQuietHoursSchema = z
  .object({ start: wallTime, end: wallTime }, { error: MESSAGES.quietHoursInvalid })
  .refine((hours) => hours.start !== hours.end, {
    message: MESSAGES.quietHoursInvalid,
    path: ['end'],
  });
export type TQuietHours = z.infer<typeof ZQuietHoursSchema>;

/** An ISO 3166-1 alpha-2 country, upper-cased; which ones have holidays the API checks. */
const ZHolidayCountrySchema = z
  .string({ error: MESSAGES.holidayCountryUnknown })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, { message: MESSAGES.holidayCountryUnknown });

export const ZDeliveryHoursSchema = z.object({
  /** The zone of learners without their own; Europe/Rome (CET, spec §9) by default. */
  time_zone: ZTimeZoneSchema.default(DELIVERY_TIME_ZONE),
  /** No lesson goes out inside them: it waits for their end. Null: none. */
  quiet_hours: ZQuietHoursSchema.nullable().default(null),
  /**
   * Public holidays delay lessons to the next working day: a learner's own country's (from their
   * time zone), else this country's. Null: holidays do not delay.
   */
  holiday_country: ZHolidayCountrySchema.nullable().default(null),
});
export type TDeliveryHours = z.infer<typeof ZDeliveryHoursSchema>;
export type TDeliveryHoursInput = z.input<typeof ZDeliveryHoursSchema>;

/** Before a company sets anything: CET, no quiet hours, no holidays (today's behaviour). */
export const DEFAULT_DELIVERY_HOURS: TDeliveryHours = {
  time_zone: DELIVERY_TIME_ZONE,
  quiet_hours: null,
  holiday_country: null,
};

/** `PUT /api/v1/company/delivery-hours`. */
export const ZUpdateDeliveryHoursRequestSchema = ZDeliveryHoursSchema;

/** `GET|PUT /api/v1/company/delivery-hours`: the settings and the countries holidays exist for. */
export const ZDeliveryHoursResponseSchema = dataEnvelope(
  z.object({
    time_zone: z.string(),
    quiet_hours: z.object({ start: z.string(), end: z.string() }).nullable(),
    holiday_country: z.string().nullable(),
    holiday_countries: z.array(z.string()),
  }),
);
export type TDeliveryHoursResponse = z.infer<typeof ZDeliveryHoursResponseSchema>['data'];
