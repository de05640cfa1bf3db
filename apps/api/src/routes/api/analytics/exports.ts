import {
  ZCourseExportParamsSchema,
  ZCourseExportResponseSchema,
  ZExportDownloadResponseSchema,
  ZExportParamsSchema,
  ZExportFormatQuerySchema,
  ZExportResponseSchema,
  ZUuidSchema,
} from '@ccp/schemas';
import type { TExportType } from '@ccp/schemas';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import type { ExportCourse, ExportUser } from '../../../exports/service.ts';
import {
  courseCsvBase64,
  createExport,
  mailExportReady,
  readExport,
} from '../../../exports/service.ts';
import { requestLanguage } from '../../../i18n/language.ts';
import { localizeMessage } from '../../../i18n/messages.ts';
import { notFound } from '../../../lib/app-error.ts';
import { authOf } from '../../../plugins/auth.ts';

// Exports (spec §3, §7, §8): produced as CSV when requested, stored under an id, downloaded as
// base64. The requester is e-mailed a link to the web app's download page.

const tags = ['analytics'];

/** A course of the caller's company (in the classroom, when given), archived or not; else 404. */
const courseOf = async (
  request: FastifyRequest,
  courseUuid: string,
  classroomUuid?: string,
): Promise<ExportCourse> => {
  const companyUuid = authOf(request).user.company_uuid;
  let query = request.server.db
    .selectFrom('courses')
    .select(['uuid', 'name', 'company_uuid'])
    .where('uuid', '=', courseUuid)
    .where('company_uuid', '=', companyUuid);
  if (classroomUuid) query = query.where('classroom_uuid', '=', classroomUuid);
  const course = await query.executeTakeFirst();
  if (!course) throw notFound();
  return course;
};

const userOf = (request: FastifyRequest): ExportUser => {
  const { user } = authOf(request);
  return { uuid: user.uuid, email: user.email, first_name: user.first_name };
};

const classroomCourseParams = z.object({ id: ZUuidSchema, courseId: ZUuidSchema });
const classroomCourseGetParams = z.object({ classroomId: ZUuidSchema, courseId: ZUuidSchema });

export const analyticsExportRoutes: FastifyPluginAsyncZod = async (app) => {
  const requested: [path: string, type: TExportType, summary: string][] = [
    [
      'export-delivery-statistics',
      'statistics',
      'Export the course’s delivery statistics (CSV, one row per enrolled learner)',
    ],
    [
      'export-not-enrolled-learners',
      'not_enrolled_learners',
      'Export the learners of the course’s lists who are not enrolled (CSV)',
    ],
  ];
  for (const [suffix, type, summary] of requested) {
    app.post(
      `/api/v1/analytics/courses/:courseId/${suffix}`,
      {
        schema: {
          tags,
          summary,
          params: ZCourseExportParamsSchema,
          querystring: ZExportFormatQuerySchema,
          response: { 201: ZExportResponseSchema },
        },
      },
      async (request, reply) => {
        const course = await courseOf(request, request.params.courseId);
        const user = userOf(request);
        const language = requestLanguage(request);
        const created = await createExport(app, {
          type,
          course,
          user,
          language,
          format: request.query,
        });
        await mailExportReady(app, {
          exportId: created.export_id,
          type,
          course,
          user,
          // CCP_PUBLIC_URL, never the request's Host: a client chooses that (issue 30).
          origin: app.publicUrl,
          language,
        });
        const { export_id, status } = created;
        const type_display_name = localizeMessage(created.type_display_name, language);
        return reply.code(201).send({ data: { export_id, type, type_display_name, status } });
      },
    );
  }

  app.post(
    '/api/v1/analytics/classrooms/:id/courses/:courseId/export',
    {
      schema: {
        tags,
        summary: 'Export the course’s statistics CSV, stored and answered inline as base64',
        params: classroomCourseParams,
        response: { 201: ZCourseExportResponseSchema },
      },
    },
    async (request, reply) => {
      const course = await courseOf(request, request.params.courseId, request.params.id);
      const created = await createExport(app, {
        type: 'course',
        course,
        user: userOf(request),
        language: requestLanguage(request),
      });
      const file = await readExport(app, course.company_uuid, created.export_id);
      return reply.code(201).send({
        data: {
          base64: file.file_content,
          file_name: file.file_name,
          content_type: file.content_type,
          export_id: created.export_id,
        },
      });
    },
  );

  app.get(
    '/api/v1/analytics/classrooms/:classroomId/courses/:courseId/export',
    {
      schema: {
        tags,
        summary: 'The course’s statistics CSV, produced now, as base64',
        params: classroomCourseGetParams,
        response: { 200: ZCourseExportResponseSchema },
      },
    },
    async (request) => {
      const course = await courseOf(request, request.params.courseId, request.params.classroomId);
      const file = await courseCsvBase64(app, course, requestLanguage(request));
      return { data: { ...file, export_id: null } };
    },
  );

  app.get(
    '/api/v1/analytics/exports/:exportId/download',
    {
      schema: {
        tags,
        summary: 'Download an export: the file as base64 with its name and type',
        params: ZExportParamsSchema,
        response: { 200: ZExportDownloadResponseSchema },
      },
    },
    async (request) => {
      const file = await readExport(
        app,
        authOf(request).user.company_uuid,
        request.params.exportId,
      );
      return {
        data: {
          ...file,
          type_display_name: localizeMessage(file.type_display_name, requestLanguage(request)),
        },
      };
    },
  );
};
