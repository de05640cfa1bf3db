import type { TAiGenerator } from '@ccp/schemas';
import { useCustom } from '@refinedev/core';

/**
 * Who writes AI content on this server: `openai` (a provider is connected) or `offline` (no
 * provider: documents only, no translation), from the prompts list's `meta.generator`. Undefined
 * while it loads. Asked once per visit.
 */
export const useAiGenerator = (): TAiGenerator | undefined => {
  const { query } = useCustom<unknown[]>({
    url: '/api/v1/courses/helpers/prompts',
    method: 'get',
    queryOptions: { staleTime: Infinity },
  });
  return (query.data as { meta?: { generator?: TAiGenerator } } | undefined)?.meta?.generator;
};
