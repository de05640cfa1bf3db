import { MESSAGES } from '@ccp/schemas';
import { afterAll, describe, expect, it } from 'vitest';

import IT from '../../../../locales/it.json' with { type: 'json' };
import { renderWebexMessages } from '../../src/delivery/channels/webex/render.ts';
import { DAY1, channelWorld, choices, sampleMessage } from '../fixtures/channels.ts';
import { authHeaders, enrolmentsOf } from '../fixtures/delivery.ts';
import { call } from '../helper.ts';
import { adaptiveCardProblems } from '../fakes/adaptive-cards.ts';
import { startFakeWebex } from '../fakes/webex.ts';
import type { FakeWebex, WebexMessage } from '../fakes/webex.ts';

// Webex end to end against a fake Webex on 127.0.0.1 (test/fakes/webex.ts, which cites Webex's
// pages for each rule): connecting registers the signed webhook at this server's https address,
// the scheduler sends the lesson's text and then its Adaptive Card 1.3 as a message of its own,
// the learner submits an answer, the signed notification is verified, the submit fetched, and
// Insights counts it.

const WEBHOOK_SECRET = 'webex-webhook-secret';

const sentTo = (fake: FakeWebex, personId: string) =>
  fake.messages.filter((message) => message.toPersonId === personId);

/** The message of a lesson that carries its question card (the one answers come from). */
const cardTo = (fake: FakeWebex, personId: string): WebexMessage =>
  sentTo(fake, personId).find((message) => message.attachments.length > 0)!;

describe('Webex delivery', async () => {
  const fake = await startFakeWebex();
  afterAll(() => fake.close());
  const {
    app,
    connect,
    webhook: submit,
    enrol,
    tickAt,
    answersOfDay,
    deliveriesOfDay,
    insightsOf,
    learnerDay,
    closeFailures,
  } = await channelWorld('webex', {
    webex: { apiUrl: fake.apiUrl, publicUrl: 'https://ccp.example.test' },
  });

  it('connecting checks the token and registers the answers webhook with the secret', async () => {
    const response = await connect({ bot_token: fake.token, webhook_secret: WEBHOOK_SECRET });
    expect(response.json.data).toMatchObject({
      status: 'connected',
      provider_ids: { bot_id: fake.botId },
    });
    expect(fake.hooks).toMatchObject([
      {
        targetUrl: 'https://ccp.example.test/api/v1/webhooks/webex',
        resource: 'attachmentActions',
        event: 'created',
        secret: WEBHOOK_SECRET,
      },
    ]);
  });

  it('sends the lesson, takes a signed submit once from the learner only, and Insights counts it', async () => {
    const { course, learners } = await enrol([{}, {}]);
    const people = learners.map((learner) => fake.addPerson(learner.email!));
    fake.rateLimit(1);
    const waits: number[] = [];
    const result = await tickAt(DAY1, { sleep: async (ms) => void waits.push(ms) });
    expect(result).toMatchObject({ sent: 2, failed: 0 });
    expect(waits).toContain(2000);
    expect(fake.refused).toEqual([]);
    const [first, second] = people.map((person) => cardTo(fake, person.id));
    expect(first!.attachments[0]!.content.version).toBe('1.3');

    expect(
      (await submit(fake.submitRequest(first!, { answer: '0' }, { secret: 'wrong' }))).statusCode,
    ).toBe(401);
    const unsigned = fake.submitRequest(first!, { answer: '0' });
    expect(
      (await submit({ ...unsigned, headers: { 'content-type': 'application/json' } })).statusCode,
    ).toBe(401);
    expect(
      (await submit(fake.submitRequest(first!, { answer: '0' }, { personId: people[1]!.id })))
        .statusCode,
    ).toBe(403);

    const right = fake.submitRequest(first!, { answer: '0' });
    expect((await submit(right)).json).toEqual({ status: 'recorded' });
    expect((await submit(right)).json).toEqual({ status: 'duplicate' });
    expect((await submit(fake.submitRequest(second!, { answer: '2' }))).json).toEqual({
      status: 'recorded',
    });

    expect(await answersOfDay(course)).toEqual([0, 1]);
    expect(await insightsOf(course)).toMatchObject({ completionRate: 100, successRate: 50 });

    // Each learner hears back with their answer's response, a message of its own (issue 28).
    const before = fake.messages.length;
    expect(await tickAt(DAY1)).toMatchObject({ feedback: 2, sent: 0 });
    expect(fake.refused).toEqual([]);
    const feedback = fake.messages.slice(before).map((message) => JSON.stringify(message));
    expect(feedback.find((message) => message.includes(people[0]!.id))).toContain('About Right.');
    expect(feedback.find((message) => message.includes(people[1]!.id))).toContain('Not quite.');
    // Each answered card was deleted (a card cannot be edited) and the question posted again
    // closed: the chosen answer, no card.
    expect(fake.deleted.map((message) => message.id).sort()).toEqual(
      [first!.id, second!.id].sort(),
    );
    for (const [person, line] of [
      [people[0]!, '✅ Your answer: Right'],
      [people[1]!, '❌ Your answer: Maybe'],
    ] as const) {
      const closed = sentTo(fake, person.id).filter((message) => message.markdown.includes(line));
      expect(closed).toHaveLength(1);
      expect(closed[0]!.attachments).toEqual([]);
    }
    // A submit from a card the learner's client still showed: not counted.
    expect((await submit(fake.submitRequest(first!, { answer: '1' }))).json).toEqual({
      status: 'duplicate',
    });
    expect(await answersOfDay(course)).toEqual([0, 1]);
  });

  it('a card Webex will not delete still gets its feedback; the failure is on the delivery’s events', async () => {
    const { learners } = await enrol([{}]);
    const person = fake.addPerson(learners[0]!.email!);
    expect(await tickAt(DAY1)).toMatchObject({ sent: 1 });
    const card = cardTo(fake, person.id);
    fake.failDeletes(1);
    expect((await submit(fake.submitRequest(card, { answer: '0' }))).json).toEqual({
      status: 'recorded',
    });
    expect(await tickAt(DAY1)).toMatchObject({ feedback: 1 });
    expect(JSON.stringify(sentTo(fake, person.id).at(-1))).toContain('About Right.');
    expect(await closeFailures(learners[0]!.uuid)).toEqual([
      { provider_message_id: card.id, code: 'provider_unavailable' },
    ]);
  });

  // Webex clients that render a card show the card and hide the message's text, which is only the
  // fallback for clients without cards (https://developer.webex.com/docs/api/guides/cards): the
  // lesson must be a message with no card, the question a card message of its own.
  it('sends the lesson text as a message of its own, then the question card with the question as its fallback', async () => {
    const { course, learners } = await enrol([{}]);
    const person = fake.addPerson(learners[0]!.email!);
    expect(await tickAt(DAY1)).toMatchObject({ sent: 1, failed: 0 });
    const [text, card, ...more] = sentTo(fake, person.id);
    expect(more).toEqual([]);
    expect(text!.attachments).toEqual([]);
    expect(text!.markdown).toMatch(/^## /);
    expect(card!.attachments).toHaveLength(1);
    const question = card!.attachments[0]!.content.body[0].text as string;
    expect(card!.markdown).toContain(question);
    expect(text!.markdown).not.toContain(question);
    // Answers refer to the card: it is the message recorded for the lesson.
    expect((await deliveriesOfDay(course))[0]).toMatchObject({
      status: 'sent',
      provider_message_id: card!.id,
    });
  });

  it('a 429 on the question card retries the card only: the lesson text is not posted twice', async () => {
    const { learners } = await enrol([{}]);
    const person = fake.addPerson(learners[0]!.email!);
    fake.failNext(429, (json) => json.toPersonId === person.id && !!json.attachments, 2);
    const waits: number[] = [];
    const result = await tickAt(DAY1, { sleep: async (ms) => void waits.push(ms) });
    expect(result).toMatchObject({ sent: 1, failed: 0 });
    expect(waits).toEqual([2000]);
    expect(sentTo(fake, person.id).map((message) => message.attachments.length)).toEqual([0, 1]);
  });

  it('a long Retry-After on the card defers the lesson, and the next tick sends the card only', async () => {
    const { course, learners } = await enrol([{}]);
    const person = fake.addPerson(learners[0]!.email!);
    fake.failNext(429, (json) => json.toPersonId === person.id && !!json.attachments, 120);
    expect(await tickAt(DAY1)).toMatchObject({ sent: 0, deferred: 1 });
    expect(sentTo(fake, person.id).map((message) => message.attachments.length)).toEqual([0]);
    expect((await deliveriesOfDay(course))[0]).toMatchObject({
      status: 'scheduled',
      sent_at: null,
    });

    const later = new Date(Date.parse(DAY1) + 3 * 60_000).toISOString();
    expect(await tickAt(later)).toMatchObject({ sent: 1, failed: 0 });
    const messages = sentTo(fake, person.id);
    expect(messages.map((message) => message.attachments.length)).toEqual([0, 1]);
    expect((await deliveriesOfDay(course))[0]).toMatchObject({
      status: 'sent',
      provider_message_id: messages[1]!.id,
    });
  });

  it('takes an open answer typed in the card', async () => {
    const { course, learners } = await enrol([{}], { openAnswerDays: [1] });
    const person = fake.addPerson(learners[0]!.email!);
    expect(await tickAt(DAY1)).toMatchObject({ sent: 1 });
    const sent = cardTo(fake, person.id);
    const words = 'Prepare three questions.';
    expect((await submit(fake.submitRequest(sent, { text: words }))).json).toEqual({
      status: 'recorded',
    });
    expect(await learnerDay(learners[0]!.uuid, course, 1)).toMatchObject({
      state: 'correct',
      answer: words,
    });
  });

  it('an invitation goes as one card with its text, and Join on it enrols the learner', async () => {
    const { course, learners } = await enrol([{}], {
      distribution: { disabled_enrolment_opt_in: false },
    });
    const person = fake.addPerson(learners[0]!.email!);
    expect(await tickAt(DAY1)).toMatchObject({ invitations: 1 });
    const [invitation, ...more] = sentTo(fake, person.id);
    expect(more).toEqual([]);
    expect(invitation!.attachments).toHaveLength(1);
    expect((await submit(fake.submitRequest(invitation!, {}))).json).toEqual({
      status: 'recorded',
    });
    expect((await enrolmentsOf(app, course))[0]).toMatchObject({ status: 'enrolled' });
  });

  // The response codes of Webex's API pages: 503 "try again later" is retried; 401 (the bot's
  // token revoked) fails with the reason a trainer can act on, Webex's own words kept as detail.
  it('a 503 on the text is tried again; a 401 fails the lesson as auth_failed with Webex’s words', async () => {
    const { course, learners } = await enrol([{}, {}]);
    const [retried, refused] = learners.map((learner) => fake.addPerson(learner.email!));
    fake.failNext(503, (json) => json.toPersonId === retried!.id);
    fake.failNext(401, (json) => json.toPersonId === refused!.id);
    expect(await tickAt(DAY1)).toMatchObject({ sent: 1, failed: 1 });
    expect(sentTo(fake, retried!.id).map((message) => message.attachments.length)).toEqual([0, 1]);
    expect(sentTo(fake, refused!.id)).toEqual([]);
    const rows = await deliveriesOfDay(course);
    const failed = rows.find((row) => row.learner_uuid === learners[1]!.uuid)!;
    expect(failed).toMatchObject({ status: 'failed', sent_at: null, failure_code: 'auth_failed' });
    expect(failed.failure_detail).toContain('Fault 401');
  });

  // https://developer.webex.com/docs/api/v1/people/list-people answers no `items` for an e-mail
  // that is no Webex person: that fails the send for good, with the reason a trainer is told.
  it('an e-mail that is no Webex person fails the invitation and the lesson as learner_not_found', async () => {
    const invited = await enrol([{}], { distribution: { disabled_enrolment_opt_in: false } });
    const direct = await enrol([{}]);
    expect(await tickAt(DAY1)).toMatchObject({ invitations: 0, sent: 0, failed: 1 });
    expect((await enrolmentsOf(app, invited.course))[0]).toMatchObject({
      status: 'invited',
      invitation_sent_at: null,
      invitation_failure_code: 'learner_not_found',
      invitation_retry_at: null,
    });
    expect((await deliveriesOfDay(direct.course))[0]).toMatchObject({
      status: 'failed',
      sent_at: null,
      failure_code: 'learner_not_found',
    });
    expect(fake.refused).toEqual([]);
  });
});

// Webex posts card submits only to "a publicly reachable HTTPS receiver"
// (https://developer.webex.com/docs/register-and-manage-webhooks): without one the channel would
// show connected while no answer could ever come back, so connecting is refused with the reason.
describe('Webex connection without a public https address', async () => {
  const fake = await startFakeWebex();
  afterAll(() => fake.close());
  const fields = { bot_token: fake.token, webhook_secret: WEBHOOK_SECRET };

  it.each([
    [null, MESSAGES.webexPublicUrlMissing, IT.validation.webexPublicUrlMissing],
    [
      'http://ccp.example.test',
      MESSAGES.webexPublicUrlNotHttps,
      IT.validation.webexPublicUrlNotHttps,
    ],
  ])(
    'refuses to connect with CCP_PUBLIC_URL %s, saying why',
    async (publicUrl, english, italian) => {
      const world = await channelWorld('webex', { webex: { apiUrl: fake.apiUrl, publicUrl } });
      const refused = await world.connect(fields);
      expect(refused.statusCode).toBe(409);
      expect(refused.json.error.message).toBe(english);
      expect((await world.connect(fields, { language: 'it' })).json.error.message).toBe(italian);
      const tested = await call(world.app, {
        method: 'POST',
        url: '/api/v1/channel-connections/webex/test',
        headers: await authHeaders(world.app, world.world),
      });
      expect(tested.statusCode).toBe(409);
      expect(fake.hooks).toEqual([]);
      expect(await world.app.db.selectFrom('channel_connections').selectAll().execute()).toEqual(
        [],
      );
      await world.app.close();
    },
  );

  it('connects with plain http on this machine (127.0.0.1), for tests and a local run', async () => {
    const world = await channelWorld('webex', {
      webex: { apiUrl: fake.apiUrl, publicUrl: 'http://127.0.0.1:8080' },
    });
    expect((await world.connect(fields)).json.data).toMatchObject({ status: 'connected' });
    expect(fake.hooks).toMatchObject([
      { targetUrl: 'http://127.0.0.1:8080/api/v1/webhooks/webex', secret: WEBHOOK_SECRET },
    ]);
    await world.app.close();
  });
});

describe('Webex renderer limits', () => {
  it('splits markdown over 7 439 bytes into several messages, the card alone last, losing nothing', () => {
    const paragraph = 'è'.repeat(400);
    const message = sampleMessage('webex', {
      topic_content: Array.from({ length: 12 }, () => `<p>${paragraph}</p>`).join(''),
      assessment: choices(Array.from({ length: 11 }, (_, index) => `Answer ${index}`)),
    });
    const parts = renderWebexMessages(message) as {
      markdown: string;
      attachments?: { content: Record<string, any> }[];
    }[];
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) expect(Buffer.byteLength(part.markdown)).toBeLessThanOrEqual(7439);
    expect(
      parts
        .map((part) => part.markdown)
        .join('')
        .match(/è/g),
    ).toHaveLength(12 * 400);
    expect(parts.slice(0, -1).every((part) => !part.attachments)).toBe(true);
    const last = parts.at(-1)!;
    expect(last.attachments).toHaveLength(1);
    expect(last.markdown).toContain('11. Answer 10');
    expect(adaptiveCardProblems(last.attachments![0]!.content, { version: '1.3' })).toEqual([]);
  });

  it('an invitation is one card that carries its whole text and Join / Decline, the same text as fallback', () => {
    const [invitation, ...more] = renderWebexMessages(
      sampleMessage('webex', {}, { kind: 'invitation', deliveryUuid: null, lesson: null }),
    ) as { markdown: string; attachments: { content: Record<string, any> }[] }[];
    expect(more).toEqual([]);
    const card = invitation!.attachments[0]!.content as {
      body: { text: string }[];
      actions: { data: { type: string } }[];
    };
    const texts = card.body.map((element) => element.text);
    expect(texts).toHaveLength(2);
    for (const text of texts) expect(invitation!.markdown).toContain(text);
    expect(card.actions.map((action) => action.data.type)).toEqual(['opted_in', 'declined']);
    expect(adaptiveCardProblems(card, { version: '1.3' })).toEqual([]);
  });
});
