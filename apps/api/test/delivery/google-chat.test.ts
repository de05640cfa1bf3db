import { MESSAGES } from '@ccp/schemas';
import { afterAll, describe, expect, it } from 'vitest';

import { createGoogleChatConnector } from '../../src/delivery/channels/google-chat/client.ts';
import { resolveChannelSettings } from '../../src/delivery/channel-settings.ts';
import { loadConnection } from '../../src/delivery/connections.ts';
import { DAY1, channelWorld, sampleMessage } from '../fixtures/channels.ts';
import type { SignedRequest } from '../fixtures/channels.ts';
import { authHeaders, createWorld, learnersList } from '../fixtures/delivery.ts';
import { startFakeGoogleChat } from '../fakes/google-chat.ts';
import type { ChatMessage } from '../fakes/google-chat.ts';
import { call } from '../helper.ts';

// Google Chat end to end against a fake Chat API on 127.0.0.1 that follows Google's pages
// (cited in test/fakes/google-chat.ts). Connecting proves the service account is a Chat app
// (spaces.list); a learner is reached in the DM space Chat named when they added the app
// (ADDED_TO_SPACE: their users/{id} and space, matched by e-mail) — with app authentication
// spaces.findDirectMessage takes no e-mail; events are verified for the audience the app was
// configured with (project number JWT, or an ID token for the endpoint URL), in the classic or
// the add-on format; a project number routes events only once a signed event proved it, and
// never to a company that typed another's number.

const PUBLIC_URL = 'https://ccp.example.test';

const identitiesOf = (app: Awaited<ReturnType<typeof channelWorld>>['app'], company: string) =>
  app.db
    .selectFrom('learner_channel_identities')
    .select(['learner_uuid', 'provider_user_id', 'conversation_id'])
    .where('company_uuid', '=', company)
    .where('channel', '=', 'google-chat')
    .execute();

/** The action of a lesson card's first answer button. */
const firstAnswerAction = (message: ChatMessage) => {
  const sections = (message.cardsV2[0] as { card: { sections: ChatSection[] } }).card.sections;
  return sections.at(-1)!.widgets[0]!.buttonList.buttons[0]!.onClick.action;
};
type ChatSection = {
  widgets: {
    buttonList: {
      buttons: {
        onClick: { action: { function: string; parameters: { key: string; value: string }[] } };
      }[];
    };
  }[];
};

const providerKeyOf = async (
  app: Awaited<ReturnType<typeof channelWorld>>['app'],
  company: string,
) =>
  (
    await app.db
      .selectFrom('channel_connections')
      .select('provider_key')
      .where('company_uuid', '=', company)
      .where('channel', '=', 'google-chat')
      .executeTakeFirstOrThrow()
  ).provider_key;

describe('Google Chat delivery (project number audience)', async () => {
  const fake = await startFakeGoogleChat();
  afterAll(() => fake.close());
  const {
    app,
    world,
    connect,
    webhook: post,
    enrol,
    tickAt,
    answersOfDay,
    learnerDay,
    closeFailures,
  } = await channelWorld('google-chat', {
    googleChat: {
      apiUrl: fake.apiUrl,
      tokenUrl: fake.tokenUrl,
      jwksUrl: fake.jwksUrl,
      oidcJwksUrl: fake.oidcJwksUrl,
      publicUrl: PUBLIC_URL,
    },
  });
  const now = () => app.testClock.now();
  /** `email` adds the app in Chat, and Chat posts its ADDED_TO_SPACE event to CCP. */
  const addApp = async (email: string, format?: 'classic' | 'add-on') => {
    const space = fake.addApp(email);
    const response = await post(fake.added(space, { email, now: now(), format }));
    expect(response.json).toEqual({ status: 'installed' });
    return space;
  };

  it('a connection test proves the service account is a Chat app (spaces.list), not only that it gets a token', async () => {
    const other = await fake.addProject('555000111222');
    other.unconfigure();
    const refused = await connect({
      project_number: other.projectNumber,
      service_account_json: other.serviceAccountJson,
    });
    expect(refused.json.data).toMatchObject({ status: 'error' });
    expect(refused.json.data.last_error).toContain('Google Chat app not found');

    const response = await connect({
      project_number: fake.projectNumber,
      service_account_json: fake.serviceAccountJson,
    });
    // The key works; the audience waits for Chat's first signed event (issue 29).
    expect(response.json.data).toMatchObject({
      status: 'awaiting_verification',
      available: true,
    });
    const connection = (await loadConnection(app, world.company.uuid, 'google-chat'))!;
    // The endpoint URL the administrator gives Chat, and the typed number not yet routing.
    expect(response.json.data.provider_ids).toMatchObject({
      client_email: fake.clientEmail,
      endpoint_url: `${PUBLIC_URL}/api/v1/webhooks/google-chat/${connection.uuid}`,
    });
    expect(await providerKeyOf(app, world.company.uuid)).toBeNull();
  });

  it('refuses an unknown audience and asks for the project number when that is the audience', async () => {
    const wrong = await connect({ audience: 'token', service_account_json: '' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json.error.errors).toEqual({
      'fields.audience': [MESSAGES.connectionOptionInvalid],
    });
    const missing = await connect({ audience: '', project_number: ' ', service_account_json: '' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json.error.errors).toEqual({
      'fields.project_number': [MESSAGES.connectionFieldRequired],
    });
  });

  it('learns each learner’s Chat id and DM space from ADDED_TO_SPACE and posts there, never looking anyone up by e-mail', async () => {
    const { course, learners } = await enrol([{}, {}, {}]);
    const emails = learners.map((learner) => learner.email!);
    const spaces = [await addApp(emails[0]!), await addApp(emails[1]!, 'add-on')];
    // The first signed event proved the project number: it routes from now on.
    expect(await providerKeyOf(app, world.company.uuid)).toBe(fake.projectNumber);
    expect(await tickAt(DAY1)).toMatchObject({ sent: 2, failed: 1 });
    expect(fake.refused).toEqual([]);
    expect(fake.messages.map((message) => message.space).sort()).toEqual([...spaces].sort());
    // findDirectMessage with app authentication takes users/{id}; no e-mail alias was tried.
    expect(fake.lookups.filter((name) => name.includes('@'))).toEqual([]);
    const identities = await identitiesOf(app, world.company.uuid);
    expect(identities).toHaveLength(2);
    expect(identities).toContainEqual({
      learner_uuid: learners[0]!.uuid,
      provider_user_id: fake.userOf(emails[0]!),
      conversation_id: spaces[0],
    });
    // The third learner never added the app: a permanent failure, nothing marked sent.
    const deliveries = await app.db
      .selectFrom('lesson_deliveries')
      .select(['learner_uuid', 'status'])
      .where('course_uuid', '=', course)
      .execute();
    expect(deliveries.find((row) => row.learner_uuid === learners[2]!.uuid)?.status).toBe('failed');
  });

  it('a learner who never added the app fails as app_not_added, permanently', async () => {
    const settings = resolveChannelSettings({
      googleChat: { apiUrl: fake.apiUrl, tokenUrl: fake.tokenUrl },
    });
    const connector = createGoogleChatConnector(settings.googleChat);
    const connection = (await loadConnection(app, world.company.uuid, 'google-chat'))!;
    const learner = { uuid: 'l', address: 'nobody@example.test' };
    const notFound = await connector
      .resolveIdentity(connection, learner)
      .catch((error: unknown) => error);
    expect(connector.classifyError(notFound)).toEqual({ kind: 'permanent', code: 'app_not_added' });
    // Known by id (their space forgotten) but without a DM with the app: findDirectMessage 404.
    const sent = await connector
      .send(
        connection,
        {
          providerUserId: fake.userOf('nobody@example.test'),
          conversationId: null,
          lastInboundAt: null,
        },
        sampleMessage('google-chat'),
      )
      .catch((error: unknown) => error);
    expect(connector.classifyError(sent)).toEqual({ kind: 'permanent', code: 'app_not_added' });
    expect(fake.lookups.at(-1)).toBe(fake.userOf('nobody@example.test'));
  });

  it('takes a verified click once from the learner only, in both event formats, and judges the answers', async () => {
    const { course, learners } = await enrol([{}, {}]);
    const emails = learners.map((learner) => learner.email!);
    const spaces = [await addApp(emails[0]!), await addApp(emails[1]!)];
    expect(await tickAt(DAY1)).toMatchObject({ sent: 2 });
    const [first, second] = spaces.map((space) =>
      fake.messages.find((message) => message.space === space)!,
    );
    // Each answer button names the URL Chat posts this app's events to as its function, and what
    // it does in its parameters: what an app built as an add-on needs
    // (https://developers.google.com/workspace/add-ons/chat/dialogs, `function: FUNCTION_URL`).
    expect(firstAnswerAction(first!)).toMatchObject({
      function: `${PUBLIC_URL}/api/v1/webhooks/google-chat`,
      parameters: expect.arrayContaining([{ key: 'type', value: 'answered' }]) as unknown,
    });
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
    // An app built as a Workspace add-on: chat.buttonClickedPayload, commonEventObject.parameters.
    expect(
      (await post(fake.click(second!, 2, { email: emails[1]!, now: now(), format: 'add-on' })))
        .json,
    ).toEqual({ status: 'recorded' });

    expect(await answersOfDay(course)).toEqual([0, 1]);

    // Each learner hears back in their DM space with their answer's response (issue 28).
    const before = fake.messages.length;
    expect(await tickAt(DAY1)).toMatchObject({ feedback: 2, sent: 0 });
    const feedback = fake.messages.slice(before);
    const to = (space: string) =>
      JSON.stringify(feedback.find((message) => message.space === space));
    expect(to(spaces[0]!)).toContain('About Right.');
    expect(to(spaces[1]!)).toContain('Not quite.');
    // Each question was updated in place (spaces.messages.patch): the chosen answer, no buttons.
    for (const [question, line] of [
      [first!, '✅ Your answer: Right'],
      [second!, '❌ Your answer: Maybe'],
    ] as const) {
      const updated = fake.updates.filter((message) => message.name === question.name);
      expect(updated).toHaveLength(1);
      // The question's section (the last) has no answer buttons left; the material's link stays.
      const sections = (updated[0]!.cardsV2 as { card: { sections: unknown[] } }[])[0]!.card
        .sections;
      const closed = JSON.stringify(sections.at(-1));
      expect(closed).not.toContain('buttonList');
      expect(closed).toContain(line);
    }
    // A click on a message the learner's client had not refreshed: not counted.
    expect((await post(fake.click(first!, 1, { email: emails[0]!, now: now() }))).json).toEqual({
      status: 'duplicate',
    });
    expect(await answersOfDay(course)).toEqual([0, 1]);
  });

  it('a question Chat will not update still gets its feedback; the failure is on the delivery’s events', async () => {
    const { learners } = await enrol([{}]);
    const email = learners[0]!.email!;
    const space = await addApp(email);
    expect(await tickAt(DAY1)).toMatchObject({ sent: 1 });
    const question = fake.messages.filter((message) => message.space === space).at(-1)!;
    fake.failUpdates(1);
    expect((await post(fake.click(question, 0, { email, now: now() }))).json).toEqual({
      status: 'recorded',
    });
    expect(await tickAt(DAY1)).toMatchObject({ feedback: 1 });
    expect(
      JSON.stringify(fake.messages.filter((message) => message.space === space).at(-1)),
    ).toContain('About Right.');
    expect(await closeFailures(learners[0]!.uuid)).toEqual([
      { provider_message_id: question.name, code: 'provider_503' },
    ]);
  });

  it('takes the learner’s message to the app as their open answer, once, in both event formats', async () => {
    const { course, learners } = await enrol([{}, {}], { openAnswerDays: [1] });
    const emails = learners.map((learner) => learner.email!);
    const spaces = [await addApp(emails[0]!), await addApp(emails[1]!)];
    expect(await tickAt(DAY1)).toMatchObject({ sent: 2 });
    const words = 'Listening before answering.';
    const message = fake.write(spaces[0]!, words, { email: emails[0]!, now: now() });
    expect((await post(message)).json).toEqual({ status: 'recorded' });
    expect((await post(message)).json).toEqual({ status: 'duplicate' });
    expect(await learnerDay(learners[0]!.uuid, course, 1)).toMatchObject({
      state: 'correct',
      answer: words,
    });
    const addOn = fake.write(spaces[1]!, 'Asking first.', {
      email: emails[1]!,
      now: now(),
      format: 'add-on',
    });
    expect((await post(addOn)).json).toEqual({ status: 'recorded' });
    expect(await learnerDay(learners[1]!.uuid, course, 1)).toMatchObject({
      answer: 'Asking first.',
    });
  });

  it('a Chat user who added the app or wrote to it before being imported is reached without another event', async () => {
    const [adder, writer] = ['early-adder@example.test', 'early-writer@example.test'];
    const adderSpace = fake.addApp(adder);
    const writerSpace = fake.addApp(writer);
    // Neither is a learner of the company yet: their user id and DM space are kept all the same.
    expect((await post(fake.added(adderSpace, { email: adder, now: now() }))).json).toEqual({
      status: 'installed',
    });
    expect(
      (
        await post(
          fake.write(writerSpace, 'hello', { email: writer, now: now(), format: 'add-on' }),
        )
      ).json,
    ).toEqual({ status: 'ignored' });
    // Imported later, they get their lessons in those spaces: Chat posts nothing new.
    await enrol([{ email: adder }, { email: writer.toUpperCase() }]);
    const before = fake.messages.length;
    expect(await tickAt(DAY1)).toMatchObject({ sent: 2, failed: 0 });
    expect(
      fake.messages
        .slice(before)
        .map((message) => message.space)
        .sort(),
    ).toEqual([adderSpace, writerSpace].sort());
    expect(fake.lookups.filter((name) => name.includes('@'))).toEqual([]);
  });

  it('a learner whose ADDED_TO_SPACE was lost is learned from their first message', async () => {
    const { learners } = await enrol([{}]);
    const email = learners[0]!.email!;
    const space = fake.addApp(email);
    expect((await post(fake.write(space, 'hello', { email, now: now() }))).json).toEqual({
      status: 'ignored',
    });
    expect(await tickAt(DAY1)).toMatchObject({ sent: 1, failed: 0 });
    expect(fake.messages.at(-1)!.space).toBe(space);
  });

  it('REMOVED_FROM_SPACE forgets the DM: the next lesson fails as app_not_added, not as sent', async () => {
    const { learners } = await enrol([{}]);
    const email = learners[0]!.email!;
    await addApp(email);
    const space = fake.removeApp(email);
    expect((await post(fake.removed(space, { email, now: now() }))).json).toEqual({
      status: 'removed',
    });
    const identity = (await identitiesOf(app, world.company.uuid)).find(
      (row) => row.learner_uuid === learners[0]!.uuid,
    );
    expect(identity).toMatchObject({ provider_user_id: fake.userOf(email), conversation_id: null });
    expect(await tickAt(DAY1)).toMatchObject({ sent: 0, failed: 1 });
  });

  it('a quota error (429 RESOURCE_EXHAUSTED, no Retry-After) backs off and posts once', async () => {
    const { learners } = await enrol([{}]);
    const space = await addApp(learners[0]!.email!);
    fake.rateLimit(1);
    const waits: number[] = [];
    const result = await tickAt(DAY1, { sleep: async (ms) => void waits.push(ms) });
    expect(result).toMatchObject({ sent: 1, failed: 0 });
    expect(waits).toHaveLength(1);
    expect(fake.messages.filter((message) => message.space === space)).toHaveLength(1);
  });
});

describe('Google Chat: a project number routes to one company, once proven', async () => {
  const fake = await startFakeGoogleChat({ projectNumber: '135700000002' });
  afterAll(() => fake.close());
  const {
    app,
    world,
    connect,
    webhook: post,
    enrol,
  } = await channelWorld('google-chat', {
    googleChat: { apiUrl: fake.apiUrl, tokenUrl: fake.tokenUrl, jwksUrl: fake.jwksUrl },
  });
  const now = () => app.testClock.now();

  it('a company that types another company’s project number never receives its events, and cannot hold it once proven', async () => {
    const other = await createWorld(app);
    const otherProject = await fake.addProject('777000333444');
    const connectOther = (fields: Record<string, string>, language?: string) =>
      authHeaders(app, other).then((headers) =>
        call(app, {
          method: 'PUT',
          url: '/api/v1/channel-connections/google-chat',
          headers: { ...headers, ...(language ? { 'accept-language': language } : {}) },
          payload: { fields },
        }),
      );
    // Both companies know the same person; the other company claims our project number.
    const { learners } = await enrol([{}]);
    const email = learners[0]!.email!;
    await learnersList(app, other, [{ email, channels: ['google-chat'] }]);
    expect(
      (
        await connect({
          project_number: fake.projectNumber,
          service_account_json: fake.serviceAccountJson,
        })
      ).json.data,
    ).toMatchObject({ status: 'awaiting_verification' });
    const typed = await connectOther({
      project_number: fake.projectNumber,
      service_account_json: otherProject.serviceAccountJson,
    });
    // Typing a number proves nothing: saved, but it routes nothing.
    expect(typed.json.data).toMatchObject({ status: 'awaiting_verification' });
    expect(await providerKeyOf(app, other.company.uuid)).toBeNull();

    const space = fake.addApp(email);
    expect((await post(fake.added(space, { email, now: now() }))).json).toEqual({
      status: 'installed',
    });
    expect(await identitiesOf(app, other.company.uuid)).toEqual([]);
    expect(await identitiesOf(app, world.company.uuid)).toContainEqual(
      expect.objectContaining({ learner_uuid: learners[0]!.uuid }),
    );
    expect(await providerKeyOf(app, world.company.uuid)).toBe(fake.projectNumber);
    // Our company is verified by the event; the other one still waits, and stays unverified.
    expect(
      (
        await app.db
          .selectFrom('channel_connections')
          .select(['company_uuid', 'status'])
          .where('channel', '=', 'google-chat')
          .where('company_uuid', 'in', [world.company.uuid, other.company.uuid])
          .orderBy('status')
          .execute()
      ).map((row) => [row.company_uuid === world.company.uuid, row.status]),
    ).toEqual([
      [false, 'awaiting_verification'],
      [true, 'connected'],
    ]);

    const again = await connectOther(
      { project_number: fake.projectNumber, service_account_json: '' },
      'it',
    );
    expect(again.statusCode).toBe(409);
    expect(again.json.error.code).toBe('CONFLICT');
    expect(again.json.error.message).toBe(
      'Un’altra azienda è già connessa a questo account del provider: controlla l’id inserito, o chiedi all’amministratore del provider a quale azienda appartiene.',
    );
    expect(await providerKeyOf(app, other.company.uuid)).toBeNull();
    // The database itself refuses a second holder.
    await expect(
      app.db
        .updateTable('channel_connections')
        .set({ provider_key: fake.projectNumber })
        .where('company_uuid', '=', other.company.uuid)
        .execute(),
    ).rejects.toThrow();
  });
});

describe('Google Chat delivery (HTTP endpoint URL audience)', async () => {
  const fake = await startFakeGoogleChat({ projectNumber: '246800000001' });
  afterAll(() => fake.close());
  const settings = {
    apiUrl: fake.apiUrl,
    tokenUrl: fake.tokenUrl,
    jwksUrl: fake.jwksUrl,
    oidcJwksUrl: fake.oidcJwksUrl,
  };
  const { app, connect, enrol, tickAt, answersOfDay } = await channelWorld('google-chat', {
    googleChat: { ...settings, publicUrl: PUBLIC_URL },
  });
  const now = () => app.testClock.now();
  const postTo = async (url: string, request: Promise<SignedRequest>) => {
    const { body, headers } = await request;
    return call(app, { method: 'POST', url, headers, payload: body });
  };

  it('verifies Google’s ID token for the connection’s own endpoint URL, and nothing else', async () => {
    const response = await connect({
      audience: 'endpoint_url',
      service_account_json: fake.serviceAccountJson,
    });
    expect(response.json.data).toMatchObject({ status: 'awaiting_verification' });
    const endpointUrl = response.json.data.provider_ids.endpoint_url as string;
    const path = new URL(endpointUrl).pathname;
    const { course, learners } = await enrol([{}]);
    const email = learners[0]!.email!;
    const space = fake.addApp(email);

    const signed = { email, now: now(), endpointUrl };
    // Another URL, another signer, a key Google never published, a project-number JWT.
    for (const wrong of [
      fake.added(space, { ...signed, endpointUrl: `${PUBLIC_URL}/api/v1/webhooks/google-chat` }),
      fake.added(space, { ...signed, tokenEmail: 'someone@example.test' }),
      fake.added(space, { ...signed, foreignKey: true }),
      fake.added(space, { email, now: now() }),
    ]) {
      expect((await postTo(path, wrong)).statusCode).toBe(401);
    }
    expect((await postTo(path, fake.added(space, signed))).json).toEqual({ status: 'installed' });
    expect(await tickAt(DAY1)).toMatchObject({ sent: 1 });
    const message = fake.messages.find((item) => item.space === space)!;
    // The add-on's click goes to the connection's own URL: its buttons name that one.
    expect(firstAnswerAction(message).function).toBe(endpointUrl);
    expect(
      (await postTo(path, fake.click(message, 0, { ...signed, now: now(), format: 'add-on' })))
        .json,
    ).toEqual({ status: 'recorded' });
    expect(await answersOfDay(course)).toEqual([1]);
  });

  it('refuses the endpoint URL audience on a server without CCP_PUBLIC_URL', async () => {
    const bare = await channelWorld('google-chat', { googleChat: settings });
    const response = await bare.connect({
      audience: 'endpoint_url',
      service_account_json: fake.serviceAccountJson,
    });
    expect(response.json.data).toMatchObject({
      status: 'error',
      last_error: MESSAGES.googleChatPublicUrlMissing,
    });
    await bare.app.close();
  });
});
