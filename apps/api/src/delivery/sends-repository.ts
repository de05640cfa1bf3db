import type { TChannelKey, TDeliveryStatus, TEnrollmentStatus, TPauseReason } from '@ccp/schemas';

import type { Db } from '../db/index.ts';

// What a trainer reads and does about sends (issue 25): a learner's invitations and lesson days
// per course with why what failed did not go, a course's failures, and resending them. The
// scheduler's own statements are in deliveries-repository.ts.

export type LearnerCourseRow = {
  enrollment_uuid: string;
  enrollment_status: TEnrollmentStatus;
  channel: TChannelKey;
  pause_reason: TPauseReason | null;
  paused_at: string | null;
  invitation_sent_at: string | null;
  invitation_failure_code: string | null;
  invitation_failure_detail: string | null;
  invitation_retry_at: string | null;
  invited: boolean;
  course_uuid: string;
  classroom_uuid: string;
  course_name: string;
  course_status: string;
  creator_uuid: string | null;
  /** The enrolment's last change: the learner's latest activity in the course. */
  updated_at: string;
};

export type LessonSendRow = {
  uuid: string;
  course_uuid: string;
  day: number;
  channel: TChannelKey;
  status: TDeliveryStatus;
  scheduled_for: string;
  sent_at: string | null;
  delivered_at: string | null;
  read_at: string | null;
  answered_at: string | null;
  provider_message_id: string | null;
  next_attempt_at: string | null;
  failure_code: string | null;
  failure_detail: string | null;
};

export type CourseFailureRow = {
  kind: 'lesson' | 'invitation';
  uuid: string;
  learner_uuid: string;
  first_name: string;
  last_name: string;
  channel: TChannelKey;
  day: number | null;
  at: string;
  failure_code: string;
  failure_detail: string | null;
};

/** A lesson that failed before reasons were kept (0025): the provider's refusal, unnamed. */
const LEGACY_FAILURE = 'provider_error';

/** Statuses in which a course still sends: a resend waits for nothing else. */
const SENDING_COURSE_STATUSES = ['scheduled', 'active', 'delivered'];

export const sendsRepository = {
  /** The learner's courses (not archived): enrolment, invitation, course and its creator. */
  learnerCourses: async (
    db: Db,
    companyUuid: string,
    learnerUuid: string,
  ): Promise<LearnerCourseRow[]> => {
    const rows = await db
      .selectFrom('enrollments as e')
      .innerJoin('courses as c', 'c.uuid', 'e.course_uuid')
      .select([
        'e.uuid as enrollment_uuid',
        'e.status as enrollment_status',
        'e.channel',
        'e.pause_reason',
        'e.paused_at',
        'e.invitation_sent_at',
        'e.invitation_failure_code',
        'e.invitation_failure_detail',
        'e.invitation_retry_at',
        'e.updated_at',
        'c.uuid as course_uuid',
        'c.classroom_uuid',
        'c.name as course_name',
        'c.status as course_status',
        'c.creator_uuid',
        'c.distribution',
      ])
      .where('e.company_uuid', '=', companyUuid)
      .where('e.learner_uuid', '=', learnerUuid)
      .where('c.deleted_at', 'is', null)
      .orderBy('c.name')
      .orderBy('c.uuid')
      .execute();
    return rows.map(({ distribution, ...row }) => ({
      ...row,
      enrollment_status: row.enrollment_status as TEnrollmentStatus,
      channel: row.channel as TChannelKey,
      pause_reason: (row.pause_reason ?? null) as TPauseReason | null,
      paused_at: row.paused_at ?? null,
      invitation_sent_at: row.invitation_sent_at ?? null,
      invitation_failure_code: row.invitation_failure_code ?? null,
      invitation_failure_detail: row.invitation_failure_detail ?? null,
      invitation_retry_at: row.invitation_retry_at ?? null,
      // The course asks for the opt-in, or an invitation went or failed (before a change).
      invited:
        hasOptIn(distribution) ||
        row.invitation_sent_at != null ||
        row.invitation_failure_code != null,
    }));
  },

  /** The learner's lesson sends in these courses, by course and day. */
  lessonSends: async (
    db: Db,
    learnerUuid: string,
    courseUuids: readonly string[],
  ): Promise<LessonSendRow[]> => {
    if (courseUuids.length === 0) return [];
    const rows = await db
      .selectFrom('lesson_deliveries')
      .select([
        'uuid',
        'course_uuid',
        'day',
        'channel',
        'status',
        'scheduled_for',
        'sent_at',
        'delivered_at',
        'read_at',
        'answered_at',
        'provider_message_id',
        'next_attempt_at',
        'failure_code',
        'failure_detail',
      ])
      .where('learner_uuid', '=', learnerUuid)
      .where('course_uuid', 'in', courseUuids)
      .orderBy('course_uuid')
      .orderBy('day')
      .execute();
    return rows.map((row) => ({
      ...row,
      day: Number(row.day),
      channel: row.channel as TChannelKey,
      status: row.status as TDeliveryStatus,
      provider_message_id: row.provider_message_id ?? null,
      next_attempt_at: row.next_attempt_at ?? null,
      failure_code: row.failure_code ?? (row.status === 'failed' ? LEGACY_FAILURE : null),
      failure_detail: row.failure_detail ?? null,
    }));
  },

  /** The course's row for the resend rules: its company, status and creator. */
  course: (db: Db, companyUuid: string, courseUuid: string) =>
    db
      .selectFrom('courses')
      .select(['uuid', 'status', 'creator_uuid', 'deleted_at'])
      .where('uuid', '=', courseUuid)
      .where('company_uuid', '=', companyUuid)
      .executeTakeFirst(),

  /** The course's failed lessons and invitations, newest first. */
  courseFailures: async (db: Db, courseUuid: string): Promise<CourseFailureRow[]> => {
    const lessons = await db
      .selectFrom('lesson_deliveries as d')
      .innerJoin('learners as l', 'l.uuid', 'd.learner_uuid')
      .select([
        'd.uuid',
        'd.learner_uuid',
        'l.first_name',
        'l.last_name',
        'd.channel',
        'd.day',
        'd.updated_at as at',
        'd.failure_code',
        'd.failure_detail',
      ])
      .where('d.course_uuid', '=', courseUuid)
      .where('d.status', '=', 'failed')
      .execute();
    const invitations = await db
      .selectFrom('enrollments as e')
      .innerJoin('learners as l', 'l.uuid', 'e.learner_uuid')
      .select([
        'e.uuid',
        'e.learner_uuid',
        'l.first_name',
        'l.last_name',
        'e.channel',
        'e.invitation_failed_at',
        'e.invitation_failure_code',
        'e.invitation_failure_detail',
      ])
      .where('e.course_uuid', '=', courseUuid)
      .where('e.status', '=', 'invited')
      .where('e.invitation_failure_code', 'is not', null)
      .execute();
    return [
      ...lessons.map((row) => ({
        kind: 'lesson' as const,
        uuid: row.uuid,
        learner_uuid: row.learner_uuid,
        first_name: row.first_name,
        last_name: row.last_name,
        channel: row.channel as TChannelKey,
        day: Number(row.day),
        at: row.at,
        failure_code: row.failure_code ?? LEGACY_FAILURE,
        failure_detail: row.failure_detail ?? null,
      })),
      ...invitations.map((row) => ({
        kind: 'invitation' as const,
        uuid: row.uuid,
        learner_uuid: row.learner_uuid,
        first_name: row.first_name,
        last_name: row.last_name,
        channel: row.channel as TChannelKey,
        day: null,
        at: row.invitation_failed_at ?? '',
        failure_code: row.invitation_failure_code ?? LEGACY_FAILURE,
        failure_detail: row.invitation_failure_detail ?? null,
      })),
    ].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : a.uuid.localeCompare(b.uuid)));
  },

  /**
   * Puts failed lessons (due again at once: their time has passed) and failed invitations of a
   * course back in the queue; a course that had ended or enrolments that had completed for want
   * of anything left to send are running again. Answers how many of each.
   */
  resend: async (
    db: Db,
    courseUuid: string,
    which: { lessons?: readonly string[]; invitations?: readonly string[]; allFailed?: boolean },
    nowIso: string,
  ): Promise<{ lessons: number; invitations: number }> =>
    db.transaction().execute(async (trx) => {
      let lessonsQuery = trx
        .updateTable('lesson_deliveries')
        .set({
          status: 'scheduled',
          failure_code: null,
          failure_detail: null,
          next_attempt_at: null,
          updated_at: nowIso,
        })
        .where('course_uuid', '=', courseUuid)
        .where('status', '=', 'failed');
      // '' matches no row: it keeps `in (...)` valid SQL when no uuid of that kind was named.
      if (!which.allFailed)
        lessonsQuery = lessonsQuery.where('uuid', 'in', [...(which.lessons ?? []), '']);
      const lessons = await lessonsQuery.returning('enrollment_uuid').execute();

      let invitationsQuery = trx
        .updateTable('enrollments')
        .set({
          invitation_sent_at: null,
          invitation_failure_code: null,
          invitation_failure_detail: null,
          invitation_failed_at: null,
          invitation_retry_at: null,
          updated_at: nowIso,
        })
        .where('course_uuid', '=', courseUuid)
        .where('status', '=', 'invited')
        .where('invitation_failure_code', 'is not', null);
      if (!which.allFailed) {
        invitationsQuery = invitationsQuery.where('uuid', 'in', [...(which.invitations ?? []), '']);
      }
      const invitations = await invitationsQuery.executeTakeFirst();

      const enrolments = [...new Set(lessons.map((row) => row.enrollment_uuid))];
      if (enrolments.length > 0) {
        await trx
          .updateTable('enrollments')
          .set({ status: 'enrolled', completed_at: null, updated_at: nowIso })
          .where('uuid', 'in', enrolments)
          .where('status', '=', 'completed')
          .execute();
        await trx
          .updateTable('courses')
          .set({ status: 'active', delivered_at: null })
          .where('uuid', '=', courseUuid)
          .where('status', '=', 'delivered')
          .execute();
      }
      return { lessons: lessons.length, invitations: Number(invitations.numUpdatedRows) };
    }),

  /** True when the course still sends (a resend then goes at the next tick). */
  sends: (status: string): boolean => SENDING_COURSE_STATUSES.includes(status),
};

const hasOptIn = (distribution: string | null): boolean => {
  if (!distribution) return false;
  try {
    return (
      (JSON.parse(distribution) as { disabled_enrolment_opt_in?: boolean })
        .disabled_enrolment_opt_in !== true
    );
  } catch {
    return false;
  }
};
