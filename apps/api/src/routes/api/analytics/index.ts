import {
  ZAnalyticsCourseFilterQuerySchema,
  ZAnalyticsCourseParamsSchema,
  ZAnalyticsIdParamsSchema,
  ZAnalyticsPeriodQuerySchema,
  ZClassroomAnalyticsResponseSchema,
  ZClassroomStatisticsResponseSchema,
  ZCourseInsightsResponseSchema,
  ZCourseLearnersQuerySchema,
  ZCourseLearnersResponseSchema,
  ZCourseQuestionsResponseSchema,
  ZDistributionChartResponseSchema,
  ZLearnerInsightsResponseSchema,
  ZLearnersAnalyticsResponseSchema,
  ZLearnersStatusResponseSchema,
} from '@ccp/schemas';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import {
  classroomAnalytics,
  classroomStatistics,
  distributionChart,
  learnersAnalytics,
  learnersStatus,
} from '../../../analytics/classroom.ts';
import { courseLearners } from '../../../analytics/course-learners.ts';
import { courseInsights } from '../../../analytics/courses.ts';
import { courseQuestions } from '../../../analytics/retention.ts';
import { learnerInsights } from '../../../analytics/learner.ts';
import { chartPeriodOf, periodOf } from '../../../analytics/period.ts';
import type { ClassroomScope } from '../../../analytics/scope.ts';
import { notFound } from '../../../lib/app-error.ts';
import { pageRequest, paginated } from '../../../lib/pagination.ts';
import { authOf } from '../../../plugins/auth.ts';
import { findClassroom } from '../../../courses/courses-repository.ts';
import { analyticsExportRoutes } from './exports.ts';

// Spec §7 "Analytics and exports". Figures are defined in docs/metrics.md; a classroom or
// course of another company answers 404.

const tags = ['analytics'];
const v1 = '/api/v1/analytics/classrooms/:id';
const v2 = '/api/v2/analytics/classrooms/:id';

/** The caller's classroom (404 otherwise) and, when asked, one of its courses (404 otherwise). */
const scopeOf = async (
  request: FastifyRequest,
  classroomUuid: string,
  courseUuid?: string,
): Promise<ClassroomScope> => {
  const { db } = request.server;
  const companyUuid = authOf(request).user.company_uuid;
  await findClassroom(db, companyUuid, classroomUuid);
  if (courseUuid) {
    const course = await db
      .selectFrom('courses')
      .select('uuid')
      .where('uuid', '=', courseUuid)
      .where('classroom_uuid', '=', classroomUuid)
      .where('company_uuid', '=', companyUuid)
      .executeTakeFirst();
    if (!course) throw notFound();
  }
  return { companyUuid, classroomUuid, courseUuid };
};

export const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    v1,
    {
      schema: {
        tags,
        summary: 'Classroom analytics: learners, active learners, completion and progress',
        params: ZAnalyticsIdParamsSchema,
        querystring: ZAnalyticsPeriodQuerySchema,
        response: { 200: ZClassroomAnalyticsResponseSchema },
      },
    },
    async (request) => ({
      data: await classroomAnalytics(
        app.db,
        await scopeOf(request, request.params.id),
        periodOf(request.query),
      ),
    }),
  );

  for (const base of [v1, v2]) {
    app.get(
      `${base}/distribution`,
      {
        schema: {
          tags,
          summary: 'Lessons delivered, read and answered per day (15 days by default) and channel',
          params: ZAnalyticsIdParamsSchema,
          querystring: ZAnalyticsCourseFilterQuerySchema,
          response: { 200: ZDistributionChartResponseSchema },
        },
      },
      async (request) => ({
        data: await distributionChart(
          app.db,
          await scopeOf(request, request.params.id, request.query.course_id),
          chartPeriodOf(request.query, app.clock.now()),
        ),
      }),
    );
  }

  app.get(
    `${v1}/learners`,
    {
      schema: {
        tags,
        summary: 'Learners who interacted with and who completed the classroom’s courses',
        params: ZAnalyticsIdParamsSchema,
        response: { 200: ZLearnersAnalyticsResponseSchema },
      },
    },
    async (request) => ({
      data: await learnersAnalytics(app.db, await scopeOf(request, request.params.id)),
    }),
  );

  app.get(
    `${v2}/statistics`,
    {
      schema: {
        tags,
        summary: 'Classroom totals: active learners, courses and lessons attended, learning time',
        params: ZAnalyticsIdParamsSchema,
        response: { 200: ZClassroomStatisticsResponseSchema },
      },
    },
    async (request) => ({
      data: await classroomStatistics(app.db, await scopeOf(request, request.params.id)),
    }),
  );

  app.get(
    `${v2}/courses/insights`,
    {
      schema: {
        tags,
        summary: 'Per course: delivery, completion, activity, progress, engagement, zick score…',
        params: ZAnalyticsIdParamsSchema,
        response: { 200: ZCourseInsightsResponseSchema },
      },
    },
    async (request) => ({
      data: await courseInsights(
        app.db,
        await scopeOf(request, request.params.id),
        app.clock.now(),
      ),
    }),
  );

  app.get(
    `${v2}/learners/status`,
    {
      schema: {
        tags,
        summary: 'Enrolments by engagement status: completed, unreachable, active, dormant…',
        params: ZAnalyticsIdParamsSchema,
        querystring: ZAnalyticsCourseFilterQuerySchema,
        response: { 200: ZLearnersStatusResponseSchema },
      },
    },
    async (request) => {
      const scope = await scopeOf(request, request.params.id, request.query.course_id);
      return {
        data: await learnersStatus(app.db, scope, periodOf(request.query), app.clock.now()),
      };
    },
  );

  app.get(
    `${v2}/courses/:courseId/learners`,
    {
      schema: {
        tags,
        summary: 'A course’s enrolled learners with their status, by name',
        description:
          '`status` narrows the list to one engagement status (completed, unreachable, active, dormant, not_started) or to the learners who read a lesson (`interacted`). Paginated as every list.',
        params: ZAnalyticsCourseParamsSchema,
        querystring: ZCourseLearnersQuerySchema,
        response: { 200: ZCourseLearnersResponseSchema },
      },
    },
    async (request) => {
      const { id, courseId } = request.params;
      await scopeOf(request, id, courseId);
      const page = pageRequest(request.query);
      const { rows, total } = await courseLearners(
        app.db,
        courseId,
        request.query.status,
        page,
        app.clock.now(),
      );
      return paginated(rows, total, page, request.url);
    },
  );

  app.get(
    `${v2}/courses/:courseId/questions`,
    {
      schema: {
        tags,
        summary: 'A course’s questions by retention: right on the first try, after repetition',
        description:
          'One entry per lesson day (its question), in day order, with the tries of every learner so far (docs/metrics.md, "Retention").',
        params: ZAnalyticsCourseParamsSchema,
        response: { 200: ZCourseQuestionsResponseSchema },
      },
    },
    async (request) => {
      const { id, courseId } = request.params;
      await scopeOf(request, id, courseId);
      return { data: await courseQuestions(app.db, courseId) };
    },
  );

  app.get(
    '/api/v1/analytics/learners/:id',
    {
      schema: {
        tags,
        summary: 'A learner’s course figures and per-day assessment analysis',
        params: ZAnalyticsIdParamsSchema,
        response: { 200: ZLearnerInsightsResponseSchema },
      },
    },
    async (request) => ({
      data: await learnerInsights(
        app.db,
        authOf(request).user.company_uuid,
        request.params.id,
        app.clock.now(),
      ),
    }),
  );

  await app.register(analyticsExportRoutes);
};
