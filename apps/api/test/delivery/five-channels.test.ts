import { afterAll, describe, expect, it } from 'vitest';

import type { TChannelKey } from '@ccp/schemas';

import { DAY1, START, WEBHOOK, providersWorld, putConnection } from '../fixtures/channels.ts';
import {
  authHeaders,
  deliveriesOf,
  enrolmentsOf,
  learnersList,
  publishCourse,
  tickThroughProviders,
} from '../fixtures/delivery.ts';
import { call } from '../helper.ts';

// Issue 25's "Done when", as one administrator lives it: the five providers' fakes connected the
// way the Channels page connects them (its PUT, the fields it asks for), one course with the
// default opt-in published to a learner on each channel, every invitation answered Join on the
// learner's own app, day 1 on all five, every answer back with its feedback, a failure with its
// reason resent once the cause is fixed — and no send marked sent that its provider did not take.
// In the delivery folder, so `npm run test:built` runs it against the built server too.

const PUBLIC_URL = 'https://ccp.example.test';
const CHANNELS = Object.keys(WEBHOOK) as TChannelKey[];
const PHONE = '+393331234567';
const later = (minutes: number) => new Date(Date.parse(DAY1) + minutes * 60_000).toISOString();

describe('one course on all five channels, connected only through the Channels page', async () => {
  const { fakes, app, world, now, nowSeconds, post } = await providersWorld(PUBLIC_URL);
  afterAll(() => fakes.close());

  /** A learner per channel, and a second Slack learner not yet in the workspace. */
  const setUp = async () => {
    const { list, learners } = await learnersList(app, world, [
      ...CHANNELS.map((channel) => ({
        channels: [channel],
        ...(channel === 'whatsapp' ? { phone: PHONE } : {}),
      })),
      { channels: ['slack'] },
    ]);
    const byChannel = Object.fromEntries(
      CHANNELS.map((channel, index) => [channel, learners[index]!]),
    ) as Record<TChannelKey, (typeof learners)[number]>;
    return { list, learners, byChannel, newcomer: learners.at(-1)! };
  };

  it('connects each provider, reaches a learner on every channel with the opt-in, takes every answer back, and resends a failure', async () => {
    // 1. The Channels page: each provider's form, each connection proven by its provider.
    for (const channel of CHANNELS) {
      const response = await putConnection(app, world, channel, fakes.fields[channel]!);
      // Google Chat's audience waits for Chat's first signed event (the learner adding the app).
      expect({ channel, status: response.json.data?.status }).toEqual({
        channel,
        status: channel === 'google-chat' ? 'awaiting_verification' : 'connected',
      });
    }

    // 2. The learners exist at their providers as each provider makes them reachable.
    const { list, byChannel, newcomer } = await setUp();
    const slackUser = fakes.slack.addUser(byChannel.slack.email!);
    const webexPerson = fakes.webex.addPerson(byChannel.webex.email!);
    const teamsInstall = fakes.teams.install(byChannel['ms-teams'].email!, now());
    expect((await post('ms-teams', teamsInstall.request)).json).toEqual({ status: 'installed' });
    const chatEmail = byChannel['google-chat'].email!;
    const chatSpace = fakes.googleChat.addApp(chatEmail);
    expect(
      (
        await post(
          'google-chat',
          fakes.googleChat.added(chatSpace, { email: chatEmail, now: now() }),
        )
      ).json,
    ).toEqual({ status: 'installed' });

    // 3. One course, the default opt-in, all five channels.
    const course = await publishCourse(app, world, {
      lists: [list.uuid],
      channels: CHANNELS,
      distribution: { disabled_enrolment_opt_in: false },
    });
    const invited = await tickThroughProviders(app, START);
    expect(invited).toMatchObject({ invitations: 5 });

    // Each invitation reached its learner's own app; the newcomer's failed with its reason.
    const waId = PHONE.slice(1);
    const invitations = {
      slack: fakes.slack.messages.find((message) => message.userId === slackUser.id)!,
      webex: fakes.webex.messages.find((message) => message.toPersonId === webexPerson.id)!,
      whatsapp: fakes.whatsapp.messages.find((message) => message.to === waId)!,
      'ms-teams': fakes.teams.sentTo(teamsInstall.member.conversationId)[0]!,
      'google-chat': fakes.googleChat.messages.find((message) => message.space === chatSpace)!,
    };
    for (const channel of CHANNELS)
      expect({ channel, sent: !!invitations[channel] }).toEqual({ channel, sent: true });
    const failures = await call(app, {
      method: 'GET',
      url: `${world.base}/${course}/delivery-failures`,
      headers: await authHeaders(app, world),
    });
    expect(failures.json.data).toMatchObject({
      resendable: true,
      items: [
        {
          kind: 'invitation',
          channel: 'slack',
          learner: { uuid: newcomer.uuid },
          failure: { reason: 'learner_not_found' },
        },
      ],
    });
    expect(failures.json.data.items[0].failure.message).toMatch(/\w/);

    // 4. Join, on each learner's own app.
    const joins = {
      slack: fakes.slack.tapRequest(invitations.slack, 0, { nowSeconds: nowSeconds() }),
      webex: fakes.webex.submitRequest(invitations.webex, {}),
      whatsapp: fakes.whatsapp.tapTemplate(invitations.whatsapp, { index: 0 }),
      'ms-teams': fakes.teams.submit(
        invitations['ms-teams'],
        {},
        { from: teamsInstall.member.id, now: now() },
      ),
      'google-chat': fakes.googleChat.click(invitations['google-chat'], 0, {
        email: chatEmail,
        now: now(),
      }),
    };
    for (const channel of CHANNELS) {
      expect({ channel, join: (await post(channel, joins[channel])).json }).toEqual({
        channel,
        join: { status: 'recorded' },
      });
    }
    const enrolled = (await enrolmentsOf(app, course)).filter((row) => row.status === 'enrolled');
    expect(enrolled.map((row) => row.channel).sort()).toEqual([...CHANNELS].sort());

    // 5. Day 1 on all five.
    expect(await tickThroughProviders(app, DAY1)).toMatchObject({ sent: 5, failed: 0 });
    const lessons = {
      slack: fakes.slack.messages.filter((message) => message.userId === slackUser.id).at(-1)!,
      webex: fakes.webex.messages
        .filter((message) => message.toPersonId === webexPerson.id)
        .at(-1)!,
      whatsapp: fakes.whatsapp.messages.filter((message) => message.to === waId).at(-1)!,
      'ms-teams': fakes.teams.sentTo(teamsInstall.member.conversationId).at(-1)!,
      'google-chat': fakes.googleChat.messages
        .filter((message) => message.space === chatSpace)
        .at(-1)!,
    };

    // 6. Every learner answers the first (right) answer; each gets its feedback at once.
    const answers = {
      slack: fakes.slack.tapRequest(lessons.slack, 0, { nowSeconds: nowSeconds() }),
      webex: fakes.webex.submitRequest(lessons.webex, { answer: '0' }),
      whatsapp: fakes.whatsapp.tapButton(lessons.whatsapp, 0),
      'ms-teams': fakes.teams.submit(
        lessons['ms-teams'],
        { answer: '0' },
        { from: teamsInstall.member.id, now: now() },
      ),
      'google-chat': fakes.googleChat.click(lessons['google-chat'], 0, {
        email: chatEmail,
        now: now(),
      }),
    };
    for (const channel of CHANNELS) {
      expect({ channel, answer: (await post(channel, answers[channel])).json }).toEqual({
        channel,
        answer: { status: 'recorded' },
      });
    }
    const counts = () => ({
      slack: fakes.slack.messages.filter((message) => message.userId === slackUser.id).length,
      // What the learner sees: the answered card is deleted and posted again closed (issue 28).
      webex: fakes.webex.messages.filter(
        (message) =>
          message.toPersonId === webexPerson.id && !fakes.webex.deleted.includes(message),
      ).length,
      whatsapp: fakes.whatsapp.messages.filter((message) => message.to === waId).length,
      'ms-teams': fakes.teams.sentTo(teamsInstall.member.conversationId).length,
      'google-chat': fakes.googleChat.messages.filter((message) => message.space === chatSpace)
        .length,
    });
    const beforeFeedback = counts();
    expect(await tickThroughProviders(app, later(1))).toMatchObject({ feedback: 5 });
    const afterFeedback = counts();
    for (const channel of CHANNELS) {
      expect({ channel, more: afterFeedback[channel] - beforeFeedback[channel] }).toEqual({
        channel,
        more: 1,
      });
    }
    const day1 = (await deliveriesOf(app, course)).filter((row) => row.day === 1);
    expect(
      day1
        .filter((row) => row.learner_uuid !== newcomer.uuid)
        .map((row) => [row.channel, row.answer_correct, row.feedback_status])
        .sort(),
    ).toEqual(CHANNELS.map((channel) => [channel, 1, 'sent']).sort());

    // 7. The newcomer joins Slack; the administrator resends; the invitation goes once.
    const newcomerUser = fakes.slack.addUser(newcomer.email!);
    const resent = await call(app, {
      method: 'POST',
      url: `${world.base}/${course}/resend`,
      headers: await authHeaders(app, world),
      payload: { all_failed: true },
    });
    expect(resent.json.data).toEqual({ lessons: 0, invitations: 1 });
    expect(await tickThroughProviders(app, later(10))).toMatchObject({ invitations: 1 });
    expect(
      fakes.slack.messages.filter((message) => message.userId === newcomerUser.id),
    ).toHaveLength(1);

    // 8. Nothing is marked sent that its provider did not take: every sent lesson's provider
    // message id (each part's, for a send of several) is one its fake handed out.
    const accepted = new Set([
      ...fakes.slack.messages.map((message) => `${message.channel}:${message.ts}`),
      ...fakes.webex.messages.map((message) => message.id),
      ...fakes.whatsapp.messages.map((message) => message.id),
      ...fakes.teams.sentTo(teamsInstall.member.conversationId).map((sent) => sent.id),
      ...fakes.googleChat.messages.map((message) => message.name),
    ]);
    const sent = (await deliveriesOf(app, course)).filter((row) => row.status === 'sent');
    expect(sent).toHaveLength(5);
    for (const row of sent) {
      const ids = row.provider_message_id!.split(',');
      expect({ channel: row.channel, accepted: ids.every((id) => accepted.has(id)) }).toEqual({
        channel: row.channel,
        accepted: true,
      });
    }
  });
});
