import { LOCALES } from '@ccp/schemas';
import type { TLocale, TSubscriptionFunctionKey } from '@ccp/schemas';
import type { CustomParams, GetListParams } from '@refinedev/core';

import { apiData, segment, wholeList } from '../utils/api.ts';
import { readFilters, rejectSorters } from '../utils/query.ts';
import type { ResourceHandlers } from './types.ts';

// The organisation and the reference data: served from the session's cache (spec §9 expiry).

type ActionRequest = Pick<CustomParams, 'url' | 'method'>;

const onlyWholeLists = (resource: string, params: GetListParams) => {
  rejectSorters(resource, params.sorters);
  readFilters(resource, params.filters, {});
};

export const channelsResource: ResourceHandlers = {
  getList: async (params, { session }) => {
    onlyWholeLists('channels', params);
    return wholeList(await session.cache.channels());
  },
};

export const languagesResource: ResourceHandlers = {
  getList: async (params, { session }) => {
    onlyWholeLists('languages', params);
    return wholeList(await session.cache.languages());
  },
};

/** translations: `locale eq` (or `meta.locale`) picks one language. */
export const translationsResource: ResourceHandlers = {
  getList: async (params, { meta, session }) => {
    rejectSorters('translations', params.sorters);
    const filters = readFilters('translations', params.filters, {
      locale: { operators: ['eq'], param: 'locale' },
    });
    const locale: unknown = filters.locale ?? meta.locale;
    if (locale !== undefined && !(LOCALES as readonly unknown[]).includes(locale)) {
      throw new Error(
        `Translations exist for ${LOCALES.join(', ')}; got locale ${JSON.stringify(locale)}.`,
      );
    }
    return wholeList(await session.cache.translations(locale as TLocale | undefined));
  },
};

/** classrooms: the company's classrooms (GET /company, then /companies/{uuid}/classrooms). */
export const classroomsResource: ResourceHandlers = {
  getList: async (params, { session }) => {
    onlyWholeLists('classrooms', params);
    return wholeList(await session.classrooms());
  },
};

/** company: the signed-in user's company (any id). */
export const companyResource: ResourceHandlers = {
  getOne: async (_id, { session }) => session.cache.company(),
};

/** subscription: the company's plan (any id). */
export const subscriptionResource: ResourceHandlers = {
  getOne: async (_id, { session }) => session.cache.subscription(),
};

/** terms: the terms still to accept. */
export const termsResource: ResourceHandlers = {
  getList: async (params, context) => {
    onlyWholeLists('terms', params);
    return wholeList(
      await apiData<unknown[]>(context, 'GET', '/api/v1/users/me/terms-and-conditions/to-accept'),
    );
  },
};

/** Plan and terms actions (spec §7), as `{url, method}` for `custom`. */
export const accountActionRequests = {
  /** Payload `{ requestedFunction }`. */
  requestUpgrade: () =>
    ({
      url: '/api/v1/users/me/subscriptions/upgrade-request',
      method: 'post',
    }) satisfies ActionRequest,
  usage: (key: TSubscriptionFunctionKey) =>
    ({
      url: `/api/v1/users/me/subscriptions/${segment(key)}/usage`,
      method: 'get',
    }) satisfies ActionRequest,
  /** Payload `[{ uuid }]`, every term the user can accept (check with `missingMandatoryTerms`). */
  acceptTerms: () =>
    ({ url: '/api/v1/users/me/terms-and-conditions', method: 'post' }) satisfies ActionRequest,
};
