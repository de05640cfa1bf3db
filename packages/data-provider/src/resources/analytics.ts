import type {
  TClassroomAnalytics,
  TClassroomStatistics,
  TCourseInsight,
  TCourseQuestion,
  TDistributionChart,
  TLearnerInsights,
  TLearnersAnalytics,
  TLearnersStatus,
} from '@ccp/schemas';

import type { QueryValue } from '../http-client.ts';
import { apiData, fillPath, paginatedResult, segment, wholeList } from '../utils/api.ts';
import type { Paginated } from '../utils/api.ts';
import { pageQuery, readFilters, rejectSorters } from '../utils/query.ts';
import type { ResourceContext, ResourceHandlers } from './types.ts';

/**
 * The analytics reports of spec §7, by the id `getOne` takes, with the shape each answers. A
 * learner's report is `getOne({ id: <learner uuid>, meta: { report: 'learner' } })`; the per-course
 * insights are a list: `getList({ meta: { report: 'courses-insights' } })`.
 */
export type TAnalyticsReports = {
  classroom: TClassroomAnalytics;
  statistics: TClassroomStatistics;
  learners: TLearnersAnalytics;
  'learners-status': TLearnersStatus;
  distribution: TDistributionChart;
  learner: TLearnerInsights;
};
export type TAnalyticsReport = keyof TAnalyticsReports;

/** `meta.period`: both dates optional, `YYYY-MM-DD`, inclusive (docs/metrics.md "Periods"). */
export type TAnalyticsPeriod = { start_date?: string; end_date?: string };

const CLASSROOM_V1 = '/api/v1/analytics/classrooms/{classroomUuid}';
const CLASSROOM_V2 = '/api/v2/analytics/classrooms/{classroomUuid}';

/** Which query keys each report reads, besides nothing. */
const REPORTS: Record<TAnalyticsReport, { path: string; period: boolean; course: boolean }> = {
  classroom: { path: CLASSROOM_V1, period: true, course: false },
  statistics: { path: `${CLASSROOM_V2}/statistics`, period: false, course: false },
  learners: { path: `${CLASSROOM_V1}/learners`, period: false, course: false },
  'learners-status': { path: `${CLASSROOM_V2}/learners/status`, period: true, course: true },
  distribution: { path: `${CLASSROOM_V2}/distribution`, period: true, course: true },
  learner: { path: '/api/v1/analytics/learners/{id}', period: false, course: false },
};

const isReport = (value: unknown): value is TAnalyticsReport =>
  typeof value === 'string' && value in REPORTS;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

const periodQuery = (report: string, period: unknown): Record<string, QueryValue> => {
  if (period === undefined || period === null) return {};
  if (typeof period !== 'object') {
    throw new Error(`The "${report}" report takes meta.period as { start_date?, end_date? }.`);
  }
  const query: Record<string, QueryValue> = {};
  for (const [key, value] of Object.entries(period as Record<string, unknown>)) {
    if (value === undefined || value === null || value === '') continue;
    if (
      (key !== 'start_date' && key !== 'end_date') ||
      typeof value !== 'string' ||
      !DATE.test(value)
    ) {
      throw new Error(
        `The "${report}" report takes meta.period { start_date, end_date } as YYYY-MM-DD; got ${key}=${JSON.stringify(value)}.`,
      );
    }
    query[key] = value;
  }
  return query;
};

const reportQuery = (report: TAnalyticsReport, { meta }: ResourceContext) => {
  const { period, course } = REPORTS[report];
  if (!period && meta.period !== undefined) {
    throw new Error(`The "${report}" report has no period: leave meta.period out.`);
  }
  const courseId: unknown = meta.courseId;
  if (courseId !== undefined && (!course || typeof courseId !== 'string')) {
    throw new Error(`The "${report}" report cannot be narrowed to one course.`);
  }
  return {
    ...periodQuery(report, meta.period),
    ...(typeof courseId === 'string' && courseId !== '' ? { course_id: courseId } : {}),
  };
};

/**
 * analytics: `getOne` answers one report of the current classroom (or `meta.classroomUuid`):
 * `id` is the report (`classroom`, `statistics`, `learners`, `learners-status`, `distribution`),
 * or a learner's uuid with `meta.report: 'learner'`. `meta.period` narrows the reports with
 * dates, `meta.courseId` the status and distribution to one course. `getList` with
 * `meta.report: 'courses-insights'` lists the per-course figures of the counted courses; with
 * `'course-learners'` and `meta.courseId`, that course's learners by status (filter `status eq`,
 * paginated by the API); with `'course-questions'` and `meta.courseId`, that course's questions by
 * retention (issue 28).
 */
export const analyticsResource: ResourceHandlers = {
  getOne: async (id, context) => {
    const named: unknown = context.meta.report;
    const report = named ?? id;
    if (!isReport(report)) {
      throw new Error(
        `Unknown analytics report ${JSON.stringify(report)}. Reports: ${Object.keys(REPORTS).join(', ')}.`,
      );
    }
    const query = reportQuery(report, context);
    const path = (await fillPath(REPORTS[report].path, context)).replace('{id}', segment(id));
    return apiData(context, 'GET', path, { query });
  },
  getList: async (params, context) => {
    rejectSorters('analytics', params.sorters);
    const { report, courseId } = context.meta;
    if (report === 'course-learners') {
      const filters = readFilters('analytics', params.filters, {
        status: { operators: ['eq'], param: 'status' },
      });
      if (typeof courseId !== 'string' || courseId === '') {
        throw new Error('The "course-learners" list needs meta.courseId.');
      }
      const path = await fillPath(`${CLASSROOM_V2}/courses/${segment(courseId)}/learners`, context);
      const body = await context.client.get<Paginated>(path, {
        query: { ...filters, ...pageQuery('analytics', params.pagination) },
        signal: context.signal,
      });
      return paginatedResult('analytics', body);
    }
    readFilters('analytics', params.filters, {});
    if (report === 'course-questions') {
      if (typeof courseId !== 'string' || courseId === '') {
        throw new Error('The "course-questions" list needs meta.courseId.');
      }
      const path = await fillPath(
        `${CLASSROOM_V2}/courses/${segment(courseId)}/questions`,
        context,
      );
      return wholeList(await apiData<TCourseQuestion[]>(context, 'GET', path));
    }
    if (report !== 'courses-insights') {
      throw new Error(
        'The "analytics" lists are meta.report "courses-insights" (every counted course), "course-learners" (one course\'s learners by status) and "course-questions" (one course\'s questions by retention); other reports are getOne.',
      );
    }
    const path = await fillPath(`${CLASSROOM_V2}/courses/insights`, context);
    return wholeList(await apiData<TCourseInsight[]>(context, 'GET', path));
  },
};
