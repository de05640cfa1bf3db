import type { TClassroomStatistics } from '@ccp/schemas';
import { useOne } from '@refinedev/core';
import { useTranslation } from 'react-i18next';

import { useClassroomMeta } from '../../../components/layout/classroom-context.ts';
import { formatDuration, formatNumber } from '../../../lib/format.ts';
import { Metric } from './metric.tsx';

const KEYS = ['totalActiveLearners', 'coursesAttended', 'lessonsAttended', 'learningTime'] as const;

/** The classroom's all-time totals (v2 statistics) above the course figures. */
export const ClassroomOverview = () => {
  const { t } = useTranslation();
  const classroomMeta = useClassroomMeta();
  const { result, query } = useOne<TClassroomStatistics>({
    resource: 'analytics',
    id: 'statistics',
    meta: classroomMeta,
    queryOptions: { enabled: Boolean(classroomMeta.classroomUuid) },
    errorNotification: false,
  });
  return (
    <section className="insights-card" aria-labelledby="overview-title" aria-busy={query.isLoading}>
      <h2 id="overview-title" className="section-title">
        {t('analytics.overview.title')}
      </h2>
      <p className="muted insights-card-intro">{t('analytics.overview.intro')}</p>
      <div className="metric-grid metric-grid-4">
        {KEYS.map((key) => (
          <Metric
            key={key}
            metric={key}
            value={result?.[key]}
            text={
              result === undefined
                ? ''
                : key === 'learningTime'
                  ? formatDuration(result.learningTime, t)
                  : formatNumber(result[key])
            }
            band={null}
            large
          />
        ))}
      </div>
      {query.isError && (
        <p className="muted" role="status">
          {t('analytics.failed')}
        </p>
      )}
    </section>
  );
};
