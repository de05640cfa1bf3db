import { randomBytes } from 'node:crypto';

import { afterAll, describe, expect, it } from 'vitest';

import { buildTestApp, call } from '../helper.ts';
import {
  authHeaders,
  createWorld,
  deliveriesOf,
  learnersList,
  publishCourse,
  tickAt,
} from '../fixtures/delivery.ts';
import { startFakeGoogleChat } from '../fakes/google-chat.ts';

// Google Chat end to end against a fake Chat API on 127.0.0.1: connecting exchanges the service
// account's assertion for a token, the scheduler finds each learner's DM space and posts the
// lesson card, a learner who has not added the app fails permanently, a click comes back with
// Chat's bearer JWT (issuer, audience = project number, Chat's keys) and the deliveries record it.

const START = '2026-11-22T09:00:00.000Z';
const DAY1 = '2026-11-23T08:30:00.000Z';

describe('Google Chat delivery', async () => {
  const fake = await startFakeGoogleChat();
  afterAll(() => fake.close());
  const app = await buildTestApp({
    secretsKey: randomBytes(32).toString('hex'),
    channels: {
      googleChat: { apiUrl: fake.apiUrl, tokenUrl: fake.tokenUrl, jwksUrl: fake.jwksUrl },
    },
  });
  const world = await createWorld(app);
  app.testClock.set(START);
  const post = async (request: Promise<{ body: string; headers: Record<string, string> }>) => {
    const { body, headers } = await request;
    return call(app, {
      method: 'POST',
      url: '/api/v1/webhooks/google-chat',
      headers,
      payload: body,
    });
  };

  it('connecting exchanges the service account’s signed assertion for a token', async () => {
    const response = await call(app, {
      method: 'PUT',
      url: '/api/v1/channel-connections/google-chat',
      headers: await authHeaders(app, world),
      payload: {
        fields: {
          project_number: fake.projectNumber,
          service_account_json: fake.serviceAccountJson,
        },
      },
    });
    expect(response.json.data).toMatchObject({ status: 'connected', available: true });
  });

  it('posts the card to each DM space, takes a verified click once from the learner only, and judges the answers', async () => {
    const { list, learners } = await learnersList(app, world, [
      { channels: ['google-chat'] },
      { channels: ['google-chat'] },
      { channels: ['google-chat'] },
    ]);
    const emails = learners.map((learner) => learner.email!);
    const spaces = emails.slice(0, 2).map((email) => fake.addApp(email));
    const course = await publishCourse(app, world, {
      lists: [list.uuid],
      channels: ['google-chat'],
      distribution: { disabled_enrolment_opt_in: true },
    });
    // The third learner never added the app: findDirectMessage answers 404, a permanent failure.
    expect(await tickAt(app, DAY1)).toMatchObject({ sent: 2, failed: 1 });
    expect(fake.refused).toEqual([]);
    const [first, second] = spaces.map((space) =>
      fake.messages.find((message) => message.space === space)!,
    );
    const now = () => app.testClock.now();
    expect(
      (await post(fake.click(first!, 0, { email: emails[0]!, now: now(), foreignKey: true })))
        .statusCode,
    ).toBe(401);
    expect(
      (await post(fake.click(first!, 0, { email: emails[0]!, now: now(), audience: '999' })))
        .statusCode,
    ).toBe(401);
    expect((await post(fake.click(first!, 0, { email: emails[1]!, now: now() }))).statusCode).toBe(
      403,
    );
    const right = await fake.click(first!, 0, { email: emails[0]!, now: now() });
    expect((await post(Promise.resolve(right))).json).toEqual({ status: 'recorded' });
    expect((await post(Promise.resolve(right))).json).toEqual({ status: 'duplicate' });
    expect((await post(fake.click(second!, 2, { email: emails[1]!, now: now() }))).json).toEqual({
      status: 'recorded',
    });

    const rows = (await deliveriesOf(app, course)).filter((row) => row.day === 1);
    expect(rows.map((row) => row.answer_correct).sort()).toEqual([0, 1, null]);
  });
});
