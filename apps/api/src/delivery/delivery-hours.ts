import { DEFAULT_DELIVERY_HOURS, DELIVERY_TIME_ZONE, countryOfTimeZone } from '@ccp/schemas';
import type { TDeliveryHours, TDistribution, TLocale } from '@ccp/schemas';
import type { Kysely } from 'kysely';

import type { Database } from '../db/types.ts';
import { holidayLookup } from './holidays.ts';
import type { HolidayLookup } from './holidays.ts';
import type { LearnerHours } from './schedule.ts';

// The company's delivery hours (issue 28): stored on the company row (0034), read by the planner
// and the wizard's calendar, written by PUT /api/v1/company/delivery-hours. And for planning, each
// learner's hours from them: the learner's zone (their own, else the company's), the quiet hours,
// and the holidays of the learner's country (from their zone, else the company's holiday country).

type Executor = Kysely<Database>;

/** A company's delivery hours; the defaults (CET, none) for a company that set nothing. */
export const loadDeliveryHours = async (
  db: Executor,
  companyUuid: string,
): Promise<TDeliveryHours> => {
  const row = await db
    .selectFrom('companies')
    .select(['time_zone', 'quiet_hours_start', 'quiet_hours_end', 'holiday_country'])
    .where('uuid', '=', companyUuid)
    .executeTakeFirst();
  if (!row) return DEFAULT_DELIVERY_HOURS;
  return {
    time_zone: row.time_zone ?? DELIVERY_TIME_ZONE,
    quiet_hours:
      row.quiet_hours_start && row.quiet_hours_end
        ? { start: row.quiet_hours_start, end: row.quiet_hours_end }
        : null,
    holiday_country: row.holiday_country ?? null,
  };
};

/** Stores a company's delivery hours. */
export const saveDeliveryHours = async (
  db: Executor,
  companyUuid: string,
  hours: TDeliveryHours,
): Promise<void> => {
  await db
    .updateTable('companies')
    .set({
      // The default is stored as null, so a later change of the default would reach the company.
      time_zone: hours.time_zone === DELIVERY_TIME_ZONE ? null : hours.time_zone,
      quiet_hours_start: hours.quiet_hours?.start ?? null,
      quiet_hours_end: hours.quiet_hours?.end ?? null,
      holiday_country: hours.holiday_country,
    })
    .where('uuid', '=', companyUuid)
    .execute();
};

/** The company's published courses still to start: new delivery hours replan their lessons. */
export const scheduledCourseUuids = async (db: Executor, companyUuid: string): Promise<string[]> =>
  (
    await db
      .selectFrom('courses')
      .select('uuid')
      .where('company_uuid', '=', companyUuid)
      .where('status', '=', 'scheduled')
      .where('deleted_at', 'is', null)
      .execute()
  ).map((row) => row.uuid);

/** A learner's hours and the key of everything they depend on (learners sharing it share slots). */
export type HoursOf = (learnerTimeZone: string | null) => { key: string; hours?: LearnerHours };

const NO_HOURS: ReturnType<HoursOf> = { key: '' };

/** Whether a course under a company's settings plans by learner at all. */
export const plansByLearner = (
  company: TDeliveryHours,
  distribution: Pick<TDistribution, 'learner_time_zone'> | null,
): boolean =>
  distribution?.learner_time_zone === true || !!company.quiet_hours || !!company.holiday_country;

/**
 * Each learner's hours under a company's settings and a course's Distribution, for learners of
 * the given zones. When neither asks for anything (CET course, no quiet hours, no holidays) every
 * learner has none: the schedule of spec §9, unchanged. The holiday data of every country met is
 * loaded here, once, so the lookups after it are synchronous.
 */
export const learnerHoursResolver = async (
  company: TDeliveryHours,
  distribution: Pick<TDistribution, 'learner_time_zone'> | null,
  timeZones: Iterable<string | null>,
  language: TLocale = 'en',
): Promise<HoursOf> => {
  if (!plansByLearner(company, distribution)) return () => NO_HOURS;
  const localTime = distribution?.learner_time_zone === true;
  const lookups = new Map<string, HolidayLookup | null>();
  if (company.holiday_country) {
    const countries = new Set([company.holiday_country]);
    for (const zone of new Set(timeZones)) {
      const country = countryOfTimeZone(zone);
      if (country) countries.add(country);
    }
    for (const country of countries) lookups.set(country, await holidayLookup(country, language));
  }
  const cache = new Map<string, ReturnType<HoursOf>>();
  const resolve: HoursOf = (learnerTimeZone) => {
    const zone = learnerTimeZone ?? company.time_zone;
    const country = company.holiday_country
      ? (countryOfTimeZone(learnerTimeZone) ?? company.holiday_country)
      : null;
    const key = `${zone}|${country ?? ''}`;
    let entry = cache.get(key);
    if (!entry) {
      // A country date-holidays does not know follows the company's holidays.
      const lookup = country
        ? (lookups.get(country) ?? lookups.get(company.holiday_country ?? '') ?? null)
        : null;
      entry = {
        key,
        hours: { timeZone: zone, localTime, quiet: company.quiet_hours, holiday: lookup },
      };
      cache.set(key, entry);
    }
    return entry;
  };
  return resolve;
};
