import { INSIGHT_COURSE_STATUSES, MISSED_ANSWER_HOURS, percentage, roundRate } from '@ccp/schemas';
import type {
  TAssessmentState,
  TCourseStatus,
  TEngagementStatus,
  TLearnerAnalytics,
  TLearnerInsights,
  TLessonDayAnalysis,
} from '@ccp/schemas';
import { sql } from 'kysely';

import type { Db } from '../db/index.ts';
import { preparedListQuery } from '../db/prepared.ts';
import { notFound } from '../lib/app-error.ts';
import { SENT_STATUSES, engagementStatus, toCount } from './scope.ts';

// One learner's figures over the counted courses they are enrolled in, in any classroom of the
// company (docs/metrics.md, "Learner").

type DeliveryRow = {
  uuid: string;
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
  repeat_right_at: string | null;
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

/** What the learner answered per lesson send, when the channel reported the answer's text. */
const answerTexts = async (
  db: Db,
  learnerUuid: string,
  courseUuids: readonly string[],
): Promise<Map<string, string>> => {
  if (courseUuids.length === 0) return new Map();
  const events = await db
    .selectFrom('learner_events')
    .select(['delivery_uuid', 'payload'])
    .where('learner_uuid', '=', learnerUuid)
    .where('type', '=', 'answered')
    .where('course_uuid', 'in', [...courseUuids])
    .where('delivery_uuid', 'is not', null)
    .orderBy('occurred_at')
    .execute();
  const texts = new Map<string, string>();
  for (const event of events) {
    let text: unknown;
    try {
      text = (JSON.parse(event.payload ?? '{}') as { text?: unknown }).text;
    } catch {
      continue;
    }
    // The first answer is the one that counts (the events endpoint keeps only it).
    if (typeof text === 'string' && event.delivery_uuid && !texts.has(event.delivery_uuid)) {
      texts.set(event.delivery_uuid, text);
    }
  }
  return texts;
};

/** One counted enrolment: lesson days of the course, days read, minutes spent. */
type TEnrolmentCounters = { days: number; read: number; minutes: number };

export type TLearnerSummary = TLearnerAnalytics & { learning_time: number };

/** A learner's figures over their counted courses (docs/metrics.md, "Learner"). */
const summarize = (courses: readonly TEnrolmentCounters[]): TLearnerSummary => {
  const total = courses.length;
  const share = (test: (course: TEnrolmentCounters) => boolean) =>
    roundRate(percentage(courses.filter(test).length, total));
  const sum = (value: (course: TEnrolmentCounters) => number) =>
    courses.reduce((acc, course) => acc + value(course), 0);
  return {
    courses_activity: share((course) => course.read > 0),
    courses_completion: share((course) => course.days > 0 && course.read >= course.days),
    courses_progress: roundRate(
      percentage(
        sum((course) => Math.min(course.read, course.days)),
        sum((course) => course.days),
      ),
    ),
    learning_time: sum((course) => course.minutes),
  };
};

// The counted courses of a company a learner is enrolled in, with their number of lesson days.
const countedEnrolments = (companyUuid: string) => sql`
  FROM analytics_enrollment_stats s
  JOIN courses c ON c.uuid = s.course_uuid
  LEFT JOIN (SELECT ls.course_uuid, count(DISTINCT ls.day) AS days FROM lessons ls
    JOIN courses lc ON lc.uuid = ls.course_uuid
    WHERE lc.company_uuid = ${companyUuid} GROUP BY ls.course_uuid) n ON n.course_uuid = s.course_uuid
  WHERE s.enrolled = 1 AND c.company_uuid = ${companyUuid}
    AND c.status IN (${sql.join([...INSIGHT_COURSE_STATUSES])}) AND c.deleted_at IS NULL`;

type SummaryRow = {
  learner_uuid: string;
  days: unknown;
  lessons_read: unknown;
  learning_minutes: unknown;
};

// Asked by every page of learners: compiled once per page size (db/prepared.ts).
const summaryCounters = preparedListQuery<[companyUuid: string], SummaryRow>(
  1,
  (db, [companyUuid], learnerUuids) => {
    const query = sql<SummaryRow>`SELECT s.learner_uuid, coalesce(n.days, 0) AS days,
      s.lessons_read, s.learning_minutes
    ${countedEnrolments(companyUuid!)}
    AND s.learner_uuid IN (${sql.join(learnerUuids)})`;
    return { compile: () => query.compile(db) };
  },
);

/**
 * The summary figures of several learners of one company (the learners resource's `analytics`
 * and `learning_time`), the same as GET /analytics/learners/{id} answers for each.
 */
export const learnerSummaries = async (
  db: Db,
  companyUuid: string,
  learnerUuids: readonly string[],
): Promise<Map<string, TLearnerSummary>> => {
  if (learnerUuids.length === 0) return new Map();
  const { rows } = await summaryCounters.run(db, [companyUuid], learnerUuids);
  const byLearner = new Map<string, TEnrolmentCounters[]>();
  for (const row of rows) {
    const counters = {
      days: toCount(row.days),
      read: toCount(row.lessons_read),
      minutes: toCount(row.learning_minutes),
    };
    byLearner.set(row.learner_uuid, [...(byLearner.get(row.learner_uuid) ?? []), counters]);
  }
  return new Map(learnerUuids.map((uuid) => [uuid, summarize(byLearner.get(uuid) ?? [])]));
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

  const { rows: enrolments } = await sql<
    Record<string, unknown> & { uuid: string; name: string; status: string }
  >`
    SELECT c.uuid, c.name, c.status, coalesce(n.days, 0) AS days, s.lessons_read,
      s.learning_minutes, ${engagementStatus(now)} AS engagement_status
    ${countedEnrolments(companyUuid)}
    AND s.learner_uuid = ${learnerUuid}
    ORDER BY c.name, c.uuid`.execute(db);

  const courseUuids = enrolments.map((row) => row.uuid);
  const deliveries =
    courseUuids.length === 0
      ? []
      : ((await db
          .selectFrom('lesson_deliveries')
          .select([
            'uuid',
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
            'repeat_right_at',
          ])
          .where('learner_uuid', '=', learnerUuid)
          .where('course_uuid', 'in', courseUuids)
          .execute()) as DeliveryRow[]);
  const answers = await answerTexts(db, learnerUuid, courseUuids);
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
        answer: delivery ? (answers.get(delivery.uuid) ?? null) : null,
        dtr_seconds: secondsBetween(delivery?.delivered_at ?? sentAt, readAt),
        dtca_seconds: secondsBetween(readAt, delivery?.answered_at ?? null),
        // The retention insight's "right after repetition" (0040): never with a right first try.
        right_after_repeat_at: state === 'correct' ? null : (delivery?.repeat_right_at ?? null),
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
      counters: { days, read, minutes: toCount(row.learning_minutes) },
    };
  });

  return {
    ...summarize(result.map((course) => course.counters)),
    courses: result.map(({ counters: _counters, ...course }) => course),
  };
};
