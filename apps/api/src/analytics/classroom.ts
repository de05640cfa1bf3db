import { percentage, roundRate } from '@ccp/schemas';
import type {
  TClassroomAnalytics,
  TClassroomStatistics,
  TDistributionChart,
  TLearnersAnalytics,
  TLearnersStatus,
} from '@ccp/schemas';
import { sql } from 'kysely';

import type { Db } from '../db/index.ts';
import { daysBetween, isAllTime, romeDate } from './period.ts';
import type { Period } from './period.ts';
import {
  addStatusCounts,
  addSums,
  classroomLearnerCounts,
  completedLearners,
  countedCourseList,
  courseSums,
  periodCounts,
  statusCounts,
} from './rollups.ts';
import type { StatusCounts } from './rollups.ts';
import { countedCourses, hoursInPeriod, toCount } from './scope.ts';
import type { ClassroomScope } from './scope.ts';

// Classroom figures (docs/metrics.md, "Classroom"), all read from the maintained aggregates of
// migration 0006: course sums, per-enrolment rows through a covering index, hour buckets.

/** GET /api/v1/analytics/classrooms/{id}: learners, active learners, completion and progress. */
export const classroomAnalytics = async (
  db: Db,
  scope: ClassroomScope,
  period: Period,
): Promise<TClassroomAnalytics> => {
  const courses = await countedCourseList(db, scope);
  let enrolments = 0;
  let completed = 0;
  let lessonDays = 0;
  let runningCourses = 0;
  for (const course of courses) {
    const counts = await periodCounts(db, course, period);
    if (counts.enrolments > 0) runningCourses += 1;
    enrolments += counts.enrolments;
    completed += counts.completed;
    lessonDays += counts.enrolments * course.days;
  }

  const learners = await classroomLearnerCounts(db, scope.classroomUuid, period);
  let lessonsRead: number;
  if (isAllTime(period)) {
    lessonsRead = addSums(
      (
        await courseSums(
          db,
          courses.map((course) => course.uuid),
        )
      ).values(),
    ).lessons_read;
  } else {
    // The lessons read of the sends scheduled in the period, from the hour buckets.
    const { rows } = await sql<{ lessons_read: unknown }>`
      SELECT coalesce(sum(h.lessons_read), 0) AS lessons_read FROM analytics_course_hours h
      WHERE h.course_uuid IN (${countedCourses(scope)}) ${hoursInPeriod(period)}`.execute(db);
    lessonsRead = toCount(rows[0]?.lessons_read);
  }
  return {
    active_learners_rate: roundRate(percentage(learners.interacted, learners.reached)),
    completion_rate: roundRate(percentage(completed, enrolments)),
    learners: learners.reached,
    progress_rate: roundRate(percentage(lessonsRead, lessonDays)),
    // With dates, the counted courses with an enrolment running in the period.
    total_courses: isAllTime(period) ? courses.length : runningCourses,
  };
};

/** GET /api/v2/analytics/classrooms/{id}/statistics: totals over all time. */
export const classroomStatistics = async (
  db: Db,
  scope: ClassroomScope,
): Promise<TClassroomStatistics> => {
  const courses = await countedCourseList(db, scope);
  const sums = addSums(
    (
      await courseSums(
        db,
        courses.map((course) => course.uuid),
      )
    ).values(),
  );
  const learners = await classroomLearnerCounts(db, scope.classroomUuid);
  return {
    totalActiveLearners: learners.interacted,
    coursesAttended: sums.interacted,
    lessonsAttended: sums.lessons_read,
    learningTime: sums.learning_minutes,
  };
};

/** GET /api/v1/analytics/classrooms/{id}/learners: learners who interacted, who completed. */
export const learnersAnalytics = async (
  db: Db,
  scope: ClassroomScope,
): Promise<TLearnersAnalytics> => ({
  interacted: (await classroomLearnerCounts(db, scope.classroomUuid)).interacted,
  completed: await completedLearners(db, await countedCourseList(db, scope)),
});

/**
 * GET /api/v2/analytics/classrooms/{id}/learners/status: enrolments by engagement status now;
 * with dates, only the enrolments whose run overlaps the period.
 */
export const learnersStatus = async (
  db: Db,
  scope: ClassroomScope,
  period: Period,
  now: Date,
): Promise<TLearnersStatus> => {
  const counts: StatusCounts[] = [];
  for (const course of await countedCourseList(db, scope)) {
    counts.push(await statusCounts(db, course, now, period));
  }
  return addStatusCounts(counts);
};

/**
 * GET /api/v{1,2}/analytics/classrooms/{id}/distribution: per Rome day, the lessons scheduled
 * that day that were delivered, read and answered; per channel, the lessons delivered.
 */
export const distributionChart = async (
  db: Db,
  scope: ClassroomScope,
  period: Period & { startDate: string; endDate: string },
): Promise<TDistributionChart> => {
  const { rows } = await sql<Record<string, unknown> & { hour: string; channel: string }>`
    SELECT h.hour, h.channel, sum(h.lessons_delivered) AS delivered,
      sum(h.lessons_read) AS read_count, sum(h.answers) AS answered
    FROM analytics_course_hours h
    WHERE h.course_uuid IN (${countedCourses(scope)}) ${hoursInPeriod(period)}
    GROUP BY h.hour, h.channel`.execute(db);
  const days = new Map(
    daysBetween(period.startDate, period.endDate).map((date) => [
      date,
      { date, delivered: 0, read: 0, answered: 0 },
    ]),
  );
  const channels = new Map<string, number>();
  for (const row of rows) {
    const day = days.get(romeDate(new Date(`${row.hour}:00:00.000Z`)));
    if (!day) continue;
    day.delivered += toCount(row.delivered);
    day.read += toCount(row.read_count);
    day.answered += toCount(row.answered);
    channels.set(row.channel, (channels.get(row.channel) ?? 0) + toCount(row.delivered));
  }
  return {
    start_date: period.startDate,
    end_date: period.endDate,
    list: [...days.values()],
    channels: [...channels.entries()]
      .filter(([, delivered]) => delivered > 0)
      .map(([channel, delivered]) => ({ channel, delivered }))
      .sort((a, b) => b.delivered - a.delivered || a.channel.localeCompare(b.channel)),
  };
};
