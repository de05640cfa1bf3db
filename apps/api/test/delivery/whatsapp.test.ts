import { afterAll, describe, expect, it } from 'vitest';

import { createWhatsAppConnector } from '../../src/delivery/channels/whatsapp/client.ts';
import { renderWhatsAppSession } from '../../src/delivery/channels/whatsapp/render.ts';
import { createManualClock } from '../../src/lib/clock.ts';
import { DAY1, DAY2, channelWorld, choices, sampleMessage } from '../fixtures/channels.ts';
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

describe('WhatsApp window closed', async () => {
  const fake = await startFakeWhatsApp();
  afterAll(() => fake.close());

  it('a lesson the provider refuses as outside the window is classified window_closed, not retried', async () => {
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
    const error = await connector
      .send(connection, identity, reminder)
      .then(() => null)
      .catch((caught: unknown) => caught);
    expect(connector.classifyError(error)).toMatchObject({ kind: 'window_closed', code: '131047' });
    expect(fake.messages).toEqual([]);
    // A day later the window is closed by our own record too: only the template goes.
    clock.set('2026-11-24T08:30:00.000Z');
    await connector.send(connection, identity, reminder);
    expect(fake.messages.map((message) => message.type)).toEqual(['template']);
    expect(fake.refused).toHaveLength(1);
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
