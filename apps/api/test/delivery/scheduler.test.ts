import { describe, expect, it } from 'vitest';

import { createOutboxAdapters } from '../../src/delivery/channels.ts';
import type { ChannelAdapter, ChannelAdapters } from '../../src/delivery/channels.ts';
import { runSchedulerTick, startScheduler } from '../../src/delivery/scheduler.ts';
import { buildTestApp } from '../helper.ts';
import {
  acceptingProviders,
  courseRow,
  createWorld,
  deliveriesOf,
  enrolledCourse,
  enrolmentsOf,
  eventsOf,
  learnersList,
  openApp,
  outboxOf,
  publishCourse,
  sharedDatabase,
  tick,
  tickAt,
} from '../fixtures/delivery.ts';

// Clock starts 2026-11-22T09:00Z; lessons at 09:30 Rome = 08:30Z on 23 and 24 November.
const START = '2026-11-22T09:00:00.000Z';
const DAY1 = '2026-11-23T08:30:00.000Z';
const DAY2 = '2026-11-24T08:30:00.000Z';
const HOUR = 60 * 60 * 1000;
const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

describe('scheduler: sending lessons once, and course statuses', async () => {
  const app = await buildTestApp();
  const world = await createWorld(app);

  it('moves a course draft → scheduled → active → delivered and sends each lesson once', async () => {
    const { course, learners } = await enrolledCourse(app, world);
    expect((await courseRow(app, course)).status).toBe('scheduled');

    expect(await tickAt(app, plus(DAY1, -1))).toMatchObject({ sent: 0, activated: 0 });
    expect(await tickAt(app, DAY1)).toMatchObject({ sent: 2, activated: 1, delivered: 0 });
    expect((await courseRow(app, course)).status).toBe('active');
    // The same moment again, and a minute later: nothing more goes out.
    expect((await tick(app)).sent).toBe(0);
    expect((await tickAt(app, plus(DAY1, 60_000))).sent).toBe(0);

    const afterDay1 = await deliveriesOf(app, course);
    expect(afterDay1.map((row) => [row.day, row.status, row.sent_at])).toEqual([
      [1, 'sent', DAY1],
      [2, 'scheduled', null],
      [1, 'sent', DAY1],
      [2, 'scheduled', null],
    ]);
    const outbox = await outboxOf(app, world.company.uuid);
    expect(outbox.map((row) => [row.kind, row.channel, row.status, row.attempts])).toEqual([
      ['lesson', 'slack', 'sent', 1],
      ['lesson', 'slack', 'sent', 1],
    ]);
    expect(new Set(outbox.map((row) => row.recipient))).toEqual(
      new Set(learners.map((learner) => learner.email)),
    );
    expect(new Set(outbox.map((row) => row.delivery_uuid))).toEqual(
      new Set(afterDay1.filter((row) => row.day === 1).map((row) => row.uuid)),
    );

    expect(await tickAt(app, DAY2)).toMatchObject({ sent: 2, completed: 2, delivered: 1 });
    const done = await courseRow(app, course);
    expect([done.status, done.delivered_at]).toEqual(['delivered', DAY2]);
    expect((await enrolmentsOf(app, course)).map((row) => [row.status, row.completed_at])).toEqual([
      ['completed', DAY2],
      ['completed', DAY2],
    ]);
    expect((await tickAt(app, plus(DAY2, HOUR))).sent).toBe(0);
  });

  it('two concurrent ticks send each lesson once', async () => {
    const { course } = await enrolledCourse(app, world, 5);
    app.testClock.set(DAY1);
    const results = await Promise.all([tick(app), tick(app), tick(app)]);
    expect(results.reduce((sum, result) => sum + result.sent, 0)).toBe(5);
    const sent = (await deliveriesOf(app, course)).filter((row) => row.status === 'sent');
    expect(sent).toHaveLength(5);
    const outbox = await app.db
      .selectFrom('outbox_messages')
      .select('delivery_uuid')
      .where(
        'delivery_uuid',
        'in',
        sent.map((row) => row.uuid),
      )
      .execute();
    expect(outbox).toHaveLength(5);
  });

  it('skips a paused course: its lessons stay scheduled and go out once it is live again', async () => {
    const { course } = await enrolledCourse(app, world, 1);
    await app.db
      .updateTable('courses')
      .set({ status: 'paused' })
      .where('uuid', '=', course)
      .execute();
    expect((await tickAt(app, DAY1)).sent).toBe(0);
    expect((await deliveriesOf(app, course)).map((row) => row.status)).toEqual([
      'scheduled',
      'scheduled',
    ]);
    await app.db
      .updateTable('courses')
      .set({ status: 'scheduled' })
      .where('uuid', '=', course)
      .execute();
    expect((await tick(app)).sent).toBe(1);
  });

  it('a canceled course sends nothing and its lessons are canceled', async () => {
    const { course } = await enrolledCourse(app, world, 1);
    await app.db
      .updateTable('courses')
      .set({ status: 'canceled' })
      .where('uuid', '=', course)
      .execute();
    expect((await tickAt(app, DAY1)).sent).toBe(0);
    expect((await deliveriesOf(app, course)).map((row) => row.status)).toEqual([
      'canceled',
      'canceled',
    ]);
  });

  it('a learner archived before a lesson is not sent it', async () => {
    const { course, learners } = await enrolledCourse(app, world, 2);
    await app.db
      .updateTable('learners')
      .set({ deleted_at: START })
      .where('uuid', '=', learners[0]!.uuid)
      .execute();
    expect(await tickAt(app, DAY1)).toMatchObject({ sent: 1, canceled: 1 });
    const rows = await deliveriesOf(app, course);
    expect(
      rows.find((row) => row.learner_uuid === learners[0]!.uuid && row.day === 1)?.status,
    ).toBe('canceled');
  });
});

describe('scheduler: answers missed after 72 hours and unread reminders after 24 hours', async () => {
  const app = await buildTestApp();
  const world = await createWorld(app);

  it('marks a question unanswered 72 h after delivery as missed, once, with a missed event', async () => {
    // Day 2 asks nothing: it can never be missed.
    const { course, learners } = await enrolledCourse(app, world, 3, { noAssessmentDays: [2] });
    const [early, silent, answered] = learners;

    await tickAt(app, DAY1);
    const day1 = async (learner: { uuid: string }) =>
      (await deliveriesOf(app, course)).find(
        (row) => row.learner_uuid === learner.uuid && row.day === 1,
      )!;
    // One learner's channel reported delivery 10 minutes after the send, one answered.
    await app.db
      .updateTable('lesson_deliveries')
      .set({ delivered_at: plus(DAY1, 10 * 60_000) })
      .where('uuid', '=', (await day1(early!)).uuid)
      .execute();
    await app.db
      .updateTable('lesson_deliveries')
      .set({ read_at: plus(DAY1, HOUR), answered_at: plus(DAY1, 2 * HOUR), answer_correct: 1 })
      .where('uuid', '=', (await day1(answered!)).uuid)
      .execute();

    expect((await tickAt(app, plus(DAY1, 72 * HOUR - 1))).missed).toBe(0);
    expect((await tickAt(app, plus(DAY1, 72 * HOUR))).missed).toBe(1);
    expect((await day1(silent!)).missed_at).toBe(plus(DAY1, 72 * HOUR));
    expect((await day1(early!)).missed_at).toBeNull();

    // Counted from the delivery receipt, and stamped at that moment even when the tick is late.
    expect((await tickAt(app, plus(DAY1, 80 * HOUR))).missed).toBe(1);
    expect((await day1(early!)).missed_at).toBe(plus(DAY1, 72 * HOUR + 10 * 60_000));
    expect((await day1(answered!)).missed_at).toBeNull();
    expect((await tick(app)).missed).toBe(0);

    const missed = (await eventsOf(app, course)).filter((event) => event.type === 'missed');
    expect(missed.map((event) => [event.learner_uuid, event.occurred_at])).toEqual([
      [silent!.uuid, plus(DAY1, 72 * HOUR)],
      [early!.uuid, plus(DAY1, 72 * HOUR + 10 * 60_000)],
    ]);
    // Day 2 (no question) is never missed.
    expect(
      (await deliveriesOf(app, course)).filter((row) => row.day === 2 && row.missed_at !== null),
    ).toEqual([]);
  });

  it('reminds an unread lesson once, 24 h after delivery, on its channel', async () => {
    const { course, learners } = await enrolledCourse(app, world, 2, { days: 1 });
    await tickAt(app, DAY1);
    const [reader, sleeper] = learners;
    await app.db
      .updateTable('lesson_deliveries')
      .set({ read_at: plus(DAY1, HOUR) })
      .where('course_uuid', '=', course)
      .where('learner_uuid', '=', reader!.uuid)
      .execute();

    expect((await tickAt(app, plus(DAY1, 24 * HOUR - 1000))).reminders).toBe(0);
    expect((await tickAt(app, plus(DAY1, 24 * HOUR))).reminders).toBe(1);
    expect((await tick(app)).reminders).toBe(0);
    expect((await tickAt(app, plus(DAY1, 48 * HOUR))).reminders).toBe(0);

    const rows = await deliveriesOf(app, course);
    expect(rows.map((row) => [row.learner_uuid, row.reminders_sent])).toEqual(
      expect.arrayContaining([
        [reader!.uuid, 0],
        [sleeper!.uuid, 1],
      ]),
    );
    const reminders = (await eventsOf(app, course)).filter((event) => event.type === 'reminder');
    expect(reminders.map((event) => [event.learner_uuid, event.occurred_at])).toEqual([
      [sleeper!.uuid, plus(DAY1, 24 * HOUR)],
    ]);
    const mine = new Set(rows.map((row) => row.uuid));
    const outbox = (await outboxOf(app, world.company.uuid)).filter(
      (row) => row.kind === 'reminder' && mine.has(row.delivery_uuid ?? ''),
    );
    expect(outbox.map((row) => [row.recipient, row.channel])).toEqual([[sleeper!.email, 'slack']]);
    expect(JSON.parse(outbox[0]!.body).text).toBe('A lesson is waiting for you');
  });
});

describe('scheduler: invitations for the opt-in', async () => {
  const app = await buildTestApp();
  const world = await createWorld(app);

  it('invites each invited learner once and sends no lesson before the opt-in', async () => {
    app.testClock.set(START);
    const { list } = await learnersList(app, world, [{ locale: 'it' }, { locale: 'en' }]);
    const course = await publishCourse(app, world, { lists: [list.uuid] });
    expect((await tick(app)).invitations).toBe(2);
    expect((await tick(app)).invitations).toBe(0);
    const invitations = (await outboxOf(app, world.company.uuid)).filter(
      (row) => row.kind === 'invitation',
    );
    expect(invitations).toHaveLength(2);
    expect(invitations.map((row) => row.delivery_uuid)).toEqual([null, null]);
    const subjects = invitations.map((row) => row.subject).sort();
    expect(subjects).toEqual([
      'Sei invitato a Negotiation basics',
      'You are invited to Negotiation basics',
    ]);
    expect((await enrolmentsOf(app, course)).map((row) => row.invitation_sent_at)).toEqual([
      START,
      START,
    ]);
    expect((await tickAt(app, DAY1)).sent).toBe(0);
  });
});

describe('scheduler: channel failures', async () => {
  const app = await buildTestApp();
  const world = await createWorld(app);

  /** The outbox adapters with Slack replaced. */
  const withSlack = (slack: Partial<ChannelAdapter>): ChannelAdapters => {
    const adapters = createOutboxAdapters(app);
    return { ...adapters, slack: { ...adapters.slack, ...slack } };
  };

  it('retries with exponential backoff: two failures, then the send goes through once', async () => {
    const { course } = await enrolledCourse(app, world, 1, { days: 1 });
    const outbox = createOutboxAdapters(app).slack;
    let calls = 0;
    const delays: number[] = [];
    const adapters = withSlack({
      maxRetries: 3,
      send: async (message) => {
        calls += 1;
        if (calls <= 2) throw new Error(`Slack 503 (call ${calls})`);
        return outbox.send(message);
      },
    });
    app.testClock.set(DAY1);
    const result = await runSchedulerTick(app, {
      adapters,
      retryBaseMs: 250,
      sleep: async (ms) => {
        delays.push(ms);
      },
    });
    expect(result).toMatchObject({ sent: 1, failed: 0 });
    expect(calls).toBe(3);
    expect(delays).toEqual([250, 500]);
    expect((await deliveriesOf(app, course)).map((row) => row.status)).toEqual(['sent']);
    expect(
      (await outboxOf(app, world.company.uuid)).filter((row) => row.delivery_uuid !== null),
    ).toHaveLength(1);
  });

  it('gives up after maxRetries: the lesson is failed and never tried again', async () => {
    const { course } = await enrolledCourse(app, world, 1, { days: 1 });
    let calls = 0;
    const delays: number[] = [];
    const adapters = withSlack({
      maxRetries: 2,
      send: () => {
        calls += 1;
        return Promise.reject(new Error('webhook gone'));
      },
    });
    const options = {
      adapters,
      retryBaseMs: 100,
      sleep: async (ms: number) => {
        delays.push(ms);
      },
    };
    app.testClock.set(DAY1);
    expect(await runSchedulerTick(app, options)).toMatchObject({ sent: 0, failed: 1 });
    expect([calls, delays]).toEqual([3, [100, 200]]);
    expect((await deliveriesOf(app, course)).map((row) => row.status)).toEqual(['failed']);
    await runSchedulerTick(app, options);
    expect(calls).toBe(3);
  });
});

describe('scheduler: a restart never sends a lesson twice', async () => {
  const shared = await sharedDatabase();

  it('a fresh app on the same database sends nothing already sent, nor a row claimed before a crash', async () => {
    const first = await openApp(shared, START);
    const world = await createWorld(first);
    const { course, learners } = await enrolledCourse(first, world, 2);
    expect((await tickAt(first, DAY1)).sent).toBe(2);
    // The process dies right after claiming one learner's day 2 (before the channel answered).
    await first.db
      .updateTable('lesson_deliveries')
      .set({ status: 'sending', updated_at: DAY2 })
      .where('course_uuid', '=', course)
      .where('learner_uuid', '=', learners[0]!.uuid)
      .where('day', '=', 2)
      .execute();
    await first.close();

    const second = await openApp(shared, DAY1);
    try {
      expect((await tick(second)).sent).toBe(0);
      expect(await tickAt(second, DAY2)).toMatchObject({ sent: 1, failed: 0 });
      // The claimed row is given up after 15 minutes, as failed, not resent.
      expect((await tickAt(second, plus(DAY2, 15 * 60_000 + 1))).failed).toBe(1);
      const rows = await deliveriesOf(second, course);
      expect(
        rows.map((row) => [row.learner_uuid === learners[0]!.uuid, row.day, row.status]),
      ).toEqual(
        expect.arrayContaining([
          [true, 1, 'sent'],
          [true, 2, 'failed'],
          [false, 1, 'sent'],
          [false, 2, 'sent'],
        ]),
      );
      const outbox = await outboxOf(second, world.company.uuid);
      expect(outbox.filter((row) => row.kind === 'lesson')).toHaveLength(3);
    } finally {
      await second.close();
    }
  });
});

describe('startScheduler', async () => {
  const app = await buildTestApp();
  const world = await createWorld(app);

  it('ticks at once and on its interval, and stops', async () => {
    const { course } = await enrolledCourse(app, world, 1, { days: 1 });
    app.testClock.set(DAY1);
    const stop = startScheduler(app, 20, { retryBaseMs: 1, adapters: acceptingProviders(app) });
    await expect
      .poll(async () => (await deliveriesOf(app, course)).map((row) => row.status), {
        timeout: 5000,
      })
      .toEqual(['sent']);
    await stop();
    expect((await courseRow(app, course)).status).toBe('delivered');
  });
});
