import { DORMANT_AFTER_DAYS, INSIGHT_COURSE_STATUSES } from '@ccp/schemas';
import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';

import { DAY_MS } from '../lib/clock.ts';
import type { Period } from './period.ts';

// SQL pieces shared by the analytics queries. They read the aggregates of migration 0006
// (`analytics_enrollment_stats` as `s`, `analytics_course_hours` as `h`) and, for date-filtered
// learner figures, `lesson_deliveries` as `d`. Every piece is portable SQL (SQLite and Postgres).
// `s.unreach` is the stored "cannot be reached" flag: reachability unreachable, or sends failed
// and none delivered.

/** Which courses a classroom figure counts: active and delivered, not archived (spec §4). */
export type ClassroomScope = {
  companyUuid: string;
  classroomUuid: string;
  /** The insights course selector: one course of the classroom. */
  courseUuid?: string | undefined;
};

/** `SELECT uuid` of the counted courses of a classroom. */
export const countedCourses = (scope: ClassroomScope): RawBuilder<unknown> => sql`
  SELECT c.uuid FROM courses c
  WHERE c.company_uuid = ${scope.companyUuid} AND c.classroom_uuid = ${scope.classroomUuid}
    AND c.status IN (${sql.join([...INSIGHT_COURSE_STATUSES])}) AND c.deleted_at IS NULL
    ${scope.courseUuid ? sql`AND c.uuid = ${scope.courseUuid}` : sql``}`;

/** `(course_uuid, days)`: the number of lesson days of each of the given courses. */
export const lessonDays = (courses: RawBuilder<unknown>): RawBuilder<unknown> => sql`
  (SELECT ls.course_uuid, count(DISTINCT ls.day) AS days FROM lessons ls
   WHERE ls.course_uuid IN (${courses}) GROUP BY ls.course_uuid)`;

/**
 * Enrolment statuses of a learner who enrolled (with `enrolled_at` set): a learner dropped after
 * enrolling keeps the lessons already sent. Mirrored as `s.enrolled` by migration 0006.
 */
export const ENROLLED_STATUSES = ['enrolled', 'completed', 'dropped'] as const;

/**
 * Lesson sends the scheduler has attempted and settled: the ones that count as sent (one it still
 * holds, `sending`, counts once it settles; migration 0046).
 */
export const SENT_STATUSES = ['sent', 'failed'] as const;

/** The instant before which a learner without activity counts as dormant. */
export const dormantSince = (now: Date): string =>
  new Date(now.getTime() - DORMANT_AFTER_DAYS * DAY_MS).toISOString();

/** Has the enrolment `s` read every lesson day (`n.days`) of its course. */
export const completedCourse = sql`(coalesce(n.days, 0) > 0 AND s.lessons_read >= n.days)`;

/**
 * The engagement status of the enrolment `s` (docs/metrics.md, "Learner status"); the first
 * that applies wins. Needs `n.days` of its course.
 */
export const engagementStatus = (now: Date): RawBuilder<string> => {
  const since = dormantSince(now);
  return sql<string>`CASE
    WHEN ${completedCourse} THEN 'completed'
    WHEN s.unreach = 1 THEN 'unreachable'
    WHEN s.last_activity_at >= ${since} THEN 'active'
    WHEN s.first_sent_at <= ${since} THEN 'dormant'
    ELSE 'not_started' END`;
};

/** `AND h.hour` within the period: Rome days start on whole UTC hours, so buckets never straddle. */
export const hoursInPeriod = (period: Period): RawBuilder<unknown> =>
  sql`${period.from ? sql`AND h.hour >= ${period.from.slice(0, 13)}` : sql``}
    ${period.to ? sql`AND h.hour < ${period.to.slice(0, 13)}` : sql``}`;

/** Every number a query answers as a count or sum; Postgres sums come back as strings at times. */
export const toCount = (value: unknown): number => {
  const number = Number(value ?? 0);
  return Number.isFinite(number) ? number : 0;
};
