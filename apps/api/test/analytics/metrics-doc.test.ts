import { readFileSync } from 'node:fs';
import path from 'node:path';

import {
  ZClassroomAnalyticsSchema,
  ZClassroomStatisticsSchema,
  ZCourseInsightSchema,
  ZCourseLearnerSchema,
  ZCourseQuestionSchema,
  ZDistributionChartChannelSchema,
  ZDistributionChartDaySchema,
  ZDistributionChartSchema,
  ZLearnerCourseInsightsSchema,
  ZLearnerInsightsSchema,
  ZLearnersAnalyticsSchema,
  ZLearnersStatusSchema,
  ZLessonDayAnalysisSchema,
} from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import en from '../../../../locales/en.json' with { type: 'json' };
import { NOT_ENROLLED_COLUMNS, STATISTICS_COLUMNS } from '../../src/exports/producers.ts';
import { buildTestApp, call } from '../helper.ts';

// docs/metrics.md defines every figure the analytics answer: each key of each response shape,
// and each export column, must appear there as `key`.

const doc = readFileSync(path.join(import.meta.dirname, '../../../../docs/metrics.md'), 'utf8');

const SHAPES = {
  ZClassroomAnalyticsSchema,
  ZClassroomStatisticsSchema,
  ZCourseInsightSchema,
  ZCourseLearnerSchema,
  ZCourseQuestionSchema,
  ZDistributionChartSchema,
  ZDistributionChartDaySchema,
  ZDistributionChartChannelSchema,
  ZLearnerInsightsSchema,
  ZLearnerCourseInsightsSchema,
  ZLearnersAnalyticsSchema,
  ZLearnersStatusSchema,
  ZLessonDayAnalysisSchema,
};

describe('docs/metrics.md', () => {
  it.each(Object.entries(SHAPES))('defines every key of %s', (_name, schema) => {
    const missing = Object.keys(schema.shape).filter((key) => !doc.includes(`\`${key}\``));
    expect(missing).toEqual([]);
  });

  // The web's info popovers and this document say the same formula (locales/*.json `metrics`).
  it.each(Object.entries(en.metrics))(
    'gives %s the formula the info popover shows',
    (key, text) => {
      const rows = doc.split('\n').filter((line) => line.startsWith(`| \`${key}\` |`));
      // Several tables can have a row for one key (`dormant` is also a status).
      expect(rows.filter((row) => row.includes(text.formula))).toHaveLength(1);
    },
  );

  it.each([
    ['statistics', STATISTICS_COLUMNS],
    ['not enrolled learners', NOT_ENROLLED_COLUMNS],
  ])('names every column of the %s export', (_name, columns) => {
    expect(columns.filter((column) => !doc.includes(`\`${column}\``))).toEqual([]);
  });
});

// Every analytics and export call of spec §7 is in the OpenAPI document with its answers.
const CONTRACT: [method: string, path: string][] = [
  ['get', '/api/v1/analytics/classrooms/{id}'],
  ['get', '/api/v1/analytics/classrooms/{id}/distribution'],
  ['get', '/api/v1/analytics/classrooms/{id}/learners'],
  ['get', '/api/v2/analytics/classrooms/{id}/statistics'],
  ['get', '/api/v2/analytics/classrooms/{id}/courses/insights'],
  ['get', '/api/v2/analytics/classrooms/{id}/distribution'],
  ['get', '/api/v2/analytics/classrooms/{id}/learners/status'],
  ['get', '/api/v2/analytics/classrooms/{id}/courses/{courseId}/learners'],
  ['get', '/api/v2/analytics/classrooms/{id}/courses/{courseId}/questions'],
  ['get', '/api/v1/analytics/learners/{id}'],
  ['post', '/api/v1/analytics/courses/{courseId}/export-delivery-statistics'],
  ['post', '/api/v1/analytics/courses/{courseId}/export-not-enrolled-learners'],
  ['post', '/api/v1/analytics/classrooms/{id}/courses/{courseId}/export'],
  ['get', '/api/v1/analytics/classrooms/{classroomId}/courses/{courseId}/export'],
  ['get', '/api/v1/analytics/exports/{exportId}/download'],
];

const shape = (route: string) => route.replace(/\{[^}]+\}/g, '{}');

describe('the OpenAPI document', async () => {
  const app = await buildTestApp();
  const paths = (await call(app, { method: 'GET', url: '/api/docs/json' })).json.paths as Record<
    string,
    Record<string, { responses?: Record<string, unknown> }>
  >;
  // The spec names the classroom of the course export {id} for POST, {classroomId} for GET.
  const documented = new Map<string, Record<string, { responses?: Record<string, unknown> }>>();
  for (const [route, ops] of Object.entries(paths)) {
    documented.set(shape(route), { ...documented.get(shape(route)), ...ops });
  }

  it.each(CONTRACT)('documents %s %s with its success answer', (method, route) => {
    const responses = documented.get(shape(route))?.[method]?.responses ?? {};
    expect(Object.keys(responses)).toContain(method === 'post' ? '201' : '200');
  });
});
