import { INSIGHT_COURSE_STATUSES, MISSED_ANSWER_HOURS, percentage, roundRate } from '@ccp/schemas';
import type {
  TAssessmentState,
  TCourseStatus,
  TEngagementStatus,
  TLearnerInsights,
  TLessonDayAnalysis,
} from '@ccp/schemas';
import { sql } from 'kysely';

import type { Db } from '../db/index.ts';
import { notFound } from '../lib/app-error.ts';
import { SENT_STATUSES, engagementStatus, toCount } from './scope.ts';

// One learner's figures over the counted courses they are enrolled in, in any classroom of the
// company (docs/metrics.md, "Learner").

type DeliveryRow = {
  course_uuid: string;
  day: number;
  language: string;
  status: string;
  sent_at: string | null;
  delivered_at: string | null;
  read_at: string | null;
  answered_at: string | null;
  answer_correct: number | null;
  missed_at: string | null;
};

const secondsBetween = (from: string | null, to: string | null): number | null =>
  from && to ? Math.max(0, Math.floor((Date.parse(to) - Date.parse(from)) / 1000)) : null;

/** The assessment state of one lesson day (docs/metrics.md, "Per-day assessment analysis"). */
export const assessmentState = (delivery: DeliveryRow | undefined, now: Date): TAssessmentState => {
  if (
    !delivery?.sent_at ||
    !(SENT_STATUSES as readonly string[]).includes(delivery.status) ||
    delivery.status === 'failed'
  ) {
    return 'not_sent';
  }
  if (delivery.answered_at) return delivery.answer_correct === 0 ? 'wrong' : 'correct';
  const overdue = now.getTime() - Date.parse(delivery.sent_at) >= MISSED_ANSWER_HOURS * 3_600_000;
  return delivery.missed_at || overdue ? 'not_answered' : 'pending';
};

/** GET /api/v1/analytics/learners/{id}. 404 for a learner of another company. */
export const learnerInsights = async (
  db: Db,
  companyUuid: string,
  learnerUuid: string,
  now: Date,
): Promise<TLearnerInsights> => {
  const learner = await db
    .selectFrom('learners')
    .select('uuid')
    .where('uuid', '=', learnerUuid)
    .where('company_uuid', '=', companyUuid)
    .executeTakeFirst();
  if (!learner) throw notFound();

  const courses = sql`SELECT c.uuid FROM courses c
    JOIN analytics_enrollment_stats e ON e.course_uuid = c.uuid
    WHERE e.learner_uuid = ${learnerUuid} AND e.enrolled = 1 AND c.company_uuid = ${companyUuid}
      AND c.status IN (${sql.join([...INSIGHT_COURSE_STATUSES])}) AND c.deleted_at IS NULL`;
  const { rows: enrolments } = await sql<
    Record<string, unknown> & { uuid: string; name: string; status: string }
  >`
    SELECT c.uuid, c.name, c.status, coalesce(n.days, 0) AS days, s.lessons_read,
      s.learning_minutes, ${engagementStatus(now)} AS engagement_status
    FROM analytics_enrollment_stats s
    JOIN courses c ON c.uuid = s.course_uuid
    LEFT JOIN (SELECT ls.course_uuid, count(DISTINCT ls.day) AS days FROM lessons ls
      WHERE ls.course_uuid IN (${courses}) GROUP BY ls.course_uuid) n ON n.course_uuid = s.course_uuid
    WHERE s.learner_uuid = ${learnerUuid} AND s.course_uuid IN (${courses})
    ORDER BY c.name, c.uuid`.execute(db);

  const courseUuids = enrolments.map((row) => row.uuid);
  const deliveries =
    courseUuids.length === 0
      ? []
      : ((await db
          .selectFrom('lesson_deliveries')
          .select([
            'course_uuid',
            'day',
            'language',
            'status',
            'sent_at',
            'delivered_at',
            'read_at',
            'answered_at',
            'answer_correct',
            'missed_at',
          ])
          .where('learner_uuid', '=', learnerUuid)
          .where('course_uuid', 'in', courseUuids)
          .execute()) as DeliveryRow[]);
  const lessons =
    courseUuids.length === 0
      ? []
      : await db
          .selectFrom('lessons as ls')
          .innerJoin('languages as g', 'g.uuid', 'ls.language_uuid')
          .leftJoin('course_languages as cl', (join) =>
            join
              .onRef('cl.course_uuid', '=', 'ls.course_uuid')
              .onRef('cl.language_uuid', '=', 'ls.language_uuid'),
          )
          .select(['ls.course_uuid', 'ls.day', 'ls.title', 'g.short_name', 'cl.is_primary'])
          .where('ls.course_uuid', 'in', courseUuids)
          .execute();

  const result = enrolments.map((row) => {
    const days = toCount(row.days);
    const read = toCount(row.lessons_read);
    const sent = new Map(
      deliveries.filter((d) => d.course_uuid === row.uuid).map((d) => [d.day, d] as const),
    );
    const own = lessons.filter((lesson) => lesson.course_uuid === row.uuid);
    const dayNumbers = [...new Set([...own.map((lesson) => lesson.day), ...sent.keys()])].sort(
      (a, b) => a - b,
    );
    const analysis: TLessonDayAnalysis[] = dayNumbers.map((day) => {
      const delivery = sent.get(day);
      const ofDay = own.filter((lesson) => lesson.day === day);
      const title =
        ofDay.find((lesson) => lesson.short_name === delivery?.language) ??
        ofDay.find((lesson) => lesson.is_primary === 1) ??
        ofDay[0];
      const state = assessmentState(delivery, now);
      const sentAt = state === 'not_sent' ? null : (delivery?.sent_at ?? null);
      const readAt = delivery?.read_at ?? null;
      return {
        day,
        title: title?.title ?? null,
        sent_at: sentAt,
        read_at: readAt,
        answered_at: delivery?.answered_at ?? null,
        state,
        dtr_seconds: secondsBetween(delivery?.delivered_at ?? sentAt, readAt),
        dtca_seconds: secondsBetween(readAt, delivery?.answered_at ?? null),
      };
    });
    return {
      uuid: row.uuid,
      name: row.name,
      status: row.status as TCourseStatus,
      learner_status: row.engagement_status as TEngagementStatus,
      progress: roundRate(percentage(read, days)),
      learning_time: toCount(row.learning_minutes),
      days: analysis,
      // Kept for the summary below.
      counters: { days, read, interacted: read > 0, completed: days > 0 && read >= days },
    };
  });

  const total = result.length;
  return {
    courses_activity: roundRate(
      percentage(result.filter((course) => course.counters.interacted).length, total),
    ),
    courses_completion: roundRate(
      percentage(result.filter((course) => course.counters.completed).length, total),
    ),
    courses_progress: roundRate(
      percentage(
        result.reduce(
          (sum, course) => sum + Math.min(course.counters.read, course.counters.days),
          0,
        ),
        result.reduce((sum, course) => sum + course.counters.days, 0),
      ),
    ),
    learning_time: result.reduce((sum, course) => sum + course.learning_time, 0),
    courses: result.map(({ counters: _counters, ...course }) => course),
  };
};
