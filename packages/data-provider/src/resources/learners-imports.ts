import type { TImportJob } from '@ccp/schemas';
import type { CustomParams } from '@refinedev/core';

import type { HttpClient } from '../http-client.ts';
import type { TUploadProgress } from '../utils/xhr-fetch.ts';
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
  /**
   * The job; with `meta.part: 'errors'`, its error report as `{ uuid, csv }`, `csv` the bytes as
   * the server sent them (the report is in its file's encoding: UTF-8, UTF-16 or Windows-1252).
   */
  getOne: async (id, context) =>
    context.meta.part === 'errors'
      ? {
          uuid: id,
          csv: await context.client.get<Uint8Array>(`${IMPORTS_PATH}/${segment(id)}/errors`, {
            responseType: 'bytes',
            signal: context.signal,
          }),
        }
      : apiData<TImportJob>(context, 'GET', `${IMPORTS_PATH}/${segment(id)}`),
  /**
   * The upload: `file` (a File or Blob) and the text fields of TImportUploadOptions;
   * `meta.onUploadProgress(sent, total)` follows the bytes, `meta.signal` cancels the upload.
   */
  create: async ({ file, ...fields }, context) => {
    if (!(file instanceof Blob)) throw new Error('learners-imports create needs a file (a Blob).');
    const form = importForm(fields, file);
    const onUploadProgress = context.meta.onUploadProgress as TUploadProgress | undefined;
    const signal = (context.meta.signal as AbortSignal | undefined) ?? context.signal;
    return apiData<TImportJob>({ ...context, signal }, 'POST', IMPORTS_PATH, {
      form,
      ...(onUploadProgress ? { onUploadProgress } : {}),
    });
  },
};

/** The multipart body of an upload: the text fields first, then the file. */
const importForm = (fields: TImportUploadOptions, file: Blob): FormData => {
  const form = new FormData();
  if (fields.list_uuid) form.append('list_uuid', fields.list_uuid);
  if (fields.dry_run) form.append('dry_run', 'true');
  if (fields.columns && Object.keys(fields.columns).length > 0) {
    form.append('columns', JSON.stringify(fields.columns));
  }
  if (fields.phone_countries && Object.keys(fields.phone_countries).length > 0) {
    form.append('phone_countries', JSON.stringify(fields.phone_countries));
  }
  if (fields.default_country) form.append('default_country', fields.default_country);
  if (fields.default_channels?.length) {
    form.append('default_channels', fields.default_channels.join(','));
  }
  if (fields.default_locale) form.append('default_locale', fields.default_locale);
  if (fields.encoding) form.append('encoding', fields.encoding);
  form.append('file', file, file instanceof File ? file.name : 'learners.csv');
  return form;
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
  /** The country of national numbers per phone column, by header; sent as JSON. */
  phone_countries?: Record<string, string>;
  default_country?: string;
  /** Channels of rows without any (the file then needs no channels column). */
  default_channels?: string[];
  /** Language of rows without one. */
  default_locale?: string;
  /** A CSV's text encoding, as the preview read it (the server guesses the same when absent). */
  encoding?: string;
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

/** The error report of an import: its bytes, in the encoding of the imported file (header only when no row failed). */
export const learnersImportErrors = (client: HttpClient, uuid: string): Promise<Uint8Array> =>
  client.get<Uint8Array>(`${IMPORTS_PATH}/${segment(uuid)}/errors`, { responseType: 'bytes' });
