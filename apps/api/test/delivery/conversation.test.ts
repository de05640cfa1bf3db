import { afterAll, describe, expect, it } from 'vitest';

import type { TConversationEvent, TLearnerConversation } from '@ccp/schemas';

import { startFakeSlack } from '../fakes/slack.ts';
import { channelWorld } from '../fixtures/channels.ts';
import { authHeaders, channelToken, deliveriesOf, postEvents } from '../fixtures/delivery.ts';
import { insertLearner } from '../fixtures/learners.ts';
import { call } from '../helper.ts';

// Issue 28, the learner page's conversation: a Slack learner is sent day 1 (delivered and read as
// the channel reports), answers it with a tap and is told their feedback, the question closes;
// days 2 and 3 go unread and are reminded; a trainer pauses the learner, who writes RESUME, is
// told so, and answers the last day wrong and hears how the course went. The conversation route answers
// all of it, day by day in the reader's time zone, a page at a time. The clock is moved, never
// slept on.

const DAY1 = '2026-11-23T08:30:00.000Z';
const HOUR = 60 * 60 * 1000;
const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
const day = (n: number) => plus(DAY1, (n - 1) * 24 * HOUR);

/** The steps as [type, lesson day, time] with what matters of each. */
const stepsOf = (events: TConversationEvent[]) =>
  events.map((event) => {
    const { type, day: lessonDay, at, channel: _channel, ...details } = event;
    return [type, lessonDay, at, ...(Object.keys(details).length > 0 ? [details] : [])];
  });

describe('the learner’s conversation', async () => {
  const fake = await startFakeSlack();
  afterAll(() => fake.close());
  const { app, world, connect, webhook, enrol, tickAt } = await channelWorld('slack', {
    slack: { apiUrl: fake.apiUrl },
  });
  const nowSeconds = () => Math.floor(app.clock.now().getTime() / 1000);

  await connect({ bot_token: fake.token, signing_secret: fake.signingSecret });
  const { course, learners } = await enrol([{}], {
    days: 4,
    distribution: { reminder_count: 1, reminder_interval_hours: 24, auto_pause_after: 0 },
  });
  const learner = learners[0]!;
  const user = fake.addUser(learner.email!);
  /** The lesson message of a send (its buttons carry the send's id; a reminder comes later). */
  const questionOf = (deliveryUuid: string) =>
    fake.messages.find(
      (message) =>
        message.userId === user.id &&
        message.blocks.some((block) => block.type === 'actions') &&
        JSON.stringify(message.blocks).includes(deliveryUuid),
    )!;
  const conversation = async (query = '', language = 'en') =>
    call(app, {
      method: 'GET',
      url: `/api/v1/learners/${learner.uuid}/conversation${query}`,
      headers: { ...(await authHeaders(app, world)), 'accept-language': language },
    });

  it('tells every step of the course, day by day, with who paused and resumed the learner and why', async () => {
    expect(await tickAt(day(1))).toMatchObject({ sent: 1 });
    const [day1] = await deliveriesOf(app, course);
    // Slack reports no receipts: the channel's own events say delivered and read.
    const token = await channelToken(app, world, 'slack');
    app.testClock.set(plus(day(1), 11 * 60_000));
    const receipts = await postEvents(app, 'slack', token, [
      { type: 'delivered', delivery_uuid: day1!.uuid, occurred_at: plus(day(1), 60_000) },
      { type: 'read', delivery_uuid: day1!.uuid, occurred_at: plus(day(1), 10 * 60_000) },
    ]);
    expect(receipts.statusCode).toBe(200);
    app.testClock.set(plus(day(1), 12 * 60_000));
    expect(
      (await webhook(fake.tapRequest(questionOf(day1!.uuid), 0, { nowSeconds: nowSeconds() })))
        .json,
    ).toEqual({ status: 'recorded' });
    expect(await tickAt(plus(day(1), 13 * 60_000))).toMatchObject({ feedback: 1 });

    // Day 2 stays unread: reminded 24 hours later, with day 3's lesson.
    expect(await tickAt(day(2))).toMatchObject({ sent: 1 });
    expect(await tickAt(day(3))).toMatchObject({ sent: 1, reminders: 1 });

    // A trainer pauses the learner; the learner writes RESUME and is told the lessons continue.
    app.testClock.set(plus(day(3), HOUR));
    const [enrolment] = await app.db
      .selectFrom('enrollments')
      .select('uuid')
      .where('course_uuid', '=', course)
      .execute();
    const paused = await call(app, {
      method: 'POST',
      url: `/api/v1/learners/${learner.uuid}/enrollments/${enrolment!.uuid}/pause`,
      headers: await authHeaders(app, world),
    });
    expect(paused.statusCode).toBe(200);
    app.testClock.set(plus(day(3), 2 * HOUR));
    expect(
      (await webhook(fake.messageEvent(user, 'resume', { nowSeconds: nowSeconds() }))).json,
    ).toEqual({ status: 'recorded' });
    expect(await tickAt(plus(day(3), 2 * HOUR + 60_000))).toMatchObject({ notices: 1 });

    // Day 4 comes as planned (and day 3, unread, is reminded); answered wrong, its feedback
    // closes with how the course went.
    expect(await tickAt(day(4))).toMatchObject({ sent: 1, reminders: 1 });
    app.testClock.set(plus(day(4), 3 * HOUR));
    const day4 = (await deliveriesOf(app, course)).find((row) => row.day === 4)!;
    const lastQuestion = questionOf(day4.uuid);
    expect(
      (await webhook(fake.tapRequest(lastQuestion, 1, { nowSeconds: nowSeconds() }))).json,
    ).toEqual({ status: 'recorded' });
    expect(await tickAt(plus(day(4), 3 * HOUR + 60_000))).toMatchObject({ feedback: 1 });

    const response = await conversation('?tz=Europe/Rome');
    expect(response.statusCode).toBe(200);
    const page = response.json.data as TLearnerConversation;
    expect(page).toMatchObject({
      courses: [{ uuid: course, name: 'Negotiation basics', channel: 'slack' }],
      course: { uuid: course, name: 'Negotiation basics' },
      time_zone: 'Europe/Rome',
      earlier: null,
    });
    // The fixture's administrator is Test User.
    const trainerName = 'Test User';
    expect(page.days.map((entry) => [entry.date, stepsOf(entry.events)])).toEqual([
      [
        '2026-11-23',
        [
          ['lesson_sent', 1, day(1)],
          ['delivered', 1, plus(day(1), 60_000)],
          ['read', 1, plus(day(1), 10 * 60_000)],
          ['answered', 1, plus(day(1), 12 * 60_000), { answer: { text: 'Right', correct: true } }],
          ['feedback_sent', 1, plus(day(1), 13 * 60_000)],
          ['question_closed', 1, plus(day(1), 13 * 60_000)],
        ],
      ],
      ['2026-11-24', [['lesson_sent', 2, day(2)]]],
      [
        '2026-11-25',
        [
          ['lesson_sent', 3, day(3)],
          ['reminder_sent', 2, day(3)],
          [
            'paused',
            null,
            plus(day(3), HOUR),
            { reason: 'trainer', by: 'trainer', by_name: trainerName },
          ],
          ['resumed', null, plus(day(3), 2 * HOUR), { by: 'learner' }],
          ['notice_sent', 3, plus(day(3), 2 * HOUR + 60_000), { reason: 'resumed' }],
        ],
      ],
      [
        '2026-11-26',
        [
          ['lesson_sent', 4, day(4)],
          ['reminder_sent', 3, day(4)],
          // No receipt came: the answer says it was delivered and read by then.
          ['delivered', 4, plus(day(4), 3 * HOUR)],
          ['read', 4, plus(day(4), 3 * HOUR)],
          ['answered', 4, plus(day(4), 3 * HOUR), { answer: { text: 'Wrong', correct: false } }],
          ['feedback_sent', 4, plus(day(4), 3 * HOUR + 60_000)],
          [
            'completion_sent',
            4,
            plus(day(4), 3 * HOUR + 60_000),
            { completion: { answered: 2, right: 1 } },
          ],
          ['question_closed', 4, plus(day(4), 3 * HOUR + 60_000)],
        ],
      ],
    ]);
    // The reader's own days: in Auckland (UTC+13) day 4's answer came after midnight.
    const auckland = (await conversation('?tz=pacific/auckland')).json.data as TLearnerConversation;
    expect(auckland.time_zone).toBe('Pacific/Auckland');
    expect(auckland.days.map((entry) => [entry.date, entry.events.length])).toEqual([
      ['2026-11-23', 6],
      ['2026-11-24', 1],
      ['2026-11-25', 5],
      ['2026-11-26', 2],
      ['2026-11-27', 6],
    ]);
  });

  it('pages back a few days at a time, the latest first', async () => {
    const latest = (await conversation('?days=2')).json.data as TLearnerConversation;
    expect(latest.days.map((entry) => entry.date)).toEqual(['2026-11-25', '2026-11-26']);
    expect(latest.earlier).toBe('2026-11-25');
    const before = (await conversation(`?days=2&before=${latest.earlier}`)).json
      .data as TLearnerConversation;
    expect(before.days.map((entry) => entry.date)).toEqual(['2026-11-23', '2026-11-24']);
    expect(before.earlier).toBeNull();
  });

  it('says what is wrong with a request in the reader’s language, and a learner in no course has nothing yet', async () => {
    const tooMany = await conversation('?days=40', 'de');
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json.error.errors.days).toEqual([
      'Die Zahl der Tage muss eine ganze Zahl von 1 bis 31 sein.',
    ]);
    const badDate = await conversation('?before=23-11-2026', 'it');
    expect(badDate.json.error.errors.before).toEqual([
      'La data deve essere una data valida nel formato YYYY-MM-DD.',
    ]);
    const zone = await conversation('?tz=Mars/Olympus');
    expect(zone.statusCode).toBe(422);
    const otherCourse = await conversation(`?course=${world.classroom}`);
    expect(otherCourse.statusCode).toBe(404);
    expect(otherCourse.json.error.message).toBe('The learner is not in this course.');

    const newcomer = await insertLearner(app, world.company.uuid, {});
    const empty = await call(app, {
      method: 'GET',
      url: `/api/v1/learners/${newcomer.uuid}/conversation`,
      headers: await authHeaders(app, world),
    });
    expect(empty.json.data).toEqual({
      courses: [],
      course: null,
      time_zone: 'Europe/Rome',
      days: [],
      earlier: null,
    });
  });
});
