import { SUBSCRIPTION_FUNCTIONS } from '@ccp/schemas';
import type { TSubscriptionFunctionKey, TUsagePeriod } from '@ccp/schemas';

import type { Db } from '../db/index.ts';

/** The current calendar month in UTC as ISO bounds: `from` inclusive, `to` exclusive. */
export const monthBounds = (now: Date): { from: string; to: string } => {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return {
    from: new Date(Date.UTC(year, month, 1)).toISOString(),
    to: new Date(Date.UTC(year, month + 1, 1)).toISOString(),
  };
};

export const usagePeriodOf = (key: TSubscriptionFunctionKey): TUsagePeriod =>
  SUBSCRIPTION_FUNCTIONS[key].period;

const countLearners = async (db: Db, companyUuid: string): Promise<number> => {
  const row = await db
    .selectFrom('learners')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('company_uuid', '=', companyUuid)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
};

/**
 * Seats taken: active (not deactivated) creators plus pending invitations, which hold a seat
 * until accepted, revoked or expired (issue 17).
 */
export const countCreators = async (db: Db, companyUuid: string, now: Date): Promise<number> => {
  const [users, invitations] = await Promise.all([
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('company_uuid', '=', companyUuid)
      .where('deactivated_at', 'is', null)
      .executeTakeFirst(),
    db
      .selectFrom('invitations')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('company_uuid', '=', companyUuid)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now.toISOString())
      .executeTakeFirst(),
  ]);
  return Number(users?.n ?? 0) + Number(invitations?.n ?? 0);
};

// A lesson is one day of a course, whatever its languages; it counts in the month its first
// language version was created, so translating it later does not count it again.
/**
 * Lesson days of the company's non-archived courses first created in [from, to), optionally
 * leaving one course out (the one being saved, whose days the caller counts from its new body).
 */
export const countLessonDays = async (
  db: Db,
  companyUuid: string,
  { from, to, excludeCourseUuid }: { from: string; to: string; excludeCourseUuid?: string },
): Promise<number> => {
  let days = db
    .selectFrom('lessons')
    .innerJoin('courses', 'courses.uuid', 'lessons.course_uuid')
    .select(['lessons.course_uuid', 'lessons.day'])
    .where('courses.company_uuid', '=', companyUuid)
    .where('courses.deleted_at', 'is', null)
    .groupBy(['lessons.course_uuid', 'lessons.day'])
    .having((eb) =>
      eb.and([
        eb(eb.fn.min('lessons.created_at'), '>=', from),
        eb(eb.fn.min('lessons.created_at'), '<', to),
      ]),
    );
  if (excludeCourseUuid) days = days.where('courses.uuid', '!=', excludeCourseUuid);
  const row = await db
    .selectFrom(days.as('days'))
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
};

/** The channel keys of a stored distribution (none when it is missing or unreadable). */
export const channelsOf = (distribution: string | null): string[] => {
  if (!distribution) return [];
  try {
    const parsed = JSON.parse(distribution) as { channels?: unknown };
    return Array.isArray(parsed.channels)
      ? parsed.channels.filter((key): key is string => typeof key === 'string')
      : [];
  } catch {
    return [];
  }
};

/** Distinct channel keys in the distributions of the company's non-archived courses. */
export const channelsInUse = async (
  db: Db,
  companyUuid: string,
  excludeCourseUuid?: string,
): Promise<Set<string>> => {
  let query = db
    .selectFrom('courses')
    .select('distribution')
    .where('company_uuid', '=', companyUuid)
    .where('deleted_at', 'is', null)
    .where('distribution', 'is not', null);
  if (excludeCourseUuid) query = query.where('uuid', '!=', excludeCourseUuid);
  const rows = await query.execute();
  return new Set(rows.flatMap((row) => channelsOf(row.distribution)));
};

const sumUsageEventsThisMonth = async (
  db: Db,
  companyUuid: string,
  key: TSubscriptionFunctionKey,
  now: Date,
): Promise<number> => {
  const { from, to } = monthBounds(now);
  const row = await db
    .selectFrom('usage_events')
    .select((eb) => eb.fn.sum<number | string | null>('amount').as('n'))
    .where('company_uuid', '=', companyUuid)
    .where('function_key', '=', key)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
};

/**
 * How much of a plan function a company uses now (`total` functions) or this UTC calendar month
 * (`month` functions; see SUBSCRIPTION_FUNCTIONS):
 * - learners: non-archived learners; creator-seats: active creators and pending invitations;
 * - lessons: lessons (distinct course + day) first created this month in non-archived courses;
 * - distribution-channels: distinct channel keys in the non-archived courses' distributions;
 * - a-i-transformer / a-i-translator: the sum of this month's usage_events amounts;
 * - learner-portal / exclusion-days: 0 (access switches, nothing to count).
 */
export const usageOf = async (
  db: Db,
  companyUuid: string,
  key: TSubscriptionFunctionKey,
  now: Date,
): Promise<number> => {
  switch (key) {
    case 'learners':
      return countLearners(db, companyUuid);
    case 'creator-seats':
      return countCreators(db, companyUuid, now);
    case 'lessons':
      return countLessonDays(db, companyUuid, monthBounds(now));
    case 'distribution-channels':
      return (await channelsInUse(db, companyUuid)).size;
    case 'a-i-transformer':
    case 'a-i-translator':
      return sumUsageEventsThisMonth(db, companyUuid, key, now);
    case 'learner-portal':
    case 'exclusion-days':
      return 0;
  }
};
