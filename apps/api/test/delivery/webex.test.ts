import { afterAll, describe, expect, it } from 'vitest';

import { renderWebexMessages } from '../../src/delivery/channels/webex/render.ts';
import { DAY1, channelWorld, choices, sampleMessage } from '../fixtures/channels.ts';
import { adaptiveCardProblems } from '../fakes/adaptive-cards.ts';
import { startFakeWebex } from '../fakes/webex.ts';

// Webex end to end against a fake Webex on 127.0.0.1: connecting registers the signed webhook,
// the scheduler sends the lesson with its Adaptive Card 1.3, the learner submits an answer,
// the signed notification is verified, the submit fetched, and Insights counts it.

const WEBHOOK_SECRET = 'webex-webhook-secret';

describe('Webex delivery', async () => {
  const fake = await startFakeWebex();
  afterAll(() => fake.close());
  const {
    connect,
    webhook: submit,
    enrol,
    tickAt,
    answersOfDay,
    insightsOf,
    learnerDay,
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
    const [first, second] = people.map((person) =>
      fake.messages.find((message) => message.toPersonId === person.id)!,
    );
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
  });

  it('takes an open answer typed in the card', async () => {
    const { course, learners } = await enrol([{}], { openAnswerDays: [1] });
    const person = fake.addPerson(learners[0]!.email!);
    expect(await tickAt(DAY1)).toMatchObject({ sent: 1 });
    const sent = fake.messages.find((message) => message.toPersonId === person.id)!;
    const words = 'Prepare three questions.';
    expect((await submit(fake.submitRequest(sent, { text: words }))).json).toEqual({
      status: 'recorded',
    });
    expect(await learnerDay(learners[0]!.uuid, course, 1)).toMatchObject({
      state: 'correct',
      answer: words,
    });
  });
});

describe('Webex renderer limits', () => {
  it('splits markdown over 7 439 bytes into several messages, the card on the last, losing nothing', () => {
    const paragraph = 'è'.repeat(400);
    const message = sampleMessage('webex', {
      topic_content: Array.from({ length: 12 }, () => `<p>${paragraph}</p>`).join(''),
      assessment: choices(Array.from({ length: 11 }, (_, index) => `Answer ${index}`)),
    });
    const parts = renderWebexMessages(message) as {
      markdown: string;
      attachments?: { content: Record<string, any> }[];
    }[];
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(Buffer.byteLength(part.markdown)).toBeLessThanOrEqual(7439);
    expect(
      parts
        .map((part) => part.markdown)
        .join('')
        .match(/è/g),
    ).toHaveLength(12 * 400);
    expect(parts.slice(0, -1).every((part) => !part.attachments)).toBe(true);
    const card = parts.at(-1)!.attachments![0]!.content;
    expect(adaptiveCardProblems(card, { version: '1.3' })).toEqual([]);
  });
});
