import { describe, expect, it } from 'vitest';

import { rebuildAnalyticsAggregates } from '../../src/db/migrations/0006_analytics.ts';
import { buildTestApp, createSignedInUser } from '../helper.ts';
import {
  aggregateSnapshot,
  analyticsCourse,
  analyticsLearner,
  enrol,
  lessonSent,
  novemberAt8,
  seedClassroomHistory,
} from '../fixtures/analytics.ts';

// The aggregates of migration 0006 follow every write through triggers: whatever the delivery
// model does to enrolments, learners and lesson sends, they equal a rebuild from scratch.

describe('analytics aggregates', async () => {
  const app = await buildTestApp();
  const { company } = await createSignedInUser(app);
  const history = await seedClassroomHistory(app, company);
  const courseUuids = Object.values(history.courses).map((course) => course.uuid);
  const classroomUuids = company.classrooms.map((classroom) => classroom.uuid);
  const snapshot = () => aggregateSnapshot(app, courseUuids, classroomUuids);
  const expectSameAsRebuild = async () => {
    const maintained = await snapshot();
    await rebuildAnalyticsAggregates(app.db);
    expect(await snapshot()).toEqual(maintained);
    return maintained;
  };

  it('holds the counters of each enrolment as its sends are inserted', async () => {
    const { stats } = await expectSameAsRebuild();
    expect(stats.find((row) => row.enrollment_uuid === history.enrolments.bobAlpha.uuid)).toEqual({
      enrollment_uuid: history.enrolments.bobAlpha.uuid,
      company_uuid: company.uuid,
      course_uuid: history.courses.alpha.uuid,
      learner_uuid: history.learners.bob.uuid,
      status: 'enrolled',
      enrolled: 1,
      unreachable: 0,
      lessons_sent: 4,
      lessons_failed: 0,
      lessons_delivered: 2,
      lessons_read: 1,
      answers: 1,
      answers_correct: 1,
      answers_missed: 0,
      reminders: 3,
      learning_minutes: 5,
      // Questions right only after repetition (0040, the retention insight): none repeat here.
      repeat_right: 0,
      first_sent_at: novemberAt8(10),
      first_activity_at: '2026-11-10T08:30:00.000Z',
      last_activity_at: '2026-11-10T08:30:00.000Z',
      run_start: novemberAt8(10),
      run_end: novemberAt8(13),
      reached: 1,
      interacted: 1,
      unreach: 0,
    });
  });

  it('sums the enrolled enrolments per course and counts each classroom learner once', async () => {
    const { courses, classroomLearners } = await expectSameAsRebuild();
    expect(courses.find((row) => row.course_uuid === history.courses.alpha.uuid)).toEqual({
      course_uuid: history.courses.alpha.uuid,
      company_uuid: company.uuid,
      invited: 9,
      enrolled: 6,
      reached: 6,
      interacted: 4,
      lessons_sent: 15,
      lessons_failed: 4,
      lessons_delivered: 9,
      lessons_read: 7,
      answers: 5,
      answers_correct: 3,
      answers_missed: 0,
      reminders: 3,
      learning_minutes: 65,
    });
    // First classroom (Alpha and Beta counted): Ada and Bob in both, once each.
    const first = classroomLearners.filter(
      (row) => row.classroom_uuid === company.classrooms[0]!.uuid,
    );
    const byLearner = Object.fromEntries(
      first.map((row) => [row.learner_uuid, [row.reached, row.interacted]]),
    );
    expect(byLearner).toEqual({
      [history.learners.ada.uuid]: [2, 2],
      [history.learners.bob.uuid]: [2, 1],
      [history.learners.cy.uuid]: [1, 0],
      [history.learners.dee.uuid]: [1, 1],
      [history.learners.eve.uuid]: [1, 0],
      [history.learners.hal.uuid]: [1, 1],
    });
  });

  it('moves a course’s learners in and out of the classroom as it is counted or not', async () => {
    const { gamma, alpha } = history.courses;
    const adaOf = async () =>
      (await snapshot()).classroomLearners.find(
        (row) =>
          row.classroom_uuid === company.classrooms[0]!.uuid &&
          row.learner_uuid === history.learners.ada.uuid,
      );
    await app.db
      .updateTable('courses')
      .set({ status: 'active' })
      .where('uuid', '=', gamma.uuid)
      .execute();
    expect(await adaOf()).toMatchObject({ reached: 3, interacted: 3 });
    await app.db
      .updateTable('courses')
      .set({ deleted_at: '2026-11-21T10:00:00.000Z' })
      .where('uuid', '=', alpha.uuid)
      .execute();
    expect(await adaOf()).toMatchObject({ reached: 2, interacted: 2 });
    await app.db
      .updateTable('courses')
      .set({ deleted_at: null })
      .where('uuid', '=', alpha.uuid)
      .execute();
    await app.db.deleteFrom('courses').where('uuid', '=', gamma.uuid).execute();
    expect(await adaOf()).toMatchObject({ reached: 2, interacted: 2 });
    await expectSameAsRebuild();
  });

  it('counts a send the scheduler holds once it settles, sent or interrupted', async () => {
    const enrolment = history.enrolments.deeAlpha;
    const held = await lessonSent(app, enrolment, 2, { at: novemberAt8(21), status: 'scheduled' });
    const statsOfDee = async () =>
      (await snapshot()).stats.find((row) => row.enrollment_uuid === enrolment.uuid);
    const before = await snapshot();
    const setStatus = (set: Record<string, unknown>) =>
      app.db.updateTable('lesson_deliveries').set(set).where('uuid', '=', held.uuid).execute();
    // The claim (migration 0046): nothing counts it yet, and a rebuild agrees.
    await setStatus({ status: 'sending' });
    expect(await snapshot()).toEqual(before);
    await expectSameAsRebuild();
    // A crash between claim and answer: it fails as interrupted, and counts as sent and failed.
    await setStatus({ status: 'failed', failure_code: 'interrupted' });
    expect(await statsOfDee()).toMatchObject({ lessons_sent: 2, lessons_failed: 1 });
    await expectSameAsRebuild();
  });

  it('follows updates of sends the way the scheduler and the events endpoint make them', async () => {
    const enrolment = history.enrolments.eveAlpha;
    // Day 2 goes out, is delivered, read, reminded, answered wrong, then stamped missed.
    const steps: Record<string, unknown>[] = [
      { status: 'sending' },
      { status: 'sent', sent_at: novemberAt8(22) },
      { delivered_at: '2026-11-22T07:01:00.000Z' },
      { reminders_sent: 1 },
      { read_at: '2026-11-22T08:00:00.000Z' },
      { answered_at: '2026-11-22T08:10:00.000Z', answer_correct: 0 },
      { missed_at: '2026-11-25T07:00:00.000Z' },
    ];
    for (const step of steps) {
      await app.db
        .updateTable('lesson_deliveries')
        .set(step)
        .where('enrollment_uuid', '=', enrolment.uuid)
        .where('day', '=', 2)
        .execute();
    }
    const { stats } = await expectSameAsRebuild();
    expect(stats.find((row) => row.enrollment_uuid === enrolment.uuid)).toMatchObject({
      lessons_sent: 2,
      lessons_delivered: 2,
      lessons_read: 1,
      answers: 1,
      answers_correct: 0,
      answers_missed: 0, // answered, so not missed
      reminders: 1,
      learning_minutes: 10,
      last_activity_at: '2026-11-22T08:10:00.000Z',
    });
  });

  it('reads the first send and activity again when an update takes them back', async () => {
    const enrolment = history.enrolments.halAlpha;
    await app.db
      .updateTable('lesson_deliveries')
      .set({ read_at: null, answered_at: null, answer_correct: null, sent_at: null })
      .where('enrollment_uuid', '=', enrolment.uuid)
      .execute();
    const { stats } = await expectSameAsRebuild();
    expect(stats.find((row) => row.enrollment_uuid === enrolment.uuid)).toMatchObject({
      lessons_read: 0,
      answers: 0,
      first_sent_at: null,
      first_activity_at: null,
      last_activity_at: null,
      run_start: novemberAt8(10),
      interacted: 0,
    });
  });

  it('moves a send between hours and channels, and forgets a deleted one', async () => {
    await app.db
      .updateTable('lesson_deliveries')
      .set({ scheduled_for: '2026-11-12T15:30:00.000Z', channel: 'webex' })
      .where('enrollment_uuid', '=', history.enrolments.adaAlpha.uuid)
      .where('day', '=', 3)
      .execute();
    await app.db
      .deleteFrom('lesson_deliveries')
      .where('enrollment_uuid', '=', history.enrolments.bobAlpha.uuid)
      .where('day', '=', 1)
      .execute();
    const { hours, stats } = await expectSameAsRebuild();
    const alphaHours = hours.filter((row) => row.course_uuid === history.courses.alpha.uuid);
    expect(alphaHours.find((row) => row.hour === '2026-11-12T15')).toMatchObject({
      channel: 'webex',
      lessons_sent: 1,
      lessons_delivered: 1,
      lessons_read: 1,
      answers: 1,
    });
    expect(alphaHours.find((row) => row.hour === '2026-11-10T07')).toMatchObject({
      lessons_sent: 3, // Ada, Cy and Hal: Bob's was deleted
      answers: 1, // Ada: Hal's answer was taken back above
    });
    expect(
      stats.find((row) => row.enrollment_uuid === history.enrolments.bobAlpha.uuid),
    ).toMatchObject({ lessons_sent: 3, lessons_read: 0, answers: 0, learning_minutes: 0 });
  });

  it('mirrors the enrolment status and the learner’s reachability', async () => {
    await app.db
      .updateTable('enrollments')
      .set({ status: 'enrolled', enrolled_at: '2026-11-21T10:00:00.000Z' })
      .where('uuid', '=', (await enrolmentOf(history.learners.fay.uuid)).uuid)
      .execute();
    await app.db
      .updateTable('learners')
      .set({ reachability: 'unreachable' })
      .where('uuid', '=', history.learners.dee.uuid)
      .execute();
    const { stats } = await expectSameAsRebuild();
    expect(
      stats.filter((row) => row.enrolled === 1 && row.course_uuid === history.courses.alpha.uuid),
    ).toHaveLength(7);
    expect(stats.find((row) => row.learner_uuid === history.learners.dee.uuid)).toMatchObject({
      unreachable: 1,
    });
  });

  it('goes with the enrolment, the learner or the course it belongs to', async () => {
    const course = await analyticsCourse(app, company, { name: 'Short-lived' });
    const learner = await analyticsLearner(app, company);
    const enrolment = await enrol(app, course, learner);
    await lessonSent(app, enrolment, 1, { at: novemberAt8(21), readAfter: 1 });
    await app.db.deleteFrom('learners').where('uuid', '=', learner.uuid).execute();
    expect(await aggregateSnapshot(app, [course.uuid])).toMatchObject({ stats: [] });
    const again = await enrol(app, course, await analyticsLearner(app, company));
    await lessonSent(app, again, 1, { at: novemberAt8(21), readAfter: 1 });
    await app.db.deleteFrom('courses').where('uuid', '=', course.uuid).execute();
    expect(await aggregateSnapshot(app, [course.uuid])).toEqual({
      stats: [],
      hours: [],
      courses: [],
      classroomLearners: [],
    });
    await expectSameAsRebuild();
  });

  const enrolmentOf = async (learnerUuid: string) =>
    app.db
      .selectFrom('enrollments')
      .select('uuid')
      .where('learner_uuid', '=', learnerUuid)
      .executeTakeFirstOrThrow();
});
