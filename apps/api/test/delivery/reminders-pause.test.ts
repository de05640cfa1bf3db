import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';

import { MESSAGES } from '@ccp/schemas';
import type { TCourseLearner, TLearnerCourseDelivery } from '@ccp/schemas';

import { startFakeSlack } from '../fakes/slack.ts';
import type { FakeSlackUser } from '../fakes/slack.ts';
import { startFakeWhatsApp } from '../fakes/whatsapp.ts';
import { START, channelWorld } from '../fixtures/channels.ts';
import {
  authHeaders,
  courseBody,
  createWorld,
  deliveriesOf,
  enrolledCourse,
  enrolmentsOf,
  eventsOf,
  outboxOf,
  tickAt,
} from '../fixtures/delivery.ts';
import { buildTestApp, call } from '../helper.ts';

// Issue 28, reminders, pause and resume: the course's reminder policy (how many, how far apart),
// the learner paused after the course's number of unanswered lessons, resumed by a trainer or by
// writing RESUME (RIPRENDI, WEITER), and ended by STOP on the channel they write on. The clock
// is moved, never slept on.

// Courses are published at 2026-11-22T09:00Z; lessons at 09:30 Rome = 08:30Z from 23 November.
const DAY1 = '2026-11-23T08:30:00.000Z';
const HOUR = 60 * 60 * 1000;
const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
const day = (n: number) => plus(DAY1, (n - 1) * 24 * HOUR);

describe('the reminder policy and the auto-pause', async () => {
  const app = await buildTestApp();
  const world = await createWorld(app);

  it('reminds an unread lesson 3 times 12 hours apart, and never when the course says 0', async () => {
    const reminding = await enrolledCourse(app, world, 1, {
      days: 1,
      distribution: { reminder_count: 3, reminder_interval_hours: 12 },
    });
    const silent = await enrolledCourse(app, world, 1, {
      days: 1,
      distribution: { reminder_count: 0 },
    });
    expect((await tickAt(app, DAY1)).sent).toBe(2);

    const remindersAt = async (iso: string) => (await tickAt(app, iso)).reminders;
    expect(await remindersAt(plus(DAY1, 12 * HOUR - 1000))).toBe(0);
    expect(await remindersAt(plus(DAY1, 12 * HOUR))).toBe(1);
    expect(await remindersAt(plus(DAY1, 12 * HOUR + 60_000))).toBe(0);
    expect(await remindersAt(plus(DAY1, 24 * HOUR))).toBe(1);
    // A late tick still waits 12 hours after the reminder that went.
    expect(await remindersAt(plus(DAY1, 40 * HOUR))).toBe(1);
    expect(await remindersAt(plus(DAY1, 51 * HOUR))).toBe(0);
    expect(await remindersAt(plus(DAY1, 100 * HOUR))).toBe(0);

    const sentOf = async (course: string) =>
      (await deliveriesOf(app, course)).map((row) => row.reminders_sent);
    expect(await sentOf(reminding.course)).toEqual([3]);
    expect(await sentOf(silent.course)).toEqual([0]);
    const events = (await eventsOf(app, reminding.course)).filter(
      (event) => event.type === 'reminder',
    );
    expect(events.map((event) => event.occurred_at)).toEqual([
      plus(DAY1, 12 * HOUR),
      plus(DAY1, 24 * HOUR),
      plus(DAY1, 40 * HOUR),
    ]);
  });

  it('pauses a learner after 2 unanswered lessons and holds their lessons; a trainer resumes them from the next slot', async () => {
    const { course, learners } = await enrolledCourse(app, world, 2, {
      days: 8,
      distribution: { reminder_count: 0, auto_pause_after: 2 },
    });
    const [answering, silent] = learners;
    const rowsOf = async (learner: { uuid: string }) =>
      (await deliveriesOf(app, course)).filter((row) => row.learner_uuid === learner.uuid);
    const answerAll = async () => {
      for (const row of await rowsOf(answering!)) {
        if (row.status !== 'sent' || row.answered_at) continue;
        await app.db
          .updateTable('lesson_deliveries')
          .set({ read_at: row.sent_at, answered_at: row.sent_at, answer_correct: 1 })
          .where('uuid', '=', row.uuid)
          .execute();
      }
    };
    // Day 1 is missed on day 4 (72 hours), day 2 on day 5: the second in a row pauses.
    for (const n of [1, 2, 3, 4]) {
      await tickAt(app, day(n));
      await answerAll();
    }
    expect((await enrolmentsOf(app, course)).map((row) => row.status)).toEqual([
      'enrolled',
      'enrolled',
    ]);
    expect(await tickAt(app, day(5))).toMatchObject({ sent: 2, missed: 1, paused: 1, notices: 1 });
    const notice = (await outboxOf(app, world.company.uuid)).filter(
      (row) => row.kind === 'feedback',
    );
    const textOf = (body: string) => (JSON.parse(body) as { text: string }).text;
    expect(notice.map((row) => [row.recipient, textOf(row.body)])).toEqual([
      [
        silent!.email,
        '⏸ Negotiation basics is paused: you have not answered the last lessons. Write RESUME to continue.',
      ],
    ]);

    // Still one of the course's enrolled learners in every figure.
    const stats = await sql<{ enrolled: unknown }>`SELECT enrolled
      FROM analytics_enrollment_stats WHERE learner_uuid = ${silent!.uuid}`.execute(app.db);
    expect(stats.rows.map((row) => Number(row.enrolled))).toEqual([1]);

    // Insights lists who is paused, and why.
    const insights = await call(app, {
      method: 'GET',
      url: `/api/v2/analytics/classrooms/${world.classroom}/courses/${course}/learners?status=paused`,
      headers: await authHeaders(app, world),
    });
    const paused = insights.json.data as TCourseLearner[];
    expect(paused.map((learner) => [learner.uuid, learner.pause_reason])).toEqual([
      [silent!.uuid, 'unanswered'],
    ]);

    // Held: the answering learner's day 6 goes, the paused learner's does not.
    expect(await tickAt(app, day(6))).toMatchObject({ sent: 1 });
    expect((await rowsOf(silent!)).filter((row) => row.status === 'scheduled')).toHaveLength(3);

    // The learner page says why, and offers the trainer the resume.
    const headers = await authHeaders(app, world);
    const page = await call(app, {
      method: 'GET',
      url: `/api/v1/learners/${silent!.uuid}/deliveries`,
      headers,
    });
    const courses = page.json.data as TLearnerCourseDelivery[];
    const { enrollment: enrolment } = courses.find((item) => item.course.uuid === course)!;
    // Still enrolled (every figure counts them), with why they get nothing.
    expect(enrolment).toMatchObject({
      status: 'enrolled',
      pause_reason: 'unanswered',
      paused_at: day(5),
      resumable: true,
    });

    app.testClock.set(plus(day(6), 2 * HOUR));
    const trainer = await authHeaders(app, world);
    const resumeUrl = `/api/v1/learners/${silent!.uuid}/enrollments/${enrolment.uuid}/resume`;
    const resumed = await call(app, { method: 'POST', url: resumeUrl, headers: trainer });
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json.data).toEqual({
      uuid: enrolment.uuid,
      status: 'enrolled',
      pause_reason: null,
      next_lesson_at: day(7),
    });
    // Not paused any more: a second resume is refused in the caller's language.
    const again = await call(app, {
      method: 'POST',
      url: resumeUrl,
      headers: { ...trainer, 'accept-language': 'de' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json.error.message).toBe('Der Lernende ist in diesem Kurs nicht pausiert.');

    // The held lessons continue in order from the next slot: day 6's lesson on day 7.
    expect(await tickAt(app, day(7))).toMatchObject({ sent: 2, paused: 0 });
    expect(
      (await rowsOf(silent!)).filter((row) => row.status === 'sent').map((row) => row.day),
    ).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('refuses a reminder policy out of range with its message in the user’s language', async () => {
    const created = await call(app, {
      method: 'POST',
      url: world.base,
      headers: await authHeaders(app, world),
      payload: { name: 'Draft', description: 'Policy.' },
    });
    const save = async (distribution: Record<string, unknown>, language: string) =>
      call(app, {
        method: 'POST',
        url: `${world.base}/${created.json.data.uuid}`,
        headers: { ...(await authHeaders(app, world)), 'accept-language': language },
        payload: courseBody({ distribution }),
      });
    const six = await save({ reminder_count: 6 }, 'en');
    expect(six.statusCode).toBe(422);
    expect(six.json.error.errors['distribution.reminder_count']).toEqual([
      MESSAGES.reminderCountRange,
    ]);
    const hours = await save({ reminder_interval_hours: 0 }, 'it');
    expect(hours.json.error.errors['distribution.reminder_interval_hours']).toEqual([
      "Le ore tra un promemoria e l'altro devono essere un numero intero tra 1 e 168.",
    ]);
    const pause = await save({ auto_pause_after: 2.5 }, 'de');
    expect(pause.json.error.errors['distribution.auto_pause_after']).toEqual([
      'Die unbeantworteten Lektionen vor einer Pause müssen eine ganze Zahl zwischen 0 (nie) und 10 sein.',
    ]);
    const fine = await save({ reminder_count: 0, auto_pause_after: 0 }, 'en');
    expect(fine.statusCode).toBe(200);
    expect(fine.json.data.distribution).toMatchObject({
      reminder_count: 0,
      reminder_interval_hours: 24,
      auto_pause_after: 0,
    });
  });
});

describe('RESUME and STOP on Slack', async () => {
  const fake = await startFakeSlack();
  afterAll(() => fake.close());
  const {
    app,
    world,
    connect,
    webhook,
    enrol,
    tickAt: tickSlack,
  } = await channelWorld('slack', {
    slack: { apiUrl: fake.apiUrl },
  });
  const nowSeconds = () => Math.floor(app.clock.now().getTime() / 1000);

  it('RIPRENDI resumes a paused learner, STOP ends the enrolment and no lesson follows', async () => {
    await connect({ bot_token: fake.token, signing_secret: fake.signingSecret });
    const { course, learners } = await enrol([{ locale: 'it' }], {
      days: 3,
      distribution: { reminder_count: 0 },
    });
    const user = fake.addUser(learners[0]!.email!);
    expect(await tickSlack(DAY1)).toMatchObject({ sent: 1 });
    const [enrolment] = await enrolmentsOf(app, course);
    const headers = await authHeaders(app, world);
    const pauseUrl = `/api/v1/learners/${learners[0]!.uuid}/enrollments/${enrolment!.uuid}/pause`;
    expect((await call(app, { method: 'POST', url: pauseUrl, headers })).json.data).toMatchObject({
      status: 'enrolled',
      pause_reason: 'trainer',
    });
    expect(await tickSlack(day(2))).toMatchObject({ sent: 0 });

    const write = (text: string) =>
      webhook(fake.messageEvent(user, text, { nowSeconds: nowSeconds() }));
    expect((await write('Riprendi')).json).toEqual({ status: 'recorded' });
    expect((await enrolmentsOf(app, course))[0]).toMatchObject({
      status: 'enrolled',
      pause_reason: null,
    });
    await tickSlack(plus(day(2), 60_000));
    expect(fake.messages.at(-1)!.text).toBe(
      '▶️ Negotiation basics riprende: la prossima lezione è in arrivo.',
    );
    expect(await tickSlack(day(3))).toMatchObject({ sent: 1 });

    expect((await write('STOP')).json).toEqual({ status: 'recorded' });
    expect((await enrolmentsOf(app, course))[0]).toMatchObject({
      status: 'dropped',
      pause_reason: 'stop',
    });
    await tickSlack(plus(day(3), 60_000));
    expect(fake.messages.at(-1)!.text).toBe('⏹ Non riceverai più lezioni di Negotiation basics.');
    const sentBefore = fake.messages.length;
    expect(await tickSlack(day(4))).toMatchObject({ sent: 0, reminders: 0 });
    expect(fake.messages).toHaveLength(sentBefore);
    expect((await deliveriesOf(app, course)).map((row) => row.status)).toEqual([
      'sent',
      'sent',
      'canceled',
    ]);
    // A RESUME after STOP does not bring the learner back: only the trainer's lists do.
    expect((await write('resume')).json).toEqual({ status: 'ignored' });
  });
});

describe('STOP and RESUME before the first lesson, on Slack', async () => {
  const fake = await startFakeSlack();
  afterAll(() => fake.close());
  const {
    app,
    connect,
    webhook,
    enrol,
    tickAt: tickSlack,
  } = await channelWorld('slack', {
    slack: { apiUrl: fake.apiUrl },
  });
  const nowSeconds = () => Math.floor(app.clock.now().getTime() / 1000);

  // A learner who has had no lesson yet (invited, or joined with the first lesson tomorrow) had
  // no lesson send for the confirmation to go with: their STOP ended the enrolment in silence.
  it('ends the enrolment of an invited or joined learner with the confirmation; RESUME says their course goes on', async () => {
    await connect({ bot_token: fake.token, signing_secret: fake.signingSecret });
    const { course, learners } = await enrol([{}, {}, { locale: 'it' }], {
      days: 2,
      distribution: { disabled_enrolment_opt_in: false, reminder_count: 0 },
    });
    const [joined, invited, waiting] = learners.map((learner) => fake.addUser(learner.email!));
    const lastTo = (user: { id: string }) =>
      fake.messages.filter((message) => message.userId === user.id).at(-1)!;
    expect(await tickSlack(START)).toMatchObject({ invitations: 3 });
    for (const user of [joined!, waiting!]) {
      const tap = fake.tapRequest(lastTo(user), 0, { nowSeconds: nowSeconds() });
      expect((await webhook(tap)).json).toEqual({ status: 'recorded' });
    }
    const statuses = async () =>
      Object.fromEntries(
        (await enrolmentsOf(app, course)).map((row) => [
          row.learner_uuid,
          [row.status, row.pause_reason ?? null],
        ]),
      );
    const [joinedUuid, invitedUuid, waitingUuid] = learners.map((learner) => learner.uuid);
    expect(await statuses()).toEqual({
      [joinedUuid!]: ['enrolled', null],
      [invitedUuid!]: ['invited', null],
      [waitingUuid!]: ['enrolled', null],
    });

    app.testClock.set(plus(START, 10 * 60_000));
    const write = (user: FakeSlackUser, text: string) =>
      webhook(fake.messageEvent(user, text, { nowSeconds: nowSeconds() }));
    expect((await write(joined!, 'STOP')).json).toEqual({ status: 'recorded' });
    expect((await write(invited!, 'Stopp')).json).toEqual({ status: 'recorded' });
    expect((await write(waiting!, 'riprendi')).json).toEqual({ status: 'recorded' });
    expect(await statuses()).toEqual({
      [joinedUuid!]: ['dropped', 'stop'],
      [invitedUuid!]: ['dropped', 'stop'],
      [waitingUuid!]: ['enrolled', null],
    });

    await tickSlack(plus(START, 15 * 60_000));
    const stopped = '⏹ You will receive no more lessons of Negotiation basics.';
    expect(lastTo(joined!).text).toBe(stopped);
    expect(lastTo(invited!).text).toBe(stopped);
    expect(lastTo(waiting!).text).toBe(
      '▶️ Negotiation basics riprende: la prossima lezione è in arrivo.',
    );
    // Only the learner still in gets day 1.
    expect(await tickSlack(DAY1)).toMatchObject({ sent: 1, notices: 0 });
    expect(JSON.stringify(lastTo(waiting!).blocks)).toContain('Day 1');
  });
});

describe('WEITER and STOP on WhatsApp', async () => {
  const fake = await startFakeWhatsApp();
  afterAll(() => fake.close());
  const {
    app,
    world,
    connect,
    webhook,
    enrol,
    tickAt: tickWhatsApp,
  } = await channelWorld('whatsapp', { whatsapp: { apiUrl: fake.apiUrl } });

  it('WEITER resumes, STOP ends the enrolment and nothing follows', async () => {
    await connect({
      business_account_id: fake.businessAccountId,
      phone_number_id: fake.phoneNumberId,
      template_name: fake.templateName,
      access_token: fake.token,
      app_secret: fake.appSecret,
      verify_token: 'whatsapp-verify-token',
    });
    const phone = '+493012345678';
    const waId = '493012345678';
    const { course, learners } = await enrol([{ phone }], {
      days: 3,
      distribution: { reminder_count: 0 },
    });
    expect(await tickWhatsApp(DAY1)).toMatchObject({ sent: 1 });
    const [enrolment] = await enrolmentsOf(app, course);
    const pauseUrl = `/api/v1/learners/${learners[0]!.uuid}/enrollments/${enrolment!.uuid}/pause`;
    await call(app, { method: 'POST', url: pauseUrl, headers: await authHeaders(app, world) });

    expect((await webhook(fake.typeText(waId, 'weiter!'))).json).toMatchObject({
      status: 'recorded',
    });
    expect((await enrolmentsOf(app, course))[0]).toMatchObject({
      status: 'enrolled',
      pause_reason: null,
    });

    expect((await webhook(fake.typeText(waId, 'Stop'))).json).toMatchObject({
      status: 'recorded',
    });
    await tickWhatsApp(plus(DAY1, HOUR));
    const texts = fake.messages
      .filter((message) => message.to === waId && message.type === 'text')
      .map((message) => message.text.body as string);
    // WhatsApp sets the line in bold, as every feedback's first line.
    expect(texts.at(-1)).toBe('*⏹ You will receive no more lessons of Negotiation basics.*');
    expect((await enrolmentsOf(app, course))[0]).toMatchObject({
      status: 'dropped',
      pause_reason: 'stop',
    });
    expect(await tickWhatsApp(day(2))).toMatchObject({ sent: 0 });
    expect(await tickWhatsApp(day(3))).toMatchObject({ sent: 0 });
  });
});
