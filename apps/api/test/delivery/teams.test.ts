import { randomUUID } from 'node:crypto';

import { afterAll, describe, expect, it } from 'vitest';

import { ProviderHttpError } from '../../src/delivery/channels/http.ts';
import {
  TEAMS_LEGACY_TENANT,
  TeamsNotInstalledError,
  classifyTeamsError,
  teamsTokenUrl,
} from '../../src/delivery/channels/teams/client.ts';
import { renderTeamsActivity } from '../../src/delivery/channels/teams/render.ts';
import { DAY1, DAY2, START, channelWorld, choices, sampleMessage } from '../fixtures/channels.ts';
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
    closeFailures,
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
    // A token that fails any requirement is answered 403 Forbidden, as the Bot Connector's
    // authentication page asks ("Connector to Bot", step 4: "If the token does not meet all of
    // these requirements, your bot should reject the request by returning an HTTP 403 (Forbidden)
    // status code"; https://learn.microsoft.com/en-us/azure/bot-service/rest-api/bot-framework-rest-connector-authentication).
    expect((await post(answer({ foreignKey: true }))).statusCode).toBe(403);
    expect((await post(answer({ audience: 'another-app' }))).statusCode).toBe(403);
    expect((await post(answer({ claimServiceUrl: 'https://elsewhere.example/' }))).statusCode).toBe(
      403,
    );
    // A token recorded two hours ago and replayed: expired.
    const twoHoursAgo = new Date(now().getTime() - 2 * 60 * 60 * 1000);
    expect((await post(answer({ now: twoHoursAgo }))).statusCode).toBe(403);
    // No token at all (requirement 1: sent in the Authorization header with the Bearer scheme).
    const bare = await answer();
    const unsignedAnswer = await post({ ...bare, headers: { 'content-type': 'application/json' } });
    expect(unsignedAnswer.statusCode).toBe(403);
    expect(unsignedAnswer.json.error.message).toBe(
      'The request is not signed by the provider, or its signature is too old.',
    );
    expect((await post(answer({ from: from(1) }))).statusCode).toBe(403);

    const id = randomUUID();
    expect((await post(answer({ id }))).json).toEqual({ status: 'recorded' });
    expect((await post(answer({ id }))).json).toEqual({ status: 'duplicate' });
    expect(
      (await post(fake.submit(second!, { answer: '2' }, { from: from(1), now: now() }))).json,
    ).toEqual({ status: 'recorded' });

    expect(await answersOfDay(course)).toEqual([0, 1, null]);
    expect(await insightsOf(course)).toMatchObject({ successRate: 50 });

    // Each learner hears back in their personal chat with their answer's response (issue 28).
    const before = fake.activities.length;
    expect(await tickAt(DAY1)).toMatchObject({ feedback: 2, sent: 0 });
    expect(fake.refused).toEqual([]);
    const feedback = fake.activities.slice(before);
    const to = (index: number) =>
      JSON.stringify(
        feedback.find((sent) => sent.conversationId === installs[index]!.member.conversationId),
      );
    expect(to(0)).toContain('About Right.');
    expect(to(1)).toContain('Not quite.');
    // Each question card was replaced in place (updateActivity): the chosen answer, no input.
    for (const [question, line] of [
      [first!, '✅ Your answer: Right'],
      [second!, '❌ Your answer: Maybe'],
    ] as const) {
      const updated = fake.updates.filter(
        (sent) => sent.id === question.id && sent.conversationId === question.conversationId,
      );
      expect(updated).toHaveLength(1);
      const closed = updated[0]!.attachments[0]!.content as {
        body: { type: string }[];
        actions: { type: string }[];
      };
      expect(closed.body.some((element) => element.type.startsWith('Input.'))).toBe(false);
      expect(closed.actions.some((action) => action.type === 'Action.Submit')).toBe(false);
      expect(JSON.stringify(closed)).toContain(line);
    }
    // A submit from a card the learner's client had not refreshed: not counted.
    expect((await post(answer({ id: randomUUID() }))).json).toEqual({ status: 'duplicate' });
    expect(await answersOfDay(course)).toEqual([0, 1, null]);
  });

  // After the last lesson a day's two repeats go as one card (issue 28, the loose ends): each
  // question its own choice set and Send, the submit answering the question it belongs to.
  it('asks a day’s two repeats on one card, each Send answering its own question', async () => {
    const { course, learners } = await enrol([{}], {
      distribution: { repeat_questions: true, target_retention: 90 },
    });
    const install = fake.install(learners[0]!.email!, now());
    await post(install.request);
    const member = install.member;
    const sentToLearner = () => fake.sentTo(member.conversationId);
    const answer = (
      sent: (typeof fake.activities)[number],
      inputs: Record<string, unknown>,
      submit = 0,
    ) => post(fake.submit(sent, inputs, { from: member.id, now: now(), submit }));
    await tickAt(DAY1);
    await answer(sentToLearner().at(-1)!, { answer: '1' });
    await tickAt(DAY1);
    await tickAt(DAY2);
    // Day 2's lesson, then day 1's question again: both answered wrong, both back on day 3.
    const [lesson2, repeat1] = sentToLearner().slice(-2);
    await answer(lesson2!, { answer: '1' });
    await answer(repeat1!, { answer: '2' });
    await tickAt(new Date(Date.parse(DAY2) + 60_000).toISOString());

    const before = sentToLearner().length;
    await tickAt('2026-11-25T08:30:00.000Z');
    expect(sentToLearner()).toHaveLength(before + 1);
    const card = sentToLearner().at(-1)!.attachments[0]!.content as {
      body: { type: string; items?: { id?: string }[] }[];
    };
    expect(adaptiveCardProblems(card, { version: '1.5', maxActions: 6 })).toEqual([]);
    const inputs = card.body
      .filter((element) => element.type === 'Container')
      .map((container) => container.items![2]!.id!);
    const days = await app.db
      .selectFrom('lesson_deliveries')
      .select(['uuid', 'day'])
      .where('course_uuid', '=', course)
      .orderBy('day')
      .execute();
    expect([...inputs].sort()).toEqual(days.map((row) => `answer:${row.uuid}`).sort());
    // Teams sends every input of the card with a Send: the second Send answers the second question.
    const second = days.find((row) => inputs[1] === `answer:${row.uuid}`)!;
    const both = { [inputs[0]!]: '1', [inputs[1]!]: '0' };
    expect((await answer(sentToLearner().at(-1)!, both, 1)).json).toEqual({ status: 'recorded' });
    const repeats = await app.db
      .selectFrom('question_repeats')
      .select(['delivery_uuid', 'status', 'answer_correct'])
      .where('course_uuid', '=', course)
      .execute();
    expect(repeats.find((row) => row.delivery_uuid === second.uuid)).toMatchObject({
      status: 'waiting',
      answer_correct: 1,
    });
    expect(repeats.find((row) => row.delivery_uuid !== second.uuid)).toMatchObject({
      status: 'sent',
      answer_correct: null,
    });
    expect(fake.refused).toEqual([]);
  });

  it('a card Teams will not update still gets its feedback; the failure is on the delivery’s events', async () => {
    const { learners } = await enrol([{}]);
    const install = fake.install(learners[0]!.email!, now());
    await post(install.request);
    expect(await tickAt(DAY1)).toMatchObject({ sent: 1 });
    const question = fake.sentTo(install.member.conversationId).at(-1)!;
    fake.failUpdates(1);
    expect(
      (await post(fake.submit(question, { answer: '0' }, { from: install.member.id, now: now() })))
        .json,
    ).toEqual({ status: 'recorded' });
    expect(await tickAt(DAY1)).toMatchObject({ feedback: 1 });
    expect(JSON.stringify(fake.sentTo(install.member.conversationId).at(-1))).toContain(
      'About Right.',
    );
    expect(await closeFailures(learners[0]!.uuid)).toEqual([
      { provider_message_id: question.id, code: 'provider_unavailable' },
    ]);
  });

  // Teams tells a bot when its messages in a personal chat were read (the readReceipt event, with
  // the RSC permission ChatMessageReadReceipt.Read.Chat, while the user's read receipts are on):
  // https://learn.microsoft.com/en-us/microsoftteams/platform/bots/how-to/conversations/conversation-messages,
  // "Read receipts". A message is read when its id is at most lastReadMessageId, as numbers.
  it('records a read receipt as the lesson’s read (and delivered) events, once, and nothing for unread lessons', async () => {
    const { course, learners } = await enrol([{}, {}]);
    const [reader, other] = learners.map((learner) => fake.install(learner.email!, now()));
    for (const install of [reader!, other!]) await post(install.request);
    expect(await tickAt(DAY1)).toMatchObject({ sent: 2, failed: 0 });
    const [lesson] = fake.sentTo(reader!.member.conversationId);
    const deliveries = async () =>
      app.db
        .selectFrom('lesson_deliveries')
        .select(['uuid', 'learner_uuid', 'delivered_at', 'read_at'])
        .where('course_uuid', '=', course)
        .where('day', '=', 1)
        .execute();

    app.testClock.set('2026-11-23T09:00:00.000Z');
    const receipt = fake.readReceipt(reader!.member, lesson!, { now: now() });
    expect((await post(receipt)).json).toEqual({ status: 'recorded' });
    expect((await post(receipt)).json).toEqual({ status: 'duplicate' });
    // Only the signed Bot Connector speaks for Teams: a forged receipt changes nothing.
    expect(
      (await post(fake.readReceipt(other!.member, lesson!, { now: now(), foreignKey: true })))
        .statusCode,
    ).toBe(403);
    const rows = await deliveries();
    const mine = rows.find((row) => row.learner_uuid === learners[0]!.uuid)!;
    expect(mine).toMatchObject({
      read_at: '2026-11-23T09:00:00.000Z',
      delivered_at: expect.any(String) as unknown,
    });
    expect(rows.find((row) => row.learner_uuid === learners[1]!.uuid)).toMatchObject({
      delivered_at: null,
      read_at: null,
    });
    const events = await app.db
      .selectFrom('learner_events')
      .select('type')
      .where('delivery_uuid', '=', mine.uuid)
      .execute();
    expect(events.map((event) => event.type)).toContain('read');
    expect(await insightsOf(course)).toMatchObject({ delivery: 50 });
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

describe('Teams: personal conversations only, kept from any event, whatever the order', async () => {
  // Each rule below is Microsoft's (the fake cites the pages): a lesson goes only to the
  // learner's personal conversation; its reference comes from the install, from
  // installationUpdate or from any personal message; it is kept until a learner has its e-mail.
  const fake = await startFakeTeams();
  afterAll(() => fake.close());
  const {
    app,
    connect,
    webhook: post,
    enrol,
    tickAt,
    deliveriesOfDay,
  } = await channelWorld('ms-teams', {
    teams: { tokenUrl: fake.tokenUrl, openIdMetadataUrl: fake.openIdMetadataUrl },
  });
  const now = () => app.testClock.now();
  /** The statuses of a course's lessons of a day (one learner each here). */
  const statusOf = async (course: string, day = 1) =>
    (await deliveriesOfDay(course, day)).map((row) => row.status);
  const identityOf = (learnerUuid: string) =>
    app.db
      .selectFrom('learner_channel_identities')
      .select(['provider_user_id', 'conversation_id'])
      .where('learner_uuid', '=', learnerUuid)
      .where('channel', '=', 'ms-teams')
      .executeTakeFirst();
  const enrolmentOf = (course: string) =>
    app.db
      .selectFrom('enrollments')
      .select(['status', 'invitation_sent_at'])
      .where('course_uuid', '=', course)
      .executeTakeFirstOrThrow();
  const at = (minutes: number) => new Date(Date.parse(START) + minutes * 60_000).toISOString();

  it('connects', async () => {
    const saved = await connect({
      tenant_id: fake.tenantId,
      app_id: fake.appId,
      app_password: fake.appPassword,
    });
    expect(saved.json.data).toMatchObject({ status: 'connected' });
  });

  it('never sends a learner’s lesson into a team channel they joined (privacy)', async () => {
    const { course, learners } = await enrol([{}]);
    const joined = fake.joinTeam(learners[0]!.email!, now());
    expect(joined.member.conversationId).toMatch(/@thread\.tacv2$/);
    expect((await post(joined.request)).json).toEqual({ status: 'ignored' });
    expect(await identityOf(learners[0]!.uuid)).toBeUndefined();
    // No personal conversation is known: the lesson fails rather than reach the whole team.
    await tickAt(DAY1);
    expect(await statusOf(course)).toEqual(['failed']);
    expect(fake.sentTo(joined.member.conversationId)).toEqual([]);
  });

  it('reaches a learner whose install event was lost once they write to the bot', async () => {
    const { course, learners } = await enrol([{}]);
    const member = fake.personal(learners[0]!.email!);
    expect((await post(fake.message(member, 'hello', { now: now() }))).statusCode).toBe(200);
    expect(await identityOf(learners[0]!.uuid)).toMatchObject({ provider_user_id: member.id });
    await tickAt(DAY1);
    expect(await statusOf(course)).toEqual(['sent']);
    expect(fake.sentTo(member.conversationId)).toHaveLength(1);
  });

  it('reaches a learner from installationUpdate (add); after a removal nothing is posted', async () => {
    const { course, learners } = await enrol([{}]);
    const member = fake.personal(learners[0]!.email!);
    expect((await post(fake.installationUpdate(member, 'add', now()))).json).toEqual({
      status: 'installed',
    });
    await tickAt(DAY1);
    expect(await statusOf(course)).toEqual(['sent']);
    expect(fake.sentTo(member.conversationId)).toHaveLength(1);

    expect((await post(fake.installationUpdate(member, 'remove', now()))).json).toEqual({
      status: 'uninstalled',
    });
    expect(await identityOf(learners[0]!.uuid)).toBeUndefined();
    await tickAt(DAY2);
    expect(await statusOf(course, 2)).toEqual(['failed']);
    expect(fake.sentTo(member.conversationId)).toHaveLength(1);
  });

  it('keeps an install that came before the learner was imported, and reaches them', async () => {
    const email = `early-${randomUUID()}@example.com`;
    const install = fake.install(email, now());
    expect((await post(install.request)).json).toEqual({ status: 'installed' });
    const { course, learners } = await enrol([{ email }]);
    await tickAt(DAY1);
    expect(await statusOf(course)).toEqual(['sent']);
    expect(fake.sentTo(install.member.conversationId)).toHaveLength(1);
    expect(await identityOf(learners[0]!.uuid)).toMatchObject({
      provider_user_id: install.member.id,
    });
  });

  it('does not mark an invitation sent before the app is installed; it goes once the learner installs', async () => {
    const { course, learners } = await enrol([{}], {
      distribution: { disabled_enrolment_opt_in: false },
    });
    expect(await tickAt(at(1))).toMatchObject({ invitations: 0 });
    expect(await enrolmentOf(course)).toEqual({ status: 'invited', invitation_sent_at: null });
    // Not tried again every tick while nothing changed.
    expect(await tickAt(at(2))).toMatchObject({ invitations: 0 });

    const install = fake.install(learners[0]!.email!, now());
    expect((await post(install.request)).json).toEqual({ status: 'installed' });
    expect(await tickAt(at(3))).toMatchObject({ invitations: 1 });
    const [invitation] = fake.sentTo(install.member.conversationId);
    expect(invitation).toBeDefined();
    const join = await post(fake.submit(invitation!, {}, { from: install.member.id, now: now() }));
    expect(join.json).toEqual({ status: 'recorded' });
    expect(await enrolmentOf(course)).toMatchObject({ status: 'enrolled' });
  });

  it('retries 412, 502 and 504 with backoff (Retry-After where given) and sends once', async () => {
    const cases: [status: number, retryAfter: number | null, wait: number][] = [
      [412, null, 1],
      [502, null, 1],
      [504, 3, 3000],
      [503, null, 1],
    ];
    for (const [status, retryAfter, wait] of cases) {
      const { course, learners } = await enrol([{}]);
      const install = fake.install(learners[0]!.email!, now());
      await post(install.request);
      fake.failNext(status, 1, retryAfter);
      const waits: number[] = [];
      await tickAt(DAY1, { sleep: async (ms) => void waits.push(ms) });
      expect({ status, lessons: await statusOf(course), waits }).toEqual({
        status,
        lessons: ['sent'],
        waits: [wait],
      });
      expect(fake.sentTo(install.member.conversationId)).toHaveLength(1);
    }
  });

  // "If the endorsement is not present, your bot should reject the request by returning an HTTP
  // 403 (Forbidden) status code" (same page, "Connector to Bot", step 3).
  it('refuses (403) an activity signed by a key not endorsed for msteams, and records nothing', async () => {
    const { course, learners } = await enrol([{}]);
    const install = fake.install(learners[0]!.email!, now());
    await post(install.request);
    await tickAt(DAY1);
    const [sent] = fake.sentTo(install.member.conversationId);
    const answer = (options: { webChatKey?: boolean }) =>
      post(
        fake.submit(sent!, { answer: '0' }, { from: install.member.id, now: now(), ...options }),
      );
    expect((await answer({ webChatKey: true })).statusCode).toBe(403);
    const other = fake.personal(`other-${randomUUID()}@example.com`);
    expect(
      (await post(fake.message(other, 'hello', { now: now(), webChatKey: true }))).statusCode,
    ).toBe(403);
    const [day1] = await app.db
      .selectFrom('lesson_deliveries')
      .select('answered_at')
      .where('course_uuid', '=', course)
      .execute();
    expect(day1?.answered_at).toBeNull();
    expect((await answer({})).json).toEqual({ status: 'recorded' });
  });
});

describe('Teams failure reasons', () => {
  const failure = (status: number, retryAfter: string | null = null) =>
    classifyTeamsError(new ProviderHttpError(status, `http_${status}`, 'x', retryAfter, null));

  it('names each failure as a trainer can be told, and retries what Microsoft says to retry', () => {
    expect(classifyTeamsError(new TeamsNotInstalledError('no'))).toEqual({
      kind: 'permanent',
      code: 'not_installed',
    });
    expect(failure(429, '2')).toEqual({
      kind: 'rate_limited',
      code: 'rate_limited',
      retryAfterMs: 2000,
    });
    for (const status of [412, 500, 502, 503, 504]) {
      expect(failure(status)).toEqual({ kind: 'retry', code: 'provider_unavailable' });
    }
    // A removed or blocked app: Teams answers 403 to the bot's posts.
    expect(failure(403)).toEqual({ kind: 'permanent', code: 'not_installed' });
    expect(failure(401)).toEqual({ kind: 'permanent', code: 'unauthorized' });
    expect(failure(400)).toEqual({ kind: 'permanent', code: 'rejected' });
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
