import type { TImportJob } from '@ccp/schemas';
import type { CustomParams } from '@refinedev/core';

import type { HttpClient } from '../http-client.ts';
import { apiData, paginatedResult, segment } from '../utils/api.ts';
import { pageQuery, readFilters, rejectSorters } from '../utils/query.ts';
import type { ResourceHandlers } from './types.ts';

export const IMPORTS_PATH = '/api/v1/learners/imports';

type ActionRequest = Pick<CustomParams, 'url' | 'method'>;

/**
 * learners-imports: the bulk learner import jobs (docs/imports.md). GET /learners/imports
 * (paged, newest first), GET /learners/imports/{id}. The upload itself is multipart with the
 * file: `uploadLearnersImport`.
 */
export const learnersImportsResource: ResourceHandlers = {
  getList: async (params, context) => {
    rejectSorters('learners-imports', params.sorters);
    readFilters('learners-imports', params.filters, {});
    const body = await context.client.get<{ data: TImportJob[]; meta?: never; links?: never }>(
      IMPORTS_PATH,
      { query: pageQuery('learners-imports', params.pagination), signal: context.signal },
    );
    return paginatedResult('learners-imports', body);
  },
  getOne: async (id, context) =>
    apiData<TImportJob>(context, 'GET', `${IMPORTS_PATH}/${segment(id)}`),
};

export const importActionRequests = {
  cancelImport: (uuid: string) =>
    ({ url: `${IMPORTS_PATH}/${segment(uuid)}/cancel`, method: 'post' }) satisfies ActionRequest,
};

/** The multipart text fields of an upload (besides the file). */
export type TImportUploadOptions = {
  list_uuid?: string;
  dry_run?: boolean;
  /** Header overrides, sent as JSON. */
  columns?: Record<string, string>;
  default_country?: string;
};

/**
 * Uploads an import file. `body` is the whole multipart body: a FormData, or a stream the caller
 * encoded (to count the bytes sent) with its content type and length. Answers the queued job.
 */
export const uploadLearnersImport = async (
  client: HttpClient,
  body: FormData | { body: BodyInit; contentType: string; length?: number },
  signal?: AbortSignal,
): Promise<TImportJob> => {
  const options = body instanceof FormData ? { form: body } : { raw: body };
  return (await client.post<{ data: TImportJob }>(IMPORTS_PATH, undefined, { ...options, signal }))
    .data;
};

/** The error report of an import: CSV text (the header only when no row failed). */
export const learnersImportErrors = (client: HttpClient, uuid: string): Promise<string> =>
  client.get<string>(`${IMPORTS_PATH}/${segment(uuid)}/errors`, { responseType: 'text' });
