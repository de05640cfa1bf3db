import { STATS_PERIOD_KEYS, scoreBand, scoreBandCount, statsPeriodDates } from '@ccp/schemas';
import type { TClassroomAnalytics, TScoreKind, TStatsPeriod } from '@ccp/schemas';
import { useOne } from '@refinedev/core';
import { Segmented, Skeleton, Tooltip } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useClassroomMeta } from '../../../components/layout/classroom-context.ts';
import { formatNumber, formatPercent } from '../../../lib/format.ts';

type TFigure = {
  key: 'completionRate' | 'engagementRate' | 'totalCourses';
  value: number | null;
  text: string;
  score: TScoreKind;
};

/** The band's tone, for its colour: the lower third warns, the upper third is good. */
const toneOf = (band: number, bands: number) => {
  const position = bands > 1 ? band / (bands - 1) : 1;
  return position < 0.34 ? 'low' : position < 0.67 ? 'mid' : 'high';
};

/**
 * Spec §2 dashboard stats: completion rate, learners engagement rate (the classroom's active
 * learners rate, docs/decisions.md) and total courses for W, M, Y or ALL, each with the words of
 * its score band (spec §9). A failed load shows empty figures, not a broken page (spec §4).
 */
export const PeriodStats = () => {
  const { t } = useTranslation();
  const classroomMeta = useClassroomMeta();
  const [period, setPeriod] = useState<TStatsPeriod>('M');
  // The dates are fixed when the period is chosen, so the query key stays the same meanwhile.
  const dates = useMemo(() => statsPeriodDates(period, new Date()), [period]);
  const { result, query } = useOne<TClassroomAnalytics>({
    resource: 'analytics',
    id: 'classroom',
    meta: { ...classroomMeta, period: dates },
    queryOptions: { enabled: Boolean(classroomMeta.classroomUuid) },
    errorNotification: false,
  });
  // Rates of nobody are no rates: a period without learners shows no figure, not "0%, very low".
  const rated = result && result.learners > 0 ? result : undefined;
  const figures: TFigure[] = [
    {
      key: 'completionRate',
      value: rated?.completion_rate ?? null,
      text: formatPercent(rated?.completion_rate),
      score: 'completion',
    },
    {
      key: 'engagementRate',
      value: rated?.active_learners_rate ?? null,
      text: formatPercent(rated?.active_learners_rate),
      score: 'stats',
    },
    {
      key: 'totalCourses',
      value: result?.total_courses ?? null,
      text: formatNumber(result?.total_courses),
      score: 'totalCourses',
    },
  ];
  const loading = query.isLoading || !classroomMeta.classroomUuid;
  return (
    <section className="stats-card" aria-labelledby="stats-title" aria-busy={loading}>
      <div className="stats-head">
        <h2 id="stats-title" className="section-title">
          {t('courses.stats.title')}
        </h2>
        <Segmented<TStatsPeriod>
          value={period}
          onChange={setPeriod}
          aria-label={t('courses.stats.periodLabel')}
          options={STATS_PERIOD_KEYS.map((key) => ({
            value: key,
            label: (
              <Tooltip title={t(`courses.stats.periods.${key}.description`)}>
                <span data-period={key}>{t(`courses.stats.periods.${key}.short`)}</span>
              </Tooltip>
            ),
          }))}
        />
      </div>
      <p className="stats-period muted">{t(`courses.stats.periods.${period}.description`)}</p>
      <dl className="stats-grid">
        {figures.map((figure) => {
          const band = figure.value === null ? null : scoreBand(figure.score, figure.value);
          return (
            <div key={figure.key} className="stat" data-stat={figure.key}>
              <dt className="stat-label">{t(`courses.stats.${figure.key}`)}</dt>
              <dd className="stat-value">
                {loading ? (
                  <Skeleton.Button active size="small" />
                ) : (
                  <span className="stat-number">{figure.text || '—'}</span>
                )}
              </dd>
              <dd
                className={`stat-band${band === null ? '' : ` tone-${toneOf(band, scoreBandCount(figure.score))}`}`}
              >
                {loading
                  ? '\u00a0'
                  : band === null
                    ? t('courses.stats.noData')
                    : t(`scores.${figure.score}.${band}`)}
              </dd>
            </div>
          );
        })}
      </dl>
      {query.isError && (
        <p className="stats-failed muted" role="status">
          {t('courses.stats.failed')}
        </p>
      )}
    </section>
  );
};
