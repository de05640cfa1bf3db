import { randomBytes } from 'node:crypto';

import { afterAll, describe, expect, it } from 'vitest';

import { renderSlack } from '../../src/delivery/channels/slack/render.ts';
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
import { blockProblems, startFakeSlack } from '../fakes/slack.ts';

// Slack end to end against a fake Slack on 127.0.0.1: an administrator connects the workspace,
// the scheduler sends the day's lesson to each learner's DM (found by e-mail), the learner taps
// an answer, the signed callback is verified and the answer shows in Insights.

const START = '2026-11-22T09:00:00.000Z';
const DAY1 = '2026-11-23T08:30:00.000Z';
const SECRETS_KEY = randomBytes(32).toString('base64');

describe('Slack delivery', async () => {
  const fake = await startFakeSlack();
  afterAll(() => fake.close());
  const app = await buildTestApp({
    secretsKey: SECRETS_KEY,
    channels: { slack: { apiUrl: fake.apiUrl } },
  });
  const world = await createWorld(app);
  app.testClock.set(START);

  const connect = async (fields: Record<string, string>) =>
    call(app, {
      method: 'PUT',
      url: '/api/v1/channel-connections/slack',
      headers: await authHeaders(app, world),
      payload: { fields },
    });
  const nowSeconds = () => Math.floor(app.clock.now().getTime() / 1000);
  const tap = (request: { body: string; headers: Record<string, string> }) =>
    call(app, {
      method: 'POST',
      url: '/api/v1/webhooks/slack',
      headers: request.headers,
      payload: request.body,
    });

  it('refuses a connection without its required secrets, in the user’s language', async () => {
    const response = await call(app, {
      method: 'PUT',
      url: '/api/v1/channel-connections/slack',
      headers: { ...(await authHeaders(app, world)), 'accept-language': 'it' },
      payload: { fields: { bot_token: 'xoxb-fake-token' } },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json.error.errors['fields.signing_secret']).toEqual([
      'Questo campo è obbligatorio per connettere.',
    ]);
  });

  it('a wrong token is saved with the provider’s error; the right one connects', async () => {
    const wrong = await connect({ bot_token: 'xoxb-wrong', signing_secret: fake.signingSecret });
    expect(wrong.statusCode).toBe(200);
    expect(wrong.json.data).toMatchObject({ status: 'error' });
    expect(wrong.json.data.last_error).toContain('invalid_auth');

    const right = await connect({ bot_token: fake.token });
    expect(right.json.data).toMatchObject({
      channel: 'slack',
      status: 'connected',
      last_error: null,
      provider_ids: { team_id: fake.teamId, bot_user_id: 'UBOT' },
    });
    expect([...(right.json.data.secrets_set as string[])].sort()).toEqual([
      'bot_token',
      'signing_secret',
    ]);
    // At rest the secrets are sealed: neither the token nor the signing secret is in the row.
    const row = await app.db
      .selectFrom('channel_connections')
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(row.secrets).not.toContain(fake.token);
    expect(row.secrets).not.toContain(fake.signingSecret);
    expect(row.secrets.startsWith('v1:')).toBe(true);
  });

  it('sends the lesson to each learner’s DM, takes the tapped answer once, and Insights counts it', async () => {
    const { list, learners } = await learnersList(app, world, [{}, {}]);
    const slackUsers = learners.map((learner) => fake.addUser(learner.email!));
    const course = await publishCourse(app, world, {
      lists: [list.uuid],
      distribution: { disabled_enrolment_opt_in: true },
    });
    const result = await tickAt(app, DAY1);
    expect(result).toMatchObject({ sent: 2, failed: 0 });
    expect(fake.refused.filter((entry) => entry.method !== 'auth.test')).toEqual([]);
    const posted = fake.messages.filter((message) =>
      slackUsers.some((user) => user.id === message.userId),
    );
    expect(posted).toHaveLength(2);
    const [first, second] = slackUsers.map((user) =>
      posted.find((message) => message.userId === user.id)!,
    );
    expect(first!.blocks.find((block) => block.type === 'header')?.text.text).toBeTruthy();
    const buttons = first!.blocks.find((block) => block.type === 'actions')!.elements as {
      text: { text: string };
    }[];
    expect(buttons.map((button) => button.text.text)).toEqual(['Right', 'Wrong', 'Maybe']);

    // The identities are cached: the next lesson needs no lookup.
    const identities = await app.db.selectFrom('learner_channel_identities').selectAll().execute();
    expect(identities.map((row) => row.provider_user_id).sort()).toEqual(
      slackUsers.map((user) => user.id).sort(),
    );

    const deliveries = (await deliveriesOf(app, course)).filter((row) => row.day === 1);
    const mine = deliveries.find((row) => row.learner_uuid === learners[0]!.uuid)!;

    // Unsigned, wrongly signed and stale requests change nothing.
    const right = fake.tapRequest(first!, 0, { nowSeconds: nowSeconds() });
    expect(
      (await tap({ ...right, headers: { ...right.headers, 'x-slack-signature': 'v0=00' } }))
        .statusCode,
    ).toBe(401);
    expect(
      (
        await tap(
          fake.tapRequest(first!, 0, { nowSeconds: nowSeconds(), secret: 'not-the-secret' }),
        )
      ).statusCode,
    ).toBe(401);
    expect(
      (await tap(fake.tapRequest(first!, 0, { nowSeconds: nowSeconds() - 6 * 60 }))).statusCode,
    ).toBe(401);
    // Someone else tapping the learner's buttons: refused.
    const intruder = await tap(
      fake.tapRequest(first!, 1, { nowSeconds: nowSeconds(), userId: slackUsers[1]!.id }),
    );
    expect(intruder.statusCode).toBe(403);
    expect(
      (await deliveriesOf(app, course)).find((row) => row.uuid === mine.uuid)!.answered_at,
    ).toBeNull();

    const answered = await tap(right);
    expect(answered.statusCode).toBe(200);
    expect(answered.json).toEqual({ status: 'recorded' });
    // Slack's retry of the same tap, and a second tap: nothing more.
    expect((await tap(right)).json).toEqual({ status: 'duplicate' });
    const after = (await deliveriesOf(app, course)).find((row) => row.uuid === mine.uuid)!;
    expect([after.answer_correct, after.answered_at]).toEqual([1, DAY1]);

    // The other learner answers wrong.
    expect((await tap(fake.tapRequest(second!, 1, { nowSeconds: nowSeconds() }))).json).toEqual({
      status: 'recorded',
    });

    const insights = await call(app, {
      method: 'GET',
      url: `/api/v2/analytics/classrooms/${world.classroom}/courses/insights`,
      headers: await authHeaders(app, world),
    });
    const row = (insights.json.data as { uuid: string }[]).find((item) => item.uuid === course);
    expect(row).toMatchObject({ completionRate: 100, successRate: 50 });
  });

  it('waits the Retry-After of a 429 and sends once', async () => {
    const { list, learners } = await learnersList(app, world, [{}]);
    const user = fake.addUser(learners[0]!.email!);
    app.testClock.set(START);
    await publishCourse(app, world, {
      lists: [list.uuid],
      distribution: { disabled_enrolment_opt_in: true },
    });
    fake.rateLimit(1, 3);
    const waits: number[] = [];
    const result = await tickAt(app, DAY1, {
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(result).toMatchObject({ sent: 1, failed: 0 });
    expect(waits).toContain(3000);
    expect(fake.messages.filter((message) => message.userId === user.id)).toHaveLength(1);
  });

  it('a learner Slack does not know fails without retries', async () => {
    const { list } = await learnersList(app, world, [{}]);
    app.testClock.set(START);
    const course = await publishCourse(app, world, {
      lists: [list.uuid],
      distribution: { disabled_enrolment_opt_in: true },
    });
    const before = fake.calls.length;
    const result = await tickAt(app, DAY1);
    expect(result).toMatchObject({ sent: 0, failed: 1 });
    expect(fake.calls.slice(before)).toEqual(['users.lookupByEmail']);
    expect((await deliveriesOf(app, course)).find((row) => row.day === 1)!.status).toBe('failed');
  });

  it('non-administrators see the status only and cannot connect', async () => {
    const { createUser, signIn } = await import('../helper.ts');
    const member = await createUser(app, world.company, { isAdmin: false });
    const tokens = await signIn(app, member);
    const headers = { authorization: `Bearer ${tokens.access_token}` };
    const list = await call(app, { method: 'GET', url: '/api/v1/channel-connections', headers });
    const channels = list.json.data as { channel: string; status: string }[];
    expect(channels.find((item) => item.channel === 'slack')).toMatchObject({
      status: 'connected',
      provider_ids: {},
      secrets_set: [],
    });
    expect(channels.find((item) => item.channel === 'webex')?.status).toBe('not_connected');
    const put = await call(app, {
      method: 'PUT',
      url: '/api/v1/channel-connections/slack',
      headers,
      payload: { fields: { bot_token: 'x', signing_secret: 'y' } },
    });
    expect(put.statusCode).toBe(403);
  });
});

describe('Slack renderer limits', () => {
  const message = (overrides: Partial<NonNullable<ChannelMessage['lesson']>>): ChannelMessage => ({
    kind: 'lesson',
    channel: 'slack',
    companyUuid: 'c',
    courseUuid: 'k',
    courseName: 'Safety & <Health>',
    deliveryUuid: '00000000-0000-4000-8000-000000000001',
    language: 'en',
    recipient: { learnerUuid: 'l', firstName: 'A', lastName: 'B', address: 'a@example.com' },
    totalDays: 2,
    lesson: {
      day: 1,
      title: 'T',
      topic_intro: 'Fish & chips <b>',
      topic_content: '<p>A &amp; B &lt;tag&gt; <a href="https://x.test/a|b">link</a></p>',
      learning_minutes: 3,
      media: null,
      assessment: {
        type: 'multiple_choice',
        question: 'Is 1 < 2?',
        mandatory: true,
        answers: [
          { text: 'Yes', correct: true },
          { text: 'No', correct: false },
        ],
        thank_you_message: null,
      } as never,
      ...overrides,
    },
  });

  it('escapes &, < and > and keeps links working', () => {
    const payload = renderSlack(message({})) as { blocks: Record<string, any>[] };
    expect(blockProblems(payload.blocks)).toEqual([]);
    const text = payload.blocks
      .map((block) => (block.text as { text?: string } | undefined)?.text ?? '')
      .join('\n');
    expect(text).toContain('Fish &amp; chips &lt;b&gt;');
    expect(text).toContain('A &amp; B &lt;tag&gt; <https://x.test/a%7Cb|link>');
  });

  it('splits long content into sections of at most 3000 characters, losing nothing', () => {
    const paragraph = 'word '.repeat(300).trim();
    const html = Array.from({ length: 8 }, () => `<p>${paragraph}</p>`).join('');
    const payload = renderSlack(message({ topic_content: html })) as {
      blocks: Record<string, any>[];
    };
    expect(blockProblems(payload.blocks)).toEqual([]);
    const sections = payload.blocks.filter((block) => block.type === 'section');
    expect(sections.length).toBeGreaterThan(3);
    const words = sections
      .map((block) => block.text.text as string)
      .join(' ')
      .match(/word/g);
    expect(words).toHaveLength(8 * 300);
  });

  it('lists answers over 75 characters by number instead of cutting them', () => {
    const long = `${'a'.repeat(90)} end`;
    const payload = renderSlack(
      message({
        assessment: {
          type: 'multiple_choice',
          question: 'Q',
          mandatory: true,
          answers: [
            { text: long, correct: true },
            { text: 'Short', correct: false },
          ],
          thank_you_message: null,
        } as never,
      }),
    ) as { blocks: Record<string, any>[] };
    expect(blockProblems(payload.blocks)).toEqual([]);
    const all = JSON.stringify(payload.blocks);
    expect(all).toContain(long);
    const actions = payload.blocks.find((block) => block.type === 'actions')!;
    const elements = actions.elements as { text: { text: string } }[];
    expect(elements.map((element) => element.text.text)).toEqual(['1', '2']);
  });
});
