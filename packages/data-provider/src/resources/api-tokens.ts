import type { TApiToken, TCreatedApiToken } from '@ccp/schemas';

import { apiData, segment, wholeList } from '../utils/api.ts';
import { readFilters, rejectSorters } from '../utils/query.ts';
import type { ResourceHandlers } from './types.ts';

export const API_TOKENS_PATH = '/api/v1/users/me/tokens';

/**
 * api-tokens: the user's personal API tokens. GET /users/me/tokens (whole list), POST
 * /users/me/tokens {name, scopes, expires_in_days, code} answering the token once, DELETE
 * /users/me/tokens/{id} (revoke).
 */
export const apiTokensResource: ResourceHandlers = {
  getList: async (params, context) => {
    rejectSorters('api-tokens', params.sorters);
    readFilters('api-tokens', params.filters, {});
    return wholeList(await apiData<TApiToken[]>(context, 'GET', API_TOKENS_PATH));
  },
  create: async (variables, context) =>
    apiData<TCreatedApiToken>(context, 'POST', API_TOKENS_PATH, { body: variables }),
  deleteOne: async (id, context) => apiData(context, 'DELETE', `${API_TOKENS_PATH}/${segment(id)}`),
};
