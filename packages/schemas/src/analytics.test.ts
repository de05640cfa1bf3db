import { describe, expect, it } from 'vitest';

import {
  ZAnalyticsCourseFilterQuerySchema,
  ZAnalyticsPeriodQuerySchema,
  engagementRate,
  moodOf,
  percentage,
  roundRate,
  zickScore,
} from './analytics.ts';
import { MESSAGES } from './messages.ts';

const messagesOf = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]);

describe('percentage', () => {
  it.each([
    [1, 4, 25],
    [3, 3, 100],
    [0, 5, 0],
    [5, 0, 0],
    [0, 0, 0],
    [7, 5, 100],
    [-1, 5, 0],
  ])('%d of %d is %d', (part, whole, expected) => {
    expect(percentage(part, whole)).toBe(expected);
  });
});

describe('roundRate', () => {
  it.each([
    [33.333, 33.3],
    [66.666, 66.7],
    [55.25, 55.3],
    [0.04, 0],
    [100, 100],
  ])('rounds %d to %d', (value, expected) => {
    expect(roundRate(value)).toBe(expected);
  });
});

describe('engagementRate (spec §9)', () => {
  it('averages the assessment completion and success rates', () => {
    expect(engagementRate({ completionRate: 80, successRate: 60, remindersPerLearner: 0 })).toBe(
      70,
    );
  });

  it('takes 5 points per reminder per enrolled learner', () => {
    expect(engagementRate({ completionRate: 80, successRate: 60, remindersPerLearner: 1 })).toBe(
      65,
    );
    expect(engagementRate({ completionRate: 80, successRate: 60, remindersPerLearner: 0.5 })).toBe(
      67.5,
    );
  });

  it('never goes below 0', () => {
    expect(engagementRate({ completionRate: 10, successRate: 0, remindersPerLearner: 1 })).toBe(0);
    expect(engagementRate({ completionRate: 10, successRate: 0, remindersPerLearner: 2 })).toBe(0);
  });
});

describe('zickScore (spec §9)', () => {
  it('averages completion, engagement and progress', () => {
    expect(zickScore(30, 60, 90)).toBe(60);
    expect(zickScore(0, 0, 0)).toBe(0);
  });
});

describe('moodOf', () => {
  it.each([
    [0, 1, 'sad'],
    [24.9, 1, 'sad'],
    [25, 1, 'neutral'],
    [49.9, 1, 'neutral'],
    [50, 1, 'happy'],
    [74.9, 1, 'happy'],
    [75, 1, 'excited'],
    [100, 1, 'excited'],
    [0, 0, 'none'],
  ])('a success rate of %d over %d answers is %s', (rate, answers, mood) => {
    expect(moodOf(rate, answers)).toBe(mood);
  });
});

describe('ZAnalyticsPeriodQuerySchema', () => {
  it('takes no dates, one date or both', () => {
    expect(ZAnalyticsPeriodQuerySchema.parse({})).toEqual({});
    expect(ZAnalyticsPeriodQuerySchema.parse({ start_date: '2026-11-01' })).toEqual({
      start_date: '2026-11-01',
    });
    expect(
      ZAnalyticsPeriodQuerySchema.parse({ start_date: '2026-11-01', end_date: '2026-11-01' }),
    ).toEqual({ start_date: '2026-11-01', end_date: '2026-11-01' });
  });

  it.each(['2026-02-30', '01-11-2026', '2026-11-01T00:00:00Z', 'today'])('refuses %j', (date) => {
    expect(messagesOf(ZAnalyticsPeriodQuerySchema.safeParse({ end_date: date }))).toEqual([
      ['end_date', MESSAGES.analyticsDateInvalid],
    ]);
  });

  it('refuses an end before the start', () => {
    expect(
      messagesOf(
        ZAnalyticsPeriodQuerySchema.safeParse({ start_date: '2026-11-02', end_date: '2026-11-01' }),
      ),
    ).toEqual([['end_date', MESSAGES.analyticsDateOrder]]);
  });

  it('takes 366 days and refuses 367', () => {
    expect(
      ZAnalyticsPeriodQuerySchema.safeParse({ start_date: '2024-01-01', end_date: '2024-12-31' })
        .success,
    ).toBe(true);
    expect(
      messagesOf(
        ZAnalyticsPeriodQuerySchema.safeParse({ start_date: '2025-01-01', end_date: '2026-01-02' }),
      ),
    ).toEqual([['end_date', MESSAGES.analyticsPeriodMax]]);
  });
});

describe('ZAnalyticsCourseFilterQuerySchema', () => {
  it('adds an optional course uuid to the period rules', () => {
    const course_id = '6a1c2f3e-0001-4c00-8000-000000000001';
    expect(ZAnalyticsCourseFilterQuerySchema.parse({ course_id })).toEqual({ course_id });
    expect(ZAnalyticsCourseFilterQuerySchema.safeParse({ course_id: 'x' }).success).toBe(false);
    expect(
      messagesOf(
        ZAnalyticsCourseFilterQuerySchema.safeParse({
          start_date: '2026-11-02',
          end_date: '2026-11-01',
        }),
      ),
    ).toEqual([['end_date', MESSAGES.analyticsDateOrder]]);
  });
});
