import type { TPaginationLinks, TPaginationMeta } from '@ccp/schemas';
import type { BaseKey, MetaQuery } from '@refinedev/core';

import type { RequestOptions } from '../http-client.ts';
import type { ListResult, ResourceContext } from '../resources/types.ts';

// Paths and envelopes shared by the resource modules.

/** One path segment from a record id; an empty id is a programming error, not a request. */
export const segment = (id: BaseKey | string): string => {
  const value = String(id);
  if (value === '') throw new Error('A record id is required.');
  return encodeURIComponent(value);
};

/** The classroom a call is about: `meta.classroomUuid`, else the session's current one. */
export const classroomUuidOf = async ({ meta, session }: ResourceContext): Promise<string> => {
  const named: unknown = meta.classroomUuid;
  if (typeof named === 'string' && named !== '') return named;
  return (await session.currentClassroom()).uuid;
};

/** Fills `{classroomUuid}` and `{companyUuid}` in a path template. */
export const fillPath = async (template: string, context: ResourceContext): Promise<string> => {
  let filled = template;
  if (filled.includes('{classroomUuid}')) {
    const classroom = encodeURIComponent(await classroomUuidOf(context));
    filled = filled.replaceAll('{classroomUuid}', classroom);
  }
  if (filled.includes('{companyUuid}')) {
    const company = await context.session.company();
    filled = filled.replaceAll('{companyUuid}', encodeURIComponent(company.uuid));
  }
  return filled;
};

/**
 * With `meta.errorFeedback: 'caller'` the page tells the user about a failure itself (a form puts
 * 422 field errors under its fields, an action names what failed): the client then shows no toast
 * or error modal of its own. The upgrade modal and the way out of an ended session stay.
 */
export const quietFor = (meta: MetaQuery): RequestOptions['quiet'] =>
  meta.errorFeedback === 'caller'
    ? (error) => error.reaction?.type === 'toast' || error.reaction?.type === 'errorModal'
    : undefined;

/** A call answering the API's `{data}` envelope, unwrapped. */
export const apiData = async <T>(
  { client, signal, meta }: ResourceContext,
  method: string,
  path: string,
  request: RequestOptions = {},
): Promise<T> => {
  const quiet = quietFor(meta);
  const options = { signal, ...(quiet ? { quiet } : {}), ...request };
  return (await client.request<{ data: T }>(method, path, options)).data;
};

export type Paginated = { data: unknown[]; meta?: TPaginationMeta; links?: TPaginationLinks };

/** `{data, meta, links}` → Refine's `{data, total}`, keeping Laravel's meta and links. */
export const paginatedResult = (resource: string, body: Paginated): ListResult => {
  if (typeof body.meta?.total !== 'number') {
    throw new Error(
      `The API answered the "${resource}" list without meta.total, so Refine cannot count pages. Is the server older than the client?`,
    );
  }
  return { data: body.data, total: body.meta.total, meta: body.meta, links: body.links };
};

/** A list the API answers whole. */
export const wholeList = (data: unknown[]): ListResult => ({ data, total: data.length });
