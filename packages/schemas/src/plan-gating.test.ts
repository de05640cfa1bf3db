import { describe, expect, it } from 'vitest';

import { errorTextKey } from './errors.ts';
import { limitReachedMessage } from './messages.ts';
import { checkPlanLimit } from './plan-gating.ts';

const plan = [
  { function: { key: 'learners' }, limit: 6 },
  { function: { key: 'lessons' }, limit: -1 },
];

describe('checkPlanLimit (spec §6)', () => {
  it('passes an unlimited function whatever the amount', () => {
    expect(checkPlanLimit(plan, 'lessons', 1_000_000)).toEqual({ allowed: true });
  });

  it('passes up to and including the limit', () => {
    expect(checkPlanLimit(plan, 'learners', 6)).toEqual({ allowed: true });
  });

  it('answers the upgrade payload one past the limit', () => {
    expect(checkPlanLimit(plan, 'learners', 7)).toEqual({
      allowed: false,
      upgrade: { feature: 'learners', required: 7, limit: 6 },
    });
  });

  it('refuses a function the plan does not list, with limit 0', () => {
    expect(checkPlanLimit(plan, 'a-i-translator', 1)).toEqual({
      allowed: false,
      upgrade: { feature: 'a-i-translator', required: 1, limit: 0 },
    });
  });
});

describe('limit texts and their keys', () => {
  it('names the feature in the 402 text', () => {
    expect(limitReachedMessage('learners')).toBe('Learners limit reached.');
    expect(limitReachedMessage('a-i-transformer')).toBe('AI transformer limit reached.');
    expect(limitReachedMessage('distribution-channels')).toBe(
      'Distribution channels limit reached.',
    );
  });

  it('keys an error text: lowercase, spaces to underscores, dots removed', () => {
    expect(errorTextKey('Learners limit reached.')).toBe('learners_limit_reached');
    expect(errorTextKey('AI transformer limit reached.')).toBe('ai_transformer_limit_reached');
  });
});
