import { PAUSE_REASONS } from '@ccp/schemas';
import type { TCourseLearner, TCourseLearnerFilter, TPauseReason } from '@ccp/schemas';
import { useTable } from '@refinedev/antd';
import { Segmented, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { useClassroomMeta } from '../../../components/layout/classroom-context.ts';
import { learnerViewPath } from '../../../config.ts';
import { formatDate, formatDuration, formatNumber, formatPercent } from '../../../lib/format.ts';

const isPauseReason = (value: string): value is TPauseReason =>
  (PAUSE_REASONS as readonly string[]).includes(value);

/** The table's filters (who interacted, completed, went dormant; who is paused and why, issue 28). */
const FILTERS: TCourseLearnerFilter[] = ['interacted', 'completed', 'dormant', 'paused'];

const LearnersTable = ({
  courseUuid,
  status,
}: {
  courseUuid: string;
  status: TCourseLearnerFilter;
}) => {
  const { t } = useTranslation();
  const classroomMeta = useClassroomMeta();
  const { tableProps } = useTable<TCourseLearner>({
    resource: 'analytics',
    meta: { ...classroomMeta, report: 'course-learners', courseId: courseUuid },
    filters: { permanent: [{ field: 'status', operator: 'eq', value: status }], mode: 'server' },
    sorters: { mode: 'off' },
    pagination: { pageSize: 10 },
    syncWithLocation: false,
    errorNotification: false,
  });
  return (
    <Table<TCourseLearner>
      {...tableProps}
      rowKey="uuid"
      size="middle"
      scroll={{ x: 1040 }}
      locale={{ emptyText: t(`analytics.learners.empty.${status}`) }}
      pagination={{ ...tableProps.pagination, showSizeChanger: false, hideOnSinglePage: true }}
      columns={[
        {
          key: 'name',
          title: t('analytics.learners.name'),
          width: 200,
          render: (_, learner) => (
            <Link to={learnerViewPath(learner.uuid)}>
              {`${learner.first_name} ${learner.last_name}`.trim()}
            </Link>
          ),
        },
        {
          key: 'email',
          title: t('analytics.learners.email'),
          width: 240,
          render: (_, learner) => learner.email ?? '—',
        },
        {
          key: 'status',
          title: t('analytics.learners.status'),
          render: (_, learner) => (
            <>
              <span className={`learner-status learner-status-${learner.status}`}>
                {t(`enum.learnerStatus.${learner.status}`)}
              </span>
              {learner.pause_reason && isPauseReason(learner.pause_reason) && (
                <Tag
                  className="learner-pause"
                  color={learner.pause_reason === 'stop' ? 'red' : 'orange'}
                  data-reason={learner.pause_reason}
                >
                  {t(`enum.pauseReason.${learner.pause_reason}.short`)}
                </Tag>
              )}
            </>
          ),
        },
        {
          key: 'lessons',
          title: t('analytics.learners.lessons'),
          align: 'right',
          render: (_, learner) =>
            t('analytics.learners.lessonsRead', {
              read: formatNumber(learner.lessons_read),
              total: formatNumber(learner.lessons_total),
            }),
        },
        {
          key: 'retention',
          title: t('analytics.learners.retention'),
          align: 'right',
          render: (_, learner) =>
            learner.questions_tried > 0 ? (
              <>
                {formatPercent(learner.retention)}
                <div className="muted retention-counts">
                  {t('analytics.learners.retentionCounts', {
                    first: formatNumber(learner.right_first_try),
                    after: formatNumber(learner.right_after_repeat),
                    tried: formatNumber(learner.questions_tried),
                  })}
                </div>
              </>
            ) : (
              '—'
            ),
        },
        {
          key: 'time',
          title: t('analytics.learners.learningTime'),
          align: 'right',
          render: (_, learner) => formatDuration(learner.learning_time, t),
        },
        {
          key: 'activity',
          title: t('analytics.learners.lastActivity'),
          width: 160,
          render: (_, learner) => formatDate(learner.last_activity_at) || '—',
        },
      ]}
    />
  );
};

/** The course's learners who interacted, completed or went dormant, each linking to them. */
export const CourseLearners = ({ courseUuid }: { courseUuid: string }) => {
  const { t } = useTranslation();
  const [status, setStatus] = useState<TCourseLearnerFilter>('interacted');
  return (
    <section className="insights-card" aria-labelledby="course-learners-title">
      <div className="section-head section-head-tight">
        <h3 id="course-learners-title" className="chart-title">
          {t('analytics.learners.title')}
        </h3>
        <Segmented<TCourseLearnerFilter>
          value={status}
          onChange={setStatus}
          aria-label={t('analytics.learners.filter')}
          options={FILTERS.map((value) => ({
            value,
            label: t(`analytics.learners.filters.${value}`),
          }))}
        />
      </div>
      {/* A new table per filter: it starts again from page 1. */}
      <LearnersTable key={`${courseUuid}:${status}`} courseUuid={courseUuid} status={status} />
    </section>
  );
};
