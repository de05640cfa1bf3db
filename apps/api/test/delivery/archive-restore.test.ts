import { describe, expect, it } from 'vitest';

import { call } from '../helper.ts';
import { buildTestApp } from '../helper.ts';
import {
  authHeaders,
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
