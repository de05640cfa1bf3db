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
  outboxOf,
  publishCourse,
  saveCourse,
  tickAt,
} from '../fixtures/delivery.ts';

// The test clock starts at 2026-11-22T09:00Z; the default course body starts on 2026-11-23 at
// 09:30 Rome time (08:30Z in winter) with two days in English and Italian, on Slack.
const START = '2026-11-22T09:00:00.000Z';
const DAY1 = '2026-11-23T08:30:00.000Z';
const DAY2 = '2026-11-24T08:30:00.000Z';

describe('publishing a course enrols the learners of its lists and plans their lessons', async () => {
  const app = await buildTestApp();
  const world = await createWorld(app);

  it('enrols reachable, non-archived learners as invited (opt-in on), one delivery per lesson day', async () => {
    app.testClock.set(START);
    const { list, learners } = await learnersList(app, world, [
      { first_name: 'Ada', locale: 'en' },
      { first_name: 'Bea', locale: 'it' },
      { first_name: 'Carl', locale: 'de' },
      { first_name: 'Dora', channels: ['whatsapp'], phone: '+393331234567' },
      { first_name: 'Emil', email: null },
      { first_name: 'Fay', deleted_at: '2026-11-01T00:00:00.000Z' },
    ]);
    const [ada, bea, carl] = learners;
    const course = await publishCourse(app, world, { lists: [list.uuid] });

    const enrolments = await enrolmentsOf(app, course);
    expect(new Set(enrolments.map((row) => row.learner_uuid))).toEqual(
      new Set([ada!.uuid, bea!.uuid, carl!.uuid]),
    );
    for (const row of enrolments) {
      expect(row).toMatchObject({
        company_uuid: world.company.uuid,
        channel: 'slack',
        status: 'invited',
        invited_at: START,
        enrolled_at: null,
        invitation_sent_at: null,
      });
    }

    const deliveries = await deliveriesOf(app, course);
    const languageOf = new Map([
      [ada!.uuid, 'en'],
      [bea!.uuid, 'it'],
      [carl!.uuid, 'en'], // German is not a course language: the primary one
    ]);
    expect(deliveries).toHaveLength(6);
    for (const row of deliveries) {
      expect(row).toMatchObject({
        channel: 'slack',
        status: 'scheduled',
        language: languageOf.get(row.learner_uuid),
        scheduled_for: row.day === 1 ? DAY1 : DAY2,
        sent_at: null,
        reminders_sent: 0,
      });
      expect(
        enrolments.find((enrolment) => enrolment.uuid === row.enrollment_uuid)?.learner_uuid,
      ).toBe(row.learner_uuid);
    }
    expect((await courseRow(app, course)).status).toBe('scheduled');
  });

  it('enrols learners at once when the opt-in is disabled', async () => {
    app.testClock.set(START);
    const { list } = await learnersList(app, world, [{}, {}]);
    const course = await publishCourse(app, world, {
      lists: [list.uuid],
      distribution: { disabled_enrolment_opt_in: true },
    });
    const enrolments = await enrolmentsOf(app, course);
    expect(enrolments.map((row) => [row.status, row.enrolled_at])).toEqual([
      ['enrolled', START],
      ['enrolled', START],
    ]);
  });

  it('reaches each learner on the first course channel they have, with its contact', async () => {
    app.testClock.set(START);
    const { list, learners } = await learnersList(app, world, [
      { channels: ['slack', 'whatsapp'], phone: '+393331234567' },
      { channels: ['slack', 'whatsapp'], phone: null },
      { channels: ['ms-teams'] },
    ]);
    const course = await publishCourse(app, world, {
      lists: [list.uuid],
      channels: ['whatsapp', 'slack'],
    });
    const byLearner = new Map(
      (await enrolmentsOf(app, course)).map((row) => [row.learner_uuid, row.channel]),
    );
    expect(byLearner.get(learners[0]!.uuid)).toBe('whatsapp');
    expect(byLearner.get(learners[1]!.uuid)).toBe('slack');
    expect(byLearner.has(learners[2]!.uuid)).toBe(false);
    expect(byLearner.size).toBe(2);
  });

  it('saving the published course again changes nothing (idempotent)', async () => {
    app.testClock.set(START);
    const { list } = await learnersList(app, world, [{}, {}]);
    const course = await publishCourse(app, world, { lists: [list.uuid] });
    const before = {
      enrolments: await enrolmentsOf(app, course),
      deliveries: await deliveriesOf(app, course),
    };
    app.testClock.advance(60_000);
    await saveCourse(app, world, course, courseBody({ lists: [list.uuid], status: 'scheduled' }));
    expect(await enrolmentsOf(app, course)).toEqual(before.enrolments);
    expect(await deliveriesOf(app, course)).toEqual(before.deliveries);
  });

  it('a re-save re-plans: a new time moves unsent lessons, list changes enrol and drop, a removed day is canceled', async () => {
    app.testClock.set(START);
    const { list, learners } = await learnersList(app, world, [{}, {}]);
    const course = await publishCourse(app, world, { lists: [list.uuid] });
    const newcomer = (await learnersList(app, world, [{}])).learners[0]!;
    await app.db
      .insertInto('learners_list_members')
      .values({ list_uuid: list.uuid, learner_uuid: newcomer.uuid })
      .execute();
    await app.db
      .deleteFrom('learners_list_members')
      .where('learner_uuid', '=', learners[1]!.uuid)
      .execute();

    await saveCourse(
      app,
      world,
      course,
      courseBody({
        lists: [list.uuid],
        status: 'scheduled',
        days: 1,
        distribution: { time: '10:00' },
      }),
    );
    const status = new Map(
      (await enrolmentsOf(app, course)).map((row) => [row.learner_uuid, row.status]),
    );
    expect(status).toEqual(
      new Map([
        [learners[0]!.uuid, 'invited'],
        [learners[1]!.uuid, 'dropped'],
        [newcomer.uuid, 'invited'],
      ]),
    );
    const rows = (await deliveriesOf(app, course)).map((row) => ({
      learner: row.learner_uuid,
      day: row.day,
      status: row.status,
      at: row.scheduled_for,
    }));
    expect(rows).toEqual(
      expect.arrayContaining([
        { learner: learners[0]!.uuid, day: 1, status: 'scheduled', at: '2026-11-23T09:00:00.000Z' },
        { learner: learners[0]!.uuid, day: 2, status: 'canceled', at: DAY2 },
        { learner: learners[1]!.uuid, day: 1, status: 'canceled', at: DAY1 },
        { learner: newcomer.uuid, day: 1, status: 'scheduled', at: '2026-11-23T09:00:00.000Z' },
      ]),
    );
    expect(rows).toHaveLength(5);

    // Day 2 back: the canceled row is planned again, not duplicated.
    await saveCourse(app, world, course, courseBody({ lists: [list.uuid], status: 'scheduled' }));
    const again = await deliveriesOf(app, course);
    expect(
      again
        .filter((row) => row.learner_uuid === learners[0]!.uuid)
        .map((row) => [row.day, row.status, row.scheduled_for]),
    ).toEqual([
      [1, 'scheduled', DAY1],
      [2, 'scheduled', DAY2],
    ]);
    expect(again).toHaveLength(6);
  });

  it('back to draft removes the enrolments that received nothing', async () => {
    app.testClock.set(START);
    const { list } = await learnersList(app, world, [{}, {}]);
    const course = await publishCourse(app, world, { lists: [list.uuid] });
    expect(await enrolmentsOf(app, course)).toHaveLength(2);
    await saveCourse(app, world, course, courseBody({ lists: [list.uuid], status: 'draft' }));
    expect(await enrolmentsOf(app, course)).toEqual([]);
    expect(await deliveriesOf(app, course)).toEqual([]);
  });

  it('enrols nobody while the course is a draft', async () => {
    app.testClock.set(START);
    const { list } = await learnersList(app, world, [{}]);
    const created = await call(app, {
      method: 'POST',
      url: world.base,
      headers: world.headers,
      payload: { name: 'Draft', description: 'Stays a draft.' },
    });
    const course = created.json.data.uuid as string;
    await saveCourse(app, world, course, courseBody({ lists: [list.uuid] }));
    expect(await enrolmentsOf(app, course)).toEqual([]);
  });
});

describe('archiving and channel changes', async () => {
  const app = await buildTestApp();
  const world = await createWorld(app);

  it('archiving cancels the lessons still to send; sent ones stay sent and nothing more goes out', async () => {
    app.testClock.set(START);
    const { list } = await learnersList(app, world, [{}, {}]);
    const course = await publishCourse(app, world, {
      lists: [list.uuid],
      distribution: { disabled_enrolment_opt_in: true },
    });
    expect((await tickAt(app, DAY1)).sent).toBe(2);
    const archived = await call(app, {
      method: 'DELETE',
      url: `${world.base}/${course}/soft`,
      headers: await authHeaders(app, world),
    });
    expect(archived.statusCode).toBe(200);
    expect((await deliveriesOf(app, course)).map((row) => [row.day, row.status])).toEqual([
      [1, 'sent'],
      [2, 'canceled'],
      [1, 'sent'],
      [2, 'canceled'],
    ]);
    expect((await tickAt(app, DAY2)).sent).toBe(0);
    expect(await outboxOf(app, world.company.uuid)).toHaveLength(2);
  });

  it('a channel change takes effect from the next lesson: sent lessons keep theirs', async () => {
    app.testClock.set(START);
    const { list, learners } = await learnersList(app, world, [
      { channels: ['slack', 'ms-teams'] },
    ]);
    const body = { lists: [list.uuid], channels: ['slack', 'ms-teams'] };
    const course = await publishCourse(app, world, {
      ...body,
      distribution: { disabled_enrolment_opt_in: true },
    });
    expect((await tickAt(app, DAY1)).sent).toBe(1);
    expect((await courseRow(app, course)).status).toBe('active');

    // Only draft, scheduled and paused courses can be saved: pause it, then switch channel.
    await app.db
      .updateTable('courses')
      .set({ status: 'paused' })
      .where('uuid', '=', course)
      .execute();
    await saveCourse(
      app,
      world,
      course,
      courseBody({
        lists: [list.uuid],
        channels: ['ms-teams', 'slack'],
        distribution: { disabled_enrolment_opt_in: true },
      }),
    );
    const [enrolment] = await enrolmentsOf(app, course);
    expect(enrolment?.channel).toBe('ms-teams');
    expect(
      (await deliveriesOf(app, course)).map((row) => [
        row.day,
        row.channel,
        row.status,
        row.scheduled_for,
      ]),
    ).toEqual([
      [1, 'slack', 'sent', DAY1],
      [2, 'ms-teams', 'scheduled', DAY2],
    ]);

    // Paused: day 2 is skipped while paused.
    expect((await tickAt(app, DAY2)).sent).toBe(0);

    // Resumed with a new start date: the remaining lesson goes at its first slot.
    app.testClock.set('2026-11-24T10:00:00.000Z');
    await saveCourse(
      app,
      world,
      course,
      courseBody({
        lists: [list.uuid],
        channels: ['ms-teams', 'slack'],
        status: 'scheduled',
        startDate: '2026-11-26',
        distribution: { disabled_enrolment_opt_in: true },
      }),
    );
    expect((await deliveriesOf(app, course))[1]?.scheduled_for).toBe('2026-11-26T08:30:00.000Z');
    const result = await tickAt(app, '2026-11-26T08:30:00.000Z');
    expect(result).toMatchObject({ sent: 1, activated: 1, delivered: 1 });
    const outbox = await outboxOf(app, world.company.uuid);
    const mine = outbox.filter((row) => row.recipient === learners[0]!.email);
    expect(mine.filter((row) => row.kind === 'lesson').map((row) => row.channel)).toEqual([
      'slack',
      'ms-teams',
    ]);
    // Day 1, still unread, is reminded where it was sent.
    expect(mine.filter((row) => row.kind === 'reminder').map((row) => row.channel)).toEqual([
      'slack',
    ]);
    expect((await courseRow(app, course)).status).toBe('delivered');
  });
});
