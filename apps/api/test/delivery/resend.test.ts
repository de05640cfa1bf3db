import { afterAll, describe, expect, it } from 'vitest';

import { DAY1, channelWorld } from '../fixtures/channels.ts';
import { authHeaders, courseRow, enrolmentsOf } from '../fixtures/delivery.ts';
import { startFakeSlack } from '../fakes/slack.ts';
import { call, createUser, signIn } from '../helper.ts';

// Issue 25: what did not go shows with its reason on the learner page and in the course report,
// and an administrator (or the course's creator) resends it once the cause is fixed.

const later = (minutes: number) => new Date(Date.parse(DAY1) + minutes * 60_000).toISOString();

describe('failed sends: their reason, and resending them', async () => {
  const fake = await startFakeSlack();
  afterAll(() => fake.close());
  const { app, world, connect, enrol, tickAt, deliveriesOfDay } = await channelWorld('slack', {
    slack: { apiUrl: fake.apiUrl },
  });
  const admin = async (language = 'en') => ({
    ...(await authHeaders(app, world)),
    'accept-language': language,
  });
  const learnerSends = async (learnerUuid: string, language = 'en') =>
    call(app, {
      method: 'GET',
      url: `/api/v1/learners/${learnerUuid}/deliveries`,
      headers: await admin(language),
    });
  const resend = async (
    course: string,
    body: Record<string, unknown>,
    headers?: Record<string, string>,
  ) =>
    call(app, {
      method: 'POST',
      url: `${world.base}/${course}/resend`,
      headers: headers ?? (await admin()),
      payload: body,
    });

  it('a lesson on a channel not connected yet shows why, and goes once resent after connecting', async () => {
    const { course, learners } = await enrol([{}], { days: 1 });
    const learner = learners[0]!;
    expect(await tickAt(DAY1)).toMatchObject({ sent: 0, failed: 1 });
    // No lesson went: the course has not started.
    expect((await courseRow(app, course)).status).toBe('scheduled');

    const page = await learnerSends(learner.uuid, 'it');
    expect(page.statusCode).toBe(200);
    const [mine] = page.json.data as {
      course: { uuid: string };
      invitation: unknown;
      lessons: Record<string, unknown>[];
    }[];
    expect(mine!.course.uuid).toBe(course);
    expect(mine!.invitation).toBeNull();
    expect(mine!.lessons).toEqual([
      expect.objectContaining({
        day: 1,
        status: 'failed',
        sent_at: null,
        resendable: true,
        failure: {
          reason: 'channel_not_connected',
          message: 'Il canale non è collegato: collegalo nella pagina Canali, poi invia di nuovo.',
          detail: expect.stringContaining('channel_not_connected') as string,
        },
      }),
    ]);

    const report = await call(app, {
      method: 'GET',
      url: `${world.base}/${course}/delivery-failures`,
      headers: await admin(),
    });
    expect(report.json.data).toMatchObject({
      resendable: true,
      items: [
        {
          kind: 'lesson',
          day: 1,
          channel: 'slack',
          learner: { uuid: learner.uuid },
          failure: { reason: 'channel_not_connected' },
        },
      ],
    });

    // The administrator connects Slack and resends: the lesson goes at the next run, once.
    expect(
      (await connect({ bot_token: fake.token, signing_secret: fake.signingSecret })).json.data,
    ).toMatchObject({ status: 'connected' });
    const user = fake.addUser(learner.email!);
    const resent = await resend(course, { all_failed: true });
    expect(resent.statusCode).toBe(200);
    expect(resent.json.data).toEqual({ lessons: 1, invitations: 0 });
    expect(await tickAt(later(10))).toMatchObject({ sent: 1, failed: 0 });
    const [row] = await deliveriesOfDay(course);
    expect(row).toMatchObject({ status: 'sent', failure_code: null });
    expect(row!.provider_message_id).toMatch(/^D\w+:1700000000\.\d+$/);
    expect(fake.messages.filter((message) => message.userId === user.id)).toHaveLength(1);
    // A resend of what already went takes nothing.
    expect((await resend(course, { lessons: [row!.uuid] })).json.data).toEqual({
      lessons: 0,
      invitations: 0,
    });
    expect((await courseRow(app, course)).status).toBe('delivered');
  });

  it('an invitation that could not go shows why on the learner page and is resent on request', async () => {
    const { course, learners } = await enrol([{}], {
      distribution: { disabled_enrolment_opt_in: false },
    });
    const learner = learners[0]!;
    // Slack does not know this learner: the invitation fails, and waits for a resend.
    await tickAt(DAY1);
    const [enrolment] = await enrolmentsOf(app, course);
    expect(enrolment).toMatchObject({
      status: 'invited',
      invitation_sent_at: null,
      invitation_failure_code: 'learner_not_found',
    });
    const [mine] = (await learnerSends(learner.uuid)).json.data as {
      course: { uuid: string };
      invitation: Record<string, unknown>;
    }[];
    expect(mine!.invitation).toEqual({
      sent_at: null,
      retry_at: null,
      resendable: true,
      failure: {
        reason: 'learner_not_found',
        message: 'The provider knows no user with this learner’s e-mail address or phone number.',
        detail: expect.stringMatching(/^users_not_found: /) as string,
      },
    });

    fake.addUser(learner.email!);
    expect((await resend(course, { invitations: [enrolment!.uuid] })).json.data).toEqual({
      lessons: 0,
      invitations: 1,
    });
    expect(await tickAt(later(5))).toMatchObject({ invitations: 1 });
    expect((await enrolmentsOf(app, course))[0]).toMatchObject({
      invitation_failure_code: null,
      invitation_sent_at: later(5),
    });
  });

  it('only an administrator or the course’s creator may resend; others see it as not resendable', async () => {
    const { course, learners } = await enrol([{ email: 'nobody-on-slack@example.com' }], {
      days: 1,
    });
    await tickAt(DAY1);
    const member = await createUser(app, world.company, { isAdmin: false });
    const headers = { authorization: `Bearer ${(await signIn(app, member)).access_token}` };
    const page = await call(app, {
      method: 'GET',
      url: `/api/v1/learners/${learners[0]!.uuid}/deliveries`,
      headers,
    });
    const [mine] = page.json.data as { lessons: { resendable: boolean; status: string }[] }[];
    expect(mine!.lessons[0]).toMatchObject({ status: 'failed', resendable: false });
    const refused = await resend(course, { all_failed: true }, headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json.error.message).toBe(
      'Only an administrator or the course’s creator can resend its lessons.',
    );
    const empty = await resend(course, {});
    expect(empty.statusCode).toBe(422);
  });
});
