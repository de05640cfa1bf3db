import { MESSAGES } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { wallClock } from '../../src/delivery/schedule.ts';
import { buildTestApp, call, createUser, signIn } from '../helper.ts';
import type { TestApp } from '../helper.ts';
import {
  authHeaders,
  channelToken,
  createWorld,
  deliveriesOf,
  learnersList,
  postEvents,
  publishCourse,
  tickAt,
} from '../fixtures/delivery.ts';

// Issue 28, "The learner's hours": a course may read its time in each learner's own zone, and a
// company may set quiet hours and a holiday country; each delays a lesson, never drops it. The
// test clock starts on Sunday 2026-11-22 09:00Z; New York is on EST (UTC-5), Rome on CET (UTC+1).
const START = '2026-11-22T09:00:00.000Z';
const NEW_YORK = 'America/New_York';

type World = Awaited<ReturnType<typeof createWorld>>;

const setHours = async (app: TestApp, world: World, body: Record<string, unknown>) => {
  const response = await call(app, {
    method: 'PUT',
    url: '/api/v1/company/delivery-hours',
    headers: await authHeaders(app, world),
    payload: body,
  });
  expect(response.statusCode).toBe(200);
  return response.json.data as Record<string, unknown>;
};

/** The wizard's calendar preview of a Distribution, for a learner when given. */
const previewCalendar = async (app: TestApp, world: World, payload: Record<string, unknown>) =>
  call(app, {
    method: 'POST',
    url: '/api/v1/courses/helpers/delivery-calendar',
    headers: await authHeaders(app, world),
    payload,
  });

/** Each learner's sends: day → scheduled instant. */
const plansOf = async (app: TestApp, course: string) => {
  const plans = new Map<string, Record<number, string>>();
  for (const row of await deliveriesOf(app, course)) {
    plans.set(row.learner_uuid, { ...plans.get(row.learner_uuid), [row.day]: row.scheduled_for });
  }
  return plans;
};

const localTimes = (plan: Record<number, string> | undefined, zone: string) =>
  Object.values(plan ?? {}).map((at) => {
    const local = wallClock(zone, Date.parse(at));
    return `${local.date} ${local.time}`;
  });

describe('the learner’s hours: time zone, quiet hours, public holidays', async () => {
  const app = await buildTestApp();

  it('a learner in New York with a 08:00 local course gets the lesson at 08:00 New York time and never inside quiet hours', async () => {
    app.testClock.set(START);
    const world = await createWorld(app);
    await setHours(app, world, { quiet_hours: { start: '20:00', end: '08:00' } });
    const { list, learners } = await learnersList(app, world, [
      { first_name: 'Nora', time_zone: NEW_YORK },
      { first_name: 'Rita' },
    ]);
    const [nora, rita] = learners;
    const course = await publishCourse(app, world, {
      lists: [list.uuid],
      distribution: { time: '08:00', learner_time_zone: true, disabled_enrolment_opt_in: true },
    });

    // The choice comes back with the course, for the wizard to show and save again.
    const saved = await call(app, {
      method: 'GET',
      url: `${world.base}/${course}`,
      headers: await authHeaders(app, world),
    });
    expect(saved.json.data.distribution).toMatchObject({ time: '08:00', learner_time_zone: true });

    const plans = await plansOf(app, course);
    expect(plans.get(nora!.uuid)).toEqual({
      1: '2026-11-23T13:00:00.000Z',
      2: '2026-11-24T13:00:00.000Z',
    });
    // Without a zone of her own Rita is in the company's, Rome: 08:00 CET.
    expect(plans.get(rita!.uuid)).toEqual({
      1: '2026-11-23T07:00:00.000Z',
      2: '2026-11-24T07:00:00.000Z',
    });

    // The scheduler's clock is moved: at 07:59 in New York only Rita's lesson has gone.
    expect((await tickAt(app, '2026-11-23T07:00:00.000Z')).sent).toBe(1);
    expect((await tickAt(app, '2026-11-23T12:59:00.000Z')).sent).toBe(0);
    expect((await tickAt(app, '2026-11-23T13:00:00.000Z')).sent).toBe(1);
    const sent = (await deliveriesOf(app, course)).filter(
      (row) => row.learner_uuid === nora!.uuid && row.status === 'sent',
    );
    expect(sent.map((row) => row.day)).toEqual([1]);
    const local = wallClock(NEW_YORK, Date.parse(sent[0]!.sent_at!));
    expect(local).toEqual({ date: '2026-11-23', time: '08:00' });
    expect(local.time >= '08:00' && local.time < '20:00').toBe(true);
  });

  it('a CET course waits for the end of the quiet hours in the learner’s zone, once they are set; without them it is as before', async () => {
    app.testClock.set(START);
    const world = await createWorld(app);
    const { list, learners } = await learnersList(app, world, [
      { first_name: 'Nora', time_zone: NEW_YORK },
      { first_name: 'Rita' },
    ]);
    const [nora, rita] = learners;
    const options = {
      lists: [list.uuid],
      distribution: { time: '08:00', disabled_enrolment_opt_in: true },
    };
    // No delivery hours: 08:00 CET for everyone (spec §9), 02:00 in New York.
    const course = await publishCourse(app, world, options);
    const before = await plansOf(app, course);
    expect(before.get(nora!.uuid)?.[1]).toBe('2026-11-23T07:00:00.000Z');
    expect(before.get(rita!.uuid)?.[1]).toBe('2026-11-23T07:00:00.000Z');

    // Setting quiet hours replans the scheduled course at once.
    await setHours(app, world, { quiet_hours: { start: '22:00', end: '07:30' } });
    const after = await plansOf(app, course);
    expect(localTimes(after.get(nora!.uuid), NEW_YORK)).toEqual([
      '2026-11-23 07:30',
      '2026-11-24 07:30',
    ]);
    expect(after.get(rita!.uuid)?.[1]).toBe('2026-11-23T07:00:00.000Z');
  });

  it('a public holiday of the learner’s country delays the lesson to the next day, dropping none', async () => {
    app.testClock.set(START);
    const world = await createWorld(app);
    await setHours(app, world, { holiday_country: 'it' });
    const { list, learners } = await learnersList(app, world, [
      { first_name: 'Rita', time_zone: 'Europe/Rome' },
      { first_name: 'Nora', time_zone: NEW_YORK },
    ]);
    const [rita, nora] = learners;
    // Daily from Monday 7 December: the 8th is a holiday in Italy (Immacolata), not in the US.
    const course = await publishCourse(app, world, {
      lists: [list.uuid],
      distribution: { time: '09:30', start_date: '2026-12-07', disabled_enrolment_opt_in: true },
    });
    const plans = await plansOf(app, course);
    expect(plans.get(rita!.uuid)).toEqual({
      1: '2026-12-07T08:30:00.000Z',
      2: '2026-12-09T08:30:00.000Z',
    });
    expect(plans.get(nora!.uuid)).toEqual({
      1: '2026-12-07T08:30:00.000Z',
      2: '2026-12-08T08:30:00.000Z',
    });
  });

  it('a late opt-in is planned in the learner’s own zone too', async () => {
    app.testClock.set(START);
    const world = await createWorld(app);
    const { list, learners } = await learnersList(app, world, [{ time_zone: NEW_YORK }]);
    const course = await publishCourse(app, world, {
      lists: [list.uuid],
      distribution: { time: '08:00', learner_time_zone: true },
    });
    const token = await channelToken(app, world);
    app.testClock.set('2026-11-23T12:00:00.000Z');
    const optIn = await postEvents(app, 'slack', token, [
      {
        type: 'opted_in',
        course_uuid: course,
        learner_uuid: learners[0]!.uuid,
        occurred_at: '2026-11-23T12:00:00.000Z',
      },
    ]);
    expect(optIn.statusCode).toBe(200);
    expect(localTimes((await plansOf(app, course)).get(learners[0]!.uuid), NEW_YORK)).toEqual([
      '2026-11-23 08:00',
      '2026-11-24 08:00',
    ]);
  });

  it('the calendar preview shows a chosen learner’s sends in their zone, with what delayed them', async () => {
    app.testClock.set(START);
    const world = await createWorld(app);
    await setHours(app, world, { holiday_country: 'IT' });
    const { learners } = await learnersList(app, world, [{ time_zone: NEW_YORK }]);
    const distribution = {
      time: '08:00',
      start_date: '2026-11-24',
      learner_time_zone: true,
      channels: ['slack'],
    };
    const response = await previewCalendar(app, world, {
      distribution,
      days: 4,
      learner_uuid: learners[0]!.uuid,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json.data.time_zone).toBe(NEW_YORK);
    // Thanksgiving (Thursday 26) is a public holiday of her country: day 3 goes on Friday.
    expect(
      (response.json.data.slots as Record<string, unknown>[]).map((slot) => [
        slot.date,
        slot.time,
        slot.offset,
        slot.delayed,
        slot.holiday,
      ]),
    ).toEqual([
      ['2026-11-24', '08:00', '-05:00', null, null],
      ['2026-11-25', '08:00', '-05:00', null, null],
      ['2026-11-27', '08:00', '-05:00', 'holiday', 'Thanksgiving Day'],
      ['2026-11-28', '08:00', '-05:00', null, null],
    ]);

    // Without a learner: one in the company's zone, Rome, with Italy's holidays.
    const plain = await previewCalendar(app, world, { distribution, days: 1 });
    expect(plain.json.data).toMatchObject({
      time_zone: 'Europe/Rome',
      slots: [{ date: '2026-11-24', time: '08:00', offset: '+01:00', delayed: null }],
    });

    const stranger = await previewCalendar(app, world, {
      distribution,
      days: 1,
      learner_uuid: '00000000-0000-4000-8000-000000000000',
    });
    expect(stranger.statusCode).toBe(404);
  });

  it('delivery hours: defaults, validation in the user’s language, administrators only', async () => {
    app.testClock.set(START);
    const world = await createWorld(app);
    const headers = await authHeaders(app, world);
    const initial = await call(app, {
      method: 'GET',
      url: '/api/v1/company/delivery-hours',
      headers,
    });
    expect(initial.json.data).toMatchObject({
      time_zone: 'Europe/Rome',
      quiet_hours: null,
      holiday_country: null,
    });
    expect(initial.json.data.holiday_countries).toEqual(expect.arrayContaining(['IT', 'DE', 'US']));

    const bad = await call(app, {
      method: 'PUT',
      url: '/api/v1/company/delivery-hours',
      headers: { ...headers, 'accept-language': 'de' },
      payload: {
        time_zone: 'Mars/Olympus',
        quiet_hours: { start: '20:00', end: '20:00' },
        holiday_country: 'IT',
      },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json.error.errors).toEqual({
      time_zone: ['Die Zeitzone muss eine bekannte Zeitzone sein, zum Beispiel Europe/Rome.'],
      'quiet_hours.end': [
        'Ruhezeiten brauchen einen Beginn und ein Ende im Format HH:mm, die sich unterscheiden.',
      ],
    });
    const unknownCountry = await call(app, {
      method: 'PUT',
      url: '/api/v1/company/delivery-hours',
      headers,
      payload: { holiday_country: 'XX' },
    });
    expect(unknownCountry.statusCode).toBe(422);
    expect(unknownCountry.json.error.errors).toEqual({
      holiday_country: [MESSAGES.holidayCountryUnknown],
    });

    const saved = await setHours(app, world, {
      time_zone: 'europe/berlin',
      quiet_hours: { start: '21:00', end: '07:00' },
      holiday_country: 'de',
    });
    expect(saved).toMatchObject({
      time_zone: 'Europe/Berlin',
      quiet_hours: { start: '21:00', end: '07:00' },
      holiday_country: 'DE',
    });

    const creator = await createUser(app, world.company, {
      email: 'creator@example.test',
      isAdmin: false,
    });
    const tokens = await signIn(app, creator);
    const refused = await call(app, {
      method: 'PUT',
      url: '/api/v1/company/delivery-hours',
      headers: { authorization: `Bearer ${tokens.access_token}` },
      payload: {},
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json.error.message).toBe(MESSAGES.deliveryHoursAdminOnly);
    const kept = await call(app, { method: 'GET', url: '/api/v1/company/delivery-hours', headers });
    expect(kept.json.data.holiday_country).toBe('DE');
  });
});
