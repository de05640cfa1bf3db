import { describe, expect, it } from 'vitest';

import { buildTestApp, call } from '../helper.ts';
import {
  authHeaders,
  courseBody,
  courseRow,
  createWorld,
  deliveriesOf,
  enrolmentsOf,
  learnersList,
  publishCourse,
  tickAt,
} from '../fixtures/delivery.ts';

// Issue 27 item 1: archiving a running course and restoring it must not end it. The course
// starts on Monday 2026-11-23 at 09:30 Rome (08:30Z), three days, weekends skipped, on Slack.
const START = '2026-11-22T09:00:00.000Z';
const MON = '2026-11-23T08:30:00.000Z';
const TUE = '2026-11-24T08:30:00.000Z';
const WED = '2026-11-25T08:30:00.000Z';
const THU = '2026-11-26T08:30:00.000Z';
const FRI_NOON = '2026-11-27T11:00:00.000Z';
const NEXT_MON = '2026-11-30T08:30:00.000Z';
const NEXT_TUE = '2026-12-01T08:30:00.000Z';

describe('archiving and restoring a running course', async () => {
  const app = await buildTestApp();
  const world = await createWorld(app);

  const act = async (course: string, path: string, method: 'POST' | 'DELETE' = 'POST') =>
    call(app, {
      method,
      url: `${world.base}/${course}/${path}`,
      headers: await authHeaders(app, world),
    });

  const runningCourse = async () => {
    app.testClock.set(START);
    const { list } = await learnersList(app, world, [{}, {}]);
    const course = await publishCourse(app, world, {
      lists: [list.uuid],
      days: 3,
      distribution: { disabled_enrolment_opt_in: true, exclusion_days: ['saturday', 'sunday'] },
    });
    expect((await tickAt(app, MON)).sent).toBe(2);
    expect((await courseRow(app, course)).status).toBe('active');
    return course;
  };

  it('comes back paused with its remaining lessons: nobody completes, the course is not delivered', async () => {
    const course = await runningCourse();
    app.testClock.set('2026-11-23T12:00:00.000Z');
    const archived = await act(course, 'soft', 'DELETE');
    expect(archived.statusCode).toBe(200);
    expect(archived.json.data).toMatchObject({ status: 'paused' });
    const restored = await act(course, 'restore');
    expect(restored.statusCode).toBe(200);
    expect(restored.json.data).toMatchObject({ status: 'paused', deleted_at: null });

    for (const at of [TUE, WED, THU]) expect((await tickAt(app, at)).sent).toBe(0);
    const row = await courseRow(app, course);
    expect(row.status).toBe('paused');
    expect(row.delivered_at).toBeNull();
    expect((await enrolmentsOf(app, course)).map((enrolment) => enrolment.status)).toEqual([
      'enrolled',
      'enrolled',
    ]);
    expect(
      (await deliveriesOf(app, course)).filter((delivery) => delivery.status === 'sent'),
    ).toHaveLength(2);
  });

  it('resumed, the lessons not sent go out from the next slot, weekends skipped as before', async () => {
    const course = await runningCourse();
    await act(course, 'soft', 'DELETE');
    await act(course, 'restore');

    app.testClock.set(FRI_NOON);
    const resumed = await act(course, 'resume');
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json.data).toMatchObject({ status: 'active' });
    const planned = (await deliveriesOf(app, course)).map((row) => [
      row.day,
      row.status,
      row.status === 'sent' ? MON : row.scheduled_for,
    ]);
    expect(planned).toEqual([
      [1, 'sent', MON],
      [2, 'scheduled', NEXT_MON],
      [3, 'scheduled', NEXT_TUE],
      [1, 'sent', MON],
      [2, 'scheduled', NEXT_MON],
      [3, 'scheduled', NEXT_TUE],
    ]);

    expect((await tickAt(app, NEXT_MON)).sent).toBe(2);
    expect((await enrolmentsOf(app, course)).map((row) => row.status)).toEqual([
      'enrolled',
      'enrolled',
    ]);
    expect((await tickAt(app, NEXT_TUE)).sent).toBe(2);
    expect((await enrolmentsOf(app, course)).map((row) => row.status)).toEqual([
      'completed',
      'completed',
    ]);
    expect((await courseRow(app, course)).status).toBe('delivered');
  });

  it('canceled instead, it sends nothing more and counts nobody as completed', async () => {
    const course = await runningCourse();
    await act(course, 'soft', 'DELETE');
    await act(course, 'restore');
    const canceled = await act(course, 'cancel');
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json.data).toMatchObject({ status: 'canceled' });
    for (const at of [TUE, WED, NEXT_MON]) expect((await tickAt(app, at)).sent).toBe(0);
    expect((await enrolmentsOf(app, course)).map((row) => row.status)).toEqual([
      'enrolled',
      'enrolled',
    ]);
  });

  it('resume and cancel are refused with a reason where they do not apply', async () => {
    const course = await runningCourse();
    const notPaused = await act(course, 'resume');
    expect(notPaused.statusCode).toBe(422);
    expect(notPaused.json.error.message).toBe('Only a paused course can be resumed.');
    await act(course, 'soft', 'DELETE');
    const whileArchived = await act(course, 'resume');
    expect(whileArchived.statusCode).toBe(422);
    expect(whileArchived.json.error.message).toBe(
      'An archived course cannot be edited. Restore it first.',
    );
    await act(course, 'restore');
    expect((await act(course, 'cancel')).statusCode).toBe(200);
    const again = await act(course, 'cancel');
    expect(again.statusCode).toBe(422);
    expect(again.json.error.message).toBe(
      'Only a scheduled, active or paused course can be canceled.',
    );
  });
});

// Issue 27 item 6: one definition per figure, the same on the card, Finish, Insights and export.
describe('a course’s figures agree wherever they appear', async () => {
  const app = await buildTestApp();
  const world = await createWorld(app);

  it('reached before publishing, enrolled after; scheduled is the click, first send the start', async () => {
    app.testClock.set(START);
    // Two on Slack, one without an e-mail (unreachable on Slack), one archived.
    const { list } = await learnersList(app, world, [
      {},
      {},
      { email: null },
      { deleted_at: '2026-11-01T00:00:00.000Z' },
    ]);
    const headers = await authHeaders(app, world);
    const created = await call(app, {
      method: 'POST',
      url: world.base,
      headers,
      payload: { name: 'Draft', description: 'To be published.' },
    });
    const course = created.json.data.uuid as string;
    const body = courseBody({
      lists: [list.uuid],
      distribution: { disabled_enrolment_opt_in: true },
    });
    await call(app, { method: 'POST', url: `${world.base}/${course}`, headers, payload: body });
    const options = await call(app, {
      method: 'GET',
      url: `${world.base}/${course}/delivery-options?channel=slack&lists=${list.uuid}`,
      headers,
    });
    const draft = await call(app, { method: 'GET', url: `${world.base}/${course}`, headers });
    expect(options.json.data.reached).toBe(2);
    expect(draft.json.data).toMatchObject({ reached: 2, enrolments: 0, first_send_at: MON });

    app.testClock.set('2026-11-22T10:00:00.000Z');
    await call(app, {
      method: 'POST',
      url: `${world.base}/${course}`,
      headers: await authHeaders(app, world),
      payload: { ...body, status: 'scheduled' },
    });
    await tickAt(app, MON);
    const live = await call(app, {
      method: 'GET',
      url: `${world.base}/${course}`,
      headers: await authHeaders(app, world),
    });
    const insights = await call(app, {
      method: 'GET',
      url: `/api/v2/analytics/classrooms/${world.classroom}/courses/insights`,
      headers: await authHeaders(app, world),
    });
    const insight = (insights.json.data as { uuid: string; learners: number }[]).find(
      (entry) => entry.uuid === course,
    );
    expect(live.json.data).toMatchObject({
      enrolments: 2,
      reached: null,
      scheduled_at: '2026-11-22T10:00:00.000Z',
      first_send_at: MON,
    });
    expect(insight?.learners).toBe(2);
  });
});

// Issue 27: completion is never counted for lessons not sent. A learner whose list was deleted
// mid-course can be archived; the rest of the course is then canceled for them at its send
// time: the others complete it, that learner does not, and the statistics export says so.
describe('lessons canceled before they went out', async () => {
  const app = await buildTestApp();
  const world = await createWorld(app);

  const act = async (method: 'POST' | 'DELETE', url: string) =>
    call(app, { method, url, headers: await authHeaders(app, world) });

  it('keep the learner from completing the course, in the database and in the export', async () => {
    app.testClock.set(START);
    const stay = await learnersList(app, world, [{ first_name: 'Ada', last_name: 'Alpha' }]);
    const leave = await learnersList(app, world, [{ first_name: 'Bruno', last_name: 'Bravo' }]);
    const ada = stay.learners[0]!.uuid;
    const bruno = leave.learners[0]!.uuid;
    const course = await publishCourse(app, world, {
      lists: [stay.list.uuid, leave.list.uuid],
      days: 3,
      distribution: { disabled_enrolment_opt_in: true, exclusion_days: ['saturday', 'sunday'] },
    });
    expect((await tickAt(app, MON)).sent).toBe(2);

    app.testClock.set('2026-11-23T12:00:00.000Z');
    expect((await act('DELETE', `/api/v1/learners-lists/${leave.list.uuid}`)).statusCode).toBe(200);
    expect((await act('DELETE', `/api/v1/learners/${bruno}/soft`)).statusCode).toBe(200);
    await tickAt(app, TUE);
    await tickAt(app, WED);

    const deliveries = await deliveriesOf(app, course);
    const status = (learner: string, day: number) =>
      deliveries.find((row) => row.learner_uuid === learner && row.day === day)?.status;
    expect([status(ada, 3), status(bruno, 2), status(bruno, 3)]).toEqual([
      'sent',
      'canceled',
      'canceled',
    ]);
    const enrolments = new Map(
      (await enrolmentsOf(app, course)).map((row) => [row.learner_uuid, row.status]),
    );
    expect([enrolments.get(ada), enrolments.get(bruno)]).toEqual(['completed', 'enrolled']);

    const exported = await act(
      'POST',
      `/api/v1/analytics/classrooms/${world.classroom}/courses/${course}/export`,
    );
    const rows = Buffer.from(exported.json.data.base64 as string, 'base64')
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    const column = rows[0]!.indexOf('enrollment_status');
    const exportedStatus = (learner: string) => rows.find((row) => row[0] === learner)?.[column];
    expect([exportedStatus(ada), exportedStatus(bruno)]).toEqual(['completed', 'enrolled']);
  });
});
