import { retentionRates } from '@ccp/schemas';
import type { TCourseQuestion, TRetentionCounts } from '@ccp/schemas';
import { sql } from 'kysely';

import type { Db } from '../db/index.ts';
import { toCount } from './scope.ts';

// The retention insight (issue 28, docs/metrics.md "Retention") from the per-question aggregate
// of migration 0040: a course is at most 30 rows of analytics_question_stats, whatever its size.

const NONE: TRetentionCounts = { tried: 0, firstTry: 0, afterRepeat: 0 };

/**
 * An enrolment's retention counts (docs/metrics.md "Retention"): tried is answered or missed,
 * right on the first try is the lesson's right answers, 0040 counts those right after repetition.
 */
export const retentionCountsOf = (row: Readonly<Record<string, unknown>>): TRetentionCounts => ({
  tried: toCount(row.answers) + toCount(row.answers_missed),
  firstTry: toCount(row.answers_correct),
  afterRepeat: toCount(row.repeat_right),
});

/**
 * An enrolment's retention as the learners table and the statistics export name it (snake_case,
 * docs/metrics.md): its counts and right by now ÷ tried.
 */
export const learnerRetention = (row: Readonly<Record<string, unknown>>) => {
  const counts = retentionCountsOf(row);
  return {
    questions_tried: counts.tried,
    right_first_try: counts.firstTry,
    right_after_repeat: counts.afterRepeat,
    retention: retentionRates(counts).retention,
  };
};

/** Each course's questions tried, right on the first try and right after repetition. */
export const courseRetentionCounts = async (
  db: Db,
  courseUuids: string[],
): Promise<Map<string, TRetentionCounts>> => {
  const counts = new Map(courseUuids.map((uuid) => [uuid, { ...NONE }]));
  if (courseUuids.length === 0) return counts;
  const { rows } = await sql<{
    course_uuid: string;
    tried: unknown;
    first_try_right: unknown;
    repeat_right: unknown;
  }>`SELECT q.course_uuid, sum(q.tried) AS tried, sum(q.first_try_right) AS first_try_right,
      sum(q.repeat_right) AS repeat_right
    FROM analytics_question_stats q
    WHERE q.course_uuid IN (${sql.join(courseUuids)})
    GROUP BY q.course_uuid`.execute(db);
  for (const row of rows) {
    counts.set(row.course_uuid, {
      tried: toCount(row.tried),
      firstTry: toCount(row.first_try_right),
      afterRepeat: toCount(row.repeat_right),
    });
  }
  return counts;
};

/**
 * GET …/courses/{courseId}/questions: every lesson day's question of the course, in day order,
 * with how its tries ended; a day nobody tried yet has zeros. Titles in the primary language.
 */
export const courseQuestions = async (db: Db, courseUuid: string): Promise<TCourseQuestion[]> => {
  const [lessons, stats] = await Promise.all([
    db
      .selectFrom('lessons as ls')
      .leftJoin('course_languages as cl', (join) =>
        join
          .onRef('cl.course_uuid', '=', 'ls.course_uuid')
          .onRef('cl.language_uuid', '=', 'ls.language_uuid'),
      )
      .select(['ls.day', 'ls.title', 'cl.is_primary'])
      .where('ls.course_uuid', '=', courseUuid)
      .orderBy('ls.day')
      .execute(),
    sql<{ day: unknown; tried: unknown; first_try_right: unknown; repeat_right: unknown }>`
      SELECT q.day, q.tried, q.first_try_right, q.repeat_right
      FROM analytics_question_stats q WHERE q.course_uuid = ${courseUuid}`.execute(db),
  ]);
  const byDay = new Map(stats.rows.map((row) => [toCount(row.day), row]));
  const days = [...new Set([...lessons.map((lesson) => lesson.day), ...byDay.keys()])].sort(
    (a, b) => a - b,
  );
  return days.map((day) => {
    const ofDay = lessons.filter((lesson) => lesson.day === day);
    const title = (ofDay.find((lesson) => lesson.is_primary === 1) ?? ofDay[0])?.title ?? null;
    const row = byDay.get(day);
    const counts = {
      tried: toCount(row?.tried),
      firstTry: toCount(row?.first_try_right),
      afterRepeat: toCount(row?.repeat_right),
    };
    return {
      day,
      title,
      questions_tried: counts.tried,
      right_first_try: counts.firstTry,
      right_after_repeat: counts.afterRepeat,
      not_right_yet: counts.tried - counts.firstTry - counts.afterRepeat,
      retention: retentionRates(counts).retention,
    };
  });
};
