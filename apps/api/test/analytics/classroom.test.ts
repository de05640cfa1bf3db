import type { TDistributionChart } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { buildTestApp, call, createSignedInUser } from '../helper.ts';
import {
  analyticsCourse,
  analyticsLearner,
  enrol,
  lessonSent,
  seedClassroomHistory,
} from '../fixtures/analytics.ts';

// The classroom figures of spec §7 on the shared history (test/fixtures/analytics.ts), worked
// out from docs/metrics.md. Clock: 2026-11-22T09:00:00Z.

describe('classroom analytics', async () => {
  const app = await buildTestApp();
  const { company, headers } = await createSignedInUser(app);
  const classroom = company.classrooms[0]!.uuid;
  const history = await seedClassroomHistory(app, company);
  const get = (url: string) => call(app, { method: 'GET', url, headers });
  const v1 = `/api/v1/analytics/classrooms/${classroom}`;
  const v2 = `/api/v2/analytics/classrooms/${classroom}`;

  describe('GET /api/v1/analytics/classrooms/{id}', () => {
    it('answers all-time figures without dates', async () => {
      const response = await get(v1);
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({
        data: {
          // Enrolments sent a lesson: Alpha Ada, Bob, Cy, Dee, Eve, Hal; Beta Ada, Bob.
          learners: 6,
          active_learners_rate: 66.7, // Ada, Bob, Dee, Hal of 6
          completion_rate: 25, // Ada in Alpha and in Beta, of 8 enrolments
          progress_rate: 32.1, // 7 + 2 lessons read of 6 × 4 + 2 × 2
          total_courses: 2,
        },
      });
    });

    it('counts the lesson sends of the period only, by Europe/Rome days', async () => {
      // 10–13 November: Alpha's days 1–4 of Ada, Bob and Cy and Hal's day 1.
      const response = await get(`${v1}?start_date=2026-11-10&end_date=2026-11-13`);
      expect(response.json.data).toEqual({
        learners: 4,
        active_learners_rate: 75, // Ada, Bob, Hal of Ada, Bob, Cy, Hal
        completion_rate: 25, // Ada of 4
        progress_rate: 37.5, // 4 + 1 + 0 + 1 read of 4 × 4
        total_courses: 1,
      });
    });

    it('reads the period from the lesson sends when it leaves some out', async () => {
      // From 6 November: Beta's day 1 (5 November) is left out, so Ada's first Beta read is.
      const response = await get(`${v1}?start_date=2026-11-06&end_date=2026-11-21`);
      expect(response.json.data).toEqual({
        learners: 6,
        active_learners_rate: 66.7,
        completion_rate: 25,
        progress_rate: 28.6, // 7 + 1 of 28
        total_courses: 2,
      });
    });

    it('answers the all-time figures for a period holding every send', async () => {
      const all = await get(v1);
      for (const query of ['start_date=2026-11-05&end_date=2026-11-21', 'start_date=2026-01-01']) {
        expect((await get(`${v1}?${query}`)).json).toEqual(all.json);
      }
    });

    it('counts an enrolment whose run spans the period, even without a send in it', async () => {
      const other = await createSignedInUser(app);
      const weekly = await analyticsCourse(app, other.company, { name: 'Weekly', minutes: [5, 5] });
      const enrolment = await enrol(app, weekly, await analyticsLearner(app, other.company));
      await lessonSent(app, enrolment, 1, { at: '2026-11-02T07:00:00.000Z', readAfter: 1 });
      await lessonSent(app, enrolment, 2, { at: '2026-11-09T07:00:00.000Z' });
      const response = await call(app, {
        method: 'GET',
        url: `/api/v1/analytics/classrooms/${other.company.classrooms[0]!.uuid}?start_date=2026-11-04&end_date=2026-11-06`,
        headers: other.headers,
      });
      // Running, not active in the period (read on 2 November), no lesson of the period read.
      expect(response.json.data).toEqual({
        learners: 1,
        active_learners_rate: 0,
        completion_rate: 0,
        progress_rate: 0,
        total_courses: 1,
      });
    });

    it('answers zeros for a period without sends', async () => {
      const response = await get(`${v1}?start_date=2026-10-01&end_date=2026-10-31`);
      expect(response.json.data).toEqual({
        learners: 0,
        active_learners_rate: 0,
        completion_rate: 0,
        progress_rate: 0,
        total_courses: 0,
      });
    });

    it('refuses malformed dates, an end before the start and a period over 366 days', async () => {
      const cases: [string, Record<string, string[]>][] = [
        [
          'start_date=2026-13-01',
          { start_date: ['The date must be a valid date in the YYYY-MM-DD format.'] },
        ],
        [
          'start_date=2026-11-10&end_date=2026-11-09',
          { end_date: ['The end date must be a date after or equal to the start date.'] },
        ],
        [
          'start_date=2025-01-01&end_date=2026-01-02',
          { end_date: ['The period may not be longer than 366 days.'] },
        ],
      ];
      for (const [query, errors] of cases) {
        const response = await get(`${v1}?${query}`);
        expect(response.statusCode).toBe(422);
        expect(response.json.error.errors).toEqual(errors);
      }
      // 366 days exactly, and one day, are fine.
      expect((await get(`${v1}?start_date=2025-01-01&end_date=2026-01-01`)).statusCode).toBe(200);
      expect((await get(`${v1}?start_date=2026-11-10&end_date=2026-11-10`)).statusCode).toBe(200);
    });
  });

  describe('GET /api/v2/analytics/classrooms/{id}/statistics', () => {
    it('answers the totals of the counted courses', async () => {
      const response = await get(`${v2}/statistics`);
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({
        data: {
          totalActiveLearners: 4, // Ada, Bob, Dee, Hal
          coursesAttended: 5, // Alpha: Ada, Bob, Dee, Hal; Beta: Ada
          lessonsAttended: 9,
          learningTime: 79, // Ada 5+10+15+20 + 7+7, Bob 5, Dee 5, Hal 5
        },
      });
    });
  });

  describe('GET /api/v1/analytics/classrooms/{id}/learners', () => {
    it('answers the learners who interacted and who completed a course', async () => {
      const response = await get(`${v1}/learners`);
      expect(response.json).toEqual({ data: { interacted: 4, completed: 1 } });
    });
  });

  describe('GET /api/v2/analytics/classrooms/{id}/learners/status', () => {
    it('answers every enrolment by status now', async () => {
      const response = await get(`${v2}/learners/status`);
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({
        data: {
          completed: 2, // Ada in Alpha and Beta
          unreachable: 1, // Cy
          active: 1, // Dee
          dormant: 3, // Bob in Alpha and Beta, Hal
          not_started: 1, // Eve
          total: 8,
        },
      });
    });

    it('narrows to the enrolments sent a lesson in the period', async () => {
      const response = await get(`${v2}/learners/status?start_date=2026-11-10&end_date=2026-11-13`);
      expect(response.json.data).toEqual({
        completed: 1,
        unreachable: 1,
        active: 0,
        dormant: 2,
        not_started: 0,
        total: 4,
      });
    });

    it('narrows to one course of the classroom', async () => {
      const response = await get(`${v2}/learners/status?course_id=${history.courses.beta.uuid}`);
      expect(response.json.data).toEqual({
        completed: 1,
        unreachable: 0,
        active: 0,
        dormant: 1,
        not_started: 0,
        total: 2,
      });
    });

    it('counts a learner made unreachable after the sends', async () => {
      await app.db
        .updateTable('learners')
        .set({ reachability: 'unreachable' })
        .where('uuid', '=', history.learners.eve.uuid)
        .execute();
      const response = await get(`${v2}/learners/status`);
      await app.db
        .updateTable('learners')
        .set({ reachability: 'reachable' })
        .where('uuid', '=', history.learners.eve.uuid)
        .execute();
      expect(response.json.data).toMatchObject({ unreachable: 2, not_started: 0, total: 8 });
    });

    it('answers 404 for a course of another classroom', async () => {
      const response = await get(`${v2}/learners/status?course_id=${history.courses.epsilon.uuid}`);
      expect(response.statusCode).toBe(404);
    });
  });

  describe('GET /api/v{1,2}/analytics/classrooms/{id}/distribution', () => {
    const expectedDefault = {
      start_date: '2026-11-08',
      end_date: '2026-11-22',
      list: [
        ['2026-11-08', 0, 0, 0],
        ['2026-11-09', 0, 0, 0],
        ['2026-11-10', 3, 3, 3], // Ada, Bob (answer without receipt), Hal; Cy failed
        ['2026-11-11', 2, 1, 1], // Ada; Bob unread
        ['2026-11-12', 1, 1, 1], // Ada; Bob without receipt
        ['2026-11-13', 1, 1, 0], // Ada read, no answer
        ['2026-11-14', 0, 0, 0],
        ['2026-11-15', 0, 0, 0],
        ['2026-11-16', 0, 0, 0],
        ['2026-11-17', 0, 0, 0],
        ['2026-11-18', 0, 0, 0],
        ['2026-11-19', 0, 0, 0],
        ['2026-11-20', 1, 1, 0], // Dee on WhatsApp
        ['2026-11-21', 1, 0, 0], // Eve
        ['2026-11-22', 0, 0, 0], // Eve's day 2 is still scheduled
      ].map(([date, delivered, read, answered]) => ({ date, delivered, read, answered })),
      channels: [
        { channel: 'slack', delivered: 8 },
        { channel: 'whatsapp', delivered: 1 },
      ],
    };

    it('answers the last 15 days by default, on v1 and v2 alike', async () => {
      const [first, second] = [await get(`${v1}/distribution`), await get(`${v2}/distribution`)];
      expect(first.statusCode).toBe(200);
      expect(first.json).toEqual({ data: expectedDefault });
      expect(second.json).toEqual(first.json);
    });

    it('answers 15 days from a start date, and the period asked for', async () => {
      expect((await get(`${v2}/distribution?start_date=2026-11-08`)).json.data).toEqual(
        expectedDefault,
      );
      const response = await get(
        `${v2}/distribution?start_date=2026-11-05&end_date=2026-11-06&course_id=${history.courses.beta.uuid}`,
      );
      expect(response.json.data).toEqual({
        start_date: '2026-11-05',
        end_date: '2026-11-06',
        list: [
          { date: '2026-11-05', delivered: 2, read: 1, answered: 1 },
          { date: '2026-11-06', delivered: 2, read: 1, answered: 1 },
        ],
        channels: [{ channel: 'slack', delivered: 4 }],
      });
    });

    it('puts each send on its Europe/Rome day, in winter and in summer time', async () => {
      const other = await createSignedInUser(app);
      const course = await analyticsCourse(app, other.company, { name: 'Night owl' });
      const enrolment = await enrol(app, course, await analyticsLearner(app, other.company));
      // 23:59 and 00:00 in Rome (UTC+1 in December, UTC+2 in July).
      await lessonSent(app, enrolment, 1, { at: '2026-12-01T22:59:00.000Z' });
      await lessonSent(app, enrolment, 2, { at: '2026-12-01T23:00:00.000Z' });
      await lessonSent(app, enrolment, 3, { at: '2026-07-01T21:59:00.000Z' });
      await lessonSent(app, enrolment, 4, { at: '2026-07-01T22:00:00.000Z' });
      const chart = async (start: string, end: string) =>
        (
          (
            await call(app, {
              method: 'GET',
              url: `/api/v2/analytics/classrooms/${other.company.classrooms[0]!.uuid}/distribution?start_date=${start}&end_date=${end}`,
              headers: other.headers,
            })
          ).json.data as TDistributionChart
        ).list.map((day) => [day.date, day.delivered]);
      expect(await chart('2026-12-01', '2026-12-02')).toEqual([
        ['2026-12-01', 1],
        ['2026-12-02', 1],
      ]);
      expect(await chart('2026-07-01', '2026-07-02')).toEqual([
        ['2026-07-01', 1],
        ['2026-07-02', 1],
      ]);
      expect(await chart('2026-12-02', '2026-12-02')).toEqual([['2026-12-02', 1]]);
    });
  });

  it('answers 404 on every classroom endpoint for another company’s classroom', async () => {
    const other = await createSignedInUser(app);
    for (const url of [
      v1,
      `${v1}/distribution`,
      `${v1}/learners`,
      `${v2}/statistics`,
      `${v2}/distribution`,
      `${v2}/learners/status`,
    ]) {
      const response = await call(app, { method: 'GET', url, headers: other.headers });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 404 });
      expect(response.json.error).toEqual({
        status: 404,
        code: 'NOT_FOUND',
        message: 'Not found.',
      });
    }
  });
});

describe('classroom analytics of an empty classroom', async () => {
  const app = await buildTestApp();
  const { company, headers } = await createSignedInUser(app);
  const classroom = company.classrooms[0]!.uuid;
  const get = async (url: string): Promise<unknown> =>
    (await call(app, { method: 'GET', url, headers })).json.data;

  it('answers zeros everywhere', async () => {
    expect(await get(`/api/v1/analytics/classrooms/${classroom}`)).toEqual({
      learners: 0,
      active_learners_rate: 0,
      completion_rate: 0,
      progress_rate: 0,
      total_courses: 0,
    });
    expect(await get(`/api/v2/analytics/classrooms/${classroom}/statistics`)).toEqual({
      totalActiveLearners: 0,
      coursesAttended: 0,
      lessonsAttended: 0,
      learningTime: 0,
    });
    expect(await get(`/api/v1/analytics/classrooms/${classroom}/learners`)).toEqual({
      interacted: 0,
      completed: 0,
    });
    expect(await get(`/api/v2/analytics/classrooms/${classroom}/learners/status`)).toEqual({
      completed: 0,
      unreachable: 0,
      active: 0,
      dormant: 0,
      not_started: 0,
      total: 0,
    });
    expect(await get(`/api/v2/analytics/classrooms/${classroom}/courses/insights`)).toEqual([]);
    const chart = (await get(
      `/api/v2/analytics/classrooms/${classroom}/distribution`,
    )) as TDistributionChart;
    expect(chart.list).toHaveLength(15);
    expect(chart.channels).toEqual([]);
  });
});
