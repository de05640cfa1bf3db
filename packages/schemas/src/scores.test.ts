import { describe, expect, it } from 'vitest';

import { STATS_PERIOD_KEYS, statsPeriodDates } from './analytics.ts';
import { scoreBand, scoreBandCount } from './scores.ts';

describe('score wording bands (spec §9)', () => {
  it('puts a value in the first band whose upper bound it does not exceed', () => {
    expect([0, 10, 10.1, 30, 31, 70, 90.5, 100].map((v) => scoreBand('stats', v))).toEqual([
      0, 0, 1, 1, 2, 3, 5, 5,
    ]);
    expect([0, 9.9, 10, 55, 100].map((v) => scoreBand('completion', v))).toEqual([0, 0, 0, 5, 9]);
    expect([24, 25, 26, 75.1].map((v) => scoreBand('effectiveness', v))).toEqual([0, 0, 1, 3]);
  });

  it('counts total courses in 5/15/40/80 and beyond', () => {
    expect([0, 5, 6, 15, 40, 41, 80, 81, 500].map((v) => scoreBand('totalCourses', v))).toEqual([
      0, 0, 1, 1, 2, 3, 3, 4, 4,
    ]);
    expect(scoreBandCount('totalCourses')).toBe(5);
    expect(scoreBandCount('stats')).toBe(6);
  });
});

describe('the dashboard periods', () => {
  it('end today in Rome and span 7, 30 and 365 days; ALL has no bounds', () => {
    // 23:30 UTC on 30 March is already 31 March in Rome (summer time).
    const now = new Date('2026-03-30T23:30:00Z');
    expect(STATS_PERIOD_KEYS).toEqual(['W', 'M', 'Y', 'ALL']);
    expect(statsPeriodDates('W', now)).toEqual({
      start_date: '2026-03-25',
      end_date: '2026-03-31',
    });
    expect(statsPeriodDates('M', now)).toEqual({
      start_date: '2026-03-02',
      end_date: '2026-03-31',
    });
    expect(statsPeriodDates('Y', now)).toEqual({
      start_date: '2025-04-01',
      end_date: '2026-03-31',
    });
    expect(statsPeriodDates('ALL', now)).toEqual({});
  });
});
