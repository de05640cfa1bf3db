import { SUBSCRIPTION_FUNCTION_KEYS, checkPlanLimit, limitReachedMessage } from '@ccp/schemas';
import type { TPlanFunctionLimit, TSubscriptionFunctionKey } from '@ccp/schemas';

import type { Db } from '../db/index.ts';
import { localText } from '../i18n/messages.ts';
import { AppError } from './app-error.ts';

/** The plan functions of a company, in the shape the gating rule takes. */
export const planFunctionsOf = async (
  db: Db,
  companyUuid: string,
): Promise<TPlanFunctionLimit[]> => {
  const rows = await db
    .selectFrom('plan_functions')
    .innerJoin('companies', 'companies.plan_key', 'plan_functions.plan_key')
    .where('companies.uuid', '=', companyUuid)
    .select(['plan_functions.function_key', 'plan_functions.limit_value'])
    .execute();
  return rows.map((row) => ({ function: { key: row.function_key }, limit: row.limit_value }));
};

/**
 * Throws the 402 of spec §6 when `required` (the total the action would reach, not the increment)
 * exceeds the company's plan for `feature`.
 */
export const assertWithinPlan = async (
  db: Db,
  companyUuid: string,
  feature: string,
  required: number,
): Promise<void> => {
  const result = checkPlanLimit(await planFunctionsOf(db, companyUuid), feature, required);
  if (!result.allowed) {
    const known = (SUBSCRIPTION_FUNCTION_KEYS as readonly string[]).includes(feature);
    throw new AppError(
      'PLAN_LIMIT_REACHED',
      known
        ? localText(`server.limitReached.${feature as TSubscriptionFunctionKey}`)
        : limitReachedMessage(feature),
      { limit: result.upgrade },
    );
  }
};
