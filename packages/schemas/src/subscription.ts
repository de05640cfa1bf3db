import { z } from 'zod';

import { ZUuidSchema, dataEnvelope } from './common.ts';
import { SUBSCRIPTION_FUNCTION_KEYS, UNLIMITED } from './constants.ts';
import type { TSubscriptionFunctionKey } from './constants.ts';
import { MESSAGES } from './messages.ts';

export const USAGE_PERIODS = ['month', 'total'] as const;
export type TUsagePeriod = (typeof USAGE_PERIODS)[number];

/**
 * The English name of each plan function and the period its usage counts over: `month` resets
 * on the first day of each calendar month (UTC), `total` is what the company holds now.
 */
export const SUBSCRIPTION_FUNCTIONS: Record<
  TSubscriptionFunctionKey,
  { name: string; period: TUsagePeriod }
> = {
  'distribution-channels': { name: 'Distribution channels', period: 'total' },
  'creator-seats': { name: 'Creator seats', period: 'total' },
  lessons: { name: 'Lessons', period: 'month' },
  learners: { name: 'Learners', period: 'total' },
  'learner-portal': { name: 'Learner portal', period: 'total' },
  'a-i-transformer': { name: 'AI transformer', period: 'month' },
  'a-i-translator': { name: 'AI translator', period: 'month' },
  'exclusion-days': { name: 'Exclusion days', period: 'total' },
};

export const ZSubscriptionFunctionKeySchema = z.enum(SUBSCRIPTION_FUNCTION_KEYS);

/** A limit is a non-negative amount, or -1 for unlimited. */
export const ZPlanLimitSchema = z.number().int().min(UNLIMITED);

export const ZSubscriptionFunctionSchema = z.object({
  function: z.object({ key: ZSubscriptionFunctionKeySchema, name: z.string() }),
  limit: ZPlanLimitSchema,
});
export type TSubscriptionFunction = z.infer<typeof ZSubscriptionFunctionSchema>;

export const ZPlanSchema = z.object({ key: z.string(), name: z.string() });
export type TPlan = z.infer<typeof ZPlanSchema>;

/** The company's plan and the limit of each of its functions (spec §3 Subscription). */
export const ZSubscriptionSchema = z.object({
  plan: ZPlanSchema,
  subscription_functions: z.array(ZSubscriptionFunctionSchema),
});
export type TSubscription = z.infer<typeof ZSubscriptionSchema>;
export const ZSubscriptionResponseSchema = dataEnvelope(ZSubscriptionSchema);

/** `GET /api/v1/users/me/subscriptions/{function}/usage`; an unknown key is a missing resource. */
export const ZUsageParamsSchema = z.object({ function: ZSubscriptionFunctionKeySchema });

/** How much of a plan function the company uses; `remaining` is null when unlimited. */
export const ZUsageSchema = z.object({
  function: ZSubscriptionFunctionKeySchema,
  limit: ZPlanLimitSchema,
  used: z.number().int().min(0),
  remaining: z.number().int().min(0).nullable(),
  period: z.enum(USAGE_PERIODS),
});
export type TUsage = z.infer<typeof ZUsageSchema>;
export const ZUsageResponseSchema = dataEnvelope(ZUsageSchema);

/** What is left of a limit: null when unlimited, never below zero. */
export const remainingOf = (limit: number, used: number): number | null =>
  limit === UNLIMITED ? null : Math.max(0, limit - used);

/** Body of `POST /api/v1/users/me/subscriptions/upgrade-request`. */
export const ZCreateUpgradeRequestRequestSchema = z.object({
  requestedFunction: z.enum(SUBSCRIPTION_FUNCTION_KEYS, {
    error: (issue) =>
      issue.input === undefined ? MESSAGES.required : MESSAGES.requestedFunctionInvalid,
  }),
});
export type TCreateUpgradeRequestRequest = z.infer<typeof ZCreateUpgradeRequestRequestSchema>;

/** A stored upgrade request. */
export const ZUpgradeRequestSchema = z.object({
  uuid: ZUuidSchema,
  requested_function: ZSubscriptionFunctionKeySchema,
  created_at: z.string(),
});
export type TUpgradeRequest = z.infer<typeof ZUpgradeRequestSchema>;
export const ZUpgradeRequestResponseSchema = dataEnvelope(ZUpgradeRequestSchema);
