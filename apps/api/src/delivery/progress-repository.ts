import type { Db } from '../db/index.ts';
import { dropInvited, enrolmentCloseAt, parseDistribution } from './enrolment.ts';

// The SQL of a course's progress through the scheduler's tick: opt-ins that closed, courses that
// started and finished, enrolments that completed. Each step is a conditional UPDATE, so two
// ticks (two processes, or a restart) agree.

/** Courses whose lessons go out and whose learners may still opt in. */
const LIVE_COURSE_STATUSES = ['scheduled', 'active'];

/** A live course with a Distribution, whose enrolment close time may have come. */
type CourseWithCloseTime = { uuid: string; closeAt: Date | null };

const withCloseTime = (course: { uuid: string; distribution: string | null }) => ({
  uuid: course.uuid,
  closeAt: enrolmentCloseAt(parseDistribution(course.distribution)),
});

export const progressRepository = {
  /** Live courses with a learner still invited (not yet opted in). */
  coursesWithInvited: async (db: Db): Promise<CourseWithCloseTime[]> => {
    const courses = await db
      .selectFrom('courses')
      .select(['uuid', 'distribution'])
      .where('status', 'in', LIVE_COURSE_STATUSES)
      .where('deleted_at', 'is', null)
      .where('distribution', 'is not', null)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('enrollments')
            .select('enrollments.uuid')
            .whereRef('enrollments.course_uuid', '=', 'courses.uuid')
            .where('enrollments.status', '=', 'invited'),
        ),
      )
      .execute();
    return courses.map(withCloseTime);
  },

  /** Drops a course's learners still invited, with their lessons; answers how many. */
  dropInvited: (db: Db, courseUuid: string, nowIso: string): Promise<number> =>
    db.transaction().execute((trx) => dropInvited(trx, courseUuid, nowIso)),

  /** A canceled course's lessons still planned are canceled. */
  cancelLessonsOfCanceledCourses: async (db: Db, nowIso: string): Promise<void> => {
    await db
      .updateTable('lesson_deliveries')
      .set({ status: 'canceled', updated_at: nowIso })
      .where('status', '=', 'scheduled')
      .where((eb) =>
        eb(
          'course_uuid',
          'in',
          eb.selectFrom('courses').select('courses.uuid').where('courses.status', '=', 'canceled'),
        ),
      )
      .execute();
  },

  /** scheduled → active once a lesson went out; answers how many courses started. */
  activateStartedCourses: async (db: Db): Promise<number> => {
    const activated = await db
      .updateTable('courses')
      .set({ status: 'active' })
      .where('status', '=', 'scheduled')
      .where('deleted_at', 'is', null)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('lesson_deliveries')
            .select('lesson_deliveries.uuid')
            .whereRef('lesson_deliveries.course_uuid', '=', 'courses.uuid')
            // By `sent_at`, as the completion below: by `status` SQLite walks every sent lesson.
            .where('lesson_deliveries.sent_at', 'is not', null),
        ),
      )
      .returning('uuid')
      .execute();
    return activated.length;
  },

  /**
   * Enrolments of live courses completed once a lesson went out and nothing is left to send
   * them, none of the course's lessons having been canceled unsent; answers how many.
   */
  completeFinishedEnrolments: async (db: Db, nowIso: string): Promise<number> => {
    const completed = await db
      .updateTable('enrollments')
      .set({ status: 'completed', completed_at: nowIso, updated_at: nowIso })
      .where('status', '=', 'enrolled')
      .where((eb) =>
        eb.and([
          eb(
            'course_uuid',
            'in',
            eb
              .selectFrom('courses')
              .select('courses.uuid')
              .where('courses.status', 'in', LIVE_COURSE_STATUSES)
              .where('courses.deleted_at', 'is', null),
          ),
          // A lesson went out: `sent_at` is set exactly when a lesson is sent. Asked by `status`,
          // SQLite walks the status index through every sent lesson of every course for each
          // enrolment (seconds at 10,000) instead of the enrolment's own few rows.
          eb.exists(
            eb
              .selectFrom('lesson_deliveries')
              .select('lesson_deliveries.uuid')
              .whereRef('lesson_deliveries.enrollment_uuid', '=', 'enrollments.uuid')
              .where('lesson_deliveries.sent_at', 'is not', null),
          ),
          eb.not(
            eb.exists(
              eb
                .selectFrom('lesson_deliveries')
                .select('lesson_deliveries.uuid')
                .whereRef('lesson_deliveries.enrollment_uuid', '=', 'enrollments.uuid')
                .where('lesson_deliveries.status', 'in', ['scheduled', 'sending']),
            ),
          ),
          // Issue 27: a lesson canceled before it went out (the course archived or canceled, the
          // learner archived) was never received, so the course was not completed. Only a day
          // the course still has counts: a day removed from the course cancels its lessons too.
          eb.not(
            eb.exists(
              eb
                .selectFrom('lesson_deliveries')
                .innerJoin('lessons', (join) =>
                  join
                    .onRef('lessons.course_uuid', '=', 'lesson_deliveries.course_uuid')
                    .onRef('lessons.day', '=', 'lesson_deliveries.day'),
                )
                .select('lesson_deliveries.uuid')
                .whereRef('lesson_deliveries.enrollment_uuid', '=', 'enrollments.uuid')
                .where('lesson_deliveries.status', '=', 'canceled'),
            ),
          ),
        ]),
      )
      .returning('uuid')
      .execute();
    return completed.length;
  },

  /** Active courses with no lesson left to send to an enrolled learner. */
  coursesWithNothingLeft: async (db: Db): Promise<CourseWithCloseTime[]> => {
    const courses = await db
      .selectFrom('courses')
      .select(['uuid', 'distribution'])
      .where('status', '=', 'active')
      .where('deleted_at', 'is', null)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('lesson_deliveries as d')
              .innerJoin('enrollments as e', 'e.uuid', 'd.enrollment_uuid')
              .select('d.uuid')
              .whereRef('d.course_uuid', '=', 'courses.uuid')
              .where('d.status', 'in', ['scheduled', 'sending'])
              // A paused learner (still enrolled) keeps the course going with their held lessons.
              .where('e.status', '=', 'enrolled'),
          ),
        ),
      )
      .execute();
    return courses.map(withCloseTime);
  },

  /**
   * active → delivered, at its last send: whoever never opted in is dropped and lessons of
   * learners who declined stay unsent for good. Before the enrolment close time a course with a
   * learner still invited waits (they may opt in and get the lessons). Answers whether the course
   * was delivered.
   */
  deliverCourse: (db: Db, course: CourseWithCloseTime, now: Date): Promise<boolean> =>
    db.transaction().execute(async (trx) => {
      const nowIso = now.toISOString();
      if (course.closeAt && course.closeAt.getTime() > now.getTime()) {
        const waiting = await trx
          .selectFrom('enrollments')
          .select('uuid')
          .where('course_uuid', '=', course.uuid)
          .where('status', '=', 'invited')
          .executeTakeFirst();
        if (waiting) return false;
      }
      await dropInvited(trx, course.uuid, nowIso);
      await trx
        .updateTable('lesson_deliveries')
        .set({ status: 'canceled', updated_at: nowIso })
        .where('course_uuid', '=', course.uuid)
        .where('status', '=', 'scheduled')
        .execute();
      const last = await trx
        .selectFrom('lesson_deliveries')
        .select((eb) => eb.fn.max('sent_at').as('last'))
        .where('course_uuid', '=', course.uuid)
        .executeTakeFirst();
      const result = await trx
        .updateTable('courses')
        .set({ status: 'delivered', delivered_at: last?.last ?? nowIso })
        .where('uuid', '=', course.uuid)
        .where('status', '=', 'active')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    }),
};
