import type {
  BaseRecord,
  CreateParams,
  CustomParams,
  DataProvider,
  DeleteOneParams,
  GetListParams,
  GetListResponse,
  GetOneParams,
  MetaQuery,
  UpdateParams,
} from '@refinedev/core';

import type { TUploadProgress } from './utils/xhr-fetch.ts';
import type { HttpClient, QueryValue } from './http-client.ts';
import { RESOURCE_HANDLERS, RESOURCES } from './resources/index.ts';
import type { TResource } from './resources/index.ts';
import type { ResourceContext, ResourceHandlers, ResourceMethod } from './resources/types.ts';
import { sessionFor } from './session.ts';
import type { Session } from './session.ts';
import { fillPath, quietFor } from './utils/api.ts';
import { readFilters, rejectSorters } from './utils/query.ts';

export { COURSES_PATH } from './resources/courses.ts';
export { API_TOKENS_PATH } from './resources/api-tokens.ts';
export {
  IMPORTS_PATH,
  learnersImportErrors,
  uploadLearnersImport,
} from './resources/learners-imports.ts';
export type { TImportUploadOptions } from './resources/learners-imports.ts';
export { RESOURCES } from './resources/index.ts';
export type { TResource } from './resources/index.ts';
export type {
  TAnalyticsPeriod,
  TAnalyticsReport,
  TAnalyticsReports,
} from './resources/analytics.ts';

/** The Refine methods this provider implements; the `*Many` ones are left to Refine's fallbacks. */
export type CcpDataProvider = Omit<
  Required<DataProvider>,
  'getMany' | 'createMany' | 'updateMany' | 'deleteMany'
>;

export type DataProviderOptions = {
  /** Shared with the auth provider of the same client; `sessionFor(client)` by default. */
  session?: Session;
};

const signalOf = (meta: MetaQuery | undefined): AbortSignal | undefined => {
  const signal: unknown = meta?.signal ?? meta?.queryContext?.signal;
  return signal instanceof AbortSignal ? signal : undefined;
};

const asVariables = (resource: string, variables: unknown): Record<string, unknown> => {
  if (typeof variables !== 'object' || variables === null || Array.isArray(variables)) {
    throw new Error(`The "${resource}" resource needs its variables as an object.`);
  }
  return variables as Record<string, unknown>;
};

const isResource = (resource: string): resource is TResource =>
  Object.prototype.hasOwnProperty.call(RESOURCE_HANDLERS, resource);

/** The handler of a resource's method, or an error naming what exists. */
const handlerOf = <M extends ResourceMethod>(
  resource: string,
  method: M,
): NonNullable<ResourceHandlers[M]> => {
  if (!isResource(resource)) {
    throw new Error(`Unknown resource "${resource}". Known resources: ${RESOURCES.join(', ')}.`);
  }
  const handlers: ResourceHandlers = RESOURCE_HANDLERS[resource];
  const found = handlers[method];
  if (!found) {
    const supported = Object.keys(handlers).join(', ');
    throw new Error(`The "${resource}" resource supports ${supported} only, not ${method}.`);
  }
  return found;
};

/**
 * The Refine data provider over the spec's REST API, shared by the web app and the CLI. Each
 * resource lives in `src/resources/<resource>.ts` (its paths, query mapping and actions); this
 * file only routes Refine's calls to them.
 *
 * | resource | getList | getOne | create | update | deleteOne |
 * |---|---|---|---|---|---|
 * | courses | GET …/courses | GET …/courses/{id} | POST …/courses | POST …/courses/{id} | DELETE …/courses/{id} (permanent) |
 * | courses-short | GET …/courses/short | | | | |
 * | learners | GET /learners[/learners-lists/{list}] | GET /learners/{id} | POST /learners[/learners-lists/{list}] | PUT /learners/{id} | DELETE /learners/{id} |
 * | learners-lists | GET /learners-lists | from the list | POST /learners-lists | PUT /learners-lists/{id} | DELETE /learners-lists/{id} |
 * | channels, languages, translations, classrooms | reference cache | | | | |
 * | company, subscription | | reference cache (any id) | | | |
 * | terms | GET /users/me/terms-and-conditions/to-accept | | | | |
 * | analytics | per-course insights | one report (classroom, statistics, …, learner) | | | |
 * | exports | | download | request | | |
 * | api-tokens | GET /users/me/tokens | | POST /users/me/tokens | | DELETE /users/me/tokens/{id} |
 * | learners-imports | GET /learners/imports | GET /learners/imports/{id} | POST /learners/imports (multipart) | | |
 *
 * `…/courses` is `/api/v1/classrooms/{classroomUuid}/courses`: the session's current classroom
 * unless `meta.classroomUuid` names another. Records keep the API's `uuid` key. Unsupported
 * filters and any sorter (the API lists newest first) throw an error naming what is supported.
 * Actions (clone, archive, restore, sync, upgrade request, terms, usage) go through `custom`; see
 * `actionRequests` and `createActions`.
 */
export const dataProvider = (
  client: HttpClient,
  options: DataProviderOptions = {},
): CcpDataProvider => {
  const session = options.session ?? sessionFor(client);

  const contextOf = (meta: MetaQuery | undefined): ResourceContext => ({
    client,
    session,
    meta: meta ?? {},
    signal: signalOf(meta),
  });

  return {
    getApiUrl: () => client.apiUrl,

    getList: async <TData extends BaseRecord = BaseRecord>(params: GetListParams) => {
      const result = await handlerOf(params.resource, 'getList')(params, contextOf(params.meta));
      return result as GetListResponse<TData>;
    },

    getOne: async <TData extends BaseRecord = BaseRecord>({ resource, id, meta }: GetOneParams) => {
      const record = await handlerOf(resource, 'getOne')(String(id), contextOf(meta));
      return { data: record as TData };
    },

    create: async <TData extends BaseRecord = BaseRecord, TVariables = object>({
      resource,
      variables,
      meta,
    }: CreateParams<TVariables>) => {
      const record = await handlerOf(resource, 'create')(
        asVariables(resource, variables),
        contextOf(meta),
      );
      return { data: record as TData };
    },

    update: async <TData extends BaseRecord = BaseRecord, TVariables = object>({
      resource,
      id,
      variables,
      meta,
    }: UpdateParams<TVariables>) => {
      const record = await handlerOf(resource, 'update')(
        String(id),
        asVariables(resource, variables),
        contextOf(meta),
      );
      return { data: record as TData };
    },

    deleteOne: async <TData extends BaseRecord = BaseRecord, TVariables = object>({
      resource,
      id,
      meta,
    }: DeleteOneParams<TVariables>) => {
      const record = await handlerOf(resource, 'deleteOne')(String(id), contextOf(meta));
      return { data: record as TData };
    },

    /**
     * Any API call: `url` is a path (or starts with the API URL) where `{classroomUuid}` and
     * `{companyUuid}` are filled from the session; `payload` is JSON, or multipart as FormData.
     * Answers the API's envelope (`{data}`) as Refine's `{data}`.
     */
    custom: async <TData extends BaseRecord = BaseRecord, TQuery = unknown, TPayload = unknown>(
      params: CustomParams<TQuery, TPayload>,
    ) => {
      const { url, method, payload, query, headers, filters, sorters, meta } = params;
      if (headers && Object.keys(headers).length > 0) {
        throw new Error(
          'custom() takes no headers: the client sets authorization and content type itself.',
        );
      }
      rejectSorters('custom', sorters);
      readFilters('custom', filters, {});
      const context = contextOf(meta);
      const path = apiPathOf(client.apiUrl, await fillPath(url, context), url);
      const quiet = quietFor(context.meta);
      const body: unknown = await client.request(method, path, {
        ...(quiet ? { quiet } : {}),
        ...(query ? { query: query as Record<string, QueryValue> } : {}),
        ...(payload instanceof FormData ? { form: payload } : { body: payload }),
        // `meta.responseType: 'bytes'`: a file the API serves as it is (the Teams app package).
        ...(context.meta.responseType === 'bytes' ? { responseType: 'bytes' as const } : {}),
        // `meta.onUploadProgress` hears the bytes of a multipart upload as they are sent.
        ...(typeof context.meta.onUploadProgress === 'function'
          ? { onUploadProgress: context.meta.onUploadProgress as TUploadProgress }
          : {}),
        signal: context.signal,
      });
      const envelope =
        typeof body === 'object' && body !== null && !(body instanceof Uint8Array) && 'data' in body
          ? body
          : { data: body };
      return envelope as { data: TData };
    },
  };
};

/** A path under the API, from a path or an absolute URL: never sends the bearer token elsewhere. */
const apiPathOf = (apiUrl: string, filled: string, asked: string): string => {
  if (!/^[a-z][a-z\d+.-]*:/i.test(filled)) return filled;
  const base = new URL(apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`);
  const target = new URL(filled);
  if (target.origin !== base.origin || !target.pathname.startsWith(base.pathname)) {
    throw new Error(`custom() only calls the API at ${apiUrl}; got ${asked}.`);
  }
  return `/${target.pathname.slice(base.pathname.length)}${target.search}`;
};
