import type { TCourseLearner, TCourseLearnerFilter } from '@ccp/schemas';
import { sql } from 'kysely';

import type { Db } from '../db/index.ts';
import { offsetOf } from '../lib/pagination.ts';
import type { PageRequest } from '../lib/pagination.ts';
import { learnerRetention } from './retention.ts';
import { engagementStatus, toCount } from './scope.ts';

/**
 * GET …/courses/{courseId}/learners: the course's enrolled learners with the status its figures
 * count them in (docs/metrics.md "Learner status"), narrowed to one status or to those who read a
 * lesson (`interacted`) or to those paused or stopped (`paused`, issue 28), by name: the count and
 * the page's keys from the enrolment aggregates, then the page's rows whole.
 */
export const courseLearners = async (
  db: Db,
  courseUuid: string,
  filter: TCourseLearnerFilter | undefined,
  page: PageRequest,
  now: Date,
): Promise<{ rows: TCourseLearner[]; total: number }> => {
  const status = engagementStatus(now);
  const lessonDays = sql`LEFT JOIN (SELECT ls.course_uuid, count(DISTINCT ls.day) AS days FROM lessons ls
      WHERE ls.course_uuid = ${courseUuid} GROUP BY ls.course_uuid) n ON n.course_uuid = s.course_uuid`;
  const enrolmentRow = sql`JOIN enrollments e ON e.uuid = s.enrollment_uuid`;
  // What the filter reads, and the joins it needs beside the aggregates. The count and the page's
  // keys join only those: every enrolment has its enrolment row and learner (foreign keys, on
  // delete cascade), and the lesson days, one row per course, only decide a status. Joining them
  // all for each of 20,000 enrolments, and sorting their whole rows, cost 90–100 ms of CPU a
  // page; only the page's 25 are read whole (issue 32).
  const narrowing =
    filter === undefined
      ? { joins: sql``, where: sql`` }
      : filter === 'interacted'
        ? { joins: sql``, where: sql`AND s.interacted = 1` }
        : filter === 'paused'
          ? { joins: enrolmentRow, where: sql`AND e.pause_reason IS NOT NULL` }
          : { joins: lessonDays, where: sql`AND ${status} = ${filter}` };
  const listed = sql`WHERE s.course_uuid = ${courseUuid} AND s.enrolled = 1 ${narrowing.where}`;
  const counted = await sql<{ total: unknown }>`SELECT count(*) AS total
    FROM analytics_enrollment_stats s ${narrowing.joins} ${listed}`.execute(db);
  const total = toCount(counted.rows[0]?.total);
  if (total === 0) return { rows: [], total };
  const { rows: keys } = await sql<{ uuid: string }>`SELECT l.uuid
    FROM analytics_enrollment_stats s JOIN learners l ON l.uuid = s.learner_uuid ${narrowing.joins} ${listed}
    ORDER BY l.last_name, l.first_name, l.uuid
    LIMIT ${page.perPage} OFFSET ${offsetOf(page)}`.execute(db);
  if (keys.length === 0) return { rows: [], total };
  const { rows } = await sql<{
    uuid: string;
    first_name: string;
    last_name: string;
    email: string | null;
    status: TCourseLearner['status'];
    lessons_read: unknown;
    days: unknown;
    learning_minutes: unknown;
    last_activity_at: string | null;
    pause_reason: string | null;
    answers: unknown;
    answers_missed: unknown;
    answers_correct: unknown;
    repeat_right: unknown;
  }>`SELECT l.uuid, l.first_name, l.last_name, l.email, ${status} AS status, s.lessons_read,
      coalesce(n.days, 0) AS days, s.learning_minutes, s.last_activity_at, e.pause_reason,
      s.answers, s.answers_missed, s.answers_correct, s.repeat_right
    FROM analytics_enrollment_stats s
    JOIN learners l ON l.uuid = s.learner_uuid
    ${enrolmentRow}
    ${lessonDays}
    WHERE s.course_uuid = ${courseUuid}
      AND s.learner_uuid IN (${sql.join(keys.map((key) => key.uuid))})`.execute(db);
  // One enrolment per course and learner (enrollments_course_learner_uq): a row per key.
  const byUuid = new Map(rows.map((row) => [row.uuid, row]));
  const inOrder = keys.flatMap(({ uuid }) => byUuid.get(uuid) ?? []);
  return {
    total,
    rows: inOrder.map((row) => ({
      uuid: row.uuid,
      first_name: row.first_name,
      last_name: row.last_name,
      email: row.email,
      status: row.status,
      lessons_read: toCount(row.lessons_read),
      lessons_total: toCount(row.days),
      learning_time: toCount(row.learning_minutes),
      last_activity_at: row.last_activity_at,
      pause_reason: row.pause_reason,
      ...learnerRetention(row),
    })),
  };
};
