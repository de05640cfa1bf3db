import { UNLIMITED } from './constants.ts';
import type { TLimitPayload } from './errors.ts';

export type TPlanFunctionLimit = { function: { key: string }; limit: number };

export type TGateResult = { allowed: true } | { allowed: false; upgrade: TLimitPayload };

/**
 * Plan gating (spec §6): passes when the function is found and unlimited (-1), or when the
 * required amount does not exceed its limit; otherwise answers what the upgrade modal needs.
 * A function the plan does not list is not allowed (limit 0).
 */
export const checkPlanLimit = (
  functions: readonly TPlanFunctionLimit[],
  feature: string,
  required: number,
): TGateResult => {
  const found = functions.find((entry) => entry.function.key === feature);
  if (found && (found.limit === UNLIMITED || required <= found.limit)) return { allowed: true };
  return { allowed: false, upgrade: { feature, required, limit: found?.limit ?? 0 } };
};
