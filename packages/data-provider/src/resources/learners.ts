import {
  normalizePhoneForCreate,
  normalizePhoneForUpdate,
  normalizePhoneFromServer,
} from '@ccp/schemas';
import type { TLearner, TPaginationLinks, TPaginationMeta } from '@ccp/schemas';
import type { CustomParams } from '@refinedev/core';

import type { QueryValue } from '../http-client.ts';
import { apiData, paginatedResult, segment } from '../utils/api.ts';
import {
  isServerPagination,
  pageQuery,
  readFilters,
  rejectSorters,
  toBoolean,
} from '../utils/query.ts';
import type { ResourceHandlers } from './types.ts';

type ActionRequest = Pick<CustomParams, 'url' | 'method'>;

/** Spec §5: a fetched phone lacking a leading plus gets one. */
export const learnerFromServer = <T extends { phone?: string | null }>(learner: T): T => ({
  ...learner,
  phone: normalizePhoneFromServer(learner.phone),
});

// Spec §5: on create a phone is sent only when longer than one character.
const learnerForCreate = ({ phone, ...rest }: Record<string, unknown>) => {
  if (phone !== undefined && phone !== null && typeof phone !== 'string') return { ...rest, phone };
  const normalized = normalizePhoneForCreate(phone);
  return normalized === undefined ? rest : { ...rest, phone: normalized };
};

// Spec §5: on update a phone of one character or fewer is sent as null.
const learnerForUpdate = ({ phone, ...rest }: Record<string, unknown>) => ({
  ...rest,
  phone:
    phone === undefined || phone === null || typeof phone === 'string'
      ? normalizePhoneForUpdate(phone)
      : phone,
});

const listPath = (listUuid: unknown) =>
  typeof listUuid === 'string' && listUuid !== ''
    ? `/api/v1/learners/learners-lists/${segment(listUuid)}`
    : '/api/v1/learners';

/**
 * learners: GET /learners or /learners/learners-lists/{list} (archived, search, page, per_page),
 * GET /learners/{id}, POST /learners[/learners-lists/{meta.listUuid}], PUT /learners/{id},
 * DELETE /learners/{id} (permanent). Filters: `archived eq`, `search`/`q contains`,
 * `learners_lists eq` (an empty uuid is the "All users" pseudo-list).
 */
export const learnersResource: ResourceHandlers = {
  getList: async (params, context) => {
    rejectSorters('learners', params.sorters);
    if (params.pagination && !isServerPagination(params.pagination)) {
      throw new Error(
        'The "learners" resource is paginated by the API only: use pagination mode "server" (up to 100 per page).',
      );
    }
    const filters = readFilters('learners', params.filters, {
      archived: { operators: ['eq'], param: 'archived' },
      search: { operators: ['contains'], param: 'search' },
      q: { operators: ['contains'], param: 'search' },
      learners_lists: { operators: ['eq'], param: 'listUuid' },
    });
    const { meta } = context;
    const archived = toBoolean('archived', filters.archived ?? meta.archived ?? false);
    const search: unknown = filters.search;
    const query: Record<string, QueryValue> = {
      archived,
      ...(typeof search === 'string' ? { search } : {}),
      ...pageQuery('learners', params.pagination),
    };
    const body = await context.client.get<{
      data: TLearner[];
      meta?: TPaginationMeta;
      links?: TPaginationLinks;
    }>(listPath(filters.listUuid ?? meta.listUuid), { query, signal: context.signal });
    return paginatedResult('learners', { ...body, data: body.data.map(learnerFromServer) });
  },
  getOne: async (id, context) =>
    learnerFromServer(await apiData<TLearner>(context, 'GET', `/api/v1/learners/${segment(id)}`)),
  create: async (variables, context) => {
    const learner = await apiData<TLearner>(context, 'POST', listPath(context.meta.listUuid), {
      body: learnerForCreate(variables),
    });
    context.session.invalidateLearnersLists();
    return learnerFromServer(learner);
  },
  update: async (id, variables, context) =>
    learnerFromServer(
      await apiData<TLearner>(context, 'PUT', `/api/v1/learners/${segment(id)}`, {
        body: learnerForUpdate(variables),
      }),
    ),
  deleteOne: async (id, context) => {
    const deleted = await apiData(context, 'DELETE', `/api/v1/learners/${segment(id)}`);
    context.session.invalidateLearnersLists();
    return deleted;
  },
};

/** The learner actions that are not CRUD calls (spec §7), as `{url, method}` for `custom`. */
export const learnerActionRequests = {
  archiveLearner: (uuid: string) =>
    ({ url: `/api/v1/learners/${segment(uuid)}/soft`, method: 'delete' }) satisfies ActionRequest,
  restoreLearner: (uuid: string) =>
    ({ url: `/api/v1/learners/${segment(uuid)}/restore`, method: 'post' }) satisfies ActionRequest,
  /** Payload `{ lists: uuid[] }`: exactly the lists the learner ends up in. */
  syncLearnerLists: (uuid: string) =>
    ({
      url: `/api/v1/learners/${segment(uuid)}/learners-lists/sync`,
      method: 'patch',
    }) satisfies ActionRequest,
  learnerReachability: (uuid: string) =>
    ({
      url: `/api/v1/learners/${segment(uuid)}/reachability`,
      method: 'get',
    }) satisfies ActionRequest,
  /** What was sent to the learner per course, and why what failed did not go. */
  learnerDeliveries: (uuid: string) =>
    ({
      url: `/api/v1/learners/${segment(uuid)}/deliveries`,
      method: 'get',
    }) satisfies ActionRequest,
  /** The learner's conversation in a course, a page of days (issue 28); `query` as the route's. */
  learnerConversation: (uuid: string) =>
    ({
      url: `/api/v1/learners/${segment(uuid)}/conversation`,
      method: 'get',
    }) satisfies ActionRequest,
  /** The learner gets no more lessons of the course until resumed (issue 28). */
  pauseEnrolment: (uuid: string, enrollmentUuid: string) =>
    ({
      url: `/api/v1/learners/${segment(uuid)}/enrollments/${segment(enrollmentUuid)}/pause`,
      method: 'post',
    }) satisfies ActionRequest,
  /** A paused learner gets the course's lessons again, from its next slot (issue 28). */
  resumeEnrolment: (uuid: string, enrollmentUuid: string) =>
    ({
      url: `/api/v1/learners/${segment(uuid)}/enrollments/${segment(enrollmentUuid)}/resume`,
      method: 'post',
    }) satisfies ActionRequest,
};
