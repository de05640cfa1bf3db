import { afterAll, describe, expect, it } from 'vitest';

import { renderSlack } from '../../src/delivery/channels/slack/render.ts';
import { startScheduler } from '../../src/delivery/scheduler.ts';
import { createUser, signIn, call } from '../helper.ts';
import { authHeaders } from '../fixtures/delivery.ts';
import { DAY1, channelWorld, choices, sampleMessage } from '../fixtures/channels.ts';
import { blockProblems, startFakeSlack } from '../fakes/slack.ts';

// Slack end to end against a fake Slack on 127.0.0.1: an administrator connects the workspace,
// the scheduler sends the day's lesson to each learner's DM (found by e-mail), the learner taps
// an answer, the signed callback is verified and the answer shows in Insights.

describe('Slack delivery', async () => {
  const fake = await startFakeSlack();
  afterAll(() => fake.close());
  const {
    app,
    world,
    connect,
    webhook,
    enrol,
    tickAt,
    deliveriesOfDay,
    insightsOf,
    learnerDay,
    closeFailures,
  } = await channelWorld('slack', { slack: { apiUrl: fake.apiUrl } });
  const nowSeconds = () => Math.floor(app.clock.now().getTime() / 1000);

  it('refuses a connection without its required secrets, in the user’s language', async () => {
    const response = await connect({ bot_token: 'xoxb-fake-token' }, { language: 'it' });
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
    const { course, learners } = await enrol([{}, {}]);
    const slackUsers = learners.map((learner) => fake.addUser(learner.email!));
    const result = await tickAt(DAY1);
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

    const mine = (await deliveriesOfDay(course)).find(
      (row) => row.learner_uuid === learners[0]!.uuid,
    )!;
    const answerOfMine = async () =>
      (await deliveriesOfDay(course)).find((row) => row.uuid === mine.uuid)!;

    // Unsigned, wrongly signed and stale requests change nothing.
    const right = fake.tapRequest(first!, 0, { nowSeconds: nowSeconds() });
    expect(
      (await webhook({ ...right, headers: { ...right.headers, 'x-slack-signature': 'v0=00' } }))
        .statusCode,
    ).toBe(401);
    expect(
      (
        await webhook(
          fake.tapRequest(first!, 0, { nowSeconds: nowSeconds(), secret: 'not-the-secret' }),
        )
      ).statusCode,
    ).toBe(401);
    expect(
      (await webhook(fake.tapRequest(first!, 0, { nowSeconds: nowSeconds() - 6 * 60 }))).statusCode,
    ).toBe(401);
    // Someone else tapping the learner's buttons: refused.
    const intruder = await webhook(
      fake.tapRequest(first!, 1, { nowSeconds: nowSeconds(), userId: slackUsers[1]!.id }),
    );
    expect(intruder.statusCode).toBe(403);
    expect((await answerOfMine()).answered_at).toBeNull();

    const answered = await webhook(right);
    expect(answered.statusCode).toBe(200);
    expect(answered.json).toEqual({ status: 'recorded' });
    // Slack's retry of the same tap, and a second tap: nothing more.
    expect((await webhook(right)).json).toEqual({ status: 'duplicate' });
    const after = await answerOfMine();
    expect([after.answer_correct, after.answered_at]).toEqual([1, DAY1]);

    // The other learner answers wrong.
    expect((await webhook(fake.tapRequest(second!, 1, { nowSeconds: nowSeconds() }))).json).toEqual(
      {
        status: 'recorded',
      },
    );

    expect(await insightsOf(course)).toMatchObject({ completionRate: 100, successRate: 50 });

    // Each learner hears back with their answer's response (issue 28), in their DM.
    expect(await tickAt(DAY1)).toMatchObject({ feedback: 2, sent: 0 });
    const toUser = (user: { id: string }) =>
      fake.messages.filter((message) => message.userId === user.id).slice(1);
    const [mineBack, theirsBack] = slackUsers.map((user) => JSON.stringify(toUser(user)));
    expect(mineBack).toContain('Right!');
    expect(mineBack).toContain('About Right.');
    expect(theirsBack).toContain('Not quite.');
    expect(theirsBack).toContain('About Wrong.');
    // Each question was closed in place (chat.update): the chosen answer marked, no buttons.
    const closedOf = (message: { channel: string; ts: string }) =>
      fake.updates.filter(
        (update) => update.channel === message.channel && update.ts === message.ts,
      );
    for (const [question, line] of [
      [first!, '✅ Your answer: Right'],
      [second!, '❌ Your answer: Wrong'],
    ] as const) {
      const [closed, ...more] = closedOf(question);
      expect(more).toEqual([]);
      expect(closed!.blocks.some((block) => block.type === 'actions')).toBe(false);
      expect(JSON.stringify(closed!.blocks)).toContain(line);
      expect(closed!.blocks[0]).toEqual(question.blocks[0]);
    }
    // Another tap later: it does not count, and the learner is told so, once.
    const again = fake.tapRequest(first!, 1, { nowSeconds: nowSeconds() + 1 });
    expect((await webhook(again)).json).toEqual({ status: 'duplicate' });
    expect(await tickAt(DAY1)).toMatchObject({ feedback: 1 });
    expect(JSON.stringify(toUser(slackUsers[0]!).at(-1))).toContain('already answered');
    expect((await answerOfMine()).answer_correct).toBe(1);
    expect(await tickAt(DAY1)).toMatchObject({ feedback: 0 });
    // The "already answered" reply edits nothing more.
    expect(closedOf(first!)).toHaveLength(1);
  });

  it('a question Slack will not edit still gets its feedback; the failure is on the delivery’s events', async () => {
    const { learners } = await enrol([{}]);
    const user = fake.addUser(learners[0]!.email!);
    expect(await tickAt(DAY1)).toMatchObject({ sent: 1 });
    const question = fake.messages.filter((message) => message.userId === user.id).at(-1)!;
    fake.failNext('chat.update', 'cant_update_message');
    expect(
      (await webhook(fake.tapRequest(question, 0, { nowSeconds: nowSeconds() }))).json,
    ).toEqual({ status: 'recorded' });
    expect(await tickAt(DAY1)).toMatchObject({ feedback: 1 });
    const back = fake.messages.filter((message) => message.userId === user.id);
    expect(JSON.stringify(back.at(-1))).toContain('About Right.');
    const delivery = await app.db
      .selectFrom('lesson_deliveries')
      .select('feedback_status')
      .where('learner_uuid', '=', learners[0]!.uuid)
      .where('day', '=', 1)
      .executeTakeFirstOrThrow();
    expect(delivery.feedback_status).toBe('sent');
    expect(await closeFailures(learners[0]!.uuid)).toEqual([
      { provider_message_id: `${question.channel}:${question.ts}`, code: 'cant_update_message' },
    ]);
  });

  it('with the scheduler running, the feedback follows the answer at once, not at the next tick', async () => {
    const { learners } = await enrol([{}]);
    const user = fake.addUser(learners[0]!.email!);
    expect(await tickAt(DAY1)).toMatchObject({ sent: 1 });
    const question = fake.messages.filter((message) => message.userId === user.id).at(-1)!;
    // A tick an hour from now: the answer must not wait for it.
    const stop = startScheduler(app, 60 * 60 * 1000);
    try {
      const tapped = await webhook(fake.tapRequest(question, 0, { nowSeconds: nowSeconds() }));
      expect(tapped.json).toEqual({ status: 'recorded' });
      await expect
        .poll(() => JSON.stringify(fake.messages.filter((message) => message.userId === user.id)), {
          timeout: 5000,
        })
        .toContain('About Right.');
    } finally {
      await stop();
    }
  });

  it('takes the learner’s message in the DM as their open answer, once, and shows it on their page', async () => {
    const { course, learners } = await enrol([{}], { openAnswerDays: [1] });
    const user = fake.addUser(learners[0]!.email!);
    expect(await tickAt(DAY1)).toMatchObject({ sent: 1 });
    const sent = fake.messages.find((message) => message.userId === user.id)!;
    expect(JSON.stringify(sent.blocks)).toContain('Reply with your answer.');

    // The Events API's URL check answers its challenge, signed like any request.
    const check = await webhook(fake.urlVerification(nowSeconds()));
    expect(check.json).toEqual({ challenge: 'fake-challenge' });
    expect((await webhook(fake.urlVerification(nowSeconds(), 'not-the-secret'))).statusCode).toBe(
      401,
    );

    const words = 'Ask first, then listen <really> & take notes';
    const event = fake.messageEvent(user, words, { nowSeconds: nowSeconds() });
    const forged = fake.messageEvent(user, 'forged', {
      nowSeconds: nowSeconds(),
      secret: 'not-the-secret',
    });
    expect((await webhook(forged)).statusCode).toBe(401);
    expect((await webhook(event)).json).toEqual({ status: 'recorded' });
    // Slack retries an event it thinks was not acknowledged: the same event id.
    expect((await webhook(event)).json).toEqual({ status: 'duplicate' });
    // Nothing is waiting any more: a further message answers nothing.
    expect(
      (await webhook(fake.messageEvent(user, 'thanks!', { nowSeconds: nowSeconds() }))).json,
    ).toEqual({ status: 'ignored' });
    expect(await learnerDay(learners[0]!.uuid, course, 1)).toMatchObject({
      state: 'correct',
      answer: words,
    });
  });

  it('waits the Retry-After of a 429 and sends once', async () => {
    const { learners } = await enrol([{}]);
    const user = fake.addUser(learners[0]!.email!);
    fake.rateLimit(1, 3);
    const waits: number[] = [];
    const result = await tickAt(DAY1, {
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(result).toMatchObject({ sent: 1, failed: 0 });
    expect(waits).toContain(3000);
    expect(fake.messages.filter((message) => message.userId === user.id)).toHaveLength(1);
  });

  it('a learner Slack does not know fails without retries', async () => {
    const { course } = await enrol([{}]);
    const before = fake.calls.length;
    const result = await tickAt(DAY1);
    expect(result).toMatchObject({ sent: 0, failed: 1 });
    expect(fake.calls.slice(before)).toEqual(['users.lookupByEmail']);
    // Not sent, and the trainer is told why (issue 25), with Slack's own code kept.
    expect((await deliveriesOfDay(course))[0]).toMatchObject({
      status: 'failed',
      sent_at: null,
      provider_message_id: null,
      failure_code: 'learner_not_found',
    });
    expect((await deliveriesOfDay(course))[0]!.failure_detail).toMatch(/^users_not_found: /);
  });

  // https://api.slack.com/apis/rate-limits: limits are per method and workspace; lookupByEmail is
  // Tier 3. A 429 on it must not hold back learners Slack already knows (issue 25).
  it('a 429 on users.lookupByEmail defers that learner only; the others’ lessons keep flowing', async () => {
    const { course, learners } = await enrol([{}, {}]);
    const users = learners.map((learner) => fake.addUser(learner.email!));
    fake.rateLimit(1, 60, 'users.lookupByEmail');
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    const first = await tickAt(DAY1, { sleep });
    // Nobody waited out Slack's minute: one learner is deferred, the other's lesson went.
    expect(first).toMatchObject({ sent: 1, failed: 0, deferred: 1 });
    expect(waits.filter((ms) => ms >= 60_000)).toEqual([]);
    const deferred = (await deliveriesOfDay(course)).find((row) => row.status === 'scheduled')!;
    expect(deferred).toMatchObject({
      failure_code: 'rate_limited',
      next_attempt_at: new Date(Date.parse(DAY1) + 60_000).toISOString(),
    });
    // Before Slack's Retry-After nothing is tried again; after it, the lesson goes, once.
    expect(await tickAt(new Date(Date.parse(DAY1) + 30_000).toISOString())).toMatchObject({
      sent: 0,
      deferred: 0,
    });
    expect(await tickAt(new Date(Date.parse(DAY1) + 61_000).toISOString())).toMatchObject({
      sent: 1,
      deferred: 0,
    });
    const rows = await deliveriesOfDay(course);
    expect(rows.map((row) => row.status)).toEqual(['sent', 'sent']);
    expect(rows.every((row) => row.failure_code === null && row.provider_message_id)).toBe(true);
    for (const user of users) {
      expect(fake.messages.filter((message) => message.userId === user.id)).toHaveLength(1);
    }
  });

  it('non-administrators see the status only and cannot connect', async () => {
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
  const message = (lesson: Parameters<typeof sampleMessage>[1]) =>
    sampleMessage(
      'slack',
      {
        topic_intro: 'Fish & chips <b>',
        topic_content: '<p>A &amp; B &lt;tag&gt; <a href="https://x.test/a|b">link</a></p>',
        ...lesson,
      },
      { courseName: 'Safety & <Health>' },
    );

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
        assessment: choices([long, 'Short']),
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

// "Add to Slack" (https://api.slack.com/authentication/oauth-v2): the administrator saves the
// app's client id and secret, Slack sends the browser back with a code, and the token exchange
// (oauth.v2.access) must carry the authorize URL's redirect_uri.
describe('Add to Slack', async () => {
  const fake = await startFakeSlack();
  afterAll(() => fake.close());
  const { app, world, connect } = await channelWorld(
    'slack',
    { slack: { apiUrl: fake.apiUrl, authorizeUrl: fake.authorizeUrl } },
    { publicUrl: 'https://ccp.example.test' },
  );
  // Built from CCP_PUBLIC_URL alone: the Host the browser sent is never a redirect.
  const redirectUri = 'https://ccp.example.test/api/v1/webhooks/slack/oauth';

  /** The browser's trip: our install URL, Slack's authorize page, back to our callback. */
  const install = async () => {
    const started = await call(app, {
      method: 'POST',
      url: '/api/v1/channel-connections/slack/install',
      headers: { ...(await authHeaders(app, world)), host: 'attacker.example' },
    });
    expect(started.statusCode).toBe(200);
    const authorize = new URL(started.json.data.url as string);
    expect(authorize.searchParams.get('redirect_uri')).toBe(redirectUri);
    const atSlack = await fetch(authorize, { redirect: 'manual' });
    const back = new URL(atSlack.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(redirectUri);
    return call(app, { method: 'GET', url: `${back.pathname}${back.search}` });
  };

  it('saves the app without a bot token, then connects by OAuth alone', async () => {
    const saved = await connect({
      client_id: 'C-123',
      client_secret: fake.clientSecret,
      signing_secret: fake.signingSecret,
    });
    expect(saved.statusCode).toBe(200);
    // Not tested yet (no token to test): waiting for "Add to Slack", with no error shown.
    expect(saved.json.data).toMatchObject({ status: 'disconnected', last_error: null });

    const callback = await install();
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/channels?connected=slack');
    const list = await call(app, {
      method: 'GET',
      url: '/api/v1/channel-connections',
      headers: await authHeaders(app, world),
    });
    const slack = (list.json.data as { channel: string; secrets_set: string[] }[]).find(
      (row) => row.channel === 'slack',
    );
    expect(slack).toMatchObject({
      status: 'connected',
      provider_ids: { team_id: fake.teamId, bot_user_id: 'UBOT' },
    });
    expect(slack?.secrets_set).toContain('bot_token');
  });

  it('connects the app made from this server’s manifest; Slack refuses one made for another address', async () => {
    const setup = await call(app, {
      method: 'GET',
      url: '/api/v1/channel-connections/slack/setup',
      headers: await authHeaders(app, world),
    });
    const json = (setup.json.data.downloads as { key: string; content: string }[]).find(
      (file) => file.key === 'slack_manifest_json',
    )!;
    const manifest = JSON.parse(json.content) as Record<string, any>;
    const pasted = fake.createApp(manifest).credentials;
    await connect(pasted);
    expect((await install()).headers.location).toBe('/channels?connected=slack');

    // An app pasted from an older manifest lists another redirect URL: Slack stops at its page.
    const stale = fake.createApp({
      ...manifest,
      oauth_config: { ...manifest.oauth_config, redirect_urls: ['https://old.example/oauth'] },
    }).credentials;
    await connect(stale);
    const started = await call(app, {
      method: 'POST',
      url: '/api/v1/channel-connections/slack/install',
      headers: await authHeaders(app, world),
    });
    const atSlack = await fetch(started.json.data.url as string, { redirect: 'manual' });
    expect(atSlack.status).toBe(400);
    expect(await atSlack.text()).toContain('redirect_uri did not match any configured URIs');
  });

  it('brings the administrator back to the Channels page with Slack’s reason, never a bare error', async () => {
    const started = await call(app, {
      method: 'POST',
      url: '/api/v1/channel-connections/slack/install',
      headers: await authHeaders(app, world),
    });
    const state = new URL(started.json.data.url as string).searchParams.get('state')!;
    // The administrator pressed Cancel on Slack's page.
    const cancelled = await call(app, {
      method: 'GET',
      url: `/api/v1/webhooks/slack/oauth?error=access_denied&state=${encodeURIComponent(state)}`,
    });
    expect(cancelled.statusCode).toBe(302);
    expect(cancelled.headers.location).toBe('/channels?slack_install=failed&reason=access_denied');
    // A code Slack never issued: its refusal, on the page.
    const refused = await call(app, {
      method: 'GET',
      url: `/api/v1/webhooks/slack/oauth?code=forged&state=${encodeURIComponent(state)}`,
    });
    expect(refused.headers.location).toBe('/channels?slack_install=failed&reason=invalid_code');
    const forged = await call(app, {
      method: 'GET',
      url: '/api/v1/webhooks/slack/oauth?code=x&state=not-ours.mac',
    });
    expect(forged.headers.location).toBe('/channels?slack_install=failed&reason=state_invalid');
  });
});
