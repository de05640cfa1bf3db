import { randomUUID } from 'node:crypto';

import { afterAll, describe, expect, it } from 'vitest';

import { TEAMS_LEGACY_TENANT, teamsTokenUrl } from '../../src/delivery/channels/teams/client.ts';
import { renderTeamsActivity } from '../../src/delivery/channels/teams/render.ts';
import { DAY1, channelWorld, choices, sampleMessage } from '../fixtures/channels.ts';
import { adaptiveCardProblems } from '../fakes/adaptive-cards.ts';
import { startFakeTeams } from '../fakes/teams.ts';

// Teams end to end against a fake Bot Framework on 127.0.0.1: connecting gets an app token,
// installing the app (a signed conversationUpdate) saves the learner's conversation reference,
// the scheduler sends the lesson as an Adaptive Card with a choice set and one submit, the
// learner's submit comes back as a Bot Connector JWT (RS256, issuer, audience, serviceurl,
// keys from the OpenID metadata) and Insights counts it.

describe('Teams delivery', async () => {
  const fake = await startFakeTeams();
  afterAll(() => fake.close());
  const {
    app,
    connect,
    webhook: post,
    enrol,
    tickAt,
    answersOfDay,
    learnerDay,
    insightsOf,
  } = await channelWorld('ms-teams', {
    teams: { tokenUrl: fake.tokenUrl, openIdMetadataUrl: fake.openIdMetadataUrl },
  });
  const now = () => app.testClock.now();

  it('connecting gets an app token from the bot’s own tenant; a wrong tenant or password is saved with the provider’s error', async () => {
    const save = (tenant: string, password: string) =>
      connect({ tenant_id: tenant, app_id: fake.appId, app_password: password });
    const otherTenant = await save(randomUUID(), fake.appPassword);
    expect(otherTenant.json.data).toMatchObject({ status: 'error', available: true });
    expect(String(otherTenant.json.data.last_error)).toContain('AADSTS700016');
    const wrong = await save(fake.tenantId, 'wrong');
    expect(wrong.json.data).toMatchObject({ status: 'error', available: true });
    expect(String(wrong.json.data.last_error)).toContain('invalid_client');
    expect((await save(` ${fake.tenantId} `, fake.appPassword)).json.data).toMatchObject({
      status: 'connected',
    });
    expect(fake.tokenTenants.at(-1)).toBe(fake.tenantId);
  });

  it('asks botframework.com for the token of an older multi-tenant bot', () => {
    const template = 'https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token';
    expect(teamsTokenUrl(template, TEAMS_LEGACY_TENANT)).toBe(
      'https://login.microsoftonline.com/botframework.com/oauth2/v2.0/token',
    );
    expect(teamsTokenUrl(template, '72f988bf-86f1-41af-91ab-2d7cd011db47')).toBe(
      'https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/oauth2/v2.0/token',
    );
  });

  it('installs, sends the card, takes a verified submit once from the learner only, and Insights counts it', async () => {
    const { course, learners } = await enrol([{}, {}, {}]);
    // The third learner never installs the app: a permanent failure, not retried.
    const installs = learners.slice(0, 2).map((learner) => fake.install(learner.email!, now()));
    for (const install of installs) {
      expect((await post(install.request)).json).toEqual({ status: 'installed' });
    }
    expect(await tickAt(DAY1)).toMatchObject({ sent: 2, failed: 1 });
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
    // A token recorded two hours ago and replayed: expired.
    const twoHoursAgo = new Date(now().getTime() - 2 * 60 * 60 * 1000);
    expect((await post(answer({ now: twoHoursAgo }))).statusCode).toBe(401);
    expect((await post(answer({ from: from(1) }))).statusCode).toBe(403);

    const id = randomUUID();
    expect((await post(answer({ id }))).json).toEqual({ status: 'recorded' });
    expect((await post(answer({ id }))).json).toEqual({ status: 'duplicate' });
    expect(
      (await post(fake.submit(second!, { answer: '2' }, { from: from(1), now: now() }))).json,
    ).toEqual({ status: 'recorded' });

    expect(await answersOfDay(course)).toEqual([0, 1, null]);
    expect(await insightsOf(course)).toMatchObject({ successRate: 50 });
  });

  it('takes an open answer typed in the card; an empty one answers nothing', async () => {
    const { course, learners } = await enrol([{}], { openAnswerDays: [1] });
    const install = fake.install(learners[0]!.email!, now());
    await post(install.request);
    expect(await tickAt(DAY1)).toMatchObject({ sent: 1 });
    const sent = fake.activities.find(
      (activity) => activity.conversationId === install.member.conversationId,
    )!;
    const submit = (text: string) =>
      post(fake.submit(sent, { text }, { from: install.member.id, now: now() }));
    expect((await submit('   ')).json).toEqual({ status: 'ignored' });
    expect((await submit('Ask open questions.')).json).toEqual({ status: 'recorded' });
    expect(await learnerDay(learners[0]!.uuid, course, 1)).toMatchObject({
      state: 'correct',
      answer: 'Ask open questions.',
    });
  });

  it('waits the Retry-After of a 429 and sends once', async () => {
    const { learners } = await enrol([{}]);
    const install = fake.install(learners[0]!.email!, now());
    await post(install.request);
    fake.rateLimit(1, 2);
    const waits: number[] = [];
    const result = await tickAt(DAY1, { sleep: async (ms) => void waits.push(ms) });
    expect(result).toMatchObject({ sent: 1, failed: 0 });
    expect(waits).toEqual([2000]);
    const sent = fake.activities.filter(
      (activity) => activity.conversationId === install.member.conversationId,
    );
    expect(sent).toHaveLength(1);
  });
});

describe('Teams card', () => {
  it('puts eleven answers in one choice set with one submit, valid at 1.5 within six actions', () => {
    const eleven = Array.from({ length: 11 }, (_, index) => `Answer ${index}`);
    const activity = renderTeamsActivity(
      sampleMessage('ms-teams', { assessment: choices(eleven) }),
    ) as { attachments: { content: Record<string, any> }[] };
    const card = activity.attachments[0]!.content;
    expect(adaptiveCardProblems(card, { version: '1.5', maxActions: 6 })).toEqual([]);
    const choiceSet = (card.body as { type: string; choices?: unknown[] }[]).find(
      (element) => element.type === 'Input.ChoiceSet',
    );
    expect(choiceSet?.choices).toHaveLength(11);
    expect(card.actions).toHaveLength(1);
  });
});
