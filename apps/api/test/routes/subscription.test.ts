import { MESSAGES, SUBSCRIPTION_FUNCTION_KEYS } from '@ccp/schemas';
import type { TSubscriptionFunction } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { PLANS } from '../../src/db/migrations/0002_reference_data.ts';
import { monthBounds, usageOf } from '../../src/lib/usage.ts';
import {
  bearer,
  insertCourse,
  insertLearners,
  insertLesson,
  insertUsageEvent,
} from '../fixtures/organisation.ts';
import { buildTestApp, call, createCompany, createSignedInUser, createUser } from '../helper.ts';

const UNAUTHENTICATED = {
  error: { status: 401, code: 'UNAUTHENTICATED', message: 'Unauthenticated.' },
};

// The test clock starts at 2026-11-22T09:00:00.000Z: "this month" is November 2026 (UTC).
const THIS_MONTH = '2026-11-10T12:00:00.000Z';
const MONTH_START = '2026-11-01T00:00:00.000Z';
const LAST_MONTH_END = '2026-10-31T23:59:59.999Z';

describe('subscription and usage', async () => {
  const app = await buildTestApp();
  const free = await createSignedInUser(app, { plan: 'free' });
  const business = await createSignedInUser(app, { plan: 'business' });
  const other = await createCompany(app, { name: 'Other Co', plan: 'free' });
  const usage = async (key: string, headers = free.headers) =>
    call(app, { method: 'GET', url: `/api/v1/users/me/subscriptions/${key}/usage`, headers });

  it.each([
    ['GET', '/api/v1/users/me/subscriptions'],
    ['GET', '/api/v1/users/me/subscriptions/learners/usage'],
    ['POST', '/api/v1/users/me/subscriptions/upgrade-request'],
  ] as const)('answers 401 without a token: %s %s', async (method, url) => {
    const response = await call(app, {
      method,
      url,
      ...(method === 'POST' ? { payload: { requestedFunction: 'learners' } } : {}),
    });
    expect(response.statusCode).toBe(401);
    expect(response.json).toEqual(UNAUTHENTICATED);
  });

  describe('GET /api/v1/users/me/subscriptions', () => {
    it("answers the company's plan with every function and its limit", async () => {
      const response = await call(app, {
        method: 'GET',
        url: '/api/v1/users/me/subscriptions',
        headers: free.headers,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({
        data: {
          plan: { key: 'free', name: 'Free' },
          subscription_functions: [
            { function: { key: 'distribution-channels', name: 'Distribution channels' }, limit: 1 },
            { function: { key: 'creator-seats', name: 'Creator seats' }, limit: 1 },
            { function: { key: 'lessons', name: 'Lessons' }, limit: 10 },
            { function: { key: 'learners', name: 'Learners' }, limit: 6 },
            { function: { key: 'learner-portal', name: 'Learner portal' }, limit: 0 },
            { function: { key: 'a-i-transformer', name: 'AI transformer' }, limit: 1 },
            { function: { key: 'a-i-translator', name: 'AI translator' }, limit: 1 },
            { function: { key: 'exclusion-days', name: 'Exclusion days' }, limit: 0 },
          ],
        },
      });
    });

    it('answers -1 for unlimited functions', async () => {
      const response = await call(app, {
        method: 'GET',
        url: '/api/v1/users/me/subscriptions',
        headers: business.headers,
      });
      expect(response.json.data.plan).toEqual({ key: 'business', name: 'Business' });
      const functions = response.json.data.subscription_functions as TSubscriptionFunction[];
      const limits = Object.fromEntries(
        functions.map((entry) => [entry.function.key, entry.limit] as const),
      );
      expect(limits).toEqual(PLANS.find((plan) => plan.key === 'business')?.functions);
      expect(limits.lessons).toBe(-1);
    });
  });

  describe('GET /api/v1/users/me/subscriptions/{function}/usage', () => {
    it('counts non-archived learners of the company only', async () => {
      const company = await createSignedInUser(app, { plan: 'free' });
      await insertLearners(app, company.company.uuid, 3);
      await insertLearners(app, company.company.uuid, 2, { archived: true });
      await insertLearners(app, other.uuid, 4);
      const response = await usage('learners', company.headers);
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({
        data: { function: 'learners', limit: 6, used: 3, remaining: 3, period: 'total' },
      });
    });

    it('never answers a negative remaining amount', async () => {
      const company = await createSignedInUser(app, { plan: 'free' });
      await insertLearners(app, company.company.uuid, 8);
      const response = await usage('learners', company.headers);
      expect(response.json.data).toMatchObject({ limit: 6, used: 8, remaining: 0 });
    });

    it("counts this month's lessons (distinct course and day) in non-archived courses", async () => {
      const company = await createSignedInUser(app, { plan: 'free' });
      const course = await insertCourse(app, company.company);
      // Day 1 in two languages is one lesson.
      await insertLesson(app, course, { day: 1, locale: 'en', createdAt: THIS_MONTH });
      await insertLesson(app, course, { day: 1, locale: 'it', createdAt: THIS_MONTH });
      // The first instant of the month counts, the last of the previous month does not.
      await insertLesson(app, course, { day: 2, createdAt: MONTH_START });
      await insertLesson(app, course, { day: 3, createdAt: LAST_MONTH_END });
      // Created last month and translated this month: still last month's lesson.
      await insertLesson(app, course, { day: 4, locale: 'en', createdAt: LAST_MONTH_END });
      await insertLesson(app, course, { day: 4, locale: 'de', createdAt: THIS_MONTH });
      const archived = await insertCourse(app, company.company, { archived: true });
      await insertLesson(app, archived, { day: 1, createdAt: THIS_MONTH });
      const foreign = await insertCourse(app, other);
      await insertLesson(app, foreign, { day: 1, createdAt: THIS_MONTH });

      const response = await usage('lessons', company.headers);
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({
        data: { function: 'lessons', limit: 10, used: 2, remaining: 8, period: 'month' },
      });

      app.testClock.set('2026-12-01T00:00:00.000Z');
      try {
        // The access token of nine days ago has expired: sign in again.
        const nextMonth = await usage('lessons', await bearer(app, company.user));
        expect(nextMonth.json.data).toMatchObject({ used: 0, remaining: 10 });
      } finally {
        app.testClock.set('2026-11-22T09:00:00.000Z');
      }
    });

    it('answers null remaining for an unlimited function', async () => {
      const response = await usage('lessons', business.headers);
      expect(response.json).toEqual({
        data: { function: 'lessons', limit: -1, used: 0, remaining: null, period: 'month' },
      });
    });

    it('counts the users of the company as creator seats', async () => {
      const company = await createSignedInUser(app, { plan: 'business' });
      await createUser(app, company.company, { isAdmin: false });
      const response = await usage('creator-seats', company.headers);
      expect(response.json.data).toEqual({
        function: 'creator-seats',
        limit: 10,
        used: 2,
        remaining: 8,
        period: 'total',
      });
    });

    it("counts the distinct channels of the non-archived courses' distributions", async () => {
      const company = await createSignedInUser(app, { plan: 'free' });
      await insertCourse(app, company.company, { channels: ['slack', 'whatsapp'] });
      await insertCourse(app, company.company, { channels: ['slack'] });
      await insertCourse(app, company.company);
      await insertCourse(app, company.company, { archived: true, channels: ['webex'] });
      await insertCourse(app, other, { channels: ['ms-teams'] });
      const response = await usage('distribution-channels', company.headers);
      expect(response.json.data).toEqual({
        function: 'distribution-channels',
        limit: 1,
        used: 2,
        remaining: 0,
        period: 'total',
      });
    });

    it("sums this month's AI usage events per function", async () => {
      const company = await createSignedInUser(app, { plan: 'business' });
      const key = 'a-i-transformer';
      await insertUsageEvent(app, company.company.uuid, { key, amount: 1, createdAt: MONTH_START });
      await insertUsageEvent(app, company.company.uuid, { key, amount: 2, createdAt: THIS_MONTH });
      await insertUsageEvent(app, company.company.uuid, {
        key,
        amount: 5,
        createdAt: LAST_MONTH_END,
      });
      await insertUsageEvent(app, company.company.uuid, {
        key: 'a-i-translator',
        amount: 4,
        createdAt: THIS_MONTH,
      });
      await insertUsageEvent(app, other.uuid, { key, amount: 7, createdAt: THIS_MONTH });
      const transformer = await usage(key, company.headers);
      expect(transformer.json.data).toEqual({
        function: key,
        limit: 20,
        used: 3,
        remaining: 17,
        period: 'month',
      });
      const translator = await usage('a-i-translator', company.headers);
      expect(translator.json.data).toMatchObject({ used: 4, limit: -1, remaining: null });
    });

    it('answers 0 used for the access switches', async () => {
      for (const key of ['learner-portal', 'exclusion-days']) {
        const response = await usage(key);
        expect(response.json.data).toEqual({
          function: key,
          limit: 0,
          used: 0,
          remaining: 0,
          period: 'total',
        });
      }
    });

    it('answers every known function', async () => {
      for (const key of SUBSCRIPTION_FUNCTION_KEYS) {
        expect((await usage(key)).statusCode).toBe(200);
      }
    });

    it('answers 404 for an unknown function key', async () => {
      const response = await usage('teleportation');
      expect(response.statusCode).toBe(404);
      expect(response.json).toEqual({
        error: { status: 404, code: 'NOT_FOUND', message: 'Not found.' },
      });
    });
  });

  describe('POST /api/v1/users/me/subscriptions/upgrade-request', () => {
    const post = (payload: unknown, headers = free.headers) =>
      call(app, {
        method: 'POST',
        url: '/api/v1/users/me/subscriptions/upgrade-request',
        headers,
        payload: payload as Record<string, unknown>,
      });
    const countRequests = async () =>
      Number(
        (
          await app.db
            .selectFrom('upgrade_requests')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirst()
        )?.n ?? 0,
      );

    it('stores the request and answers 201', async () => {
      const response = await post({ requestedFunction: 'learners' });
      expect(response.statusCode).toBe(201);
      expect(response.json).toEqual({
        data: {
          uuid: expect.any(String),
          requested_function: 'learners',
          created_at: '2026-11-22T09:00:00.000Z',
        },
      });
      const row = await app.db
        .selectFrom('upgrade_requests')
        .selectAll()
        .where('uuid', '=', response.json.data.uuid)
        .executeTakeFirst();
      expect(row).toEqual({
        uuid: response.json.data.uuid,
        company_uuid: free.company.uuid,
        user_uuid: free.user.uuid,
        requested_function: 'learners',
        created_at: '2026-11-22T09:00:00.000Z',
      });
    });

    it('answers 422 for an unknown function key and stores nothing', async () => {
      const before = await countRequests();
      const response = await post({ requestedFunction: 'teleportation' });
      expect(response.statusCode).toBe(422);
      expect(response.json).toEqual({
        error: {
          status: 422,
          code: 'VALIDATION_FAILED',
          message: MESSAGES.requestedFunctionInvalid,
          errors: { requestedFunction: [MESSAGES.requestedFunctionInvalid] },
        },
      });
      expect(await countRequests()).toBe(before);
    });

    it('answers 422 when the function is missing', async () => {
      const response = await post({});
      expect(response.statusCode).toBe(422);
      expect(response.json.error.errors).toEqual({ requestedFunction: [MESSAGES.required] });
    });
  });
});

describe('usageOf and monthBounds', async () => {
  const app = await buildTestApp();

  it('rolls the month over at the end of December', () => {
    expect(monthBounds(new Date('2026-12-31T23:59:59.999Z'))).toEqual({
      from: '2026-12-01T00:00:00.000Z',
      to: '2027-01-01T00:00:00.000Z',
    });
  });

  it('answers 0 for a company without data', async () => {
    const company = await createCompany(app);
    for (const key of SUBSCRIPTION_FUNCTION_KEYS) {
      expect(await usageOf(app.db, company.uuid, key, app.clock.now())).toBe(0);
    }
  });
});
