import {
  LOCALES,
  MESSAGES,
  normalizePhoneForCreate,
  normalizePhoneForUpdate,
  normalizePhoneFromServer,
} from '@ccp/schemas';
import type {
  TLearner,
  TLearnersList,
  TLocale,
  TPaginationLinks,
  TPaginationMeta,
} from '@ccp/schemas';
import type {
  BaseKey,
  BaseRecord,
  CustomParams,
  DataProvider,
  GetListParams,
  GetListResponse,
  MetaQuery,
} from '@refinedev/core';

import { ApiError } from './api-error.ts';
import type { HttpClient, QueryValue, RequestOptions } from './http-client.ts';
import { sessionFor } from './session.ts';
import type { Session } from './session.ts';
import {
  isServerPagination,
  pageQuery,
  readFilters,
  rejectSorters,
  toBoolean,
} from './utils/query.ts';

/** The resources the provider maps onto the API (spec §7). */
export const RESOURCES = [
  'courses',
  'courses-short',
  'learners',
  'learners-lists',
  'channels',
  'languages',
  'translations',
  'classrooms',
  'company',
  'subscription',
  'terms',
  'analytics',
  'exports',
] as const;
export type TResource = (typeof RESOURCES)[number];

/** Paths with `{classroomUuid}` get the current classroom (see `custom`). */
export const COURSES_PATH = '/api/v1/classrooms/{classroomUuid}/courses';

/** The Refine methods this provider implements; the `*Many` ones are left to Refine's fallbacks. */
export type CcpDataProvider = Omit<
  Required<DataProvider>,
  'getMany' | 'createMany' | 'updateMany' | 'deleteMany'
>;

export type DataProviderOptions = {
  /** Shared with the auth provider of the same client; `sessionFor(client)` by default. */
  session?: Session;
};

type Method = 'getList' | 'getOne' | 'create' | 'update' | 'deleteOne';
type Context = { meta: MetaQuery; signal: AbortSignal | undefined };
type ListResult = {
  data: unknown[];
  total: number;
  meta?: TPaginationMeta;
  links?: TPaginationLinks;
};
type Handlers = {
  getList?: (params: GetListParams, context: Context) => Promise<ListResult>;
  getOne?: (id: string, context: Context) => Promise<unknown>;
  create?: (variables: Record<string, unknown>, context: Context) => Promise<unknown>;
  update?: (id: string, variables: Record<string, unknown>, context: Context) => Promise<unknown>;
  deleteOne?: (id: string, context: Context) => Promise<unknown>;
};

const segment = (id: BaseKey | string): string => {
  const value = String(id);
  if (value === '') throw new Error('A record id is required.');
  return encodeURIComponent(value);
};

const signalOf = (meta: MetaQuery | undefined): AbortSignal | undefined => {
  const signal: unknown = meta?.queryContext?.signal;
  return signal instanceof AbortSignal ? signal : undefined;
};

const asVariables = (resource: string, variables: unknown): Record<string, unknown> => {
  if (typeof variables !== 'object' || variables === null || Array.isArray(variables)) {
    throw new Error(`The "${resource}" resource needs its variables as an object.`);
  }
  return variables as Record<string, unknown>;
};

const notAvailable = (resource: string) =>
  new Error(
    `The "${resource}" resource is not available yet: the API gains its ${resource} endpoints in a later issue (spec §7 "Analytics and exports").`,
  );

/** `{data, meta, links}` → Refine's `{data, total}`, keeping Laravel's meta and links. */
const paginatedResult = (
  resource: string,
  body: { data: unknown[]; meta?: TPaginationMeta; links?: TPaginationLinks },
): ListResult => {
  if (typeof body.meta?.total !== 'number') {
    throw new Error(
      `The API answered the "${resource}" list without meta.total, so Refine cannot count pages. Is the server older than the client?`,
    );
  }
  return { data: body.data, total: body.meta.total, meta: body.meta, links: body.links };
};

const wholeList = (data: unknown[]): ListResult => ({ data, total: data.length });

const learnerFromServer = <T extends { phone?: string | null }>(learner: T): T => ({
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

/** Multipart for the course Intro step; the cover goes as image.png (spec §5). */
const introForm = (fields: Record<string, unknown>, image: unknown): FormData => {
  const form = new FormData();
  for (const name of ['uuid', 'name', 'description', 'category', 'language']) {
    const value = fields[name];
    if (value === undefined) continue;
    if (value !== null && typeof value !== 'string' && typeof value !== 'number') {
      throw new Error(`The course Intro field "${name}" must be text, got ${typeof value}.`);
    }
    // An empty category clears it; FormData has no null.
    form.append(name, value === null ? '' : String(value));
  }
  if (image instanceof Blob) form.append('image', image, 'image.png');
  return form;
};

/**
 * The Refine data provider over the spec's REST API, shared by the web app and the CLI.
 *
 * | resource | getList | getOne | create | update | deleteOne |
 * |---|---|---|---|---|---|
 * | courses | GET …/courses (archived, page, per_page; paginate=false for client/off pagination) | GET …/courses/{id} | POST …/courses (JSON, or multipart with an `image` Blob) | POST …/courses/{id} (JSON course, or multipart Intro with an `image` Blob or `meta.intro`) | DELETE …/courses/{id} (permanent) |
 * | courses-short | GET …/courses/short | | | | |
 * | learners | GET /learners or /learners/learners-lists/{list} (archived, search, page, per_page) | GET /learners/{id} | POST /learners[/learners-lists/{meta.listUuid}] | PUT /learners/{id} | DELETE /learners/{id} (permanent) |
 * | learners-lists | GET /learners-lists | from the list | POST /learners-lists | PUT /learners-lists/{id} | DELETE /learners-lists/{id} |
 * | channels, languages, translations | reference cache | | | | |
 * | classrooms | session (GET /company, then /companies/{uuid}/classrooms) | | | | |
 * | company, subscription | | reference cache (any id) | | | |
 * | terms | GET /users/me/terms-and-conditions/to-accept | | | | |
 * | analytics, exports | not available yet (a later issue) | | | | |
 *
 * `…/courses` is `/api/v1/classrooms/{classroomUuid}/courses`, the current (first) classroom unless
 * `meta.classroomUuid` names another. Filters: courses `archived eq`; learners `archived eq`,
 * `search`/`q contains`, `learners_lists eq` (an empty uuid is the "All users" pseudo-list);
 * translations `locale eq`. Anything else, and any sorter (the API lists newest first), throws an
 * error naming what is supported. Records keep the API's `uuid` key (no `id` is added). Actions
 * (clone, archive, restore, sync, upgrade request, terms, usage) go through `custom`; see
 * `actionRequests` and `createActions`.
 */
export const dataProvider = (
  client: HttpClient,
  options: DataProviderOptions = {},
): CcpDataProvider => {
  const session = options.session ?? sessionFor(client);

  const classroomUuid = async (meta: MetaQuery): Promise<string> => {
    const named: unknown = meta.classroomUuid;
    if (typeof named === 'string' && named !== '') return named;
    return (await session.currentClassroom()).uuid;
  };
  const coursesPath = async (meta: MetaQuery) =>
    COURSES_PATH.replace('{classroomUuid}', encodeURIComponent(await classroomUuid(meta)));

  const fill = async (path: string, meta: MetaQuery): Promise<string> => {
    let filled = path;
    if (filled.includes('{classroomUuid}')) {
      filled = filled.replaceAll('{classroomUuid}', encodeURIComponent(await classroomUuid(meta)));
    }
    if (filled.includes('{companyUuid}')) {
      const company = await session.company();
      filled = filled.replaceAll('{companyUuid}', encodeURIComponent(company.uuid));
    }
    return filled;
  };

  const data = async <T>(method: string, path: string, request: RequestOptions = {}) =>
    (await client.request<{ data: T }>(method, path, request)).data;

  const onlyWholeLists = (resource: string, params: GetListParams) => {
    rejectSorters(resource, params.sorters);
    readFilters(resource, params.filters, {});
  };

  const resources: Record<TResource, Handlers> = {
    courses: {
      getList: async (params, { meta, signal }) => {
        rejectSorters('courses', params.sorters);
        const filters = readFilters('courses', params.filters, {
          archived: { operators: ['eq'], param: 'archived' },
        });
        const archived = toBoolean('archived', filters.archived ?? meta.archived ?? false);
        // Client-side or no pagination needs every course: the API's paginate=false.
        const paginate =
          meta.paginate !== undefined
            ? toBoolean('paginate', meta.paginate)
            : params.pagination === undefined || isServerPagination(params.pagination);
        const query = paginate
          ? { archived, ...pageQuery('courses', params.pagination) }
          : { archived, paginate: false };
        const body = await client.get<{
          data: unknown[];
          meta?: TPaginationMeta;
          links?: TPaginationLinks;
        }>(await coursesPath(meta), { query, signal });
        return paginate ? paginatedResult('courses', body) : wholeList(body.data);
      },
      getOne: async (id, { meta, signal }) =>
        data('GET', `${await coursesPath(meta)}/${segment(id)}`, { signal }),
      create: async ({ image, ...fields }, { meta }) => {
        const path = await coursesPath(meta);
        return image instanceof Blob
          ? data('POST', path, { form: introForm(fields, image) })
          : data('POST', path, { body: fields });
      },
      update: async (id, { image, ...fields }, { meta }) => {
        const path = `${await coursesPath(meta)}/${segment(id)}`;
        if (image instanceof Blob || meta.intro === true) {
          return data('POST', path, { form: introForm({ uuid: id, ...fields }, image) });
        }
        return data('POST', path, { body: fields });
      },
      deleteOne: async (id, { meta }) =>
        data('DELETE', `${await coursesPath(meta)}/${segment(id)}`),
    },

    'courses-short': {
      getList: async (params, { meta, signal }) => {
        onlyWholeLists('courses-short', params);
        return wholeList(await data('GET', `${await coursesPath(meta)}/short`, { signal }));
      },
    },

    learners: {
      getList: async (params, { meta, signal }) => {
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
        const listUuid: unknown = filters.listUuid ?? meta.listUuid;
        const archived = toBoolean('archived', filters.archived ?? meta.archived ?? false);
        const search: unknown = filters.search;
        const path =
          typeof listUuid === 'string' && listUuid !== ''
            ? `/api/v1/learners/learners-lists/${segment(listUuid)}`
            : '/api/v1/learners';
        const query: Record<string, QueryValue> = {
          archived,
          ...(typeof search === 'string' ? { search } : {}),
          ...pageQuery('learners', params.pagination),
        };
        const body = await client.get<{
          data: TLearner[];
          meta?: TPaginationMeta;
          links?: TPaginationLinks;
        }>(path, { query, signal });
        return paginatedResult('learners', { ...body, data: body.data.map(learnerFromServer) });
      },
      getOne: async (id, { signal }) =>
        learnerFromServer(
          await data<TLearner>('GET', `/api/v1/learners/${segment(id)}`, { signal }),
        ),
      create: async (variables, { meta }) => {
        const listUuid: unknown = meta.listUuid;
        const path =
          typeof listUuid === 'string' && listUuid !== ''
            ? `/api/v1/learners/learners-lists/${segment(listUuid)}`
            : '/api/v1/learners';
        const learner = await data<TLearner>('POST', path, { body: learnerForCreate(variables) });
        session.invalidateLearnersLists();
        return learnerFromServer(learner);
      },
      update: async (id, variables) => {
        const learner = await data<TLearner>('PUT', `/api/v1/learners/${segment(id)}`, {
          body: learnerForUpdate(variables),
        });
        return learnerFromServer(learner);
      },
      deleteOne: async (id) => {
        const deleted = await data('DELETE', `/api/v1/learners/${segment(id)}`);
        session.invalidateLearnersLists();
        return deleted;
      },
    },

    'learners-lists': {
      getList: async (params, { signal }) => {
        onlyWholeLists('learners-lists', params);
        const lists = await data<TLearnersList[]>('GET', '/api/v1/learners-lists', { signal });
        session.setLearnersLists(lists);
        return wholeList(lists);
      },
      // The API has no call for one list; it answers every list at once.
      getOne: async (id, { signal }) => {
        const lists = await data<TLearnersList[]>('GET', '/api/v1/learners-lists', { signal });
        session.setLearnersLists(lists);
        const list = lists.find((candidate) => candidate.uuid === id);
        if (!list)
          throw new ApiError({ status: 404, code: 'NOT_FOUND', message: MESSAGES.notFound });
        return list;
      },
      create: async (variables) => {
        const list = await data('POST', '/api/v1/learners-lists', { body: variables });
        session.invalidateLearnersLists();
        return list;
      },
      update: async (id, variables) => {
        const list = await data('PUT', `/api/v1/learners-lists/${segment(id)}`, {
          body: variables,
        });
        session.invalidateLearnersLists();
        return list;
      },
      deleteOne: async (id) => {
        const result = await data<{ deleted?: unknown }>(
          'DELETE',
          `/api/v1/learners-lists/${segment(id)}`,
        );
        session.invalidateLearnersLists();
        // Spec §7: success only when the answer's `deleted` is the uuid asked for.
        if (result.deleted !== id) {
          throw new Error(
            `Deleting learners list ${id} was not confirmed: the server answered deleted=${JSON.stringify(result.deleted)}.`,
          );
        }
        return result;
      },
    },

    channels: {
      getList: async (params) => {
        onlyWholeLists('channels', params);
        return wholeList(await session.cache.channels());
      },
    },
    languages: {
      getList: async (params) => {
        onlyWholeLists('languages', params);
        return wholeList(await session.cache.languages());
      },
    },
    translations: {
      getList: async (params, { meta }) => {
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
    },
    classrooms: {
      getList: async (params) => {
        onlyWholeLists('classrooms', params);
        return wholeList(await session.classrooms());
      },
    },
    company: { getOne: async () => session.cache.company() },
    subscription: { getOne: async () => session.cache.subscription() },
    terms: {
      getList: async (params, { signal }) => {
        onlyWholeLists('terms', params);
        return wholeList(
          await data('GET', '/api/v1/users/me/terms-and-conditions/to-accept', { signal }),
        );
      },
    },
    analytics: {},
    exports: {},
  };

  const handler = <M extends Method>(resource: string, method: M): NonNullable<Handlers[M]> => {
    if (!(RESOURCES as readonly string[]).includes(resource)) {
      throw new Error(`Unknown resource "${resource}". Known resources: ${RESOURCES.join(', ')}.`);
    }
    if (resource === 'analytics' || resource === 'exports') throw notAvailable(resource);
    const handlers = resources[resource as TResource];
    const found = handlers[method];
    if (!found) {
      const supported = Object.keys(handlers).join(', ');
      throw new Error(`The "${resource}" resource supports ${supported} only, not ${method}.`);
    }
    return found;
  };

  const contextOf = (meta: MetaQuery | undefined): Context => ({
    meta: meta ?? {},
    signal: signalOf(meta),
  });

  return {
    getApiUrl: () => client.apiUrl,

    getList: async <TData extends BaseRecord = BaseRecord>(params: GetListParams) => {
      const result = await handler(params.resource, 'getList')(params, contextOf(params.meta));
      return result as GetListResponse<TData>;
    },

    getOne: async <TData extends BaseRecord = BaseRecord>({
      resource,
      id,
      meta,
    }: {
      resource: string;
      id: BaseKey;
      meta?: MetaQuery;
    }) => ({ data: (await handler(resource, 'getOne')(String(id), contextOf(meta))) as TData }),

    create: async <TData extends BaseRecord = BaseRecord, TVariables = object>({
      resource,
      variables,
      meta,
    }: {
      resource: string;
      variables: TVariables;
      meta?: MetaQuery;
    }) => {
      const record = await handler(resource, 'create')(
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
    }: {
      resource: string;
      id: BaseKey;
      variables: TVariables;
      meta?: MetaQuery;
    }) => {
      const record = await handler(resource, 'update')(
        String(id),
        asVariables(resource, variables),
        contextOf(meta),
      );
      return { data: record as TData };
    },

    deleteOne: async <TData extends BaseRecord = BaseRecord>({
      resource,
      id,
      meta,
    }: {
      resource: string;
      id: BaseKey;
      meta?: MetaQuery;
    }) => ({ data: (await handler(resource, 'deleteOne')(String(id), contextOf(meta))) as TData }),

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
      const filled = await fill(url, context.meta);
      let path = filled;
      if (/^[a-z][a-z\d+.-]*:/i.test(filled)) {
        // Never send the bearer token to another origin.
        const base = new URL(client.apiUrl.endsWith('/') ? client.apiUrl : `${client.apiUrl}/`);
        const target = new URL(filled);
        if (target.origin !== base.origin || !target.pathname.startsWith(base.pathname)) {
          throw new Error(`custom() only calls the API at ${client.apiUrl}; got ${url}.`);
        }
        path = `/${target.pathname.slice(base.pathname.length)}${target.search}`;
      }
      const body: unknown = await client.request(method, path, {
        ...(query ? { query: query as Record<string, QueryValue> } : {}),
        ...(payload instanceof FormData ? { form: payload } : { body: payload }),
        signal: context.signal,
      });
      const envelope =
        typeof body === 'object' && body !== null && 'data' in body ? body : { data: body };
      return envelope as { data: TData };
    },
  };
};
