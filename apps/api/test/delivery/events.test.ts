import { MESSAGES } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { hashToken } from '../../src/lib/ids.ts';
import { buildTestApp, call, createUser, signIn } from '../helper.ts';
import type { TestApp } from '../helper.ts';
import {
  authHeaders,
  channelToken,
  createWorld,
  deliveriesOf,
  enrolmentsOf,
  eventsOf,
  learnersList,
  postEvents,
  publishCourse,
  tickAt,
} from '../fixtures/delivery.ts';
import type { World } from '../fixtures/delivery.ts';

const START = '2026-11-22T09:00:00.000Z';
const DAY1 = '2026-11-23T08:30:00.000Z';
const MINUTE = 60_000;
const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/** A published course (opt-in off unless told) whose day 1 went out; answers its day-1 rows. */
const sentCourse = async (
  app: TestApp,
  world: World,
  { count = 2, optIn = false, days = 2 } = {},
) => {
  app.testClock.set(START);
  const { list, learners } = await learnersList(
    app,
    world,
    Array.from({ length: count }, () => ({})),
  );
  const course = await publishCourse(app, world, {
    lists: [list.uuid],
    days,
    distribution: { disabled_enrolment_opt_in: !optIn },
  });
  if (!optIn) await tickAt(app, DAY1);
  const rows = await deliveriesOf(app, course);
  const day1 = learners.map((learner) =>
    rows.find((row) => row.learner_uuid === learner.uuid && row.day === 1)!,
  );
  return { course, learners, day1 };
};

describe('channel tokens', async () => {
  const app = await buildTestApp();
  const world = await createWorld(app);

  it('creates a token once (201), stores only its hash, lists it without the secret', async () => {
    app.testClock.set(START);
    const created = await call(app, {
      method: 'POST',
      url: '/api/v1/channels/slack/tokens',
      headers: await authHeaders(app, world),
    });
    expect(created.statusCode).toBe(201);
    const token = created.json.data;
    expect(token).toMatchObject({ channel: 'slack', created_at: START, revoked_at: null });
    expect(token.token).toMatch(/^ccp_ch_[A-Za-z0-9_-]{43}$/);
    const row = await app.db
      .selectFrom('channel_tokens')
      .selectAll()
      .where('uuid', '=', token.uuid)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(token.token));
    expect(JSON.stringify(row)).not.toContain(token.token);

    const listed = await call(app, {
      method: 'GET',
      url: '/api/v1/channels/slack/tokens',
      headers: await authHeaders(app, world),
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json.data).toEqual([
      { uuid: token.uuid, channel: 'slack', created_at: START, revoked_at: null },
    ]);
    const others = await call(app, {
      method: 'GET',
      url: '/api/v1/channels/whatsapp/tokens',
      headers: await authHeaders(app, world),
    });
    expect(others.json.data).toEqual([]);
  });

  it('revokes a token: the events endpoint refuses it with 401; revoking again answers the same', async () => {
    const created = await call(app, {
      method: 'POST',
      url: '/api/v1/channels/slack/tokens',
      headers: await authHeaders(app, world),
    });
    const { token, uuid } = created.json.data as { token: string; uuid: string };
    app.testClock.advance(MINUTE);
    const revokedAt = app.clock.now().toISOString();
    const revoke = () =>
      call(app, {
        method: 'DELETE',
        url: `/api/v1/channels/slack/tokens/${uuid}`,
        headers: { authorization: `Bearer ${''}` },
      });
    expect((await revoke()).statusCode).toBe(401);
    const first = await call(app, {
      method: 'DELETE',
      url: `/api/v1/channels/slack/tokens/${uuid}`,
      headers: await authHeaders(app, world),
    });
    expect(first.statusCode).toBe(200);
    expect(first.json.data).toMatchObject({ uuid, revoked_at: revokedAt });
    app.testClock.advance(MINUTE);
    const again = await call(app, {
      method: 'DELETE',
      url: `/api/v1/channels/slack/tokens/${uuid}`,
      headers: await authHeaders(app, world),
    });
    expect(again.json.data.revoked_at).toBe(revokedAt);
    const refused = await postEvents(app, 'slack', token, [
      { type: 'read', delivery_uuid: uuid, occurred_at: START },
    ]);
    expect(refused.statusCode).toBe(401);
  });

  it('answers 404 for an unknown token, another company’s token or another channel', async () => {
    const other = await createWorld(app);
    await channelToken(app, other);
    const theirs = await app.db
      .selectFrom('channel_tokens')
      .select('uuid')
      .where('company_uuid', '=', other.company.uuid)
      .executeTakeFirstOrThrow();
    for (const url of [
      `/api/v1/channels/slack/tokens/${theirs.uuid}`,
      `/api/v1/channels/slack/tokens/00000000-0000-4000-8000-000000000000`,
    ]) {
      const response = await call(app, {
        method: 'DELETE',
        url,
        headers: await authHeaders(app, world),
      });
      expect(response.statusCode).toBe(404);
    }
    const wrongChannel = await call(app, {
      method: 'DELETE',
      url: `/api/v1/channels/whatsapp/tokens/${theirs.uuid}`,
      headers: await authHeaders(app, other),
    });
    expect(wrongChannel.statusCode).toBe(404);
    const unknownChannel = await call(app, {
      method: 'POST',
      url: '/api/v1/channels/telegram/tokens',
      headers: await authHeaders(app, world),
    });
    expect(unknownChannel.statusCode).toBe(404);
  });

  it('is for administrators only (403 for a member)', async () => {
    const member = await createUser(app, world.company, { isAdmin: false });
    const tokens = await signIn(app, member);
    const response = await call(app, {
      method: 'POST',
      url: '/api/v1/channels/slack/tokens',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json.error).toMatchObject({
      code: 'FORBIDDEN',
      message: MESSAGES.channelTokensAdminOnly,
    });
  });
});

describe('events endpoint: authentication and validation', async () => {
  const app = await buildTestApp();
  const world = await createWorld(app);
  const { day1 } = await sentCourse(app, world);
  const token = await channelToken(app, world);
  const read = { type: 'read', delivery_uuid: day1[0]!.uuid, occurred_at: plus(DAY1, MINUTE) };

  it('answers 401 without a token, with a wrong one, a user token or another channel’s token', async () => {
    const userToken = (await authHeaders(app, world)).authorization.slice('Bearer '.length);
    const whatsapp = await channelToken(app, world, 'whatsapp');
    for (const [channel, bearer] of [
      ['slack', null],
      ['slack', 'ccp_ch_not-a-real-token'],
      ['slack', userToken],
      ['slack', whatsapp],
    ] as const) {
      const response = await postEvents(app, channel, bearer, [read]);
      expect(response.statusCode).toBe(401);
      expect(response.json.error).toMatchObject({
        code: 'UNAUTHENTICATED',
        message: 'Unauthenticated.',
      });
    }
    // 401 comes before the body is even looked at.
    const noBody = await call(app, { method: 'POST', url: '/api/v1/channels/slack/events' });
    expect(noBody.statusCode).toBe(401);
    expect((await deliveriesOf(app, day1[0]!.course_uuid))[0]!.read_at).toBeNull();
  });

  it('answers 404 for an unknown channel', async () => {
    const response = await postEvents(app, 'telegram', token, [read]);
    expect(response.statusCode).toBe(404);
  });

  it('refuses malformed events with 422 and the field paths', async () => {
    const cases: [Record<string, unknown>[], string, string][] = [
      [[], 'events', MESSAGES.channelEventsCount],
      [[{ ...read, type: 'clicked' }], 'events.0.type', MESSAGES.channelEventTypeInvalid],
      [
        [{ type: 'read', occurred_at: DAY1 }],
        'events.0.delivery_uuid',
        MESSAGES.channelEventDeliveryRequired,
      ],
      [[{ ...read, type: 'answered' }], 'events.0.answer', MESSAGES.channelEventAnswerRequired],
      [
        [{ ...read, occurred_at: '2026-11-23 08:31' }],
        'events.0.occurred_at',
        MESSAGES.channelEventOccurredAtInvalid,
      ],
      [
        [read, { type: 'opted_in', course_uuid: day1[0]!.course_uuid, occurred_at: DAY1 }],
        'events.1.learner_uuid',
        MESSAGES.channelEventLearnerRequired,
      ],
      [
        [{ ...read, type: 'answered', answer: { correct: 'yes' } }],
        'events.0.answer.correct',
        MESSAGES.channelEventAnswerInvalid,
      ],
    ];
    for (const [events, path, message] of cases) {
      const response = await postEvents(app, 'slack', token, events);
      expect({
        path,
        status: response.statusCode,
        errors: response.json.error.errors[path],
      }).toEqual({
        path,
        status: 422,
        errors: [message],
      });
    }
    const tooMany = await postEvents(
      app,
      'slack',
      token,
      Array.from({ length: 501 }, () => read),
    );
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json.error.errors.events).toEqual([MESSAGES.channelEventsCount]);
    const fiveHundred = await postEvents(
      app,
      'slack',
      token,
      Array.from({ length: 500 }, () => read),
    );
    expect(fiveHundred.statusCode).toBe(200);
    expect(fiveHundred.json.data).toMatchObject({ received: 500, recorded: 1, duplicates: 499 });
  });
});

describe('events endpoint: recording delivered, read and answered', async () => {
  const app = await buildTestApp();
  const world = await createWorld(app);

  it('records each event once and keeps the timestamps for DTR and DTCA', async () => {
    const { course, day1 } = await sentCourse(app, world);
    const token = await channelToken(app, world);
    const uuid = day1[0]!.uuid;
    app.testClock.set(plus(DAY1, 3 * 60 * MINUTE));
    const events = [
      { type: 'delivered', delivery_uuid: uuid, occurred_at: '2026-11-23T09:31:00+01:00' },
      { type: 'read', delivery_uuid: uuid, occurred_at: plus(DAY1, 20 * MINUTE) },
      {
        type: 'answered',
        delivery_uuid: uuid,
        answer: { correct: true, text: 'Right' },
        occurred_at: plus(DAY1, 25 * MINUTE),
      },
    ];
    const first = await postEvents(app, 'slack', token, events);
    expect(first.statusCode).toBe(200);
    expect(first.json.data).toEqual({
      received: 3,
      recorded: 3,
      duplicates: 0,
      results: [
        { index: 0, type: 'delivered', status: 'recorded' },
        { index: 1, type: 'read', status: 'recorded' },
        { index: 2, type: 'answered', status: 'recorded' },
      ],
    });
    // The same batch again, and a second (wrong) answer: nothing changes or counts twice.
    const again = await postEvents(app, 'slack', token, [
      ...events,
      {
        type: 'answered',
        delivery_uuid: uuid,
        answer: { correct: false },
        occurred_at: plus(DAY1, 30 * MINUTE),
      },
    ]);
    expect(again.json.data).toMatchObject({ received: 4, recorded: 0, duplicates: 4 });

    const row = (await deliveriesOf(app, course)).find((delivery) => delivery.uuid === uuid)!;
    expect(row).toMatchObject({
      delivered_at: plus(DAY1, MINUTE),
      read_at: plus(DAY1, 20 * MINUTE),
      answered_at: plus(DAY1, 25 * MINUTE),
      answer_correct: 1,
    });
    // DTR 19 minutes, DTCA 5 minutes.
    expect(Date.parse(row.read_at!) - Date.parse(row.delivered_at!)).toBe(19 * MINUTE);
    expect(Date.parse(row.answered_at!) - Date.parse(row.read_at!)).toBe(5 * MINUTE);
    const logged = (await eventsOf(app, course)).filter((event) => event.delivery_uuid === uuid);
    expect(logged.map((event) => [event.type, event.occurred_at, event.correct])).toEqual([
      ['delivered', plus(DAY1, MINUTE), null],
      ['read', plus(DAY1, 20 * MINUTE), null],
      ['answered', plus(DAY1, 25 * MINUTE), 1],
    ]);
    expect(JSON.parse(logged[2]!.payload!)).toEqual({ text: 'Right' });
  });

  it('fills the missing steps and keeps times in order: never before the send, never after now', async () => {
    const { course, day1 } = await sentCourse(app, world);
    const token = await channelToken(app, world);
    app.testClock.set(plus(DAY1, 60 * MINUTE));
    const response = await postEvents(app, 'slack', token, [
      // An answer reported without read or delivered receipts.
      {
        type: 'answered',
        delivery_uuid: day1[0]!.uuid,
        answer: { correct: false },
        occurred_at: plus(DAY1, 10 * MINUTE),
      },
      // A read "before" the send (a skewed device clock) and one "from the future".
      { type: 'read', delivery_uuid: day1[1]!.uuid, occurred_at: plus(DAY1, -5 * MINUTE) },
    ]);
    expect(response.json.data.recorded).toBe(2);
    const future = await postEvents(app, 'slack', token, [
      {
        type: 'answered',
        delivery_uuid: day1[1]!.uuid,
        answer: { correct: true },
        occurred_at: plus(DAY1, 600 * MINUTE),
      },
    ]);
    expect(future.json.data.recorded).toBe(1);
    const rows = await deliveriesOf(app, course);
    const byUuid = new Map(rows.map((row) => [row.uuid, row]));
    expect(byUuid.get(day1[0]!.uuid)).toMatchObject({
      delivered_at: plus(DAY1, 10 * MINUTE),
      read_at: plus(DAY1, 10 * MINUTE),
      answered_at: plus(DAY1, 10 * MINUTE),
      answer_correct: 0,
    });
    expect(byUuid.get(day1[1]!.uuid)).toMatchObject({
      delivered_at: DAY1,
      read_at: DAY1,
      answered_at: plus(DAY1, 60 * MINUTE),
      answer_correct: 1,
    });
  });

  it('refuses events on a lesson not sent yet (422) or without a question to answer (422)', async () => {
    const { course } = await sentCourse(app, world, { count: 1 });
    const token = await channelToken(app, world);
    const day2 = (await deliveriesOf(app, course)).find((row) => row.day === 2)!;
    const notSent = await postEvents(app, 'slack', token, [
      { type: 'read', delivery_uuid: day2.uuid, occurred_at: DAY1 },
    ]);
    expect(notSent.statusCode).toBe(422);
    expect(notSent.json.error).toMatchObject({
      message: MESSAGES.lessonNotSentYet,
      errors: { 'events.0.delivery_uuid': [MESSAGES.lessonNotSentYet] },
    });

    app.testClock.set(START);
    const { list } = await learnersList(app, world, [{}]);
    const quiet = await publishCourse(app, world, {
      lists: [list.uuid],
      days: 1,
      noAssessmentDays: [1],
      distribution: { disabled_enrolment_opt_in: true },
    });
    await tickAt(app, DAY1);
    const [row] = await deliveriesOf(app, quiet);
    const noQuestion = await postEvents(app, 'slack', token, [
      { type: 'answered', delivery_uuid: row!.uuid, answer: { correct: true }, occurred_at: DAY1 },
    ]);
    expect(noQuestion.statusCode).toBe(422);
    expect(noQuestion.json.error.message).toBe(MESSAGES.lessonHasNoAssessment);
  });

  it('another company’s token cannot touch this company’s deliveries: 404, and the batch records nothing', async () => {
    const { course, day1 } = await sentCourse(app, world);
    const other = await createWorld(app);
    const theirs = await channelToken(app, other);
    const mine = await channelToken(app, world);
    const read = { type: 'read', delivery_uuid: day1[0]!.uuid, occurred_at: DAY1 };
    const foreign = await postEvents(app, 'slack', theirs, [read]);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json.error).toMatchObject({
      code: 'NOT_FOUND',
      message: MESSAGES.deliveryNotFound,
      errors: { 'events.0.delivery_uuid': [MESSAGES.deliveryNotFound] },
    });
    // A batch with one unknown delivery is refused whole.
    const mixed = await postEvents(app, 'slack', mine, [
      read,
      { type: 'read', delivery_uuid: '00000000-0000-4000-8000-000000000000', occurred_at: DAY1 },
    ]);
    expect(mixed.statusCode).toBe(404);
    expect(mixed.json.error.errors).toEqual({
      'events.1.delivery_uuid': [MESSAGES.deliveryNotFound],
    });
    expect((await deliveriesOf(app, course)).every((row) => row.read_at === null)).toBe(true);
    expect(await eventsOf(app, course)).toEqual([]);
    // A WhatsApp token of this company does not reach a Slack delivery either.
    const whatsapp = await channelToken(app, world, 'whatsapp');
    expect((await postEvents(app, 'whatsapp', whatsapp, [read])).statusCode).toBe(404);
  });
});

describe('events endpoint: the GDPR opt-in and the enrolment close time', async () => {
  const app = await buildTestApp();
  const world = await createWorld(app);

  it('sends lessons only after opted_in; a late opt-in starts at the next slot', async () => {
    const { course, learners } = await sentCourse(app, world, { optIn: true });
    const token = await channelToken(app, world);
    const [early, late] = learners;
    const optIn = (learner: { uuid: string }, at: string) =>
      postEvents(app, 'slack', token, [
        { type: 'opted_in', course_uuid: course, learner_uuid: learner.uuid, occurred_at: at },
      ]);

    app.testClock.set(plus(START, 30 * MINUTE));
    const first = await optIn(early!, plus(START, 20 * MINUTE));
    expect(first.json.data.results).toEqual([{ index: 0, type: 'opted_in', status: 'recorded' }]);
    expect((await optIn(early!, plus(START, 25 * MINUTE))).json.data.results[0].status).toBe(
      'duplicate',
    );

    expect((await tickAt(app, DAY1)).sent).toBe(1);

    // Opting in after day 1's time: the learner's lessons start at the next slot (24 and 25 Nov).
    app.testClock.set(plus(DAY1, 90 * MINUTE));
    expect((await optIn(late!, plus(DAY1, 80 * MINUTE))).statusCode).toBe(200);
    const enrolments = new Map(
      (await enrolmentsOf(app, course)).map((row) => [row.learner_uuid, row]),
    );
    expect(enrolments.get(early!.uuid)).toMatchObject({
      status: 'enrolled',
      enrolled_at: plus(START, 20 * MINUTE),
    });
    expect(enrolments.get(late!.uuid)).toMatchObject({
      status: 'enrolled',
      enrolled_at: plus(DAY1, 80 * MINUTE),
    });
    const plan = (await deliveriesOf(app, course))
      .filter((row) => row.learner_uuid === late!.uuid)
      .map((row) => [row.day, row.scheduled_for, row.status]);
    expect(plan).toEqual([
      [1, '2026-11-24T08:30:00.000Z', 'scheduled'],
      [2, '2026-11-25T08:30:00.000Z', 'scheduled'],
    ]);
    expect(
      (await eventsOf(app, course))
        .filter((event) => event.type === 'opted_in')
        .map((event) => event.learner_uuid),
    ).toEqual([early!.uuid, late!.uuid]);
  });

  it('declined stops the lessons; opting in again before the close time brings them back', async () => {
    const { course, learners } = await sentCourse(app, world, { optIn: true, count: 1 });
    const token = await channelToken(app, world);
    const event = (type: string) => ({
      type,
      course_uuid: course,
      learner_uuid: learners[0]!.uuid,
      occurred_at: START,
    });
    expect(
      (await postEvents(app, 'slack', token, [event('opted_in'), event('declined')])).json.data
        .recorded,
    ).toBe(2);
    expect((await enrolmentsOf(app, course))[0]!.status).toBe('declined');
    expect((await deliveriesOf(app, course)).map((row) => row.status)).toEqual([
      'canceled',
      'canceled',
    ]);
    expect((await postEvents(app, 'slack', token, [event('declined')])).json.data.duplicates).toBe(
      1,
    );
    expect((await postEvents(app, 'slack', token, [event('opted_in')])).json.data.recorded).toBe(1);
    expect((await deliveriesOf(app, course)).map((row) => [row.status, row.scheduled_for])).toEqual(
      [
        ['scheduled', DAY1],
        ['scheduled', '2026-11-24T08:30:00.000Z'],
      ],
    );
  });

  it('after the enrolment close time an opt-in is refused (422) and the invited are dropped', async () => {
    app.testClock.set(START);
    const { list, learners } = await learnersList(app, world, [{}, {}, {}]);
    // 18:00 in Rome is 17:00Z in November.
    const course = await publishCourse(app, world, {
      lists: [list.uuid],
      distribution: { enrollment_close_time: '2026-11-22T18:00' },
    });
    const token = await channelToken(app, world);
    const optIn = (learner: { uuid: string }) =>
      postEvents(app, 'slack', token, [
        {
          type: 'opted_in',
          course_uuid: course,
          learner_uuid: learner.uuid,
          occurred_at: app.clock.now().toISOString(),
        },
      ]);
    app.testClock.set('2026-11-22T16:59:59.999Z');
    expect((await optIn(learners[0]!)).statusCode).toBe(200);
    app.testClock.set('2026-11-22T17:00:00.000Z');
    const refused = await optIn(learners[1]!);
    expect(refused.statusCode).toBe(422);
    expect(refused.json.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: MESSAGES.enrolmentClosed,
      errors: { 'events.0.course_uuid': [MESSAGES.enrolmentClosed] },
    });

    expect((await tickAt(app, '2026-11-22T17:00:00.000Z')).dropped).toBe(2);
    const status = new Map(
      (await enrolmentsOf(app, course)).map((row) => [row.learner_uuid, row.status]),
    );
    expect([learners.map((learner) => status.get(learner.uuid))]).toEqual([
      ['enrolled', 'dropped', 'dropped'],
    ]);
    const rows = await deliveriesOf(app, course);
    expect(rows.filter((row) => row.status === 'scheduled').map((row) => row.learner_uuid)).toEqual(
      [learners[0]!.uuid, learners[0]!.uuid],
    );
    expect((await optIn(learners[2]!)).statusCode).toBe(422);

    // Only the enrolled learner gets lessons; the course is delivered after their last one.
    await tickAt(app, DAY1);
    await tickAt(app, '2026-11-24T08:30:00.000Z');
    const sent = (await deliveriesOf(app, course)).filter((row) => row.status === 'sent');
    expect(sent.map((row) => [row.learner_uuid, row.day])).toEqual([
      [learners[0]!.uuid, 1],
      [learners[0]!.uuid, 2],
    ]);
    const done = await app.db
      .selectFrom('courses')
      .select(['status', 'delivered_at'])
      .where('uuid', '=', course)
      .executeTakeFirstOrThrow();
    expect(done).toEqual({ status: 'delivered', delivered_at: '2026-11-24T08:30:00.000Z' });
  });

  it('answers 404 for an enrolment of another company or an unknown learner', async () => {
    const { course, learners } = await sentCourse(app, world, { optIn: true, count: 1 });
    const other = await createWorld(app);
    const theirs = await channelToken(app, other);
    const response = await postEvents(app, 'slack', theirs, [
      {
        type: 'opted_in',
        course_uuid: course,
        learner_uuid: learners[0]!.uuid,
        occurred_at: START,
      },
    ]);
    expect(response.statusCode).toBe(404);
    expect(response.json.error.message).toBe(MESSAGES.enrolmentNotFound);
    expect((await enrolmentsOf(app, course))[0]!.status).toBe('invited');
  });
});
