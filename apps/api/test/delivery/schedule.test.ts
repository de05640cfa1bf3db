import { describe, expect, it } from 'vitest';

import {
  lessonSlots,
  romeInstant,
  romeLocalDateTime,
  romeOffsetMinutes,
} from '../../src/delivery/schedule.ts';
import type { LearnerHours, ScheduleRules } from '../../src/delivery/schedule.ts';

const rules = (overrides: Partial<ScheduleRules> = {}): ScheduleRules => ({
  repeat_period: 'Day',
  repeat_every: 1,
  time: '08:00',
  start_date: '2026-03-02',
  exclusion_days: [],
  ...overrides,
});

const dates = (overrides: Partial<ScheduleRules>, count: number, notBefore?: Date) =>
  lessonSlots(rules(overrides), count, notBefore).map((slot) => slot.date);

describe('romeInstant: wall-clock time in Europe/Rome to UTC', () => {
  it('is CET (UTC+1) before the spring change and CEST (UTC+2) after it', () => {
    expect(romeInstant('2026-03-28', '08:00').toISOString()).toBe('2026-03-28T07:00:00.000Z');
    expect(romeInstant('2026-03-30', '08:00').toISOString()).toBe('2026-03-30T06:00:00.000Z');
  });

  it('on the day of the spring change, 08:00 is already summer time', () => {
    expect(romeInstant('2026-03-29', '08:00').toISOString()).toBe('2026-03-29T06:00:00.000Z');
    // 01:59 is the last winter minute (00:59Z), 03:00 the first summer one (01:00Z).
    expect(romeInstant('2026-03-29', '01:59').toISOString()).toBe('2026-03-29T00:59:00.000Z');
    expect(romeInstant('2026-03-29', '03:00').toISOString()).toBe('2026-03-29T01:00:00.000Z');
  });

  it('reads a time the spring change skips (02:30) an hour later on the clock (03:30 CEST)', () => {
    expect(romeInstant('2026-03-29', '02:30').toISOString()).toBe('2026-03-29T01:30:00.000Z');
  });

  it('in autumn, 08:00 is summer time on Saturday and winter time on the Sunday of the change', () => {
    expect(romeInstant('2026-10-24', '08:00').toISOString()).toBe('2026-10-24T06:00:00.000Z');
    expect(romeInstant('2026-10-25', '08:00').toISOString()).toBe('2026-10-25T07:00:00.000Z');
  });

  it('takes the first of the two 02:30 of the autumn change (summer time)', () => {
    expect(romeInstant('2026-10-25', '02:30').toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });

  it('keeps the Rome date for late evening times (23:30 CET is 22:30Z the same day)', () => {
    expect(romeInstant('2026-12-31', '23:30').toISOString()).toBe('2026-12-31T22:30:00.000Z');
    expect(romeInstant('2027-01-01', '00:00').toISOString()).toBe('2026-12-31T23:00:00.000Z');
  });

  it('reads the offset in minutes', () => {
    expect(romeOffsetMinutes(Date.parse('2026-01-15T12:00:00Z'))).toBe(60);
    expect(romeOffsetMinutes(Date.parse('2026-07-15T12:00:00Z'))).toBe(120);
  });

  it('reads an enrolment close time YYYY-MM-DDTHH:mm as Rome time', () => {
    expect(romeLocalDateTime('2026-03-29T12:00').toISOString()).toBe('2026-03-29T10:00:00.000Z');
    expect(romeLocalDateTime('2026-11-22T18:00').toISOString()).toBe('2026-11-22T17:00:00.000Z');
  });
});

describe('lessonSlots: the Distribution rules', () => {
  it('sends daily at the same wall-clock time across the DST change', () => {
    expect(lessonSlots(rules({ start_date: '2026-03-27' }), 4)).toEqual([
      { date: '2026-03-27', at: '2026-03-27T07:00:00.000Z' },
      { date: '2026-03-28', at: '2026-03-28T07:00:00.000Z' },
      { date: '2026-03-29', at: '2026-03-29T06:00:00.000Z' },
      { date: '2026-03-30', at: '2026-03-30T06:00:00.000Z' },
    ]);
  });

  it('skips Saturday and Sunday when both are excluded: Friday, then Monday', () => {
    expect(dates({ start_date: '2026-03-27', exclusion_days: ['saturday', 'sunday'] }, 3)).toEqual([
      '2026-03-27',
      '2026-03-30',
      '2026-03-31',
    ]);
  });

  it('skips only Sunday when only Sunday is excluded', () => {
    expect(dates({ start_date: '2026-03-27', exclusion_days: ['sunday'] }, 3)).toEqual([
      '2026-03-27',
      '2026-03-28',
      '2026-03-30',
    ]);
  });

  it('starting on an excluded Saturday, the first lesson goes on Monday', () => {
    expect(dates({ start_date: '2026-03-28', exclusion_days: ['saturday', 'sunday'] }, 2)).toEqual([
      '2026-03-30',
      '2026-03-31',
    ]);
  });

  it('repeats every 2 days, and with weekends excluded drops the slots falling on them', () => {
    expect(dates({ repeat_every: 2 }, 4)).toEqual([
      '2026-03-02',
      '2026-03-04',
      '2026-03-06',
      '2026-03-08',
    ]);
    // Thu 5, (Sat 7), Mon 9, Wed 11, Fri 13
    expect(
      dates(
        { repeat_every: 2, start_date: '2026-03-05', exclusion_days: ['saturday', 'sunday'] },
        4,
      ),
    ).toEqual(['2026-03-05', '2026-03-09', '2026-03-11', '2026-03-13']);
  });

  it('repeats weekly and every 2 weeks on the start weekday', () => {
    expect(dates({ repeat_period: 'Week' }, 3)).toEqual(['2026-03-02', '2026-03-09', '2026-03-16']);
    expect(dates({ repeat_period: 'Week', repeat_every: 2 }, 3)).toEqual([
      '2026-03-02',
      '2026-03-16',
      '2026-03-30',
    ]);
  });

  it('moves a weekly lesson on an excluded Saturday to the Monday after', () => {
    expect(
      dates(
        { repeat_period: 'Week', start_date: '2026-03-07', exclusion_days: ['saturday', 'sunday'] },
        3,
      ),
    ).toEqual(['2026-03-09', '2026-03-16', '2026-03-23']);
  });

  it('repeats monthly from the start date, on the last day of shorter months', () => {
    expect(dates({ repeat_period: 'Month', start_date: '2026-01-31' }, 4)).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
    ]);
    expect(dates({ repeat_period: 'Month', repeat_every: 3, start_date: '2026-01-15' }, 3)).toEqual(
      ['2026-01-15', '2026-04-15', '2026-07-15'],
    );
  });

  it('moves a monthly lesson falling on an excluded weekend to Monday', () => {
    // 28 Feb 2026 is a Saturday.
    expect(
      dates(
        {
          repeat_period: 'Month',
          start_date: '2026-01-30',
          exclusion_days: ['saturday', 'sunday'],
        },
        3,
      ),
    ).toEqual(['2026-01-30', '2026-03-02', '2026-03-30']);
  });

  it('keeps the wall-clock time of every monthly lesson across DST (08:00 → 07:00Z / 06:00Z)', () => {
    expect(
      lessonSlots(rules({ repeat_period: 'Month', start_date: '2026-03-10' }), 2).map(
        (slot) => slot.at,
      ),
    ).toEqual(['2026-03-10T07:00:00.000Z', '2026-04-10T06:00:00.000Z']);
  });

  it('skips slots at or before notBefore (a late opt-in starts at the next one)', () => {
    expect(dates({}, 3, new Date('2026-03-02T07:00:00.000Z'))).toEqual([
      '2026-03-03',
      '2026-03-04',
      '2026-03-05',
    ]);
    expect(dates({}, 2, new Date('2026-03-02T06:59:59.999Z'))).toEqual([
      '2026-03-02',
      '2026-03-03',
    ]);
  });

  it('plans nothing without a start date or lessons', () => {
    expect(lessonSlots(rules({ start_date: null }), 3)).toEqual([]);
    expect(lessonSlots(rules(), 0)).toEqual([]);
  });
});

describe('lessonSlots: a learner’s hours delay a send, never drop it', () => {
  const hours = (overrides: Partial<LearnerHours> = {}): LearnerHours => ({
    timeZone: 'America/New_York',
    localTime: false,
    quiet: null,
    holiday: null,
    ...overrides,
  });

  it('reads the time in the learner’s zone, across its own daylight-saving change', () => {
    // New York leaves summer time on 1 November 2026, Rome a week earlier.
    const slots = lessonSlots(
      rules({ start_date: '2026-10-31', exclusion_days: [] }),
      3,
      undefined,
      hours({ localTime: true }),
    );
    expect(slots.map((slot) => [slot.date, slot.at])).toEqual([
      ['2026-10-31', '2026-10-31T12:00:00.000Z'],
      ['2026-11-01', '2026-11-01T13:00:00.000Z'],
      ['2026-11-02', '2026-11-02T13:00:00.000Z'],
    ]);
  });

  it('moves a send inside quiet hours spanning midnight to their end, on the next day if need be', () => {
    // 23:30 in Rome is 17:30 in New York (free) but 22:30 for a learner in London (quiet).
    const london = hours({ timeZone: 'Europe/London', quiet: { start: '22:00', end: '07:00' } });
    expect(lessonSlots(rules({ time: '23:30' }), 2, undefined, london)).toEqual([
      { date: '2026-03-03', at: '2026-03-03T07:00:00.000Z', delay: { reason: 'quiet_hours' } },
      { date: '2026-03-04', at: '2026-03-04T07:00:00.000Z', delay: { reason: 'quiet_hours' } },
    ]);
    const newYork = hours({ quiet: { start: '22:00', end: '07:00' } });
    expect(lessonSlots(rules({ time: '23:30' }), 1, undefined, newYork)).toEqual([
      { date: '2026-03-02', at: '2026-03-02T22:30:00.000Z' },
    ]);
  });

  it('moves a weekly send off a holiday to the next allowed day, and a daily one to the next slot', () => {
    const holiday = (date: string) => (date === '2026-03-09' ? 'A holiday' : null);
    const rome = hours({ timeZone: 'Europe/Rome', holiday });
    expect(
      lessonSlots(rules({ repeat_period: 'Week' }), 3, undefined, rome).map((slot) => [
        slot.date,
        slot.delay ?? null,
      ]),
    ).toEqual([
      ['2026-03-02', null],
      ['2026-03-10', { reason: 'holiday', holiday: 'A holiday' }],
      ['2026-03-16', null],
    ]);
    // Daily, skipping weekends: Friday the 6th, then Monday the 9th is the holiday.
    expect(
      lessonSlots(
        rules({ start_date: '2026-03-06', exclusion_days: ['saturday', 'sunday'] }),
        3,
        undefined,
        rome,
      ).map((slot) => slot.date),
    ).toEqual(['2026-03-06', '2026-03-10', '2026-03-11']);
  });
});
