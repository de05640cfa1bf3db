import { randomBytes, randomUUID } from 'node:crypto';

import { afterAll, describe, expect, it } from 'vitest';

import { renderTeamsActivity } from '../../src/delivery/channels/teams/render.ts';
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
import { startFakeTeams } from '../fakes/teams.ts';

// Teams end to end against a fake Bot Framework on 127.0.0.1: connecting gets an app token,
// installing the app (a signed conversationUpdate) saves the learner's conversation reference,
// the scheduler sends the lesson as an Adaptive Card with a choice set and one submit, the
// learner's submit comes back as a Bot Connector JWT (RS256, issuer, audience, serviceurl,
// keys from the OpenID metadata) and Insights counts it.

const START = '2026-11-22T09:00:00.000Z';
const DAY1 = '2026-11-23T08:30:00.000Z';

describe('Teams delivery', async () => {
  const fake = await startFakeTeams();
  afterAll(() => fake.close());
  const app = await buildTestApp({
    secretsKey: randomBytes(32).toString('hex'),
    channels: {
      teams: { tokenUrl: fake.tokenUrl, openIdMetadataUrl: fake.openIdMetadataUrl },
    },
  });
  const world = await createWorld(app);
  app.testClock.set(START);
  const post = async (request: Promise<{ body: string; headers: Record<string, string> }>) => {
    const { body, headers } = await request;
    return call(app, { method: 'POST', url: '/api/v1/webhooks/teams', headers, payload: body });
  };
  it('connecting gets an app token; a wrong password is saved with the provider’s error', async () => {
    const headers = await authHeaders(app, world);
    const save = (password: string) =>
      call(app, {
        method: 'PUT',
        url: '/api/v1/channel-connections/ms-teams',
        headers,
        payload: {
          fields: { tenant_id: randomUUID(), app_id: fake.appId, app_password: password },
        },
      });
    const wrong = await save('wrong');
    expect(wrong.json.data).toMatchObject({ status: 'error', available: true });
    expect(String(wrong.json.data.last_error)).toContain('invalid_client');
    expect((await save(fake.appPassword)).json.data).toMatchObject({ status: 'connected' });
  });

  it('installs, sends the card, takes a verified submit once from the learner only, and Insights counts it', async () => {
    const { list, learners } = await learnersList(app, world, [
      { channels: ['ms-teams'] },
      { channels: ['ms-teams'] },
    ]);
    const now = () => app.testClock.now();
    const installs = learners.map((learner) => fake.install(learner.email!, now()));
    for (const install of installs) {
      expect((await post(install.request)).json).toEqual({ status: 'installed' });
    }
    const course = await publishCourse(app, world, {
      lists: [list.uuid],
      channels: ['ms-teams'],
      distribution: { disabled_enrolment_opt_in: true },
    });
    expect(await tickAt(app, DAY1)).toMatchObject({ sent: 2, failed: 0 });
    expect(fake.refused).toEqual([]);
    const [first, second] = installs.map((install) =>
      fake.activities.find((sent) => sent.conversationId === install.member.conversationId)!,
    );
    const card = first!.attachments[0]!.content as {
      body: { type: string }[];
      actions: { type: string }[];
    };
    expect(card.body.some((element) => element.type === 'Input.ChoiceSet')).toBe(true);
    expect(card.actions.filter((action) => action.type === 'Action.Submit')).toHaveLength(1);

    const from = (index: number) => installs[index]!.member.id;
    const answer = (options: Partial<Parameters<typeof fake.submit>[2]> = {}) =>
      fake.submit(first!, { answer: '0' }, { from: from(0), now: now(), ...options });
    expect((await post(answer({ foreignKey: true }))).statusCode).toBe(401);
    expect((await post(answer({ audience: 'another-app' }))).statusCode).toBe(401);
    expect((await post(answer({ claimServiceUrl: 'https://elsewhere.example/' }))).statusCode).toBe(
      401,
    );
    expect((await post(answer({ from: from(1) }))).statusCode).toBe(403);

    const id = randomUUID();
    expect((await post(answer({ id }))).json).toEqual({ status: 'recorded' });
    expect((await post(answer({ id }))).json).toEqual({ status: 'duplicate' });
    expect(
      (await post(fake.submit(second!, { answer: '2' }, { from: from(1), now: now() }))).json,
    ).toEqual({ status: 'recorded' });

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

describe('Teams card', () => {
  it('puts eleven answers in one choice set with one submit, valid at 1.5 within six actions', () => {
    const message: ChannelMessage = {
      kind: 'lesson',
      channel: 'ms-teams',
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
        topic_content: '<p>Body</p>',
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
    const activity = renderTeamsActivity(message) as {
      attachments: { content: Record<string, any> }[];
    };
    const card = activity.attachments[0]!.content;
    expect(adaptiveCardProblems(card, { version: '1.5', maxActions: 6 })).toEqual([]);
    const choiceSet = (card.body as { type: string; choices?: unknown[] }[]).find(
      (element) => element.type === 'Input.ChoiceSet',
    );
    expect(choiceSet?.choices).toHaveLength(11);
    expect(card.actions).toHaveLength(1);
  });
});
