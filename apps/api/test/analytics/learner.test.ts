import type { TLearner, TLearnerInsights } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { buildTestApp, call, createSignedInUser } from '../helper.ts';
import { seedClassroomHistory } from '../fixtures/analytics.ts';

// GET /api/v1/analytics/learners/{id} on the shared history. Clock: 2026-11-22T09:00:00Z.

describe('GET /api/v1/analytics/learners/{id}', async () => {
  const app = await buildTestApp();
  const { company, headers } = await createSignedInUser(app);
  const history = await seedClassroomHistory(app, company);
  const { alpha, beta } = history.courses;
  const insightsOf = (uuid: string, authHeaders = headers) =>
    call(app, { method: 'GET', url: `/api/v1/analytics/learners/${uuid}`, headers: authHeaders });

  it('answers a learner’s courses with the per-day assessment analysis', async () => {
    const response = await insightsOf(history.learners.ada.uuid);
    expect(response.statusCode).toBe(200);
    // Gamma (draft) and Delta (archived) are not counted; Epsilon (other classroom) is.
    expect((response.json.data as TLearnerInsights).courses.map((course) => course.name)).toEqual([
      'Alpha',
      'Beta',
      'Epsilon',
    ]);
    expect(response.json.data).toMatchObject({
      courses_activity: 100,
      courses_completion: 100,
      courses_progress: 100,
      learning_time: 69, // 50 in Alpha, 14 in Beta, 5 in Epsilon
    });
    expect(response.json.data.courses[0]).toEqual({
      uuid: alpha.uuid,
      name: 'Alpha',
      status: 'active',
      learner_status: 'completed',
      progress: 100,
      learning_time: 50,
      days: [
        {
          day: 1,
          title: 'en day 1',
          sent_at: '2026-11-10T07:00:00.000Z',
          read_at: '2026-11-10T07:10:00.000Z',
          answered_at: '2026-11-10T07:20:00.000Z',
          state: 'correct',
          answer: null,
          dtr_seconds: 540, // delivered at 07:01, read at 07:10
          dtca_seconds: 600,
          right_after_repeat_at: null,
        },
        {
          day: 2,
          title: 'en day 2',
          sent_at: '2026-11-11T07:00:00.000Z',
          read_at: '2026-11-11T07:30:00.000Z',
          answered_at: '2026-11-11T07:45:00.000Z',
          state: 'wrong',
          answer: null,
          dtr_seconds: 1740,
          dtca_seconds: 900,
          right_after_repeat_at: null,
        },
        {
          day: 3,
          title: 'en day 3',
          sent_at: '2026-11-12T07:00:00.000Z',
          read_at: '2026-11-12T07:05:00.000Z',
          answered_at: '2026-11-12T07:06:00.000Z',
          state: 'correct',
          answer: null,
          dtr_seconds: 240,
          dtca_seconds: 60,
          right_after_repeat_at: null,
        },
        {
          // Read, never answered, sent over 72 hours ago (not yet stamped missed).
          day: 4,
          title: 'en day 4',
          sent_at: '2026-11-13T07:00:00.000Z',
          read_at: '2026-11-13T08:00:00.000Z',
          answered_at: null,
          state: 'not_answered',
          answer: null,
          dtr_seconds: 3540,
          dtca_seconds: null,
          right_after_repeat_at: null,
        },
      ],
    });
  });

  it('shows what the learner answered, when the channel reported the text', async () => {
    const delivery = await app.db
      .selectFrom('lesson_deliveries')
      .select(['uuid', 'company_uuid', 'course_uuid', 'answered_at'])
      .where('learner_uuid', '=', history.learners.ada.uuid)
      .where('course_uuid', '=', alpha.uuid)
      .where('day', '=', 2)
      .executeTakeFirstOrThrow();
    await app.db
      .insertInto('learner_events')
      .values({
        uuid: crypto.randomUUID(),
        company_uuid: delivery.company_uuid,
        course_uuid: delivery.course_uuid,
        learner_uuid: history.learners.ada.uuid,
        delivery_uuid: delivery.uuid,
        type: 'answered',
        correct: 0,
        occurred_at: delivery.answered_at!,
        payload: JSON.stringify({ text: 'Ask for a bigger discount' }),
        created_at: delivery.answered_at!,
      })
      .execute();
    const response = await insightsOf(history.learners.ada.uuid);
    const days = (response.json.data as TLearnerInsights).courses[0]!.days;
    expect(days.map((day) => day.answer)).toEqual([null, 'Ask for a bigger discount', null, null]);
  });

  it('answers pending within 72 hours and not_sent for scheduled and failed lessons', async () => {
    const eve = (await insightsOf(history.learners.eve.uuid)).json.data as TLearnerInsights;
    expect(eve.courses).toHaveLength(1);
    expect(eve.courses[0]!.learner_status).toBe('not_started');
    expect(eve.courses[0]!.days.map((day) => day.state)).toEqual([
      'pending',
      'not_sent',
      'not_sent',
      'not_sent',
    ]);
    expect(eve.courses[0]!.days[0]).toMatchObject({ dtr_seconds: null, dtca_seconds: null });
    expect(eve.courses[0]!.days[1]).toMatchObject({ sent_at: null, read_at: null });
    expect(eve).toMatchObject({
      courses_activity: 0,
      courses_completion: 0,
      courses_progress: 0,
      learning_time: 0,
    });

    const cy = (await insightsOf(history.learners.cy.uuid)).json.data as TLearnerInsights;
    expect(cy.courses[0]!.learner_status).toBe('unreachable');
    expect(cy.courses[0]!.days.map((day) => day.state)).toEqual([
      'not_sent',
      'not_sent',
      'not_sent',
      'not_sent',
    ]);
  });

  it('answers the figures over several courses', async () => {
    const bob = (await insightsOf(history.learners.bob.uuid)).json.data as TLearnerInsights;
    expect(bob).toMatchObject({
      courses_activity: 50, // Alpha of Alpha and Beta
      courses_completion: 0,
      courses_progress: 16.7, // 1 read of 4 + 2 days
      learning_time: 5,
    });
    expect(bob.courses.map((course) => course.uuid)).toEqual([alpha.uuid, beta.uuid]);
    expect(bob.courses[0]!.days[0]).toMatchObject({
      state: 'correct',
      read_at: null,
      dtr_seconds: null,
      dtca_seconds: null,
    });
    expect(bob.courses[1]!.days.map((day) => day.state)).toEqual(['not_answered', 'not_answered']);
  });

  it('answers no courses for a learner who is not enrolled', async () => {
    for (const learner of [history.learners.fay, history.learners.ivy]) {
      expect((await insightsOf(learner.uuid)).json.data).toEqual({
        courses_activity: 0,
        courses_completion: 0,
        courses_progress: 0,
        learning_time: 0,
        courses: [],
      });
    }
  });

  it('answers 404 for another company’s learner', async () => {
    const other = await createSignedInUser(app);
    const response = await insightsOf(history.learners.ada.uuid, other.headers);
    expect(response.statusCode).toBe(404);
    expect(response.json.error.code).toBe('NOT_FOUND');
  });

  it('gives the learners resource the same summary (one learner and the list)', async () => {
    const list = await call(app, { method: 'GET', url: '/api/v1/learners?per_page=100', headers });
    expect(list.statusCode).toBe(200);
    const listed = new Map(
      (list.json.data as TLearner[]).map((learner) => [learner.uuid, learner] as const),
    );
    for (const learner of Object.values(history.learners)) {
      const {
        courses: _courses,
        learning_time,
        ...analytics
      } = (await insightsOf(learner.uuid)).json.data as TLearnerInsights;
      const one = await call(app, {
        method: 'GET',
        url: `/api/v1/learners/${learner.uuid}`,
        headers,
      });
      expect(one.json.data).toMatchObject({ analytics, learning_time });
      expect(listed.get(learner.uuid)).toMatchObject({ analytics, learning_time });
    }
    // Not all zero: the figures come from the history.
    expect(listed.get(history.learners.ada.uuid)).toMatchObject({
      analytics: { courses_activity: 100, courses_completion: 100, courses_progress: 100 },
      learning_time: 69,
    });
    expect(listed.get(history.learners.bob.uuid)?.analytics.courses_progress).toBe(16.7);
  });
});
