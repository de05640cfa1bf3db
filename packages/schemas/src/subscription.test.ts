import { describe, expect, it } from 'vitest';

import { SUBSCRIPTION_FUNCTION_KEYS } from './constants.ts';
import { MESSAGES } from './messages.ts';
import {
  SUBSCRIPTION_FUNCTIONS,
  ZCreateUpgradeRequestRequestSchema,
  ZSubscriptionFunctionSchema,
  ZSubscriptionSchema,
  ZUpgradeRequestSchema,
  ZUsageParamsSchema,
  ZUsageSchema,
  remainingOf,
} from './subscription.ts';

const UUID = '0b9e8a52-2f7a-4e0c-9a53-3e2f1d8c7b61';

describe('subscription', () => {
  it('names every plan function and the period its usage counts over', () => {
    expect(Object.keys(SUBSCRIPTION_FUNCTIONS).sort()).toEqual(
      [...SUBSCRIPTION_FUNCTION_KEYS].sort(),
    );
    expect(SUBSCRIPTION_FUNCTIONS.lessons.period).toBe('month');
    expect(SUBSCRIPTION_FUNCTIONS.learners.period).toBe('total');
  });

  it('accepts a plan with its functions, -1 meaning unlimited', () => {
    const subscription = {
      plan: { key: 'free', name: 'Free' },
      subscription_functions: [
        { function: { key: 'learners', name: 'Learners' }, limit: 6 },
        { function: { key: 'lessons', name: 'Lessons' }, limit: -1 },
        { function: { key: 'learner-portal', name: 'Learner portal' }, limit: 0 },
      ],
    };
    expect(ZSubscriptionSchema.parse(subscription)).toEqual(subscription);
  });

  it('refuses a limit below -1, a fractional limit and an unknown function', () => {
    const entry = { function: { key: 'learners', name: 'Learners' }, limit: 6 };
    expect(ZSubscriptionFunctionSchema.safeParse({ ...entry, limit: -2 }).success).toBe(false);
    expect(ZSubscriptionFunctionSchema.safeParse({ ...entry, limit: 1.5 }).success).toBe(false);
    expect(
      ZSubscriptionFunctionSchema.safeParse({ ...entry, function: { key: 'x', name: 'X' } })
        .success,
    ).toBe(false);
  });
});

describe('usage', () => {
  it('takes a known function key from the path', () => {
    expect(ZUsageParamsSchema.parse({ function: 'a-i-translator' })).toEqual({
      function: 'a-i-translator',
    });
    expect(ZUsageParamsSchema.safeParse({ function: 'teleportation' }).success).toBe(false);
  });

  it('accepts a null remaining (unlimited) and refuses a negative one', () => {
    const usage = { function: 'lessons', limit: -1, used: 3, remaining: null, period: 'month' };
    expect(ZUsageSchema.parse(usage)).toEqual(usage);
    expect(ZUsageSchema.safeParse({ ...usage, limit: 2, remaining: -1 }).success).toBe(false);
    expect(ZUsageSchema.safeParse({ ...usage, period: 'year' }).success).toBe(false);
  });

  it('computes what is left: null when unlimited, never below zero', () => {
    expect(remainingOf(-1, 1_000)).toBeNull();
    expect(remainingOf(6, 5)).toBe(1);
    expect(remainingOf(6, 6)).toBe(0);
    expect(remainingOf(6, 9)).toBe(0);
    expect(remainingOf(0, 0)).toBe(0);
  });
});

describe('upgrade request', () => {
  it('accepts every known function key', () => {
    for (const requestedFunction of SUBSCRIPTION_FUNCTION_KEYS) {
      expect(ZCreateUpgradeRequestRequestSchema.safeParse({ requestedFunction }).success).toBe(
        true,
      );
    }
  });

  it('refuses an unknown key and a missing one with their messages', () => {
    const unknown = ZCreateUpgradeRequestRequestSchema.safeParse({ requestedFunction: 'seats' });
    expect(unknown.error?.issues[0]?.message).toBe(MESSAGES.requestedFunctionInvalid);
    const missing = ZCreateUpgradeRequestRequestSchema.safeParse({});
    expect(missing.error?.issues[0]?.message).toBe(MESSAGES.required);
  });

  it('describes a stored request', () => {
    const stored = {
      uuid: UUID,
      requested_function: 'learners',
      created_at: '2026-11-22T09:00:00.000Z',
    };
    expect(ZUpgradeRequestSchema.parse(stored)).toEqual(stored);
    expect(ZUpgradeRequestSchema.safeParse({ ...stored, uuid: 'x' }).success).toBe(false);
  });
});
