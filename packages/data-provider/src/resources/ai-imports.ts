import type { TAiImportJob } from '@ccp/schemas';
import type { CustomParams } from '@refinedev/core';

import type { TUploadProgress } from '../utils/xhr-fetch.ts';
import { apiData, fillPath, segment } from '../utils/api.ts';
import type { ResourceContext, ResourceHandlers } from './types.ts';

/** Paths with `{classroomUuid}` get the current classroom, or `meta.classroomUuid`. */
export const AI_IMPORTS_PATH = '/api/v1/classrooms/{classroomUuid}/courses/import';

type ActionRequest = Pick<CustomParams, 'url' | 'method'>;

const importsPath = (context: ResourceContext) => fillPath(AI_IMPORTS_PATH, context);

/**
 * ai-imports: a document, video or audio file turned into a draft course by a background job
 * (docs/ai.md). POST …/courses/import (multipart: the form's fields and `file`; answers the
 * queued job), GET …/courses/import/{id} (the job: phase, progress, then `course_uuid`).
 */
export const aiImportsResource: ResourceHandlers = {
  getOne: async (id, context) =>
    apiData<TAiImportJob>(context, 'GET', `${await importsPath(context)}/${segment(id)}`),
  /**
   * The upload: `file` (a File or Blob) and the text fields of the form;
   * `meta.onUploadProgress(sent, total)` follows the bytes, `meta.signal` cancels the upload.
   */
  create: async ({ file, ...fields }, context) => {
    if (!(file instanceof Blob)) throw new Error('ai-imports create needs a file (a Blob).');
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) {
      if (value === undefined || value === null) continue;
      if (typeof value !== 'string' && typeof value !== 'number') {
        throw new Error(`The AI import field "${name}" must be text, got ${typeof value}.`);
      }
      form.append(name, String(value));
    }
    form.append('file', file, file instanceof File ? file.name : 'source.txt');
    const onUploadProgress = context.meta.onUploadProgress as TUploadProgress | undefined;
    const signal = (context.meta.signal as AbortSignal | undefined) ?? context.signal;
    return apiData<TAiImportJob>({ ...context, signal }, 'POST', await importsPath(context), {
      form,
      ...(onUploadProgress ? { onUploadProgress } : {}),
    });
  },
};

export const aiImportActionRequests = {
  /** Stops a queued or running AI import (`{classroomUuid}` is filled by the provider). */
  cancelAiImport: (uuid: string) =>
    ({ url: `${AI_IMPORTS_PATH}/${segment(uuid)}/cancel`, method: 'post' }) satisfies ActionRequest,
};
