import type { TChannelConnection, TConnectionProof, TTemplateCreation } from '@ccp/schemas';
import { afterAll, describe, expect, it } from 'vitest';

import { DAY1, channelWorld } from '../fixtures/channels.ts';
import { authHeaders, learnersList } from '../fixtures/delivery.ts';
import { insertLearner } from '../fixtures/learners.ts';
import { startFakeGoogleChat } from '../fakes/google-chat.ts';
import { startFakeWebex } from '../fakes/webex.ts';
import { startFakeWhatsApp } from '../fakes/whatsapp.ts';
import { call } from '../helper.ts';

// Connection tests that prove the path (issue 29): each "Test" lists what it proved and what it
// could not, against fakes that follow the providers' documentation (cited in test/fakes/*.ts).
// WhatsApp creates the templates its guide lists through the Graph API and then checks them
// pending; Webex reads its webhook back as active and learns the round trip from the first
// signed answer; Google Chat waits for Chat's signed event for the chosen audience.

const PUBLIC_URL = 'https://ccp.example.test';

/**
 * A test that failed: its error names `cause`; it proved the credentials and `steps`, and (as
 * every test) could not reach a learner.
 */
const expectFailedAt = (response: { json: { data: unknown } }, cause: string, steps: string[]) => {
  const connection = response.json.data as TChannelConnection;
  expect(connection.status).toBe('error');
  expect(connection.last_error).toContain(cause);
  expect(linesOf(connection.proofs)).toEqual([
    'credentials proved',
    ...steps,
    'learner_reach not_provable',
  ]);
};

/** The company's channels as GET /channel-connections answers them. */
const channelsOf = (response: { json: { data: unknown } }) =>
  response.json.data as TChannelConnection[];
/** What "Create missing templates" answered. */
const creationsOf = (response: { json: { data: unknown } }) =>
  response.json.data as TTemplateCreation[];

/** The proofs as `key outcome [detail]` lines, easy to read in a failure. */
const linesOf = (proofs: TConnectionProof[]) =>
  proofs.map((item) => `${item.key} ${item.outcome}${item.detail ? ` ${item.detail}` : ''}`);

describe('WhatsApp: “Create missing templates”', async () => {
  // Meta holds both templates in English only: every Italian and German learner would fail.
  const fake = await startFakeWhatsApp({
    templateLanguages: ['en'],
    invitationTemplateLanguages: ['en'],
  });
  afterAll(() => fake.close());
  const { app, world, connect } = await channelWorld('whatsapp', {
    whatsapp: { apiUrl: fake.apiUrl },
  });
  const create = async (language?: string) =>
    call(app, {
      method: 'POST',
      url: '/api/v1/channel-connections/whatsapp/templates',
      headers: {
        ...(await authHeaders(app, world)),
        ...(language ? { 'accept-language': language } : {}),
      },
    });
  const connection = async () =>
    channelsOf(
      await call(app, {
        method: 'GET',
        url: '/api/v1/channel-connections',
        headers: await authHeaders(app, world),
      }),
    ).find((row) => row.channel === 'whatsapp')!;

  it('refuses before the connection is saved', async () => {
    const response = await create('de');
    expect(response.statusCode).toBe(404);
    expect(response.json.error.message).toBe('Dieser Kanal ist nicht verbunden.');
  });

  it('creates each missing language at Meta as PENDING, and the test then shows them pending', async () => {
    await insertLearner(app, world.company.uuid, {
      channels: ['whatsapp'],
      first_name: 'Anna',
      last_name: 'Rossi',
      locale: 'it',
    });
    const connected = await connect({
      ...fake.connectionFields,
      invitation_template_name: fake.invitationTemplateName,
    });
    expect(connected.json.data.status).toBe('connected');
    expect(linesOf(connected.json.data.proofs)).toEqual([
      'credentials proved',
      'bot_identity proved +1 555 010 0100',
      'lesson_template proved en',
      'template_gaps failed it: Anna Rossi',
      'invitation_template proved en',
      'webhook_reachability not_provable',
      'learner_reach not_provable',
    ]);

    const response = await create();
    expect(response.statusCode).toBe(200);
    expect(
      creationsOf(response).map(
        (item) => `${item.name} ${item.language} ${item.outcome} ${item.status}`,
      ),
    ).toEqual([
      'ccp_new_lesson en exists APPROVED',
      'ccp_invitation en exists APPROVED',
      'ccp_new_lesson it created PENDING',
      'ccp_invitation it created PENDING',
      'ccp_new_lesson de created PENDING',
      'ccp_invitation de created PENDING',
    ]);
    // Exactly the product's structure, in the learner's language: one body variable with its
    // sample, then the quick replies the lesson and invitation templates answer with.
    expect(
      fake.created.find((item) => item.name === 'ccp_new_lesson' && item.language === 'it'),
    ).toMatchObject({
      category: 'UTILITY',
      components: [
        {
          type: 'BODY',
          text: 'La tua lezione di oggi è pronta: {{1}}',
          example: { body_text: [['Sollevare in sicurezza al lavoro']] },
        },
        { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Inizia' }] },
      ],
    });
    expect(
      fake.created.find((item) => item.name === 'ccp_invitation' && item.language === 'de')
        ?.components[1],
    ).toEqual({
      type: 'BUTTONS',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Ja, mitmachen' },
        { type: 'QUICK_REPLY', text: 'Nein, danke' },
      ],
    });

    // The connection was tested again: what Meta holds now, pending its review.
    const tested = await connection();
    expect(linesOf(tested.proofs)).toEqual([
      'credentials proved',
      'bot_identity proved +1 555 010 0100',
      'lesson_template proved en',
      'lesson_template pending de, it',
      'template_gaps failed it: Anna Rossi',
      'invitation_template proved en',
      'invitation_template pending de, it',
      'webhook_reachability not_provable',
      'learner_reach not_provable',
    ]);

    // A second click creates nothing twice.
    const again = await create();
    expect(creationsOf(again).filter((item) => item.outcome === 'created')).toEqual([]);
    expect(fake.created).toHaveLength(4);

    // Meta approves them: the next test proves every learner's language.
    fake.approve();
    const approved = await call(app, {
      method: 'POST',
      url: '/api/v1/channel-connections/whatsapp/test',
      headers: await authHeaders(app, world),
    });
    expect(linesOf(approved.json.data.proofs)).toContain('lesson_template proved de, en, it');
    expect(linesOf(approved.json.data.proofs)).toContain('template_gaps proved');
  });
});

describe('WhatsApp: a token that may not manage templates', async () => {
  const fake = await startFakeWhatsApp({ templateLanguages: [], manageTemplates: false });
  afterAll(() => fake.close());
  const { app, world, connect } = await channelWorld('whatsapp', {
    whatsapp: { apiUrl: fake.apiUrl },
  });

  it('says Meta’s refusal per language, and the test fails naming the template', async () => {
    // What it proved before the template, and the template it could not.
    expectFailedAt(await connect(fake.connectionFields), 'ccp_new_lesson', [
      'bot_identity proved +1 555 010 0100',
      'lesson_template failed',
    ]);
    const response = await call(app, {
      method: 'POST',
      url: '/api/v1/channel-connections/whatsapp/templates',
      headers: await authHeaders(app, world),
    });
    const lesson = creationsOf(response).filter((item) => item.name === 'ccp_new_lesson');
    expect(lesson).toEqual(
      ['en', 'it', 'de'].map((language) => ({
        name: 'ccp_new_lesson',
        language,
        outcome: 'failed',
        status: null,
        error: '(#10) Application does not have permission for this action',
      })),
    );
    expect(fake.created).toEqual([]);
  });
});

describe('Webex: the webhook read back, the round trip from the first answer', async () => {
  const fake = await startFakeWebex();
  afterAll(() => fake.close());
  const { app, world, connect, webhook, enrol, tickAt } = await channelWorld('webex', {
    webex: { apiUrl: fake.apiUrl, publicUrl: PUBLIC_URL },
  });
  const fields = { bot_token: fake.token, webhook_secret: 'webex-webhook-secret' };

  it('a webhook Webex holds as inactive fails the test, naming it', async () => {
    fake.holdNewHooksAs('inactive');
    expectFailedAt(await connect(fields), 'inactive', [
      'bot_identity proved CCP Bot',
      'webhook_registered failed',
    ]);
    // It was registered: what failed is how Webex holds it.
    expect(fake.hooks.map((hook) => hook.status)).toEqual(['inactive']);
  });

  it('proves the registered, active webhook; a signed answer proves the round trip', async () => {
    fake.hooks.splice(0);
    fake.holdNewHooksAs('active');
    const response = await connect(fields);
    expect(response.json.data.status).toBe('connected');
    expect(linesOf(response.json.data.proofs)).toEqual([
      'credentials proved',
      'bot_identity proved CCP Bot',
      `webhook_registered proved ${PUBLIC_URL}/api/v1/webhooks/webex`,
      'webhook_round_trip pending',
      'learner_reach not_provable',
    ]);

    const { learners } = await enrol([{}]);
    const person = fake.addPerson(learners[0]!.email!);
    await tickAt(DAY1);
    const card = fake.messages.find(
      (message) => message.toPersonId === person.id && message.attachments.length > 0,
    )!;
    expect((await webhook(fake.submitRequest(card, { answer: '0' }))).json).toEqual({
      status: 'recorded',
    });
    const list = await call(app, {
      method: 'GET',
      url: '/api/v1/channel-connections',
      headers: await authHeaders(app, world),
    });
    const webex = channelsOf(list).find((row) => row.channel === 'webex')!;
    expect(linesOf(webex.proofs)).toContain('webhook_round_trip proved');
  });
});

describe('Google Chat: the chosen audience proved by Chat’s signed event', async () => {
  const fake = await startFakeGoogleChat({ projectNumber: '135792468000' });
  afterAll(() => fake.close());
  const settings = { ...fake.settings, publicUrl: PUBLIC_URL };
  const statusOf = async (world: Awaited<ReturnType<typeof channelWorld>>) => {
    const list = await call(world.app, {
      method: 'GET',
      url: '/api/v1/channel-connections',
      headers: await authHeaders(world.app, world.world),
    });
    const row = channelsOf(list).find((item) => item.channel === 'google-chat')!;
    return { status: row.status, proofs: linesOf(row.proofs) };
  };
  const retest = async (world: Awaited<ReturnType<typeof channelWorld>>) =>
    call(world.app, {
      method: 'POST',
      url: '/api/v1/channel-connections/google-chat/test',
      headers: await authHeaders(world.app, world.world),
    });

  it('project number: awaiting verification until Chat’s JWT for the number arrives, then connected', async () => {
    const chat = await channelWorld('google-chat', { googleChat: settings });
    const { app, connect, webhook } = chat;
    const response = await connect({
      project_number: fake.projectNumber,
      service_account_json: fake.serviceAccountJson,
    });
    expect(response.json.data.status).toBe('awaiting_verification');
    expect(linesOf(response.json.data.proofs)).toEqual([
      `credentials proved ${fake.clientEmail}`,
      `signed_event pending ${fake.projectNumber}`,
      'learner_reach not_provable',
    ]);
    // Nothing goes while it waits: the lesson fails with the channel not connected.
    const { learners } = await chat.enrol([{}]);
    expect(await chat.tickAt(DAY1)).toMatchObject({ sent: 0 });

    const email = learners[0]!.email!;
    const space = fake.addApp(email);
    expect((await webhook(fake.added(space, { email, now: app.testClock.now() }))).json).toEqual({
      status: 'installed',
    });
    expect(await statusOf(chat)).toEqual({
      status: 'connected',
      proofs: [
        `credentials proved ${fake.clientEmail}`,
        `signed_event proved ${fake.projectNumber}`,
        'learner_reach not_provable',
      ],
    });
    // The number stays proved: a new test keeps the channel connected.
    expect((await retest(chat)).json.data.status).toBe('connected');
  });

  it('HTTP endpoint URL: only an ID token for the connection’s own URL verifies it', async () => {
    const chat = await channelWorld('google-chat', { googleChat: settings });
    const { app, connect } = chat;
    const response = await connect({
      audience: 'endpoint_url',
      service_account_json: fake.serviceAccountJson,
    });
    const endpointUrl = response.json.data.provider_ids.endpoint_url as string;
    expect(response.json.data.status).toBe('awaiting_verification');
    expect(linesOf(response.json.data.proofs)).toContain(`signed_event pending ${endpointUrl}`);
    const email = (await learnersList(app, chat.world, [{ channels: ['google-chat'] }]))
      .learners[0]!.email!;
    const space = fake.addApp(email);
    const post = async (request: ReturnType<typeof fake.added>) => {
      const { body, headers } = await request;
      return call(app, {
        method: 'POST',
        url: new URL(endpointUrl).pathname,
        headers,
        payload: body,
      });
    };
    // A project-number JWT, or an ID token for another URL, proves nothing here.
    const now = app.testClock.now();
    expect((await post(fake.added(space, { email, now }))).statusCode).toBe(401);
    expect(
      (await post(fake.added(space, { email, now, endpointUrl: `${PUBLIC_URL}/elsewhere` })))
        .statusCode,
    ).toBe(401);
    expect((await statusOf(chat)).status).toBe('awaiting_verification');

    expect((await post(fake.added(space, { email, now, endpointUrl }))).json).toEqual({
      status: 'installed',
    });
    expect(await statusOf(chat)).toMatchObject({ status: 'connected' });
    expect((await statusOf(chat)).proofs).toContain(`signed_event proved ${endpointUrl}`);
    expect((await retest(chat)).json.data.status).toBe('connected');
  });
});
