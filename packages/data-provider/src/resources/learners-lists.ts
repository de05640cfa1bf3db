import { MESSAGES } from '@ccp/schemas';
import type { TLearnersList } from '@ccp/schemas';

import { ApiError } from '../api-error.ts';
import { apiData, segment, wholeList } from '../utils/api.ts';
import { readFilters, rejectSorters } from '../utils/query.ts';
import type { ResourceContext, ResourceHandlers } from './types.ts';

const LISTS_PATH = '/api/v1/learners-lists';

// The API answers every list at once (with member counts); the session keeps them for pickers.
const fetchLists = async (context: ResourceContext) => {
  const lists = await apiData<TLearnersList[]>(context, 'GET', LISTS_PATH);
  context.session.setLearnersLists(lists);
  return lists;
};

/**
 * learners-lists: GET /learners-lists (whole), one list out of it, POST /learners-lists
 * {name, learners?}, PUT /learners-lists/{id} {name}, DELETE /learners-lists/{id} (spec §7:
 * confirmed only when the answer's `deleted` is the uuid asked for).
 */
export const learnersListsResource: ResourceHandlers = {
  getList: async (params, context) => {
    rejectSorters('learners-lists', params.sorters);
    readFilters('learners-lists', params.filters, {});
    return wholeList(await fetchLists(context));
  },
  getOne: async (id, context) => {
    const list = (await fetchLists(context)).find((candidate) => candidate.uuid === id);
    if (!list) throw new ApiError({ status: 404, code: 'NOT_FOUND', message: MESSAGES.notFound });
    return list;
  },
  create: async (variables, context) => {
    const list = await apiData(context, 'POST', LISTS_PATH, { body: variables });
    context.session.invalidateLearnersLists();
    return list;
  },
  update: async (id, variables, context) => {
    const list = await apiData(context, 'PUT', `${LISTS_PATH}/${segment(id)}`, {
      body: variables,
    });
    context.session.invalidateLearnersLists();
    return list;
  },
  deleteOne: async (id, context) => {
    const result = await apiData<{ deleted?: unknown }>(
      context,
      'DELETE',
      `${LISTS_PATH}/${segment(id)}`,
    );
    context.session.invalidateLearnersLists();
    if (result.deleted !== id) {
      throw new Error(
        `Deleting learners list ${id} was not confirmed: the server answered deleted=${JSON.stringify(result.deleted)}.`,
      );
    }
    return result;
  },
};
