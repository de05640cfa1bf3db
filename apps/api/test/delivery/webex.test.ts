import { randomBytes } from 'node:crypto';

import { afterAll, describe, expect, it } from 'vitest';

import { renderWebexMessages } from '../../src/delivery/channels/webex/render.ts';
import type { ChannelMessage } from '../../src/delivery/render.ts';
import { buildTestApp, call } from '../helper.ts';
import {
  authHeaders,
  createWorld,
  deliveriesOf,
  learnersList,
  publishCourse,
  tickAt,
} from '../fixtures/delivery.ts';
import { adaptiveCardProblems } from '../fakes/adaptive-cards.ts';
import { startFakeWebex } from '../fakes/webex.ts';

// Webex end to end against a fake Webex on 127.0.0.1: connecting registers the signed webhook,
// the scheduler sends the lesson with its Adaptive Card 1.3, the learner submits an answer,
// the signed notification is verified, the submit fetched, and Insights counts it.

const START = '2026-11-22T09:00:00.000Z';
const DAY1 = '2026-11-23T08:30:00.000Z';
const WEBHOOK_SECRET = 'webex-webhook-secret';

describe('Webex delivery', async () => {
  const fake = await startFakeWebex();
  afterAll(() => fake.close());
  const app = await buildTestApp({
    secretsKey: randomBytes(32).toString('hex'),
    channels: { webex: { apiUrl: fake.apiUrl, publicUrl: 'https://ccp.example.test' } },
  });
  const world = await createWorld(app);
  app.testClock.set(START);
  const submit = (request: { body: string; headers: Record<string, string> }) =>
    call(app, {
      method: 'POST',
      url: '/api/v1/webhooks/webex',
      headers: request.headers,
      payload: request.body,
    });

  it('connecting checks the token and registers the answers webhook with the secret', async () => {
    const response = await call(app, {
      method: 'PUT',
      url: '/api/v1/channel-connections/webex',
      headers: await authHeaders(app, world),
      payload: { fields: { bot_token: fake.token, webhook_secret: WEBHOOK_SECRET } },
    });
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
    const { list, learners } = await learnersList(app, world, [
      { channels: ['webex'] },
      { channels: ['webex'] },
    ]);
    const people = learners.map((learner) => fake.addPerson(learner.email!));
    const course = await publishCourse(app, world, {
      lists: [list.uuid],
      channels: ['webex'],
      distribution: { disabled_enrolment_opt_in: true },
    });
    fake.rateLimit(1);
    const waits: number[] = [];
    const result = await tickAt(app, DAY1, { sleep: async (ms) => void waits.push(ms) });
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

    const rows = (await deliveriesOf(app, course)).filter((row) => row.day === 1);
    expect(rows.map((row) => row.answer_correct).sort()).toEqual([0, 1]);
    const insights = await call(app, {
      method: 'GET',
      url: `/api/v2/analytics/classrooms/${world.classroom}/courses/insights`,
      headers: await authHeaders(app, world),
    });
    const row = (insights.json.data as { uuid: string }[]).find((item) => item.uuid === course);
    expect(row).toMatchObject({ completionRate: 100, successRate: 50 });
  });
});

describe('Webex renderer limits', () => {
  it('splits markdown over 7 439 bytes into several messages, the card on the last, losing nothing', () => {
    const paragraph = 'è'.repeat(400);
    const message: ChannelMessage = {
      kind: 'lesson',
      channel: 'webex',
      companyUuid: 'c',
      courseUuid: 'k',
      courseName: 'Course',
      deliveryUuid: '00000000-0000-4000-8000-000000000001',
      language: 'en',
      recipient: { learnerUuid: 'l', firstName: 'A', lastName: 'B', address: 'a@example.com' },
      totalDays: 1,
      lesson: {
        day: 1,
        title: 'T',
        topic_intro: 'Intro',
        topic_content: Array.from({ length: 12 }, () => `<p>${paragraph}</p>`).join(''),
        learning_minutes: 3,
        media: null,
        assessment: {
          type: 'multiple_choice',
          question: 'Q?',
          mandatory: true,
          answers: Array.from({ length: 11 }, (_, index) => ({
            text: `Answer ${index}`,
            correct: index === 0,
          })),
          thank_you_message: null,
        } as never,
      },
    };
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
