import { ENGAGEMENT_STATUSES } from '@ccp/schemas';
import type { TChannel, TDistributionChart, TLearnersStatus } from '@ccp/schemas';
import { useList, useOne } from '@refinedev/core';
import { Empty } from 'antd';
import { Suspense, lazy } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { useClassroomMeta } from '../../../components/layout/classroom-context.ts';
import { loadChunk } from '../../../lib/chunk-load.ts';
import { formatDay } from '../../../lib/format.ts';

// The chart library (400 KB gzip) loads on this route only, from the moment the page opens
// (preloadCharts) rather than once the figures have arrived.
const charts = () => loadChunk(() => import('./charts.tsx'));
export const preloadCharts = () => {
  charts().catch(() => undefined);
};
const DistributionChart = lazy(async () => ({ default: (await charts()).DistributionChart }));
const ShareChart = lazy(async () => ({ default: (await charts()).ShareChart }));
const CountsChart = lazy(async () => ({ default: (await charts()).CountsChart }));

/** The statuses in the colours of their badges (styles.css .learner-status-*). */
const STATUS_COLORS: Record<string, string> = {
  completed: '#52c41a',
  active: '#1677ff',
  dormant: '#fa8c16',
  unreachable: '#f5222d',
  not_started: '#bfbfbf',
};

const ChartPlaceholder = () => <div className="chart chart-loading placeholder" aria-hidden />;

type Props = { courseUuid: string };

/** The course's channel and distribution charts over 15 days and its learners by status. */
export const CourseCharts = ({ courseUuid }: Props) => {
  const { t } = useTranslation();
  const classroomMeta = useClassroomMeta();
  const meta = { ...classroomMeta, courseId: courseUuid };
  const enabled = Boolean(classroomMeta.classroomUuid);
  const distribution = useOne<TDistributionChart>({
    resource: 'analytics',
    id: 'distribution',
    meta,
    queryOptions: { enabled },
    errorNotification: false,
  });
  const status = useOne<TLearnersStatus>({
    resource: 'analytics',
    id: 'learners-status',
    meta,
    queryOptions: { enabled },
    errorNotification: false,
  });
  const { result: channels } = useList<TChannel>({
    resource: 'channels',
    pagination: { mode: 'off' },
  });
  const channelName = (key: string) =>
    channels.data.find((channel) => channel.key === key)?.name ?? key;

  const chart = distribution.result;
  const period = chart
    ? t('analytics.charts.period', {
        from: formatDay(chart.start_date),
        to: formatDay(chart.end_date),
      })
    : '';
  const anySends = chart?.list.some((day) => day.delivered + day.read + day.answered > 0) ?? false;
  const counts = status.result;
  const statusSlices = counts
    ? ENGAGEMENT_STATUSES.map((key) => ({
        key,
        label: t(`enum.learnerStatus.${key}`),
        value: counts[key],
      }))
    : [];

  const block = (
    id: string,
    title: string,
    loading: boolean,
    failed: boolean,
    empty: boolean,
    body: () => ReactNode,
  ) => (
    <section className="insights-card chart-card" aria-labelledby={id}>
      <h3 id={id} className="chart-title">
        {title}
      </h3>
      {period && id !== 'status-chart' && <p className="muted chart-period">{period}</p>}
      {loading ? (
        <ChartPlaceholder />
      ) : failed ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('analytics.failed')} />
      ) : empty ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t(`analytics.charts.empty.${id}`)}
        />
      ) : (
        <Suspense fallback={<ChartPlaceholder />}>{body()}</Suspense>
      )}
    </section>
  );

  return (
    <div className="chart-grid">
      {block(
        'distribution-chart',
        t('analytics.charts.distribution'),
        distribution.query.isLoading,
        distribution.query.isError,
        !anySends,
        () => (
          <DistributionChart
            days={chart?.list ?? []}
            caption={`${t('analytics.charts.distribution')} ${period}`}
          />
        ),
      )}
      {block(
        'channel-chart',
        t('analytics.charts.channels'),
        distribution.query.isLoading,
        distribution.query.isError,
        (chart?.channels.length ?? 0) === 0,
        () => (
          <ShareChart
            kind="channels"
            caption={`${t('analytics.charts.channels')} ${period}`}
            slices={(chart?.channels ?? []).map((entry) => ({
              key: entry.channel,
              label: channelName(entry.channel),
              value: entry.delivered,
            }))}
          />
        ),
      )}
      {block(
        'status-chart',
        t('analytics.charts.status'),
        status.query.isLoading,
        status.query.isError,
        (counts?.total ?? 0) === 0,
        () => (
          <CountsChart
            kind="status"
            caption={t('analytics.charts.status')}
            slices={statusSlices}
            colors={STATUS_COLORS}
          />
        ),
      )}
    </div>
  );
};
