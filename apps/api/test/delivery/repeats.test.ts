import { afterAll, describe, expect, it } from 'vitest';

import type { TLearnerConversation } from '@ccp/schemas';

import { fsrsDue, hasStuck, repeatSendAt } from '../../src/delivery/repeat-schedule.ts';
import type { RepeatCalendar } from '../../src/delivery/repeat-schedule.ts';
import { DAY1, DAY2, channelWorld } from '../fixtures/channels.ts';
import { authHeaders, enrolmentsOf } from '../fixtures/delivery.ts';
import { call } from '../helper.ts';
import { startFakeSlack } from '../fakes/slack.ts';

// "Repeat questions until they stick" (issue 28): a question answered wrong comes back on the day
// FSRS schedules, as a message of its own after that day's lesson, through the same Slack webhook,
// until answered right twice in a row; at most two a day, for at most 30 days after the last
// lesson. The clock is moved, never slept on.

const DAY_MS = 24 * 60 * 60 * 1000;
const plusDays = (iso: string, days: number) =>
  new Date(Date.parse(iso) + days * DAY_MS).toISOString();

describe('repeats: FSRS schedule and limits', () => {
  const calendar = (overrides: Partial<RepeatCalendar> = {}): RepeatCalendar => ({
    time: '09:30',
    lessonsOn: new Map([['2026-11-24', new Date(DAY2)]]),
    lastLessonDate: '2026-11-24',
    repeatsOn: new Map(),
    ...overrides,
  });
  const wrongOnDay1 = [{ at: DAY1, right: false }];

  it('a wrong answer comes back the next day, with that day’s lesson', () => {
    expect(fsrsDue(wrongOnDay1, 90).toISOString()).toBe(plusDays(DAY1, 1));
    expect(repeatSendAt(wrongOnDay1, 90, calendar())?.toISOString()).toBe(DAY2);
  });

  it('a right answer after it waits longer, the longer the lower the target retention', () => {
    const history = [...wrongOnDay1, { at: DAY2, right: true }];
    const at90 = fsrsDue(history, 90).getTime();
    const at70 = fsrsDue(history, 70).getTime();
    expect(at90).toBeGreaterThan(Date.parse(DAY2) + DAY_MS - 1);
    expect(at70).toBeGreaterThan(at90);
  });

  it('at most two a day: a third waits for the next day, at the course’s time', () => {
    const full = calendar({ repeatsOn: new Map([['2026-11-24', 2]]) });
    // 25 November has no lesson: 09:30 in Rome (CET) is 08:30Z.
    expect(repeatSendAt(wrongOnDay1, 90, full)?.toISOString()).toBe('2026-11-25T08:30:00.000Z');
    const one = calendar({ repeatsOn: new Map([['2026-11-24', 1]]) });
    expect(repeatSendAt(wrongOnDay1, 90, one)?.toISOString()).toBe(DAY2);
  });

  it('ends 30 days after the last lesson', () => {
    const late = [{ at: '2026-12-23T08:30:00.000Z', right: false }];
    expect(repeatSendAt(late, 90, calendar())?.toISOString()).toBe('2026-12-24T08:30:00.000Z');
    const tooLate = [{ at: '2026-12-24T08:30:00.000Z', right: false }];
    expect(repeatSendAt(tooLate, 90, calendar())).toBeNull();
  });

  it('sticks after two right answers in a row, not after a right one between wrong ones', () => {
    expect(hasStuck([...wrongOnDay1, { at: DAY2, right: true }])).toBe(false);
    expect(
      hasStuck([
        ...wrongOnDay1,
        { at: DAY2, right: true },
        { at: plusDays(DAY2, 3), right: false },
        { at: plusDays(DAY2, 4), right: true },
      ]),
    ).toBe(false);
    expect(
      hasStuck([...wrongOnDay1, { at: DAY2, right: true }, { at: plusDays(DAY2, 3), right: true }]),
    ).toBe(true);
  });
});

describe('repeats over Slack', async () => {
  const fake = await startFakeSlack();
  afterAll(() => fake.close());
  const { app, world, connect, webhook, enrol, tickAt, deliveriesOfDay } = await channelWorld(
    'slack',
    {
      slack: { apiUrl: fake.apiUrl },
    },
  );
  const nowSeconds = () => Math.floor(app.clock.now().getTime() / 1000);
  const repeatOf = (deliveryUuid: string) =>
    app.db
      .selectFrom('question_repeats')
      .selectAll()
      .where('delivery_uuid', '=', deliveryUuid)
      .executeTakeFirstOrThrow();

  it('brings a wrong answer back on the scheduled day after the lesson, until right twice', async () => {
    expect(
      (await connect({ bot_token: fake.token, signing_secret: fake.signingSecret })).json.data,
    ).toMatchObject({ status: 'connected' });
    const { course, learners } = await enrol([{}], {
      distribution: { repeat_questions: true, target_retention: 90 },
    });
    const user = fake.addUser(learners[0]!.email!);
    const toUser = () => fake.messages.filter((message) => message.userId === user.id);
    // Every question sent: with its buttons, or closed after its answer (chat.update, issue 28).
    const questions = () =>
      toUser().filter(
        (message) =>
          message.blocks.some((block) => block.type === 'actions') ||
          fake.updates.some((update) => update.ts === message.ts),
      );

    await tickAt(DAY1);
    const [lesson1] = questions();
    expect(
      (await webhook(fake.tapRequest(lesson1!, 1, { nowSeconds: nowSeconds() }))).json,
    ).toEqual({ status: 'recorded' });
    await tickAt(DAY1);
    const day1 = (await deliveriesOfDay(course))[0]!;
    expect(day1.answer_correct).toBe(0);
    expect(await repeatOf(day1.uuid)).toMatchObject({ status: 'waiting', send_at: DAY2 });

    // Day 2: the day's lesson, then day 1's question again, as its own message.
    await tickAt(DAY2);
    const [, lesson2, repeat] = questions();
    expect(JSON.stringify(lesson2!.blocks)).toContain('Day 2');
    expect(JSON.stringify(repeat!.blocks)).toContain('Day 1');
    expect(await repeatOf(day1.uuid)).toMatchObject({ status: 'sent', sends: 1 });
    // Day 2's question answered right: it never comes back.
    await webhook(fake.tapRequest(lesson2!, 0, { nowSeconds: nowSeconds() }));

    // Right this time: told so, the lesson's own first answer stays wrong, and it comes back later.
    expect((await webhook(fake.tapRequest(repeat!, 0, { nowSeconds: nowSeconds() }))).json).toEqual(
      {
        status: 'recorded',
      },
    );
    await tickAt(DAY2);
    expect(JSON.stringify(toUser().at(-1))).toContain('Right!');
    expect((await deliveriesOfDay(course))[0]!.answer_correct).toBe(0);
    const second = await repeatOf(day1.uuid);
    expect(second.status).toBe('waiting');
    expect(Date.parse(second.send_at!)).toBeGreaterThan(Date.parse(DAY2) + 24 * 60 * 60 * 1000 - 1);
    // After the last lesson it goes at the course's time (09:30 Rome = 08:30Z).
    expect(second.send_at!.slice(11)).toBe('08:30:00.000Z');

    // Not a moment before the scheduled day; then it goes, and a second right answer ends it.
    const before = questions().length;
    await tickAt(new Date(Date.parse(second.send_at!) - 60_000).toISOString());
    expect(questions()).toHaveLength(before);
    await tickAt(second.send_at!);
    expect(questions()).toHaveLength(before + 1);
    const again = questions().at(-1)!;
    await webhook(fake.tapRequest(again, 0, { nowSeconds: nowSeconds() }));
    const stuck = await repeatOf(day1.uuid);
    expect(stuck).toMatchObject({ status: 'stuck', send_at: null, sends: 2 });
    const history = JSON.parse(stuck.history) as { right: boolean }[];
    expect(history.map((answer) => answer.right)).toEqual([false, true, true]);
    await tickAt(plusDays(second.send_at!, 10));
    expect(questions()).toHaveLength(before + 1);

    // The learner page's conversation tells each repeat and its answer (issue 28).
    const page = await call(app, {
      method: 'GET',
      url: `/api/v1/learners/${learners[0]!.uuid}/conversation?days=31`,
      headers: await authHeaders(app, world),
    });
    const steps = (page.json.data as TLearnerConversation).days
      .flatMap((entry) => entry.events)
      .filter((event) => event.type.startsWith('repeat_'))
      .map((event) => [event.type, event.day, event.at, event.repeat ?? event.answer]);
    expect(steps).toEqual([
      ['repeat_sent', 1, DAY2, 1],
      ['repeat_answered', 1, DAY2, { text: 'Right', correct: true }],
      ['repeat_sent', 1, second.send_at, 2],
      ['repeat_answered', 1, second.send_at, { text: 'Right', correct: true }],
    ]);
  });

  // Paused learners get no lessons (issue 28): nor the questions those lessons left to repeat.
  it('holds a paused learner’s repeat until they are resumed', async () => {
    await connect({ bot_token: fake.token, signing_secret: fake.signingSecret });
    const { course, learners } = await enrol([{}], {
      distribution: { repeat_questions: true, target_retention: 90 },
    });
    const user = fake.addUser(learners[0]!.email!);
    const toUser = () => fake.messages.filter((message) => message.userId === user.id);
    await tickAt(DAY1);
    const [lesson1] = toUser();
    await webhook(
      fake.tapRequest(lesson1!, 1, { nowSeconds: Math.floor(Date.parse(DAY1) / 1000) }),
    );
    await tickAt(DAY1);
    const day1 = (await deliveriesOfDay(course))[0]!;
    expect(await repeatOf(day1.uuid)).toMatchObject({ status: 'waiting', send_at: DAY2 });

    const [enrolment] = await enrolmentsOf(app, course);
    const url = `/api/v1/learners/${learners[0]!.uuid}/enrollments/${enrolment!.uuid}`;
    const headers = await authHeaders(app, world);
    expect((await call(app, { method: 'POST', url: `${url}/pause`, headers })).statusCode).toBe(
      200,
    );
    // The tick after the pause sends its confirmation; nothing else goes while paused.
    await tickAt(new Date(Date.parse(DAY1) + 60_000).toISOString());
    const sent = toUser().length;
    await tickAt(DAY2);
    expect(toUser()).toHaveLength(sent);
    expect(await repeatOf(day1.uuid)).toMatchObject({ status: 'waiting', sends: 0 });

    // A new sign-in: a day has passed on the clock since the pause.
    const resume = {
      method: 'POST' as const,
      url: `${url}/resume`,
      headers: await authHeaders(app, world),
    };
    expect((await call(app, resume)).statusCode).toBe(200);
    await tickAt(new Date(Date.parse(DAY2) + 60_000).toISOString());
    expect(await repeatOf(day1.uuid)).toMatchObject({ status: 'sent', sends: 1 });
  });
});
