import { ENGAGEMENT_STATUSES, INSIGHT_COURSE_STATUSES } from '@ccp/schemas';
import type { TEngagementStatus } from '@ccp/schemas';
import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';

import type { Db } from '../db/index.ts';
import { ALL_TIME, isAllTime } from './period.ts';
import type { Period } from './period.ts';
import { dormantSince, toCount } from './scope.ts';
import type { ClassroomScope } from './scope.ts';

// Reads of the maintained aggregates (migration 0006): a course's sums are one row of
// analytics_course_stats, its status counts one index-only pass over its enrolments, and
// distinct learners of a classroom one indexed count of analytics_classroom_learners.

export type CountedCourse = { uuid: string; name: string; status: string; days: number };

/** The counted courses of a classroom (one when the scope names it), by name, with N. */
export const countedCourseList = async (
  db: Db,
  scope: ClassroomScope,
): Promise<CountedCourse[]> => {
  let query = db
    .selectFrom('courses as c')
    .select(['c.uuid', 'c.name', 'c.status'])
    .select((eb) =>
      eb
        .selectFrom('lessons as ls')
        .whereRef('ls.course_uuid', '=', 'c.uuid')
        .select(sql<number>`count(DISTINCT ls.day)`.as('days'))
        .as('days'),
    )
    .where('c.company_uuid', '=', scope.companyUuid)
    .where('c.classroom_uuid', '=', scope.classroomUuid)
    .where('c.status', 'in', [...INSIGHT_COURSE_STATUSES])
    .where('c.deleted_at', 'is', null)
    .orderBy('c.name')
    .orderBy('c.uuid');
  if (scope.courseUuid) query = query.where('c.uuid', '=', scope.courseUuid);
  return (await query.execute()).map((row) => ({ ...row, days: toCount(row.days) }));
};

export type CourseSums = {
  invited: number;
  enrolled: number;
  reached: number;
  interacted: number;
  lessons_sent: number;
  lessons_failed: number;
  lessons_delivered: number;
  lessons_read: number;
  answers: number;
  answers_correct: number;
  answers_missed: number;
  reminders: number;
  learning_minutes: number;
};

const EMPTY_SUMS: CourseSums = {
  invited: 0,
  enrolled: 0,
  reached: 0,
  interacted: 0,
  lessons_sent: 0,
  lessons_failed: 0,
  lessons_delivered: 0,
  lessons_read: 0,
  answers: 0,
  answers_correct: 0,
  answers_missed: 0,
  reminders: 0,
  learning_minutes: 0,
};

/** Each course's row of analytics_course_stats (zeros for a course without enrolments). */
export const courseSums = async (
  db: Db,
  courseUuids: string[],
): Promise<Map<string, CourseSums>> => {
  const sums = new Map(courseUuids.map((uuid) => [uuid, { ...EMPTY_SUMS }]));
  if (courseUuids.length === 0) return sums;
  const { rows } = await sql<Record<string, unknown> & { course_uuid: string }>`
    SELECT * FROM analytics_course_stats WHERE course_uuid IN (${sql.join(courseUuids)})`.execute(
    db,
  );
  for (const row of rows) {
    const target = sums.get(row.course_uuid);
    if (!target) continue;
    for (const key of Object.keys(EMPTY_SUMS) as (keyof CourseSums)[]) {
      target[key] = toCount(row[key]);
    }
  }
  return sums;
};

/** The sum of each field over several courses. */
export const addSums = (all: Iterable<CourseSums>): CourseSums => {
  const total = { ...EMPTY_SUMS };
  for (const sums of all) {
    for (const key of Object.keys(EMPTY_SUMS) as (keyof CourseSums)[]) total[key] += sums[key];
  }
  return total;
};

export type StatusCounts = Record<TEngagementStatus, number> & { total: number };

export const emptyStatusCounts = (): StatusCounts => ({
  ...(Object.fromEntries(ENGAGEMENT_STATUSES.map((status) => [status, 0])) as Record<
    TEngagementStatus,
    number
  >),
  total: 0,
});

/**
 * `AND` the enrolment `s` belongs to the period: its run (first to last attempted send) overlaps
 * it. Nothing for all time.
 */
export const runInPeriod = (period: Period): RawBuilder<unknown> =>
  isAllTime(period)
    ? sql``
    : sql`AND s.run_start IS NOT NULL
        ${period.to ? sql`AND s.run_start < ${period.to}` : sql``}
        ${period.from ? sql`AND s.run_end >= ${period.from}` : sql``}`;

const completedOf = (course: { days: number }) =>
  course.days > 0 ? sql`s.lessons_read >= ${sql.lit(course.days)}` : sql`1 = 0`;

/**
 * A course's enrolled enrolments (of the period, when given) by engagement status now: the CASE
 * of `engagementStatus` spelled as disjoint conditions, in one index-only pass
 * (analytics_enrollment_stats_status_idx).
 */
export const statusCounts = async (
  db: Db,
  course: { uuid: string; days: number },
  now: Date,
  period: Period = ALL_TIME,
): Promise<StatusCounts> => {
  const since = dormantSince(now);
  const completed = completedOf(course);
  const open = sql`NOT (${completed}) AND s.unreach = 0`;
  const { rows } = await sql<Record<string, unknown>>`
    SELECT count(*) AS total,
      coalesce(sum(CASE WHEN ${completed} THEN 1 ELSE 0 END), 0) AS completed,
      coalesce(sum(CASE WHEN NOT (${completed}) AND s.unreach = 1 THEN 1 ELSE 0 END), 0) AS unreachable,
      coalesce(sum(CASE WHEN ${open} AND s.last_activity_at >= ${since} THEN 1 ELSE 0 END), 0) AS active,
      coalesce(sum(CASE WHEN ${open} AND (s.last_activity_at IS NULL OR s.last_activity_at < ${since})
        AND s.first_sent_at <= ${since} THEN 1 ELSE 0 END), 0) AS dormant
    FROM analytics_enrollment_stats s
    WHERE s.course_uuid = ${course.uuid} AND s.enrolled = 1 ${runInPeriod(period)}`.execute(db);
  const row = rows[0] ?? {};
  const counts = {
    completed: toCount(row.completed),
    unreachable: toCount(row.unreachable),
    active: toCount(row.active),
    dormant: toCount(row.dormant),
    total: toCount(row.total),
  };
  return {
    ...counts,
    not_started:
      counts.total - counts.completed - counts.unreachable - counts.active - counts.dormant,
  };
};

/**
 * The enrolled enrolments of a course that were sent a lesson (of the period, when given): how
 * many, and how many of them completed the course.
 */
export const periodCounts = async (
  db: Db,
  course: { uuid: string; days: number },
  period: Period,
) => {
  const scope = isAllTime(period) ? sql`AND s.reached = 1` : runInPeriod(period);
  const { rows } = await sql<Record<string, unknown>>`
    SELECT count(*) AS enrolments,
      coalesce(sum(CASE WHEN ${completedOf(course)} THEN 1 ELSE 0 END), 0) AS completed
    FROM analytics_enrollment_stats s
    WHERE s.course_uuid = ${course.uuid} AND s.enrolled = 1 ${scope}`.execute(db);
  const row = rows[0] ?? {};
  return {
    enrolments: toCount(row.enrolments),
    completed: toCount(row.completed),
  };
};

/** Status counts summed over courses. */
export const addStatusCounts = (all: Iterable<StatusCounts>): StatusCounts => {
  const total = emptyStatusCounts();
  for (const counts of all) {
    for (const key of Object.keys(total) as (keyof StatusCounts)[]) total[key] += counts[key];
  }
  return total;
};

/**
 * Distinct learners of the classroom's counted courses: sent a lesson, and of them who read one.
 * With a period: learners whose run across those courses (first to last send) overlaps it, and
 * of them whose activity does. One pass over analytics_classroom_learners_counts_idx.
 */
export const classroomLearnerCounts = async (
  db: Db,
  classroomUuid: string,
  period: Period = ALL_TIME,
) => {
  const running = isAllTime(period)
    ? sql`1 = 1`
    : sql`l.run_start IS NOT NULL
        ${period.to ? sql`AND l.run_start < ${period.to}` : sql``}
        ${period.from ? sql`AND l.run_end >= ${period.from}` : sql``}`;
  const active = isAllTime(period)
    ? sql`l.interacted > 0`
    : sql`l.first_activity_at IS NOT NULL
        ${period.to ? sql`AND l.first_activity_at < ${period.to}` : sql``}
        ${period.from ? sql`AND l.last_activity_at >= ${period.from}` : sql``}`;
  const { rows } = await sql<{ reached: unknown; interacted: unknown }>`
    SELECT coalesce(sum(CASE WHEN ${running} THEN 1 ELSE 0 END), 0) AS reached,
      coalesce(sum(CASE WHEN ${running} AND ${active} THEN 1 ELSE 0 END), 0) AS interacted
    FROM analytics_classroom_learners l
    WHERE l.classroom_uuid = ${classroomUuid} AND l.reached > 0`.execute(db);
  return { reached: toCount(rows[0]?.reached), interacted: toCount(rows[0]?.interacted) };
};

/** Distinct learners who completed at least one of the courses. */
export const completedLearners = async (
  db: Db,
  courses: { uuid: string; days: number }[],
): Promise<number> => {
  const parts = courses
    .filter((course) => course.days > 0)
    .map(
      (course) => sql`SELECT s.learner_uuid FROM analytics_enrollment_stats s
        WHERE s.course_uuid = ${course.uuid} AND s.enrolled = 1 AND ${completedOf(course)}`,
    );
  if (parts.length === 0) return 0;
  const { rows } = await sql<{ total: unknown }>`
    SELECT count(*) AS total FROM (${sql.join(parts, sql` UNION `)}) completed`.execute(db);
  return toCount(rows[0]?.total);
};
