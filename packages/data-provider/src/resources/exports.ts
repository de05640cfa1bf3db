import { EXPORT_TYPES, ZExportFormatQuerySchema } from '@ccp/schemas';
import type { TExportType } from '@ccp/schemas';

import { apiData, fillPath, segment } from '../utils/api.ts';
import type { ResourceHandlers } from './types.ts';

const REQUEST_PATHS: Record<TExportType, string> = {
  statistics: '/api/v1/analytics/courses/{courseId}/export-delivery-statistics',
  not_enrolled_learners: '/api/v1/analytics/courses/{courseId}/export-not-enrolled-learners',
  course: '/api/v1/analytics/classrooms/{classroomUuid}/courses/{courseId}/export',
};

const isExportType = (value: unknown): value is TExportType =>
  (EXPORT_TYPES as readonly unknown[]).includes(value);

/**
 * exports: `create({ type, course_id, format?, delimiter? })` requests an export of a course (the
 * user is e-mailed a link to the download page; `format: 'plain'` for a program, see
 * ZExportFormatQuerySchema); `getOne(exportId)` downloads it: the file as base64 with its name
 * and MIME type (spec §7).
 */
export const exportsResource: ResourceHandlers = {
  create: async ({ type, course_id: courseId, format, delimiter }, context) => {
    if (!isExportType(type)) {
      throw new Error(
        `An export's type is one of ${EXPORT_TYPES.join(', ')}; got ${JSON.stringify(type)}.`,
      );
    }
    if (typeof courseId !== 'string' || courseId === '') {
      throw new Error('An export needs the course_id of its course.');
    }
    const path = (await fillPath(REQUEST_PATHS[type], context)).replace(
      '{courseId}',
      segment(courseId),
    );
    const query =
      format === undefined && delimiter === undefined
        ? undefined
        : ZExportFormatQuerySchema.parse({ format, delimiter });
    return apiData(context, 'POST', path, query ? { query } : {});
  },
  getOne: async (id, context) =>
    apiData(context, 'GET', `/api/v1/analytics/exports/${segment(id)}/download`),
};
