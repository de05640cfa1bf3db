import { percentage, roundRate } from '@ccp/schemas';
import type { TExportType } from '@ccp/schemas';
import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';

import { learnerRetention } from '../analytics/retention.ts';
import { ENROLLED_STATUSES, engagementStatus, lessonDays, toCount } from '../analytics/scope.ts';
import type { Db } from '../db/index.ts';
import type { CsvCell, CsvWriter } from './csv.ts';

// The rows of each export, read a page at a time in learner name order (keyset on the
// learners_company_name_idx index of migration 0006), so a 100K-learner course never sits in
// memory and other requests interleave between pages.

const PAGE_SIZE = 2000;

export type ExportSubject = { companyUuid: string; courseUuid: string };

type Keyed = { uuid: string; first_name: string; last_name: string };

/** Runs `page(after)` until it answers fewer than a page of rows; returns how many it wrote. */
const paged = async <T extends Keyed>(
  writer: CsvWriter,
  page: (after: RawBuilder<unknown>) => Promise<T[]>,
  toCells: (row: T) => CsvCell[],
): Promise<number> => {
  let after = sql``;
  let written = 0;
  for (;;) {
    const rows = await page(after);
    await writer.write(rows.map(toCells));
    written += rows.length;
    const last = rows[rows.length - 1];
    if (!last || rows.length < PAGE_SIZE) return written;
    after = sql`AND (l.last_name, l.first_name, l.uuid) > (${last.last_name}, ${last.first_name}, ${last.uuid})`;
  }
};

export const STATISTICS_COLUMNS = [
  'learner_uuid',
  'first_name',
  'last_name',
  'email',
  'phone',
  'channel',
  'enrollment_status',
  'learner_status',
  'pause_reason',
  'paused_at',
  'pauses',
  'resumes',
  'lessons_sent',
  'lessons_delivered',
  'lessons_read',
  'answers',
  'answers_correct',
  'answers_wrong',
  'answers_missed',
  'reminders',
  'progress',
  'learning_minutes',
  'first_sent_at',
  'last_activity_at',
  // Retention (issue 28): docs/metrics.md "Retention".
  'questions_tried',
  'right_first_try',
  'right_after_repeat',
  'retention',
] as const;

type StatisticsRow = Keyed & Record<string, unknown>;

/**
 * How often the learner was paused (after unanswered lessons, or by a trainer) or resumed in the
 * course (issue 28), from the events the pause code logs (learner_events_course_idx).
 */
const pauseCount = (type: 'paused' | 'resumed') =>
  sql`(SELECT count(*) FROM learner_events p
    WHERE p.course_uuid = s.course_uuid AND p.type = ${type} AND p.learner_uuid = l.uuid)`;

/** One row per enrolled learner of the course with its counters (docs/metrics.md, "Exports"). */
const writeStatistics = async (db: Db, subject: ExportSubject, writer: CsvWriter, now: Date) =>
  paged<StatisticsRow>(
    writer,
    async (after) =>
      (
        await sql<StatisticsRow>`
          SELECT l.uuid, l.first_name, l.last_name, l.email, l.phone, e.channel,
            e.status AS enrollment_status, ${engagementStatus(now)} AS learner_status,
            e.pause_reason, e.paused_at, ${pauseCount('paused')} AS pauses,
            ${pauseCount('resumed')} AS resumes, coalesce(n.days, 0) AS days, s.lessons_sent, s.lessons_delivered, s.lessons_read,
            s.answers, s.answers_correct, s.answers_missed, s.reminders, s.learning_minutes,
            s.first_sent_at, s.last_activity_at, s.repeat_right
          FROM learners l
          JOIN analytics_enrollment_stats s
            ON s.course_uuid = ${subject.courseUuid} AND s.learner_uuid = l.uuid
          JOIN enrollments e ON e.uuid = s.enrollment_uuid
          LEFT JOIN ${lessonDays(sql`${subject.courseUuid}`)} n ON n.course_uuid = s.course_uuid
          WHERE l.company_uuid = ${subject.companyUuid} AND s.enrolled = 1 ${after}
          ORDER BY l.last_name, l.first_name, l.uuid
          LIMIT ${PAGE_SIZE}`.execute(db)
      ).rows,
    (row) => {
      const retention = learnerRetention(row);
      return [
        row.uuid,
        row.first_name,
        row.last_name,
        row.email as string | null,
        row.phone as string | null,
        row.channel as string,
        row.enrollment_status as string,
        row.learner_status as string,
        (row.pause_reason as string | null) ?? null,
        (row.paused_at as string | null) ?? null,
        toCount(row.pauses),
        toCount(row.resumes),
        toCount(row.lessons_sent),
        toCount(row.lessons_delivered),
        toCount(row.lessons_read),
        toCount(row.answers),
        toCount(row.answers_correct),
        toCount(row.answers) - toCount(row.answers_correct),
        toCount(row.answers_missed),
        toCount(row.reminders),
        roundRate(percentage(toCount(row.lessons_read), toCount(row.days))),
        toCount(row.learning_minutes),
        row.first_sent_at as string | null,
        row.last_activity_at as string | null,
        retention.questions_tried,
        retention.right_first_try,
        retention.right_after_repeat,
        retention.retention,
      ];
    },
  );

export const NOT_ENROLLED_COLUMNS = [
  'learner_uuid',
  'first_name',
  'last_name',
  'email',
  'phone',
  'locale',
  'channels',
  'reason',
  'invited_at',
] as const;

type NotEnrolledRow = Keyed & {
  email: string | null;
  phone: string | null;
  locale: string;
  channels: string;
  enrollment_status: string | null;
  invited_at: string | null;
};

const channelsOf = (json: string): string => {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.map(String).join(' ') : '';
  } catch {
    return '';
  }
};

/**
 * Learners of the course's lists (not archived) who are not enrolled: never invited, waiting for
 * the opt-in, declined, or dropped before enrolling (docs/metrics.md, "Exports").
 */
const writeNotEnrolled = async (db: Db, subject: ExportSubject, writer: CsvWriter) =>
  paged<NotEnrolledRow>(
    writer,
    async (after) =>
      (
        await sql<NotEnrolledRow>`
          SELECT l.uuid, l.first_name, l.last_name, l.email, l.phone, l.locale, l.channels,
            e.status AS enrollment_status, e.invited_at
          FROM learners l
          LEFT JOIN enrollments e ON e.course_uuid = ${subject.courseUuid} AND e.learner_uuid = l.uuid
          WHERE l.company_uuid = ${subject.companyUuid} AND l.deleted_at IS NULL
            AND EXISTS (SELECT 1 FROM learners_list_members m
              JOIN course_learners_lists cl ON cl.list_uuid = m.list_uuid
              WHERE cl.course_uuid = ${subject.courseUuid} AND m.learner_uuid = l.uuid)
            AND (e.uuid IS NULL OR e.enrolled_at IS NULL
              OR e.status NOT IN (${sql.join([...ENROLLED_STATUSES])}))
            ${after}
          ORDER BY l.last_name, l.first_name, l.uuid
          LIMIT ${PAGE_SIZE}`.execute(db)
      ).rows,
    (row) => [
      row.uuid,
      row.first_name,
      row.last_name,
      row.email,
      row.phone,
      row.locale,
      channelsOf(row.channels),
      row.enrollment_status ?? 'not_invited',
      row.invited_at,
    ],
  );

/** The header and row writer of each export type. */
export const PRODUCERS: Record<
  TExportType,
  {
    columns: readonly string[];
    write: (db: Db, subject: ExportSubject, writer: CsvWriter, now: Date) => Promise<number>;
  }
> = {
  statistics: { columns: STATISTICS_COLUMNS, write: writeStatistics },
  course: { columns: STATISTICS_COLUMNS, write: writeStatistics },
  not_enrolled_learners: { columns: NOT_ENROLLED_COLUMNS, write: writeNotEnrolled },
};
