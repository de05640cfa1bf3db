import { afterAll, describe, expect, it } from 'vitest';

import { ProviderHttpError } from '../../src/delivery/channels/http.ts';
import {
  PAIR_RATE_RETRY_MS,
  classifyWhatsAppError,
  createWhatsAppConnector,
} from '../../src/delivery/channels/whatsapp/client.ts';
import { renderWhatsAppSession } from '../../src/delivery/channels/whatsapp/render.ts';
import { createManualClock } from '../../src/lib/clock.ts';
import { DAY1, DAY2, START, channelWorld, choices, sampleMessage } from '../fixtures/channels.ts';
import { authHeaders } from '../fixtures/delivery.ts';
import { insertLearner } from '../fixtures/learners.ts';
import { call } from '../helper.ts';
import type { TestApp } from '../helper.ts';
import { startFakeWhatsApp } from '../fakes/whatsapp.ts';

// WhatsApp end to end against a fake Cloud API on 127.0.0.1: outside the 24-hour window the
// scheduler sends only the approved template; the learner's "Start" (a signed webhook) opens
// the window and the lesson follows with its answer buttons; a tap or a typed number answers it
// once, from the learner only, and Insights counts it. A learner who wrote in the last day gets
// the lesson straight away.

/** When the learners tap Start: day 2 (08:30 next day) falls inside their 24-hour window. */
const LEARNERS_WRITE = '2026-11-23T12:00:00.000Z';
const VERIFY_TOKEN = 'whatsapp-verify-token';

describe('WhatsApp delivery', async () => {
  const fake = await startFakeWhatsApp();
  afterAll(() => fake.close());
  const {
    app,
    connect,
    webhook: post,
    enrol,
    tickAt,
    answersOfDay,
    insightsOf,
    learnerDay,
  } = await channelWorld('whatsapp', { whatsapp: { apiUrl: fake.apiUrl } });
  const to = (phone: string) => phone.replace(/\D/g, '');

  it('connecting checks the number and that the template is approved', async () => {
    const response = await connect({
      business_account_id: fake.businessAccountId,
      phone_number_id: fake.phoneNumberId,
      template_name: fake.templateName,
      access_token: fake.token,
      app_secret: fake.appSecret,
      verify_token: VERIFY_TOKEN,
    });
    expect(response.json.data).toMatchObject({
      status: 'connected',
      available: true,
      provider_ids: { phone_number_id: fake.phoneNumberId, template_status: 'APPROVED' },
    });
  });

  it('answers the subscription challenge only for the verify token', async () => {
    const verify = (token: string) =>
      app.inject({
        method: 'GET',
        url: `/api/v1/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=1158201444`,
      });
    const good = await verify(VERIFY_TOKEN);
    expect(good.statusCode).toBe(200);
    expect(good.body).toBe('1158201444');
    expect((await verify('guess')).statusCode).toBe(401);
  });

  it('sends the template outside the window, the lesson after Start, and takes answers once from the learner only', async () => {
    const phones = ['+393331234567', '+393337654321'];
    const { course } = await enrol(phones.map((phone) => ({ phone })));
    expect(await tickAt(DAY1)).toMatchObject({ sent: 2, failed: 0 });
    expect(fake.refused).toEqual([]);
    const templates = fake.messages.filter((message) => message.type === 'template');
    expect(templates.map((message) => message.to).sort()).toEqual(phones.map(to).sort());
    expect(fake.messages).toHaveLength(2);
    const templateOf = (phone: string) => templates.find((message) => message.to === to(phone))!;
    app.testClock.set(LEARNERS_WRITE);

    // A wrong signature, and someone else tapping the first learner's Start, change nothing.
    expect(
      (await post(fake.tapTemplate(templateOf(phones[0]!), { secret: 'wrong' }))).statusCode,
    ).toBe(401);
    const unsignedTap = fake.tapTemplate(templateOf(phones[0]!));
    expect(
      (await post({ ...unsignedTap, headers: { 'content-type': 'application/json' } })).statusCode,
    ).toBe(401);
    expect(
      (await post(fake.tapTemplate(templateOf(phones[0]!), { from: to(phones[1]!) }))).statusCode,
    ).toBe(403);
    expect(fake.messages).toHaveLength(2);

    // Start: the lesson and its question follow, within the window.
    const start = fake.tapTemplate(templateOf(phones[0]!));
    expect((await post(start)).json).toEqual({ status: 'recorded' });
    expect((await post(start)).json).toEqual({ status: 'duplicate' });
    expect(fake.refused).toEqual([]);
    const session = fake.messages.filter(
      (message) => message.to === to(phones[0]!) && message.type !== 'template',
    );
    expect(session[0]).toMatchObject({ type: 'text' });
    const question = session.at(-1)!;
    expect(question.interactive.type).toBe('button');
    expect(question.interactive.action.buttons).toHaveLength(3);

    expect((await post(fake.tapButton(question, 0, { from: to(phones[1]!) }))).statusCode).toBe(
      403,
    );
    const right = fake.tapButton(question, 0);
    expect((await post(right)).json).toEqual({ status: 'recorded' });
    expect((await post(right)).json).toEqual({ status: 'duplicate' });

    // The second learner starts and answers by typing a number (the third answer: wrong).
    expect((await post(fake.tapTemplate(templateOf(phones[1]!)))).json).toEqual({
      status: 'recorded',
    });
    expect((await post(fake.typeText(to(phones[1]!), ' 3 '))).json).toEqual({
      status: 'recorded',
    });

    expect(await answersOfDay(course)).toEqual([0, 1]);
    expect(await insightsOf(course)).toMatchObject({ completionRate: 100, successRate: 50 });

    // Day 2 comes within 24 hours of their messages: the lesson itself, no template.
    const before = fake.messages.length;
    expect(await tickAt(DAY2)).toMatchObject({ sent: 2, failed: 0 });
    const later = fake.messages.slice(before);
    expect(later.some((message) => message.type === 'template')).toBe(false);
    expect(later.filter((message) => message.type === 'interactive')).toHaveLength(2);
    expect(fake.refused).toEqual([]);
  });

  it('an answer gets its response at once; a second tap is told it no longer counts (issue 28)', async () => {
    const phone = '+393339990001';
    const { course } = await enrol([{ phone }]);
    await tickAt(DAY1);
    const template = fake.messages.find(
      (message) => message.to === to(phone) && message.type === 'template',
    )!;
    app.testClock.set(LEARNERS_WRITE);
    expect((await post(fake.tapTemplate(template))).json).toEqual({ status: 'recorded' });
    const question = fake.messages.filter((message) => message.to === to(phone)).at(-1)!;
    const wrong = fake.tapButton(question, 1);
    expect((await post(wrong)).json).toEqual({ status: 'recorded' });
    // Meta's retry of the same webhook is no second answer: nothing is said.
    expect((await post(wrong)).json).toEqual({ status: 'duplicate' });

    const sentBefore = fake.messages.length;
    expect(await tickAt(LEARNERS_WRITE)).toMatchObject({ feedback: 1, sent: 0 });
    const [feedback] = fake.messages.slice(sentBefore);
    expect(feedback).toMatchObject({ type: 'text', to: to(phone) });
    expect(feedback!.text.body).toContain('Not quite.');
    expect(feedback!.text.body).toContain('About Wrong.');

    // WhatsApp's buttons stay: a tap on the right answer later does not count, and says so.
    expect((await post(fake.tapButton(question, 0))).json).toEqual({ status: 'duplicate' });
    expect(await tickAt(LEARNERS_WRITE)).toMatchObject({ feedback: 1 });
    expect(fake.messages.at(-1)!.text.body).toContain('already answered');
    expect(await answersOfDay(course)).toEqual([0]);
    expect(fake.refused).toEqual([]);
  });

  // Typing is how WhatsApp learners often answer: a letter answers a lesson's question and, once
  // it comes back ("Repeat questions until they stick"), the repeat (issue 28, the loose ends).
  it('a typed letter answers the lesson’s question, and the day after the question asked again', async () => {
    const phone = '+393339990077';
    const waId = to(phone);
    const { course } = await enrol([{ phone }], {
      distribution: { repeat_questions: true, target_retention: 90 },
    });
    await tickAt(DAY1);
    app.testClock.set(LEARNERS_WRITE);
    expect((await post(fake.typeText(waId, 'Hello'))).json).toEqual({ status: 'recorded' });
    expect((await post(fake.typeText(waId, 'B'))).json).toEqual({ status: 'recorded' });
    expect(await answersOfDay(course)).toEqual([0]);
    await tickAt(LEARNERS_WRITE);

    // Day 2, inside the window: the lesson, then day 1's question again, each with its buttons.
    const sentBefore = fake.messages.length;
    await tickAt(DAY2);
    const questions = fake.messages
      .slice(sentBefore)
      .filter((message) => message.to === waId && message.type === 'interactive');
    expect(questions.map((message): unknown => message.interactive.body.text)).toEqual([
      '*Question:* Which answer is right?',
      '*Question:* Which answer is right?',
    ]);
    const day1 = await app.db
      .selectFrom('lesson_deliveries')
      .select('uuid')
      .where('course_uuid', '=', course)
      .where('day', '=', 1)
      .executeTakeFirstOrThrow();
    const repeat = () =>
      app.db
        .selectFrom('question_repeats')
        .select(['status', 'answer_correct'])
        .where('delivery_uuid', '=', day1.uuid)
        .executeTakeFirstOrThrow();
    expect(await repeat()).toEqual({ status: 'sent', answer_correct: null });
    // The repeat went last: "a" answers it, right this time; day 2's question still waits.
    expect((await post(fake.typeText(waId, 'a'))).json).toEqual({ status: 'recorded' });
    expect(await repeat()).toEqual({ status: 'waiting', answer_correct: 1 });
    expect(await answersOfDay(course, 2)).toEqual([null]);
    expect((await post(fake.typeText(waId, 'maybe'))).json).toEqual({ status: 'recorded' });
    expect(await answersOfDay(course, 2)).toEqual([0]);
    expect(fake.refused).toEqual([]);
  });

  it('any message opens the window for the waiting lesson; then a typed reply is the open answer', async () => {
    const { course, learners } = await enrol([{ phone: '+393335550000' }], {
      openAnswerDays: [1],
    });
    const waId = '393335550000';
    expect(await tickAt(DAY1)).toMatchObject({ sent: 1 });
    const sentTo = () => fake.messages.filter((message) => message.to === waId);
    expect(sentTo().map((message) => message.type)).toEqual(['template']);
    // "Hi" instead of tapping Start: the lesson follows, and "Hi" answers nothing unseen.
    expect((await post(fake.typeText(waId, 'Hi'))).json).toEqual({ status: 'recorded' });
    const lesson = sentTo().slice(1);
    expect(lesson.map((message) => message.type)).toEqual(['text', 'text']);
    expect(lesson.at(-1)!.text.body).toContain('Reply with your answer.');
    expect(await learnerDay(learners[0]!.uuid, course, 1)).toMatchObject({ answer: null });

    const words = 'I will listen before I answer.';
    expect((await post(fake.typeText(waId, words))).json).toEqual({ status: 'recorded' });
    expect(await learnerDay(learners[0]!.uuid, course, 1)).toMatchObject({
      state: 'correct',
      answer: words,
    });
    expect(fake.refused).toEqual([]);
  });

  it('a throughput limit (error 130429, no Retry-After) backs off and sends once', async () => {
    await enrol([{ phone: '+393339990000' }]);
    fake.rateLimit(1);
    const waits: number[] = [];
    const result = await tickAt(DAY1, { sleep: async (ms) => void waits.push(ms) });
    expect(result).toMatchObject({ sent: 1, failed: 0 });
    expect(waits).toHaveLength(1);
    expect(fake.messages.filter((message) => message.to === '393339990000')).toHaveLength(1);
  });
});

// The lesson template must be approved in each language learners read, with its one body
// variable and its quick reply (templates.ts): a fake with the template approved in English only.
describe('WhatsApp templates per language', async () => {
  const fake = await startFakeWhatsApp({ templateLanguages: ['en'] });
  afterAll(() => fake.close());
  const { app, world, connect } = await channelWorld('whatsapp', {
    whatsapp: { apiUrl: fake.apiUrl },
  });
  const fields = (templateName: string) => ({
    business_account_id: fake.businessAccountId,
    phone_number_id: fake.phoneNumberId,
    template_name: templateName,
    access_token: fake.token,
    app_secret: fake.appSecret,
    verify_token: VERIFY_TOKEN,
  });

  it('the connection test names the Italian learners left without an approved template', async () => {
    const learners = [
      { first_name: 'Anna', last_name: 'Rossi', locale: 'it' },
      { first_name: 'Marco', last_name: 'Bianchi', locale: 'it-IT' },
      { first_name: 'Ada', last_name: 'Lovelace', locale: 'en' },
      // Another channel's learner needs no WhatsApp template.
      { first_name: 'Lena', last_name: 'Meyer', locale: 'de', channels: ['slack'] },
    ];
    for (const learner of learners) {
      await insertLearner(app, world.company.uuid, { channels: ['whatsapp'], ...learner });
    }
    const response = await connect(fields(fake.templateName));
    // English learners are reached: the channel stays connected, the gap named beside it.
    expect(response.json.data).toMatchObject({ status: 'connected', last_error: null });
    expect(response.json.data.provider_ids).toMatchObject({
      template_status: 'APPROVED',
      template_languages: 'en',
      template_gaps: 'it: Marco Bianchi, Anna Rossi',
    });
  });

  it('refuses a template approved in no language with the right variables and quick reply', async () => {
    const response = await connect(fields('not_made_yet'));
    expect(response.json.data).toMatchObject({ status: 'error' });
    expect(response.json.data.last_error).toContain('not_made_yet');
  });
});

describe('WhatsApp window closed', async () => {
  const fake = await startFakeWhatsApp();
  afterAll(() => fake.close());

  it('a send the provider refuses as outside the window (131047) falls back to the template, the message waiting', async () => {
    const clock = createManualClock('2026-11-23T08:30:00.000Z');
    const connector = createWhatsAppConnector({ apiUrl: fake.apiUrl }, clock);
    const connection = {
      uuid: 'u',
      companyUuid: 'c',
      channel: 'whatsapp' as const,
      status: 'connected',
      providerIds: { phone_number_id: fake.phoneNumberId, template_name: fake.templateName },
      secrets: { access_token: fake.token },
    };
    // Our record says the learner wrote an hour ago, but WhatsApp never saw them write.
    const identity = {
      providerUserId: '393330000000',
      conversationId: null,
      lastInboundAt: '2026-11-23T07:30:00.000Z',
    };
    const reminder = sampleMessage('whatsapp', {}, { kind: 'reminder', lesson: null });
    const sent = await connector.send(connection, identity, reminder);
    expect(fake.refused.map((item) => item.problems)).toEqual([['131047']]);
    expect(fake.messages.map((message) => message.type)).toEqual(['template']);
    expect(sent.pending?.map((payload) => payload.type)).toEqual(['text']);
    expect(sent.accepted).toEqual([{ providerMessageId: fake.messages[0]!.id, template: true }]);
  });
});

describe('WhatsApp error verdicts', () => {
  const graph = (status: number, code: string) =>
    new ProviderHttpError(status, code, `${status} ${code}`, null, null);

  it('reads Graph error codes as Meta documents them, with a stable word for each', () => {
    expect(classifyWhatsAppError(graph(400, '131047'))).toMatchObject({
      kind: 'window_closed',
      code: 'window_closed',
    });
    expect(classifyWhatsAppError(graph(429, '130429'))).toMatchObject({
      kind: 'rate_limited',
      code: 'rate_limited',
    });
    // No Retry-After from Meta: the wait before writing to that user again, handed to the loop.
    expect(classifyWhatsAppError(graph(400, '131056'))).toEqual({
      kind: 'rate_limited',
      code: 'pair_rate_limited',
      retryAfterMs: PAIR_RATE_RETRY_MS,
    });
    // "Something went wrong … Try again", and the platform's own 5xx: retried with backoff.
    expect(classifyWhatsAppError(graph(500, '131000'))).toEqual({
      kind: 'retry',
      code: 'provider_error',
    });
    expect(classifyWhatsAppError(graph(502, 'http_502'))).toEqual({
      kind: 'retry',
      code: 'provider_unavailable',
    });
    expect(classifyWhatsAppError(graph(400, '131026'))).toEqual({
      kind: 'permanent',
      code: 'message_undeliverable',
    });
    expect(classifyWhatsAppError(graph(400, '999999'))).toEqual({
      kind: 'permanent',
      code: 'whatsapp_error',
    });
  });
});

/** The messages the fake took for a wa_id, by type, from the `from`-th on. */
const typesTo = (fake: Fake, waId: string, from = 0) =>
  fake.messages
    .filter((message) => message.to === waId)
    .slice(from)
    .map((message) => message.type);
type Fake = Awaited<ReturnType<typeof startFakeWhatsApp>>;

/** A WhatsApp world connected to its own fake (with the invitation template unless told). */
const connectedWorld = async ({ invitationTemplate = true } = {}) => {
  const fake = await startFakeWhatsApp();
  const world = await channelWorld('whatsapp', { whatsapp: { apiUrl: fake.apiUrl } });
  const connected = await world.connect({
    business_account_id: fake.businessAccountId,
    phone_number_id: fake.phoneNumberId,
    template_name: fake.templateName,
    ...(invitationTemplate ? { invitation_template_name: fake.invitationTemplateName } : {}),
    access_token: fake.token,
    app_secret: fake.appSecret,
    verify_token: VERIFY_TOKEN,
  });
  expect(connected.json.data.status).toBe('connected');
  return { fake, ...world };
};

/** The learner's enrolment status in the course. */
const enrolmentOf = async (app: TestApp, course: string, learner: string) =>
  (
    await app.db
      .selectFrom('enrollments')
      .select('status')
      .where('course_uuid', '=', course)
      .where('learner_uuid', '=', learner)
      .executeTakeFirstOrThrow()
  ).status;

/** The course's default distribution: the GDPR opt-in asked first. */
const OPT_IN = { distribution: { disabled_enrolment_opt_in: false } };

describe('WhatsApp opt-in with the invitation template', async () => {
  const { fake, app, webhook: post, enrol, tickAt, deliveriesOfDay } = await connectedWorld();
  afterAll(() => fake.close());

  it('the connection test checks the invitation template too', async () => {
    const connection = await app.db
      .selectFrom('channel_connections')
      .select('provider_ids')
      .where('channel', '=', 'whatsapp')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(connection.provider_ids)).toMatchObject({
      invitation_template_status: 'APPROVED',
    });
  });

  it('with the default opt-in, Join on the invitation template enrols the learner and the next lesson follows', async () => {
    const waId = '393331112222';
    const { course, learners } = await enrol([{ phone: `+${waId}` }], OPT_IN);
    expect(await tickAt(START)).toMatchObject({ invitations: 1 });
    expect(fake.refused).toEqual([]);
    const [invitation] = fake.messages.filter((message) => message.to === waId);
    expect(invitation).toMatchObject({
      type: 'template',
      template: { name: fake.invitationTemplateName },
    });
    expect(await enrolmentOf(app, course, learners[0]!.uuid)).toBe('invited');

    // Only the learner, and only signed as Meta signs, can answer.
    expect((await post(fake.tapTemplate(invitation!, { secret: 'wrong' }))).statusCode).toBe(401);
    expect((await post(fake.tapTemplate(invitation!, { from: '393339999999' }))).statusCode).toBe(
      403,
    );
    const join = fake.tapTemplate(invitation!, { index: 0 });
    expect((await post(join)).json).toEqual({ status: 'recorded' });
    expect((await post(join)).json).toEqual({ status: 'duplicate' });
    expect(await enrolmentOf(app, course, learners[0]!.uuid)).toBe('enrolled');

    // Day 1 falls within the day after the tap: the lesson itself goes, no template.
    expect(await tickAt(DAY1)).toMatchObject({ sent: 1, failed: 0 });
    expect(typesTo(fake, waId, 1)).toEqual(['text', 'interactive']);
    expect((await deliveriesOfDay(course)).map((row) => row.status)).toEqual(['sent']);
    expect(fake.refused).toEqual([]);
  });

  it('Decline on the invitation template declines, and no lesson goes', async () => {
    const waId = '393331113333';
    const { course, learners } = await enrol([{ phone: `+${waId}` }], OPT_IN);
    expect(await tickAt(START)).toMatchObject({ invitations: 1 });
    const [invitation] = fake.messages.filter((message) => message.to === waId);
    expect((await post(fake.tapTemplate(invitation!, { index: 1 }))).json).toEqual({
      status: 'recorded',
    });
    expect(await enrolmentOf(app, course, learners[0]!.uuid)).toBe('declined');
    await tickAt(DAY1);
    expect(typesTo(fake, waId)).toEqual(['template']);
  });
});

describe('WhatsApp opt-in without an invitation template', async () => {
  const {
    fake,
    app,
    webhook: post,
    enrol,
    tickAt,
  } = await connectedWorld({
    invitationTemplate: false,
  });
  afterAll(() => fake.close());

  it('Start on the lesson template brings the invitation with Join / Decline reply buttons, which answer it', async () => {
    const waIds = ['393332220001', '393332220002'];
    const { course, learners } = await enrol(
      waIds.map((waId) => ({ phone: `+${waId}` })),
      OPT_IN,
    );
    expect(await tickAt(START)).toMatchObject({ invitations: 2 });
    for (const [index, waId] of waIds.entries()) {
      const [notice] = fake.messages.filter((message) => message.to === waId);
      expect(notice).toMatchObject({ type: 'template', template: { name: fake.templateName } });
      expect((await post(fake.tapTemplate(notice!))).json).toEqual({ status: 'recorded' });
      // Inside the window now: the invitation itself, with its two reply buttons.
      const question = fake.messages.filter((message) => message.to === waId)[1]!;
      expect(question.interactive.type).toBe('button');
      expect(question.interactive.action.buttons).toHaveLength(2);
      expect((await post(fake.tapButton(question, index))).json).toEqual({ status: 'recorded' });
    }
    expect(await enrolmentOf(app, course, learners[0]!.uuid)).toBe('enrolled');
    expect(await enrolmentOf(app, course, learners[1]!.uuid)).toBe('declined');
    expect(fake.refused).toEqual([]);
  });

  it('a typed yes or no, in English, Italian or German, answers the pending invitation', async () => {
    const answers = [
      ['393332230001', 'Yes!', 'enrolled'],
      ['393332230002', 'sì', 'enrolled'],
      ['393332230003', 'Nein, danke', 'declined'],
      ['393332230004', 'no', 'declined'],
    ] as const;
    const { course, learners } = await enrol(
      answers.map(([waId]) => ({ phone: `+${waId}` })),
      OPT_IN,
    );
    expect(await tickAt(START)).toMatchObject({ invitations: 4 });
    for (const [waId, text] of answers) {
      expect((await post(fake.typeText(waId, text))).json).toEqual({ status: 'recorded' });
    }
    const byPhone = new Map(learners.map((learner) => [learner.phone, learner.uuid]));
    for (const [waId, , status] of answers) {
      expect(await enrolmentOf(app, course, byPhone.get(`+${waId}`)!)).toBe(status);
    }
    // Anything else answers nothing: the learner stays invited.
    const {
      course: other,
      learners: [late],
    } = await enrol([{ phone: '+393332239999' }], OPT_IN);
    await tickAt(START);
    expect((await post(fake.typeText('393332239999', 'maybe later'))).json).toEqual({
      status: 'ignored',
    });
    expect(await enrolmentOf(app, other, late!.uuid)).toBe('invited');
  });
});

describe('WhatsApp parts, retries and the window', async () => {
  const {
    fake,
    app,
    world,
    webhook: post,
    enrol,
    tickAt,
    deliveriesOfDay,
  } = await connectedWorld();
  afterAll(() => fake.close());

  /** A learner enrolled without opt-in who tapped Start on day 1 (their window is open). */
  const startedLearner = async (waId: string) => {
    const { course } = await enrol([{ phone: `+${waId}` }]);
    expect(await tickAt(DAY1)).toMatchObject({ sent: 1 });
    const [notice] = fake.messages.filter((message) => message.to === waId);
    app.testClock.set(LEARNERS_WRITE);
    expect((await post(fake.tapTemplate(notice!))).json).toEqual({ status: 'recorded' });
    expect(typesTo(fake, waId)).toEqual(['template', 'text', 'interactive']);
    // Read (a status webhook): no reminder of day 1 comes with day 2.
    const text = fake.messages.filter((message) => message.to === waId)[1]!;
    expect((await post(fake.status(text, 'read'))).json).toEqual({ status: 'recorded' });
    return course;
  };

  /** The lesson texts (not the question) the fake took for a wa_id, after the first `from`. */
  const textsTo = (waId: string, from: number) =>
    fake.messages
      .filter((message) => message.to === waId)
      .slice(from)
      .filter((message) => message.type === 'text');
  const minutesAfter = (iso: string, minutes: number) =>
    new Date(Date.parse(iso) + minutes * 60_000).toISOString();

  // Issue 25: "a retry never repeats a part that went". Meta's pair rate (131056, no Retry-After)
  // asks to wait before writing to that one user again, others at once
  // (https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes, 131056;
  // https://developers.facebook.com/docs/whatsapp/throughput, "Pair rate limits").
  it('a pair-rate limit (131056) on the question defers that lesson alone; the next tick sends only the question', async () => {
    const [waId, other] = ['393333330001', '393333330005'];
    const course = await startedLearner(waId);
    const otherCourse = await startedLearner(other);
    fake.failNext(131056, (json) => json.to === waId && json.type === 'interactive');
    const waits: number[] = [];
    // Nobody waits inline for the pair rate: the other learner's lesson goes in the same tick.
    expect(await tickAt(DAY2, { sleep: async (ms) => void waits.push(ms) })).toMatchObject({
      sent: 1,
      deferred: 1,
      failed: 0,
    });
    expect(waits).toEqual([]);
    expect(typesTo(fake, other, 3)).toEqual(['text', 'interactive']);
    expect((await deliveriesOfDay(otherCourse, 2)).map((row) => row.status)).toEqual(['sent']);
    expect(typesTo(fake, waId, 3)).toEqual(['text']);
    const [deferred] = await deliveriesOfDay(course, 2);
    expect(deferred).toMatchObject({
      status: 'scheduled',
      failure_code: 'rate_limited',
      next_attempt_at: new Date(Date.parse(DAY2) + PAIR_RATE_RETRY_MS).toISOString(),
    });

    // Not before its time; then the question alone, and the text reached the learner once.
    expect(await tickAt(minutesAfter(DAY2, 0.5))).toMatchObject({ sent: 0, deferred: 0 });
    expect(await tickAt(minutesAfter(DAY2, 2))).toMatchObject({ sent: 1, failed: 0 });
    expect(typesTo(fake, waId, 3)).toEqual(['text', 'interactive']);
    expect(textsTo(waId, 3)).toHaveLength(1);
    const [sent] = await deliveriesOfDay(course, 2);
    const ids = fake.messages.filter((message) => message.to === waId).slice(3);
    expect(sent).toMatchObject({ status: 'sent', failure_code: null });
    expect(sent!.provider_message_id).toBe(ids.map((message) => message.id).join(','));
    expect(fake.refused.map((item) => item.problems)).toEqual([['131056']]);
    fake.refused.length = 0;
  });

  it('a question that fails past the inline retries fails the lesson; Resend sends only the question', async () => {
    const waId = '393333330006';
    const course = await startedLearner(waId);
    for (let attempt = 0; attempt < 4; attempt += 1) {
      fake.failNext(131000, (json) => json.to === waId && json.type === 'interactive');
    }
    const noWait = { sleep: async () => {} };
    expect(await tickAt(DAY2, noWait)).toMatchObject({ sent: 0, failed: 1 });
    expect(typesTo(fake, waId, 3)).toEqual(['text']);
    const [failed] = await deliveriesOfDay(course, 2);
    expect(failed).toMatchObject({ status: 'failed', failure_code: 'provider_unavailable' });

    const resent = await call(app, {
      method: 'POST',
      url: `${world.base}/${course}/resend`,
      headers: await authHeaders(app, world),
      payload: { lessons: [failed!.uuid] },
    });
    expect(resent.json.data).toEqual({ lessons: 1, invitations: 0 });
    expect(await tickAt(minutesAfter(DAY2, 5), noWait)).toMatchObject({ sent: 1, failed: 0 });
    expect(typesTo(fake, waId, 3)).toEqual(['text', 'interactive']);
    expect(textsTo(waId, 3)).toHaveLength(1);
    expect((await deliveriesOfDay(course, 2)).map((row) => row.status)).toEqual(['sent']);
    fake.refused.length = 0;
  });

  it('a window closed on WhatsApp though our record says open (131047) sends the template, and Start brings the lesson', async () => {
    const waId = '393333330002';
    const course = await startedLearner(waId);
    fake.closeWindow(waId);
    expect(await tickAt(DAY2)).toMatchObject({ sent: 1, failed: 0 });
    expect(typesTo(fake, waId, 3)).toEqual(['template']);
    expect((await deliveriesOfDay(course, 2)).map((row) => row.status)).toEqual(['sent']);
    const notice = fake.messages.filter((message) => message.to === waId)[3]!;
    expect((await post(fake.tapTemplate(notice))).json).toEqual({ status: 'recorded' });
    expect(typesTo(fake, waId, 3)).toEqual(['template', 'text', 'interactive']);
  });

  it('131000 (something went wrong) is tried again with backoff and the lesson goes once', async () => {
    const waId = '393333330003';
    const { course } = await enrol([{ phone: `+${waId}` }]);
    fake.failNext(131000, (json) => json.to === waId);
    const waits: number[] = [];
    expect(await tickAt(DAY1, { sleep: async (ms) => void waits.push(ms) })).toMatchObject({
      sent: 1,
      failed: 0,
    });
    expect(waits).toHaveLength(1);
    expect(typesTo(fake, waId)).toEqual(['template']);
    expect((await deliveriesOfDay(course)).map((row) => row.status)).toEqual(['sent']);
  });

  it('on Start, a question refused for now is sent when Meta delivers the webhook again, the text not twice', async () => {
    const waId = '393333330004';
    await enrol([{ phone: `+${waId}` }]);
    expect(await tickAt(DAY1)).toMatchObject({ sent: 1 });
    const [notice] = fake.messages.filter((message) => message.to === waId);
    app.testClock.set(LEARNERS_WRITE);
    fake.failNext(131056, (json) => json.to === waId && json.type === 'interactive');
    const start = fake.tapTemplate(notice!);
    // Not all went: 503, so Meta delivers the same webhook again later.
    expect((await post(start)).statusCode).toBe(503);
    expect(typesTo(fake, waId)).toEqual(['template', 'text']);
    expect((await post(start)).json).toEqual({ status: 'recorded' });
    expect(typesTo(fake, waId)).toEqual(['template', 'text', 'interactive']);
    const question = fake.messages.filter((message) => message.to === waId).at(-1)!;
    expect((await post(fake.tapButton(question, 0))).json).toEqual({ status: 'recorded' });
  });
});

describe('WhatsApp statuses', async () => {
  const { fake, app, webhook: post, enrol, tickAt, deliveriesOfDay } = await connectedWorld();
  afterAll(() => fake.close());

  it('delivered and read of the lesson are its receipts; failed (131026) marks it failed with its reason', async () => {
    const [reader, unreachable] = ['393334440001', '393334440002'];
    const { course, learners } = await enrol([
      { phone: `+${reader}` },
      { phone: `+${unreachable}` },
    ]);
    expect(await tickAt(DAY1)).toMatchObject({ sent: 2 });
    const sentTo = (waId: string) => fake.messages.filter((message) => message.to === waId);
    const dayOf = async (waId: string) => {
      const learner = learners.find((row) => row.phone === `+${waId}`)!;
      return (await deliveriesOfDay(course)).find((row) => row.learner_uuid === learner.uuid)!;
    };

    // The template's receipts are not the lesson's: it was not in it.
    expect((await post(fake.status(sentTo(reader)[0]!, 'delivered'))).json).toEqual({
      status: 'ignored',
    });
    expect((await dayOf(reader)).delivered_at).toBeNull();

    app.testClock.set(LEARNERS_WRITE);
    expect((await post(fake.tapTemplate(sentTo(reader)[0]!))).json).toEqual({ status: 'recorded' });
    const [text, question] = sentTo(reader).slice(1);
    const deliveredAt = new Date('2026-11-23T12:00:05.000Z');
    const readAt = new Date('2026-11-23T12:03:00.000Z');
    app.testClock.set('2026-11-23T12:05:00.000Z');
    expect((await post(fake.status(text!, 'delivered', { timestamp: deliveredAt }))).json).toEqual({
      status: 'recorded',
    });
    expect((await post(fake.status(question!, 'delivered'))).json).toEqual({
      status: 'duplicate',
    });
    const read = fake.status(text!, 'read', { timestamp: readAt });
    expect((await post(read)).json).toEqual({ status: 'recorded' });
    expect((await post(read)).json).toEqual({ status: 'duplicate' });
    expect(await dayOf(reader)).toMatchObject({
      status: 'sent',
      delivered_at: deliveredAt.toISOString(),
      read_at: readAt.toISOString(),
    });
    const events = await app.db
      .selectFrom('learner_events')
      .select(['type', 'occurred_at'])
      .where('delivery_uuid', '=', (await dayOf(reader)).uuid)
      .orderBy('occurred_at')
      .execute();
    expect(events).toEqual([
      { type: 'delivered', occurred_at: deliveredAt.toISOString() },
      { type: 'read', occurred_at: readAt.toISOString() },
    ]);

    // The other learner's notice could not be delivered: the lesson failed, with the reason.
    const failed = fake.status(sentTo(unreachable)[0]!, 'failed', { errorCode: 131026 });
    expect((await post(failed)).json).toEqual({ status: 'recorded' });
    expect((await post(failed)).json).toEqual({ status: 'duplicate' });
    const lesson = await dayOf(unreachable);
    expect(lesson).toMatchObject({ status: 'failed', failure_code: 'undeliverable' });
    expect(lesson.failure_detail).toMatch(/^message_undeliverable: /);
    const outbox = await app.db
      .selectFrom('outbox_messages')
      .select(['status', 'last_error'])
      .where('delivery_uuid', '=', lesson.uuid)
      .execute();
    expect(outbox).toEqual([{ status: 'failed', last_error: 'message_undeliverable' }]);

    // A status of a message that is not ours, or not signed by Meta, changes nothing.
    expect(
      (await post(fake.status({ id: 'wamid.unknown', to: reader, type: 'text' }, 'read'))).json,
    ).toEqual({ status: 'ignored' });
    expect(
      (
        await post({
          ...fake.status(text!, 'read'),
          headers: { 'content-type': 'application/json' },
        })
      ).statusCode,
    ).toBe(401);
  });
});
describe('WhatsApp renderer limits', () => {
  const message = (answers: string[], content = '<p>Short.</p>') =>
    sampleMessage('whatsapp', { topic_content: content, assessment: choices(answers) });
  const last = (payloads: Record<string, any>[]) => payloads.at(-1)!;

  it('uses buttons for up to three short answers, a list up to ten, numbered replies beyond', () => {
    expect(last(renderWhatsAppSession(message(['Yes', 'No']))).interactive.type).toBe('button');
    const list = last(
      renderWhatsAppSession(message(['A much longer answer than twenty characters', 'B', 'C'])),
    );
    expect(list.interactive.type).toBe('list');
    expect(list.interactive.action.sections[0].rows).toHaveLength(3);
    const eleven = renderWhatsAppSession(
      message(Array.from({ length: 11 }, (_, index) => `Answer ${index + 1}`)),
    );
    expect(last(eleven).type).toBe('text');
    expect(last(eleven).text.body).toContain('11. Answer 11');
    expect(last(eleven).text.body).toContain('Reply with the number');
  });

  it('splits a lesson over 4 096 characters into several texts, losing nothing', () => {
    const paragraph = 'è'.repeat(500);
    const payloads = renderWhatsAppSession(
      message(['Yes'], Array.from({ length: 12 }, () => `<p>${paragraph}</p>`).join('')),
    ) as Record<string, any>[];
    const texts = payloads.filter((payload) => payload.type === 'text');
    expect(texts.length).toBeGreaterThan(1);
    for (const text of texts) expect(text.text.body.length).toBeLessThanOrEqual(4096);
    expect(
      texts
        .map((text) => String(text.text.body))
        .join('')
        .match(/è/g),
    ).toHaveLength(12 * 500);
  });
});
