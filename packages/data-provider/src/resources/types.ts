import type { TPaginationLinks, TPaginationMeta } from '@ccp/schemas';
import type { GetListParams, MetaQuery } from '@refinedev/core';

import type { HttpClient } from '../http-client.ts';
import type { Session } from '../session.ts';

/** What every resource handler gets besides its own arguments. */
export type ResourceContext = {
  client: HttpClient;
  session: Session;
  /** Refine's meta (resource meta, URL params, hook meta); read only the keys a resource names. */
  meta: MetaQuery;
  signal: AbortSignal | undefined;
};

/** A list in Refine's shape, keeping Laravel's pagination meta and links when there are pages. */
export type ListResult = {
  data: unknown[];
  total: number;
  meta?: TPaginationMeta;
  links?: TPaginationLinks;
};

/**
 * One resource of the API (`src/resources/<resource>.ts`): the Refine methods it supports, each
 * mapping Refine's parameters onto the resource's paths and query. A method left out is one the
 * API does not offer; the provider says so by name.
 */
export type ResourceHandlers = {
  getList?: (params: GetListParams, context: ResourceContext) => Promise<ListResult>;
  getOne?: (id: string, context: ResourceContext) => Promise<unknown>;
  create?: (variables: Record<string, unknown>, context: ResourceContext) => Promise<unknown>;
  update?: (
    id: string,
    variables: Record<string, unknown>,
    context: ResourceContext,
  ) => Promise<unknown>;
  deleteOne?: (id: string, context: ResourceContext) => Promise<unknown>;
};

export type ResourceMethod = keyof ResourceHandlers;
