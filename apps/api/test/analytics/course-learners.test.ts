import { COURSE_LEARNER_FILTERS, ENGAGEMENT_STATUSES } from '@ccp/schemas';
import type { TCourseLearner, TCourseLearnerFilter } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { buildTestApp, call, createSignedInUser } from '../helper.ts';
import { seedClassroomHistory } from '../fixtures/analytics.ts';

// GET /api/v2/analytics/classrooms/{id}/courses/{courseId}/learners on the shared history
// (test/fixtures/analytics.ts): the learners behind the status counts, by name. Clock:
// 2026-11-22T09:00:00Z.

describe('GET /api/v2/analytics/classrooms/{id}/courses/{courseId}/learners', async () => {
  const app = await buildTestApp();
  const { company, headers } = await createSignedInUser(app);
  const classroom = company.classrooms[0]!.uuid;
  const history = await seedClassroomHistory(app, company);
  const alpha = history.courses.alpha.uuid;
  const base = `/api/v2/analytics/classrooms/${classroom}`;
  const get = (url: string) => call(app, { method: 'GET', url, headers });
  const names = (body: { data: TCourseLearner[] }) => body.data.map((row) => row.first_name);

  it('lists the enrolled learners by name with their status and progress', async () => {
    const response = await get(`${base}/courses/${alpha}/learners`);
    expect(response.statusCode).toBe(200);
    // Fay (invited), Gus (declined) and Ivy (dropped before enrolling) are not enrolled.
    expect(names(response.json)).toEqual(['Ada', 'Bob', 'Cy', 'Dee', 'Eve', 'Hal']);
    expect((response.json.data as TCourseLearner[]).map((row) => row.status)).toEqual([
      'completed',
      'dormant',
      'unreachable',
      'active',
      'not_started',
      'dormant',
    ]);
    const ada = response.json.data[0] as TCourseLearner;
    expect(ada).toMatchObject({
      uuid: history.learners.ada.uuid,
      last_name: 'Tester',
      lessons_read: 4,
      lessons_total: 4,
      learning_time: 50, // 5 + 10 + 15 + 20 minutes
    });
    expect(response.json.meta).toMatchObject({ total: 6, current_page: 1, last_page: 1 });
  });

  it('narrows to one status, or to the learners who read a lesson', async () => {
    expect(names((await get(`${base}/courses/${alpha}/learners?status=dormant`)).json)).toEqual([
      'Bob',
      'Hal',
    ]);
    expect(names((await get(`${base}/courses/${alpha}/learners?status=interacted`)).json)).toEqual([
      'Ada',
      'Bob',
      'Dee',
      'Hal',
    ]);
  });

  it('counts as the status figures do, status by status', async () => {
    const course = history.courses.beta.uuid;
    const counts = (await get(`${base}/learners/status?course_id=${course}`)).json.data as Record<
      string,
      number
    >;
    for (const status of ENGAGEMENT_STATUSES) {
      const listed = await get(`${base}/courses/${course}/learners?status=${status}`);
      expect({ status, total: listed.json.meta.total }).toEqual({ status, total: counts[status] });
    }
  });

  it('counts what it lists and pages it in one order, whatever the filter', async () => {
    const walked = new Set<TCourseLearnerFilter | undefined>([
      undefined,
      'interacted',
      'paused',
      'dormant',
    ]);
    for (const course of [alpha, history.courses.beta.uuid]) {
      for (const status of [undefined, ...COURSE_LEARNER_FILTERS]) {
        const query = status === undefined ? '' : `&status=${status}`;
        const listed = await get(`${base}/courses/${course}/learners?per_page=100${query}`);
        expect(listed.statusCode).toBe(200);
        expect({ status, total: listed.json.meta.total }).toEqual({
          status,
          total: listed.json.data.length,
        });
        const rows = listed.json.data as TCourseLearner[];
        // Two at a time, the pages hold the same learners in the same order, each as listed (one
        // filter of each kind: none, the enrolment's figures, its row, a status).
        const starts = walked.has(status)
          ? rows.map((_, index) => index).filter((i) => i % 2 === 0)
          : [];
        for (const start of starts) {
          const two = await get(
            `${base}/courses/${course}/learners?per_page=2&page=${start / 2 + 1}${query}`,
          );
          expect(two.json.data).toEqual(rows.slice(start, start + 2));
        }
        const isStatus = (ENGAGEMENT_STATUSES as readonly (string | undefined)[]).includes(status);
        expect(rows.filter((row) => isStatus && row.status !== status)).toEqual([]);
      }
    }
  });

  it('pages by number', async () => {
    const second = await get(`${base}/courses/${alpha}/learners?per_page=2&page=2`);
    expect(names(second.json)).toEqual(['Cy', 'Dee']);
    expect(second.json.meta).toMatchObject({ total: 6, last_page: 3, from: 3, to: 4 });
  });

  it('refuses an unknown status (422), and another classroom’s or company’s course (404)', async () => {
    const wrong = await get(`${base}/courses/${alpha}/learners?status=sleepy`);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json.error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(wrong.json.error.errors.status).toEqual([
      'The status must be interacted, completed, unreachable, active, dormant, not_started or paused.',
    ]);
    const elsewhere = `${base}/courses/${history.courses.epsilon.uuid}/learners`;
    expect((await get(elsewhere)).statusCode).toBe(404);
    const stranger = await createSignedInUser(app);
    const foreign = await call(app, {
      method: 'GET',
      url: `${base}/courses/${alpha}/learners`,
      headers: stranger.headers,
    });
    expect(foreign.statusCode).toBe(404);
  });
});
