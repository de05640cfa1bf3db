import { afterAll, describe, expect, it } from 'vitest';

import type { TLearnerConversation } from '@ccp/schemas';

import { typedChoice } from '../../src/delivery/keywords.ts';
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

// What a typed message names instead of a tap, on every channel (issue 28, the loose ends).
describe('typed answers to a choice question', () => {
  const question = (type: 'multiple_choice' | 'true_false', answers: string[]) => ({
    type,
    question: 'Q?',
    mandatory: true,
    answers: answers.map((text, index) => ({ text, correct: index === 0, response: 'OK' })),
    thank_you_message: null,
  });
  const choice = question('multiple_choice', ['Right', 'Wrong', 'Maybe']);

  it('takes a number, a letter or the answer’s text; nothing else', () => {
    expect(
      ['2', '2.', '(2)', 'B', 'b)', ' wrong! ', 'WRONG'].map((t) => typedChoice(choice, t)),
    ).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(['4', 'd', 'wrongly', 'true', ''].map((t) => typedChoice(choice, t))).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('takes true or false in any of our languages, whatever the buttons are called', () => {
    const german = question('true_false', ['Richtig', 'Falsch']);
    const english = question('true_false', ['True', 'False']);
    for (const tf of [german, english]) {
      expect(['true', 'Vero', 'WAHR', 'richtig'].map((t) => typedChoice(tf, t))).toEqual([
        0, 0, 0, 0,
      ]);
      expect(['false', 'falso', 'Falsch!'].map((t) => typedChoice(tf, t))).toEqual([1, 1, 1]);
    }
    // Buttons in the other order: the word still names the right one.
    const reversed = question('true_false', ['Falso', 'Vero']);
    expect([typedChoice(reversed, 'true'), typedChoice(reversed, 'falsch')]).toEqual([1, 0]);
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

  /** A fresh learner on Slack, enrolled on a two-day course that repeats questions. */
  const enrolRepeating = async () => {
    const connected = await connect({ bot_token: fake.token, signing_secret: fake.signingSecret });
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
    return { connected, course, learners, user, toUser, questions };
  };

  /** The same, day 1's question answered wrong and its feedback sent. */
  const wrongOnDayOne = async () => {
    const learner = await enrolRepeating();
    await tickAt(DAY1);
    await webhook(fake.tapRequest(learner.questions()[0]!, 1, { nowSeconds: nowSeconds() }));
    await tickAt(DAY1);
    return learner;
  };

  it('brings a wrong answer back on the scheduled day after the lesson, until right twice', async () => {
    const { connected, course, learners, toUser, questions } = await enrolRepeating();
    expect(connected.json.data).toMatchObject({ status: 'connected' });

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

  // After the last lesson there is no lesson to ride along with: a day's two repeats went as two
  // messages; they go as one, each question with its own buttons (issue 28, the loose ends).
  it('sends a day’s two repeats after the last lesson as one message, each answered on its own', async () => {
    const { course, toUser, questions } = await wrongOnDayOne();
    await tickAt(DAY2);
    const [, lesson2, repeat1] = questions();
    // Day 2's question and day 1's again, both wrong: both come back on day 3, which has no lesson.
    await webhook(fake.tapRequest(lesson2!, 1, { nowSeconds: nowSeconds() }));
    await webhook(fake.tapRequest(repeat1!, 1, { nowSeconds: nowSeconds() }));
    await tickAt(new Date(Date.parse(DAY2) + 60_000).toISOString());
    const [day1, day2] = [
      (await deliveriesOfDay(course, 1))[0]!,
      (await deliveriesOfDay(course, 2))[0]!,
    ];
    const day3 = '2026-11-25T08:30:00.000Z';
    expect(await repeatOf(day1.uuid)).toMatchObject({ status: 'waiting', send_at: day3 });
    expect(await repeatOf(day2.uuid)).toMatchObject({ status: 'waiting', send_at: day3 });

    const before = toUser().length;
    await tickAt(day3);
    expect(toUser()).toHaveLength(before + 1);
    const both = toUser().at(-1)!;
    expect(both.text).toBe('Questions to try again (Negotiation basics)');
    // Each question with where it is from, in the order of the buttons that answer it.
    const ids = both.blocks
      .filter((block) => block.type === 'actions')
      .map((block) => block.block_id as string);
    const days = both.blocks
      .filter((block) => block.type === 'context')
      .map((block) => block.elements[0].text as string);
    const byDay = { [`answer:${day1.uuid}`]: 1, [`answer:${day2.uuid}`]: 2 };
    expect(ids.map((id) => byDay[id])).toEqual(
      days.map((text) => Number(/Day (\d)/.exec(text)![1])),
    );
    expect([...days].sort()).toEqual([
      'Negotiation basics · Day 1: Day 1 in en',
      'Negotiation basics · Day 2: Day 2 in en',
    ]);
    expect(await repeatOf(day1.uuid)).toMatchObject({ status: 'sent', sends: 2 });
    expect(await repeatOf(day2.uuid)).toMatchObject({ status: 'sent', sends: 1 });

    // The second question's button answers day 2's repeat, and only it.
    const block = ids.indexOf(`answer:${day2.uuid}`);
    const tap = fake.tapRequest(both, 0, { nowSeconds: nowSeconds(), block });
    expect((await webhook(tap)).json).toEqual({ status: 'recorded' });
    expect(await repeatOf(day2.uuid)).toMatchObject({
      answer_correct: 1,
      feedback_status: 'pending',
    });
    expect(await repeatOf(day1.uuid)).toMatchObject({ status: 'sent', answer_correct: null });
    await tickAt(day3);
    expect(JSON.stringify(toUser().at(-1))).toContain('Right!');
  });

  // Typed instead of tapped (buttons gone, or a habit): the letter or the answer's text answers
  // the question asked again, as a typed number answers a lesson's (issue 28, the loose ends).
  it('takes a typed letter or answer text as the answer to the repeat waiting for one', async () => {
    const { course, user, toUser } = await wrongOnDayOne();
    await tickAt(DAY2);
    const [day1, day2] = [
      (await deliveriesOfDay(course, 1))[0]!,
      (await deliveriesOfDay(course, 2))[0]!,
    ];
    expect(await repeatOf(day1.uuid)).toMatchObject({ status: 'sent' });
    const write = (text: string) =>
      webhook(fake.messageEvent(user, text, { nowSeconds: nowSeconds() }));

    // The repeat came after day 2's lesson: "a" answers it (Right), and day 2's question waits.
    expect((await write('a')).json).toEqual({ status: 'recorded' });
    const repeat = await repeatOf(day1.uuid);
    expect(repeat).toMatchObject({ status: 'waiting', answer_correct: 1, answer_index: 0 });
    expect((JSON.parse(repeat.history) as { right: boolean }[]).map((a) => a.right)).toEqual([
      false,
      true,
    ]);
    expect((await deliveriesOfDay(course, 2))[0]!.answered_at).toBeNull();
    // Then the answer's text answers day 2's own question.
    expect((await write('Wrong')).json).toEqual({ status: 'recorded' });
    expect((await deliveriesOfDay(course, 2))[0]).toMatchObject({
      uuid: day2.uuid,
      answer_correct: 0,
    });
    // Nothing waits any more: more text answers nothing.
    expect((await write('b')).json).toEqual({ status: 'ignored' });
    await tickAt(DAY2);
    const told = JSON.stringify(toUser().slice(-2));
    expect(told).toContain('Right!');
    expect(told).toContain('Not quite');
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
