import type { TDeliveryCalendar, TDeliveryOptions } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { newUuid } from '../../src/lib/ids.ts';
import { buildTestApp, call, createSignedInUser } from '../helper.ts';
import {
  answerBody,
  assessmentBody,
  lessonBody,
  seedLearnersList,
  validCourseBody,
} from '../fixtures/courses.ts';

// The wizard's helpers: the calendar of every send, the delivery options, the channel previews.

const distribution = (overrides: Record<string, unknown> = {}) => ({
  repeat_period: 'Day',
  repeat_every: 1,
  time: '08:00',
  start_date: '2026-10-22',
  channels: ['slack'],
  disabled_enrolment_opt_in: false,
  exclusion_days: [],
  enrollment_close_time: null,
  ...overrides,
});

describe('course wizard: the delivery calendar', async () => {
  const app = await buildTestApp();
  const { headers } = await createSignedInUser(app);
  const calendar = (body: unknown, language?: string) =>
    call(app, {
      method: 'POST',
      url: '/api/v1/courses/helpers/delivery-calendar',
      headers: { ...headers, ...(language ? { 'accept-language': language } : {}) },
      payload: body as object,
    });

  it('skips weekends and crosses the October change to winter time', async () => {
    // Thu 22 Oct 2026; Europe/Rome leaves summer time on Sunday 25 October.
    const response = await calendar({
      distribution: distribution({ exclusion_days: ['saturday', 'sunday'] }),
      days: 4,
    });
    expect(response.statusCode).toBe(200);
    const { slots, skipped, time_zone: zone } = response.json.data as TDeliveryCalendar;
    expect(zone).toBe('Europe/Rome');
    expect(slots.map((slot) => slot.date)).toEqual([
      '2026-10-22',
      '2026-10-23',
      '2026-10-26',
      '2026-10-27',
    ]);
    expect(slots.map((slot) => slot.at)).toEqual([
      '2026-10-22T06:00:00.000Z',
      '2026-10-23T06:00:00.000Z',
      '2026-10-26T07:00:00.000Z',
      '2026-10-27T07:00:00.000Z',
    ]);
    expect(slots.map((slot) => slot.time)).toEqual(Array(4).fill('08:00'));
    expect(slots.map((slot) => slot.offset)).toEqual(['+02:00', '+02:00', '+01:00', '+01:00']);
    expect(slots.map((slot) => slot.offset_changed)).toEqual([false, false, true, false]);
    expect(skipped).toEqual([
      { date: '2026-10-24', weekday: 'saturday' },
      { date: '2026-10-25', weekday: 'sunday' },
    ]);
  });

  it('repeats every N weeks and says nothing was skipped without exclusions', async () => {
    const response = await calendar({
      distribution: distribution({ repeat_period: 'Week', repeat_every: 2, time: '17:45' }),
      days: 3,
    });
    const data = response.json.data as TDeliveryCalendar;
    expect(data.slots.map((slot) => slot.date)).toEqual(['2026-10-22', '2026-11-05', '2026-11-19']);
    expect(data.skipped).toEqual([]);
  });

  it('answers 422 in the request language without a start date or with a bad day count', async () => {
    const noDate = await calendar(
      { distribution: distribution({ start_date: null }), days: 2 },
      'it',
    );
    expect(noDate.statusCode).toBe(422);
    expect(noDate.json.error.errors['distribution.start_date']).toEqual([
      'Seleziona la data di erogazione del corso.',
    ]);
    const badDays = await calendar({ distribution: distribution(), days: 31 });
    expect(badDays.statusCode).toBe(422);
    expect(badDays.json.error.errors.days).toEqual(['The day must be between 1 and 30.']);
  });

  it('refuses anonymous callers', async () => {
    const response = await call(app, {
      method: 'POST',
      url: '/api/v1/courses/helpers/delivery-calendar',
      payload: { distribution: distribution(), days: 1 },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json.error.code).toBeDefined();
  });
});

describe('course wizard: delivery options and channel previews', async () => {
  const app = await buildTestApp();
  const { company, headers } = await createSignedInUser(app, { plan: 'free' });
  const classroom = company.classrooms[0]!.uuid;
  const base = `/api/v1/classrooms/${classroom}/courses`;
  const slackList = await seedLearnersList(app, company.uuid, { name: 'Slack team', learners: 3 });
  const other = await seedLearnersList(app, company.uuid, { name: 'Empty list' });

  const createCourse = async (body: Record<string, unknown> = {}) => {
    const created = await call(app, {
      method: 'POST',
      url: base,
      headers,
      payload: { name: 'Draft', description: 'To be filled.' },
    });
    const uuid = created.json.data.uuid as string;
    const saved = await call(app, {
      method: 'POST',
      url: `${base}/${uuid}`,
      headers,
      payload: {
        ...validCourseBody({ languages: ['en'], days: 1, lists: [] }),
        distribution: null,
        ...body,
      },
    });
    expect(saved.statusCode).toBe(200);
    return uuid;
  };

  it('lists the plan’s channels and the lists with reachable learners per channel', async () => {
    const uuid = await createCourse();
    const response = await call(app, {
      method: 'GET',
      url: `${base}/${uuid}/delivery-options?channel=slack&lists=${slackList.uuid},${other.uuid}`,
      headers,
    });
    expect(response.statusCode).toBe(200);
    const data = response.json.data as TDeliveryOptions;
    // The free plan allows one channel and no other course uses one yet: each is allowed alone.
    expect(data.channel_limit).toEqual({ feature: 'distribution-channels', used: 0, limit: 1 });
    expect(data.channels.every((channel) => channel.allowed)).toBe(true);
    const slack = data.lists.find((list) => list.uuid === slackList.uuid)!;
    expect(slack.learners_count).toBe(3);
    expect(slack.reachable.slack).toBe(3);
    expect(slack.reachable.whatsapp).toBe(0);
    expect(data.reached).toBe(3);
  });

  it('says which channels really send: only a connected provider, never a demo or none', async () => {
    const uuid = await createCourse();
    const connect = (channel: string, status: string) =>
      app.db
        .insertInto('channel_connections')
        .values({
          uuid: newUuid(),
          company_uuid: company.uuid,
          channel,
          status,
          provider_ids: '{}',
          provider_key: null,
          secrets: '',
          last_error: null,
          last_tested_at: null,
          created_by: null,
          created_at: app.clock.now().toISOString(),
          updated_at: app.clock.now().toISOString(),
        })
        .execute();
    await connect('ms-teams', 'demo');
    await connect('slack', 'connected');
    await connect('webex', 'error');
    const response = await call(app, {
      method: 'GET',
      url: `${base}/${uuid}/delivery-options?channel=ms-teams&lists=${slackList.uuid}`,
      headers,
    });
    const options = response.json.data as TDeliveryOptions;
    expect(
      Object.fromEntries(
        options.channels.map((channel) => [channel.key, [channel.connection, channel.sends]]),
      ),
    ).toEqual({
      'ms-teams': ['demo', false],
      slack: ['connected', true],
      whatsapp: ['not_connected', false],
      webex: ['error', false],
      'google-chat': ['not_connected', false],
    });
    await app.db
      .deleteFrom('channel_connections')
      .where('company_uuid', '=', company.uuid)
      .execute();
  });

  it('allows only the channel other courses use once the plan’s channels are taken', async () => {
    await createCourse({ distribution: distribution({ channels: ['webex'] }) });
    const uuid = await createCourse();
    const response = await call(app, {
      method: 'GET',
      url: `${base}/${uuid}/delivery-options`,
      headers,
    });
    const options = response.json.data as TDeliveryOptions;
    const allowed = options.channels
      .filter((channel) => channel.allowed)
      .map((channel) => channel.key);
    expect(allowed).toEqual(['webex']);
    expect(options.reached).toBeNull();
  });

  it('renders a day for the five channels and flags what a channel cannot carry', async () => {
    const uuid = await createCourse();
    const answers = Array.from({ length: 11 }, (_, index) =>
      answerBody(`Answer number ${index + 1}`, index === 0),
    );
    const response = await call(app, {
      method: 'POST',
      url: `${base}/${uuid}/channel-preview`,
      headers: { ...headers, 'accept-language': 'de' },
      payload: {
        day: 1,
        language: 'en',
        lesson: lessonBody(1, 'en', { assessment: assessmentBody({ answers }) }),
      },
    });
    expect(response.statusCode).toBe(200);
    const previews = response.json.data.previews as {
      channel: string;
      payload: any;
      issues: { code: string; message: string }[];
    }[];
    expect(previews.map((preview) => preview.channel)).toEqual([
      'ms-teams',
      'slack',
      'whatsapp',
      'webex',
      'google-chat',
    ]);
    // Each channel's payload is what its connector sends: WhatsApp's session messages (eleven
    // answers are more than a list's ten rows: numbered replies), Teams' one choice set.
    const whatsapp = previews.find((preview) => preview.channel === 'whatsapp')!;
    expect(whatsapp.payload.type).toBe('text');
    const parts = whatsapp.payload.continued as { text: { body: string } }[];
    expect(parts.at(-1)!.text.body).toContain('11. Answer number 11');
    expect(whatsapp.issues).toEqual([
      {
        code: 'tooManyButtons',
        message:
          'WhatsApp zeigt höchstens 3 Antwortschaltflächen; diese Frage hat 11, daher antworten die Lernenden mit der Nummer ihrer Wahl.',
      },
    ]);
    const teams = previews.find((preview) => preview.channel === 'ms-teams')!;
    const body = teams.payload.attachments[0].content.body as { type: string; choices?: [] }[];
    expect(body.find((element) => element.type === 'Input.ChoiceSet')!.choices).toHaveLength(11);
    expect(teams.issues).toEqual([]);
    expect(previews.find((preview) => preview.channel === 'slack')!.issues).toEqual([]);
  });

  it('previews the stored lesson without a body, and answers 404 for a missing one', async () => {
    const uuid = await createCourse();
    const stored = await call(app, {
      method: 'POST',
      url: `${base}/${uuid}/channel-preview`,
      headers,
      payload: { day: 1, language: 'en' },
    });
    expect(stored.statusCode).toBe(200);
    expect(stored.json.data.previews[3].payload.markdown).toContain('## Day 1 in en');
    const missing = await call(app, {
      method: 'POST',
      url: `${base}/${uuid}/channel-preview`,
      headers,
      payload: { day: 2, language: 'en' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json.error.message).toBe('The lesson is missing.');
    const foreign = await call(app, {
      method: 'POST',
      url: `${base}/${newUuid()}/channel-preview`,
      headers,
      payload: { day: 1, language: 'en' },
    });
    expect(foreign.statusCode).toBe(404);
  });
});
