import { afterAll, describe, expect, it } from 'vitest';

import { DAY1, channelWorld } from '../fixtures/channels.ts';
import { startFakeGoogleChat } from '../fakes/google-chat.ts';

// Google Chat end to end against a fake Chat API on 127.0.0.1: connecting exchanges the service
// account's assertion for a token, the scheduler finds each learner's DM space and posts the
// lesson card, a learner who has not added the app fails permanently, a click comes back with
// Chat's bearer JWT (issuer, audience = project number, Chat's keys) and the deliveries record it.

describe('Google Chat delivery', async () => {
  const fake = await startFakeGoogleChat();
  afterAll(() => fake.close());
  const {
    app,
    connect,
    webhook: post,
    enrol,
    tickAt,
    answersOfDay,
    learnerDay,
  } = await channelWorld('google-chat', {
    googleChat: { apiUrl: fake.apiUrl, tokenUrl: fake.tokenUrl, jwksUrl: fake.jwksUrl },
  });
  const now = () => app.testClock.now();

  it('connecting exchanges the service account’s signed assertion for a token', async () => {
    const response = await connect({
      project_number: fake.projectNumber,
      service_account_json: fake.serviceAccountJson,
    });
    expect(response.json.data).toMatchObject({ status: 'connected', available: true });
  });

  it('posts the card to each DM space, takes a verified click once from the learner only, and judges the answers', async () => {
    const { course, learners } = await enrol([{}, {}, {}]);
    const emails = learners.map((learner) => learner.email!);
    const spaces = emails.slice(0, 2).map((email) => fake.addApp(email));
    // The third learner never added the app: findDirectMessage answers 404, a permanent failure.
    expect(await tickAt(DAY1)).toMatchObject({ sent: 2, failed: 1 });
    expect(fake.refused).toEqual([]);
    const [first, second] = spaces.map((space) =>
      fake.messages.find((message) => message.space === space)!,
    );
    expect(
      (await post(fake.click(first!, 0, { email: emails[0]!, now: now(), foreignKey: true })))
        .statusCode,
    ).toBe(401);
    expect(
      (await post(fake.click(first!, 0, { email: emails[0]!, now: now(), audience: '999' })))
        .statusCode,
    ).toBe(401);
    // A token recorded two hours ago and replayed: expired.
    const twoHoursAgo = new Date(now().getTime() - 2 * 60 * 60 * 1000);
    expect(
      (await post(fake.click(first!, 0, { email: emails[0]!, now: twoHoursAgo }))).statusCode,
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

    expect(await answersOfDay(course)).toEqual([0, 1, null]);
  });

  it('takes the learner’s message to the app as their open answer, once', async () => {
    const { course, learners } = await enrol([{}], { openAnswerDays: [1] });
    const email = learners[0]!.email!;
    const space = fake.addApp(email);
    expect(await tickAt(DAY1)).toMatchObject({ sent: 1 });
    const words = 'Listening before answering.';
    const message = fake.write(space, words, { email, now: now() });
    expect((await post(message)).json).toEqual({ status: 'recorded' });
    expect((await post(message)).json).toEqual({ status: 'duplicate' });
    expect(await learnerDay(learners[0]!.uuid, course, 1)).toMatchObject({
      state: 'correct',
      answer: words,
    });
  });

  it('a quota error (429 RESOURCE_EXHAUSTED, no Retry-After) backs off and posts once', async () => {
    const { learners } = await enrol([{}]);
    const space = fake.addApp(learners[0]!.email!);
    fake.rateLimit(1);
    const waits: number[] = [];
    const result = await tickAt(DAY1, { sleep: async (ms) => void waits.push(ms) });
    expect(result).toMatchObject({ sent: 1, failed: 0 });
    expect(waits).toHaveLength(1);
    expect(fake.messages.filter((message) => message.space === space)).toHaveLength(1);
  });
});
