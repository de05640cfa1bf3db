import type { TCourseInsight } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { buildTestApp, call, createSignedInUser, signIn } from '../helper.ts';
import {
  analyticsCourse,
  analyticsLearner,
  enrol,
  lessonSent,
  novemberAt8,
  seedClassroomHistory,
} from '../fixtures/analytics.ts';

// GET /api/v2/analytics/classrooms/{id}/courses/insights on hand-built histories; every figure
// is worked out from docs/metrics.md. The clock stands at 2026-11-22T09:00:00Z (10:00 in Rome).

describe('GET /api/v2/analytics/classrooms/{id}/courses/insights', async () => {
  const app = await buildTestApp();
  const { company, user, headers } = await createSignedInUser(app);
  const classroom = company.classrooms[0]!.uuid;
  const history = await seedClassroomHistory(app, company);
  const insights = () =>
    call(app, {
      method: 'GET',
      url: `/api/v2/analytics/classrooms/${classroom}/courses/insights`,
      headers,
    });
  // Tokens expire as the clock moves: sign in again at the new time.
  const insightsAt = async (time: string) => {
    app.testClock.set(time);
    const tokens = await signIn(app, user);
    const response = await call(app, {
      method: 'GET',
      url: `/api/v2/analytics/classrooms/${classroom}/courses/insights`,
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    app.testClock.set('2026-11-22T09:00:00.000Z');
    return (response.json.data as TCourseInsight[])[0]!;
  };

  it('answers every active and delivered course of the classroom, by name, with exact figures', async () => {
    const response = await insights();
    expect(response.statusCode).toBe(200);
    expect(response.json.data).toEqual([
      {
        uuid: history.courses.alpha.uuid,
        name: 'Alpha',
        status: 'active',
        // Enrolled: Ada, Bob, Cy, Dee, Eve and Hal (dropped after enrolling); 9 invited.
        learners: 6,
        delivery: 60, // 9 delivered of 15 sent
        completion: 16.7, // Ada of 6
        activity: 66.7, // Ada, Bob, Dee, Hal of 6
        progress: 29.2, // 7 lessons read of 6 × 4
        enrollment: 66.7, // 6 of 9
        dormant: 33.3, // Bob and Hal of 6
        mood: 'happy', // success 60
        completionRate: 55.6, // 5 answered of 9 delivered
        activityRate: 77.8, // 7 read of 9 delivered
        successRate: 60, // 3 right of 5
        engagementRate: 55.3, // (55.56 + 60) / 2 − 5 × 3 reminders / 6 learners
        dormantLearners: 2,
        zick_score: 33.7, // (16.67 + 55.28 + 29.17) / 3
        // 5 answered, none missed: 3 right at once, 2 wrong and never repeated (issue 28).
        questionsTried: 5,
        retention: 60,
        retentionFirstTry: 60,
        retentionAfterRepeat: 0,
        retentionNotYet: 40,
      },
      {
        uuid: history.courses.beta.uuid,
        name: 'Beta',
        status: 'delivered',
        learners: 2,
        delivery: 100,
        completion: 50,
        activity: 50,
        progress: 50,
        enrollment: 100,
        dormant: 50,
        mood: 'excited',
        completionRate: 50,
        activityRate: 50,
        successRate: 100,
        engagementRate: 75,
        dormantLearners: 1,
        zick_score: 58.3,
        questionsTried: 2,
        retention: 100,
        retentionFirstTry: 100,
        retentionAfterRepeat: 0,
        retentionNotYet: 0,
      },
    ]);
  });

  it('counts a learner dormant once 7 days pass without activity after a lesson', async () => {
    // Dee read on 21 November at 07:00Z: active up to 28 November 07:00Z, dormant after.
    // Eve, sent a first lesson on 21 November at 07:00Z and silent since, is dormant from then.
    const before = await insightsAt('2026-11-28T06:59:59.000Z');
    const at = await insightsAt('2026-11-28T07:00:00.000Z');
    const after = await insightsAt('2026-11-28T07:00:01.000Z');
    expect([before.dormantLearners, at.dormantLearners, after.dormantLearners]).toEqual([2, 3, 4]);
  });

  it('answers only the courses of the classroom asked for', async () => {
    const response = await call(app, {
      method: 'GET',
      url: `/api/v2/analytics/classrooms/${company.classrooms[1]!.uuid}/courses/insights`,
      headers,
    });
    expect((response.json.data as TCourseInsight[]).map((course) => course.name)).toEqual([
      'Epsilon',
    ]);
  });

  it('answers 404 for another company’s classroom and for an unknown one', async () => {
    const other = await createSignedInUser(app);
    for (const id of [classroom, '6a1c2f3e-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const response = await call(app, {
        method: 'GET',
        url: `/api/v2/analytics/classrooms/${id}/courses/insights`,
        headers: other.headers,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json.error.code).toBe('NOT_FOUND');
    }
  });

  it('answers 401 without a token', async () => {
    const response = await call(app, {
      method: 'GET',
      url: `/api/v2/analytics/classrooms/${classroom}/courses/insights`,
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('course insights edge cases', async () => {
  const app = await buildTestApp();
  const { company, headers } = await createSignedInUser(app);
  const classroom = company.classrooms[0]!.uuid;
  const figuresOf = async (name: string) => {
    const response = await call(app, {
      method: 'GET',
      url: `/api/v2/analytics/classrooms/${classroom}/courses/insights`,
      headers,
    });
    return (response.json.data as TCourseInsight[]).find((course) => course.name === name);
  };
  const zeros = {
    learners: 0,
    delivery: 0,
    completion: 0,
    activity: 0,
    progress: 0,
    enrollment: 0,
    dormant: 0,
    mood: 'none',
    completionRate: 0,
    activityRate: 0,
    successRate: 0,
    engagementRate: 0,
    dormantLearners: 0,
    zick_score: 0,
    questionsTried: 0,
    retention: 0,
    retentionFirstTry: 0,
    retentionAfterRepeat: 0,
    retentionNotYet: 0,
  };

  it('answers zeros, never NaN, for a course without learners or lessons', async () => {
    await analyticsCourse(app, company, { name: 'Empty' });
    await analyticsCourse(app, company, { name: 'No lessons', minutes: [] });
    expect(await figuresOf('Empty')).toMatchObject(zeros);
    expect(await figuresOf('No lessons')).toMatchObject(zeros);
  });

  it('answers zeros with an enrolment rate for invited learners who never opted in', async () => {
    const course = await analyticsCourse(app, company, { name: 'Invited only' });
    await enrol(app, course, await analyticsLearner(app, company), { status: 'invited' });
    expect(await figuresOf('Invited only')).toMatchObject(zeros);
  });

  it('counts everyone dormant when nobody interacted for 7 days', async () => {
    const course = await analyticsCourse(app, company, { name: 'Sleepy', minutes: [5, 5] });
    for (let index = 0; index < 3; index += 1) {
      const enrolment = await enrol(app, course, await analyticsLearner(app, company));
      await lessonSent(app, enrolment, 1, { at: novemberAt8(10) });
      await lessonSent(app, enrolment, 2, { at: novemberAt8(11) });
    }
    expect(await figuresOf('Sleepy')).toEqual({
      ...zeros,
      uuid: course.uuid,
      name: 'Sleepy',
      status: 'active',
      learners: 3,
      delivery: 100,
      enrollment: 100,
      dormant: 100,
      dormantLearners: 3,
    });
  });

  it('clamps the engagement rate at 0 when reminders take it below zero', async () => {
    const course = await analyticsCourse(app, company, { name: 'Nagged' });
    const enrolment = await enrol(app, course, await analyticsLearner(app, company));
    // Completion rate 100, success 0: (100 + 0) / 2 = 50, minus 5 × 11 reminders = −5 → 0.
    await lessonSent(app, enrolment, 1, {
      at: novemberAt8(21),
      readAfter: 1,
      answeredAfter: 2,
      correct: false,
      reminders: 11,
    });
    expect(await figuresOf('Nagged')).toMatchObject({
      completionRate: 100,
      successRate: 0,
      engagementRate: 0,
      completion: 100,
      progress: 100,
      // (100 + 0 + 100) / 3 with the clamped engagement.
      zick_score: 66.7,
      mood: 'sad',
    });
  });

  it('takes exactly 5 points per reminder per enrolled learner', async () => {
    const course = await analyticsCourse(app, company, { name: 'Reminded' });
    for (const reminders of [1, 2]) {
      const enrolment = await enrol(app, course, await analyticsLearner(app, company));
      await lessonSent(app, enrolment, 1, {
        at: novemberAt8(21),
        readAfter: 1,
        answeredAfter: 2,
        reminders,
      });
    }
    // (100 + 100) / 2 − 5 × 3 / 2 = 92.5
    expect((await figuresOf('Reminded'))?.engagementRate).toBe(92.5);
  });
});
