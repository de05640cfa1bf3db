import { INSIGHT_COURSE_STATUSES } from '@ccp/schemas';
import type { TCourseInsight } from '@ccp/schemas';
import { useList } from '@refinedev/core';
import { Empty, Result, Select, Button } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { useClassroom, useClassroomMeta } from '../../components/layout/classroom-context.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { formatNumber } from '../../lib/format.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { CourseStatus } from '../courses/components/course-status.tsx';
import { ClassroomOverview } from './components/classroom-overview.tsx';
import { CourseCharts, preloadCharts } from './components/course-charts.tsx';
import { CourseFailures } from './components/course-failures.tsx';
import { CourseLearners } from './components/course-learners.tsx';
import { CourseMetrics } from './components/course-metrics.tsx';
import { CourseQuestions } from './components/course-questions.tsx';
import { ExportButtons } from './components/export-buttons.tsx';
import { rememberedCourse, rememberCourse } from './remembered-course.ts';

const COURSE_PARAM = 'course';

/**
 * /insights (spec §2): the classroom's totals, then one counted course (active or delivered)
 * chosen in the selector — `?course=` wins, else the last one chosen in this classroom — with its
 * figures, charts, learners and exports.
 */
export const AnalyticsList = () => {
  const { t } = useTranslation();
  usePageTitle(t('insights.titles.list'));
  const { current, failed, retry } = useClassroom();
  useEffect(preloadCharts, []);
  const classroomMeta = useClassroomMeta();
  const [params, setParams] = useSearchParams();
  const { result, query } = useList<TCourseInsight>({
    resource: 'analytics',
    meta: { ...classroomMeta, report: 'courses-insights' },
    pagination: { mode: 'off' },
    queryOptions: { enabled: Boolean(current) },
    errorNotification: false,
  });
  const courses = result.data;
  const asked = params.get(COURSE_PARAM);
  const selected = useMemo(() => {
    const remembered = current ? rememberedCourse(current.uuid) : null;
    return (
      courses.find((course) => course.uuid === asked) ??
      courses.find((course) => course.uuid === remembered) ??
      // A course still delivering has this week's figures; a delivered one only history.
      courses.find((course) => course.status === 'active') ??
      courses[0]
    );
  }, [courses, asked, current]);

  // The address names the course shown, so a reload or a shared link shows the same.
  useEffect(() => {
    if (!selected || !current) return;
    rememberCourse(current.uuid, selected.uuid);
    if (asked !== selected.uuid) {
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          next.set(COURSE_PARAM, selected.uuid);
          return next;
        },
        { replace: true },
      );
    }
  }, [selected, current, asked, setParams]);

  if (failed) {
    return (
      <section className="page-section">
        <Result
          status="warning"
          title={t('validation.classroomsFailed')}
          extra={<Button onClick={retry}>{t('buttons.retry')}</Button>}
        />
      </section>
    );
  }

  return (
    <section className="page-section insights">
      <PageHeader
        title={t('insights.titles.list')}
        subtitle={current ? t('analytics.intro', { classroom: current.name }) : '\u00a0'}
      />
      <ClassroomOverview />
      <div className="section-head">
        <h2 className="section-title" id="course-figures">
          {t('analytics.course.title')}
        </h2>
        <Select
          className="course-select"
          aria-label={t('analytics.course.select')}
          placeholder={t('analytics.course.select')}
          loading={query.isLoading}
          value={selected?.uuid}
          onChange={(uuid: string) =>
            setParams((previous) => {
              const next = new URLSearchParams(previous);
              next.set(COURSE_PARAM, uuid);
              return next;
            })
          }
          options={courses.map((course) => ({
            value: course.uuid,
            label: `${course.name} · ${t(`enum.courseStatus.${course.status}`)}`,
          }))}
          showSearch
          optionFilterProp="label"
          popupMatchSelectWidth={false}
        />
      </div>
      {!query.isLoading && courses.length === 0 ? (
        <Empty
          className="courses-empty"
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t('analytics.course.none', {
            classroom: current?.name ?? '',
            statuses: INSIGHT_COURSE_STATUSES.map((status) =>
              t(`enum.courseStatus.${status}`),
            ).join(', '),
          })}
        />
      ) : selected ? (
        <>
          <div className="insights-card course-summary" aria-labelledby="course-figures">
            <div className="course-summary-head">
              <div>
                <h3 className="course-summary-name">{selected.name}</h3>
                <p className="muted">
                  <CourseStatus status={selected.status} />{' '}
                  {t('analytics.course.learners', {
                    count: selected.learners,
                    total: formatNumber(selected.learners),
                  })}
                </p>
              </div>
              <ExportButtons courseUuid={selected.uuid} />
            </div>
            <CourseMetrics insight={selected} />
          </div>
          <CourseCharts key={selected.uuid} courseUuid={selected.uuid} />
          <CourseLearners courseUuid={selected.uuid} />
          <CourseQuestions key={`questions-${selected.uuid}`} courseUuid={selected.uuid} />
          <CourseFailures key={`failures-${selected.uuid}`} courseUuid={selected.uuid} />
        </>
      ) : (
        <div className="insights-card course-summary">
          <div className="placeholder placeholder-line" />
          <div className="placeholder placeholder-line placeholder-short" />
        </div>
      )}
    </section>
  );
};
