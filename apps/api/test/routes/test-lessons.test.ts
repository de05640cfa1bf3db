import { afterAll, describe, expect, it } from 'vitest';

import { ZTestLessonStateSchema } from '@ccp/schemas';
import type { TChannelConnection, TChannelKey, TTestLessonState } from '@ccp/schemas';

import type { FakeSlackUser } from '../fakes/slack.ts';
import { START, WEBHOOK, providersWorld, putConnection } from '../fixtures/channels.ts';
import { authHeaders } from '../fixtures/delivery.ts';
import { call, createUser, signIn } from '../helper.ts';

// Issue 29's "Send me a test lesson": on each of the five channels, connected through the
// Channels page, the administrator sends the sample to their own account; the provider's fake
// takes it; the administrator's signed answer comes back through the channel's webhook; the
// status says when, and the answer's feedback reaches them like a lesson's. Nothing of it is a
// learner or a lesson send.

const PUBLIC_URL = 'https://ccp.example.test';
const CHANNELS = Object.keys(WEBHOOK) as TChannelKey[];
const PHONE = '+393331234567';
const WA_ID = PHONE.slice(1);
/** Words of the sample and of its feedback (locales/server `testLesson.*`, English). */
const SAMPLE = 'How many answers does this question offer?';
const FEEDBACK = 'answer came back';

describe('send me a test lesson', async () => {
  const { fakes, app, world, now, nowSeconds, post: webhook } = await providersWorld(PUBLIC_URL);
  afterAll(() => fakes.close());
  const email = world.user.email;
  /** The administrator on Slack, once the third test added them. */
  let adminOnSlack: FakeSlackUser | undefined;

  const sendTest = async (channel: TChannelKey, address: string, language = 'en') =>
    call(app, {
      method: 'POST',
      url: `/api/v1/channel-connections/${channel}/test-lesson`,
      headers: { ...(await authHeaders(app, world)), 'accept-language': language },
      payload: { address },
    });
  const state = async (channel: TChannelKey): Promise<TTestLessonState> => {
    const response = await call(app, {
      method: 'GET',
      url: `/api/v1/channel-connections/${channel}/test-lesson`,
      headers: await authHeaders(app, world),
    });
    return ZTestLessonStateSchema.parse(response.json.data);
  };
  /** The outcome of each channel's "reaching a learner" on the Channels page. */
  const learnerReach = async () => {
    const response = await call(app, {
      method: 'GET',
      url: '/api/v1/channel-connections',
      headers: await authHeaders(app, world),
    });
    return Object.fromEntries(
      (response.json.data as TChannelConnection[]).map((row) => [
        row.channel,
        row.proofs.find((item) => item.key === 'learner_reach')?.outcome,
      ]),
    );
  };
  const connect = async (channel: TChannelKey) => {
    const response = await putConnection(app, world, channel, fakes.fields[channel]!);
    // Google Chat's audience waits for Chat's first signed event (the administrator adding the app).
    expect({ channel, status: response.json.data?.status }).toEqual({
      channel,
      status: channel === 'google-chat' ? 'awaiting_verification' : 'connected',
    });
  };

  it('refuses a channel that is not connected, a contact the channel cannot reach, and anyone but an administrator', async () => {
    const notConnected = await sendTest('slack', email, 'de');
    expect(notConnected.statusCode).toBe(409);
    expect(notConnected.json.error.message).toMatch(/Testlektion/);

    await connect('whatsapp');
    const badPhone = await sendTest('whatsapp', 'not a phone', 'it');
    expect(badPhone.statusCode).toBe(422);
    expect(badPhone.json.error.errors.address[0]).toMatch(/telefono/i);

    const trainer = await createUser(app, world.company, { isAdmin: false });
    const tokens = await signIn(app, trainer);
    const forbidden = await call(app, {
      method: 'POST',
      url: '/api/v1/channel-connections/whatsapp/test-lesson',
      headers: { authorization: `Bearer ${tokens.access_token}` },
      payload: { address: PHONE },
    });
    expect(forbidden.statusCode).toBe(403);
    // Nothing was sent for any of them.
    expect(fakes.whatsapp.messages).toHaveLength(0);
  });

  it('says what to do when the administrator has not installed the Teams app, and sends once they have', async () => {
    await connect('ms-teams');
    const before = await sendTest('ms-teams', email);
    expect(before.statusCode).toBe(200);
    expect(before.json.data).toMatchObject({
      status: 'failed',
      failure: { reason: 'app_not_installed' },
      provider_message_id: null,
    });
    const install = fakes.teams.install(email, now());
    expect((await webhook('ms-teams', install.request)).json).toEqual({ status: 'installed' });
    const after = await sendTest('ms-teams', email);
    expect(after.json.data.status).toBe('sent');
    expect(fakes.teams.sentTo(install.member.conversationId)).toHaveLength(1);
  });

  it('sends the sample on all five channels and shows when each answer came back, with its feedback', async () => {
    for (const channel of CHANNELS) if (channel !== 'whatsapp') await connect(channel);
    // The administrator as each provider knows them.
    const slackUser = fakes.slack.addUser(email);
    adminOnSlack = slackUser;
    const person = fakes.webex.addPerson(email);
    const teams = fakes.teams.install(email, now());
    await webhook('ms-teams', teams.request);
    const space = fakes.googleChat.addApp(email);
    expect(
      (await webhook('google-chat', fakes.googleChat.added(space, { email, now: now() }))).json,
    ).toEqual({ status: 'installed' });

    const toAdmin = {
      slack: () => fakes.slack.messages.filter((message) => message.userId === slackUser.id),
      webex: () => fakes.webex.messages.filter((message) => message.toPersonId === person.id),
      whatsapp: () => fakes.whatsapp.messages.filter((message) => message.to === WA_ID),
      'ms-teams': () => fakes.teams.sentTo(teams.member.conversationId),
      'google-chat': () => fakes.googleChat.messages.filter((message) => message.space === space),
    } satisfies Record<TChannelKey, () => unknown[]>;
    const before = Object.fromEntries(
      CHANNELS.map((channel) => [channel, toAdmin[channel]().length]),
    ) as Record<TChannelKey, number>;

    // 1. Sent: each fake took the sample (WhatsApp: the template, outside the 24-hour window).
    for (const channel of CHANNELS) {
      const sent = await sendTest(channel, channel === 'whatsapp' ? PHONE : email);
      expect({ channel, status: sent.json.data?.status }).toEqual({
        channel,
        status: channel === 'whatsapp' ? 'waiting' : 'sent',
      });
      expect(sent.json.data.provider_message_id).toMatch(/\S/);
      expect((await state(channel)).last).toMatchObject({ status: sent.json.data.status });
    }
    const whatsappTemplate = toAdmin.whatsapp().at(-1)!;
    expect(whatsappTemplate.type).toBe('template');
    expect(await webhook('whatsapp', fakes.whatsapp.tapTemplate(whatsappTemplate))).toMatchObject({
      statusCode: 200,
    });
    expect((await state('whatsapp')).last?.status).toBe('sent');
    for (const channel of CHANNELS) {
      const sample = toAdmin[channel]().slice(before[channel]);
      expect({ channel, sample: JSON.stringify(sample).includes(SAMPLE) }).toEqual({
        channel,
        sample: true,
      });
    }

    // 2. The administrator answers on each app: the first answer (right) on four, the second on WhatsApp.
    app.testClock.set(new Date(Date.parse(START) + 2 * 60_000).toISOString());
    const lastOf = <T>(messages: T[]) => messages.at(-1)!;
    const webexCard = toAdmin.webex().findLast((message) => message.attachments.length > 0)!;
    const answers = {
      slack: fakes.slack.tapRequest(lastOf(toAdmin.slack()), 0, { nowSeconds: nowSeconds() }),
      webex: fakes.webex.submitRequest(webexCard, { answer: '0' }),
      whatsapp: fakes.whatsapp.tapButton(lastOf(toAdmin.whatsapp()), 1),
      'ms-teams': fakes.teams.submit(
        lastOf(toAdmin['ms-teams']()),
        { answer: '0' },
        { from: teams.member.id, now: now() },
      ),
      'google-chat': fakes.googleChat.click(lastOf(toAdmin['google-chat']()), 0, {
        email,
        now: now(),
      }),
    };
    // No connection test reaches a person: each card says so until the answer comes back.
    const everyChannel = (outcome: string) =>
      Object.fromEntries(CHANNELS.map((channel) => [channel, outcome]));
    expect(await learnerReach()).toEqual(everyChannel('not_provable'));
    const answered: Record<string, number> = {};
    for (const channel of CHANNELS) {
      answered[channel] = toAdmin[channel]().length;
      expect({ channel, answer: (await webhook(channel, answers[channel])).json }).toEqual({
        channel,
        answer: { status: 'recorded' },
      });
    }

    // 3. Each status says when the answer came back and which it was; the feedback went.
    for (const channel of CHANNELS) {
      const { last } = await state(channel);
      expect({ channel, last }).toMatchObject({
        channel,
        last: {
          status: 'answered',
          answered_at: now().toISOString(),
          answer:
            channel === 'whatsapp' ? { index: 1, correct: false } : { index: 0, correct: true },
          feedback_sent: true,
        },
      });
      const feedback = toAdmin[channel]().slice(answered[channel]);
      expect({ channel, feedback: JSON.stringify(feedback).includes(FEEDBACK) }).toEqual({
        channel,
        feedback: true,
      });
    }
    // The answer proved what the connection test could not: the way to a person and back.
    expect(await learnerReach()).toEqual(everyChannel('proved'));

    // 4. Nothing of it is a learner, a lesson send or an outbox message (Insights, usage, limits).
    const count = async (table: 'learners' | 'lesson_deliveries' | 'outbox_messages') =>
      Number(
        (
          await app.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .where('company_uuid', '=', world.company.uuid)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect({
      learners: await count('learners'),
      deliveries: await count('lesson_deliveries'),
      outbox: await count('outbox_messages'),
    }).toEqual({ learners: 0, deliveries: 0, outbox: 0 });
  });

  it('takes a typed answer, in the administrator’s language, and only from the administrator', async () => {
    const admin = adminOnSlack!;
    const stranger = fakes.slack.addUser(`other.${email}`);
    const sent = await sendTest('slack', email, 'it');
    expect(sent.json.data).toMatchObject({ status: 'sent', language: 'it' });
    const lesson = fakes.slack.messages.filter((message) => message.userId === admin.id).at(-1)!;
    expect(JSON.stringify(lesson)).toContain('Quante risposte offre questa domanda?');

    // Someone else's tap on the administrator's test lesson changes nothing.
    const tapped = await webhook(
      'slack',
      fakes.slack.tapRequest(lesson, 0, { userId: stranger.id, nowSeconds: nowSeconds() }),
    );
    expect(tapped.statusCode).toBe(403);
    expect((await state('slack')).last?.status).toBe('sent');

    const typed = await webhook(
      'slack',
      fakes.slack.messageEvent(admin, '2', { nowSeconds: nowSeconds() }),
    );
    expect(typed.json).toEqual({ status: 'recorded' });
    expect((await state('slack')).last).toMatchObject({
      status: 'answered',
      answer: { index: 1, correct: false },
    });
    // A second answer no longer counts.
    const again = await webhook(
      'slack',
      fakes.slack.tapRequest(lesson, 0, { nowSeconds: nowSeconds() }),
    );
    expect(again.json).toEqual({ status: 'duplicate' });
    expect((await state('slack')).last?.answer).toEqual({ index: 1, correct: false });
  });
});
