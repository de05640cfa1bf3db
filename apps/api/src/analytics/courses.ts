import {
  engagementRate,
  moodOf,
  percentage,
  retentionRates,
  roundRate,
  zickScore,
} from '@ccp/schemas';
import type { TCourseInsight, TCourseStatus, TRetentionCounts } from '@ccp/schemas';
import type { Db } from '../db/index.ts';
import { courseRetentionCounts } from './retention.ts';
import { countedCourseList, courseSums, statusCounts } from './rollups.ts';
import type { ClassroomScope } from './scope.ts';

/** The counters of one course, summed over its enrolments (docs/metrics.md, "Per course"). */
export type CourseCounters = {
  days: number;
  invited: number;
  enrolled: number;
  sent: number;
  delivered: number;
  read: number;
  answers: number;
  correct: number;
  reminders: number;
  interacted: number;
  completed: number;
  dormant: number;
  retention: TRetentionCounts;
};

/** The course's retention (issue 28): right by now ÷ tried, and each outcome's share. */
const retentionFiguresOf = (counts: TRetentionCounts) => {
  const rates = retentionRates(counts);
  return {
    questionsTried: counts.tried,
    retention: rates.retention,
    retentionFirstTry: rates.firstTry,
    retentionAfterRepeat: rates.afterRepeat,
    retentionNotYet: rates.notYet,
  };
};

/** Every per-course figure from its counters; rates unrounded until the very end. */
export const courseFigures = (counters: CourseCounters) => {
  const { enrolled } = counters;
  const completionRate = percentage(counters.answers, counters.delivered);
  const successRate = percentage(counters.correct, counters.answers);
  const completion = percentage(counters.completed, enrolled);
  const progress = percentage(counters.read, enrolled * counters.days);
  const engagement = engagementRate({
    completionRate,
    successRate,
    remindersPerLearner: enrolled > 0 ? counters.reminders / enrolled : 0,
  });
  return {
    learners: enrolled,
    delivery: roundRate(percentage(counters.delivered, counters.sent)),
    completion: roundRate(completion),
    activity: roundRate(percentage(counters.interacted, enrolled)),
    progress: roundRate(progress),
    enrollment: roundRate(percentage(enrolled, counters.invited)),
    dormant: roundRate(percentage(counters.dormant, enrolled)),
    mood: moodOf(successRate, counters.answers),
    completionRate: roundRate(completionRate),
    activityRate: roundRate(percentage(counters.read, counters.delivered)),
    successRate: roundRate(successRate),
    engagementRate: roundRate(engagement),
    dormantLearners: counters.dormant,
    zick_score: roundRate(zickScore(completion, engagement, progress)),
    ...retentionFiguresOf(counters.retention),
  };
};

/** GET /api/v2/analytics/classrooms/{id}/courses/insights: every counted course, by name. */
export const courseInsights = async (
  db: Db,
  scope: ClassroomScope,
  now: Date,
): Promise<TCourseInsight[]> => {
  const courses = await countedCourseList(db, scope);
  const uuids = courses.map((course) => course.uuid);
  const [sums, retention] = await Promise.all([
    courseSums(db, uuids),
    courseRetentionCounts(db, uuids),
  ]);
  return Promise.all(
    courses.map(async (course) => {
      const sum = sums.get(course.uuid)!;
      const statuses = await statusCounts(db, course, now);
      return {
        uuid: course.uuid,
        name: course.name,
        status: course.status as TCourseStatus,
        ...courseFigures({
          days: course.days,
          invited: sum.invited,
          enrolled: sum.enrolled,
          sent: sum.lessons_sent,
          delivered: sum.lessons_delivered,
          read: sum.lessons_read,
          answers: sum.answers,
          correct: sum.answers_correct,
          reminders: sum.reminders,
          interacted: sum.interacted,
          completed: statuses.completed,
          dormant: statuses.dormant,
          retention: retention.get(course.uuid)!,
        }),
      };
    }),
  );
};
