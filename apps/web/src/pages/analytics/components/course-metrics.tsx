import { FrownOutlined, MehOutlined, SmileOutlined } from '@ant-design/icons';
import type { TCourseInsight, TMood } from '@ccp/schemas';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { formatNumber, formatPercent } from '../../../lib/format.ts';
import { Metric } from './metric.tsx';
import type { TBand } from './metric.tsx';

type TRateKey = Exclude<
  keyof TCourseInsight,
  | 'uuid'
  | 'name'
  | 'status'
  | 'learners'
  | 'mood'
  | 'dormantLearners'
  | 'questionsTried'
  | 'retention'
  | 'retentionFirstTry'
  | 'retentionAfterRepeat'
  | 'retentionNotYet'
>;

/** The course's rates in the order a trainer reads them, each with the words of its band. */
const RATES: { key: TRateKey; band: TBand }[] = [
  { key: 'zick_score', band: { kind: 'stats' } },
  { key: 'delivery', band: { kind: 'stats' } },
  { key: 'enrollment', band: { kind: 'stats' } },
  { key: 'activity', band: { kind: 'stats' } },
  { key: 'completion', band: { kind: 'completion' } },
  { key: 'progress', band: { kind: 'completion' } },
  { key: 'completionRate', band: { kind: 'stats' } },
  { key: 'successRate', band: { kind: 'effectiveness' } },
  { key: 'activityRate', band: { kind: 'stats' } },
  { key: 'engagementRate', band: { kind: 'stats' } },
  // Spec §9's bands rate figures where more is better; mirrored for the dormant rate they called
  // 41.3 % of learners gone quiet "Good" (issue 27). The spec gives it no band: no words.
  { key: 'dormant', band: null },
];

const MOOD_ICONS: Record<TMood, ReactNode> = {
  none: null,
  sad: <FrownOutlined aria-hidden />,
  neutral: <MehOutlined aria-hidden />,
  happy: <SmileOutlined aria-hidden />,
  excited: <SmileOutlined aria-hidden />,
};

/** Spec §3 per-course analytics: every figure of the course insights, explained. */
export const CourseMetrics = ({ insight }: { insight: TCourseInsight }) => {
  const { t } = useTranslation();
  return (
    <div className="metric-grid">
      {RATES.map(({ key, band }) => (
        <Metric
          key={key}
          metric={key}
          value={insight[key]}
          text={formatPercent(insight[key])}
          band={band}
          large={key === 'zick_score'}
        />
      ))}
      {/* Retention (issue 28): its words are how the right answers came, not a band. */}
      <Metric
        metric="retention"
        value={insight.retention}
        text={insight.questionsTried > 0 ? formatPercent(insight.retention) : ''}
        band={null}
        words={
          insight.questionsTried > 0
            ? t('analytics.retention.split', {
                firstTry: formatPercent(insight.retentionFirstTry),
                afterRepeat: formatPercent(insight.retentionAfterRepeat),
              })
            : t('analytics.retention.none')
        }
      />
      <Metric
        metric="dormantLearners"
        value={insight.dormantLearners}
        text={formatNumber(insight.dormantLearners)}
        band={null}
        words={t('analytics.ofLearners', {
          count: insight.learners,
          total: formatNumber(insight.learners),
        })}
      />
      <Metric
        metric="mood"
        value={null}
        text={t(`enum.mood.${insight.mood}`)}
        band={null}
        words={
          <span className={`mood mood-${insight.mood}`}>
            {MOOD_ICONS[insight.mood]} {t(`analytics.moodHint.${insight.mood}`)}
          </span>
        }
      />
    </div>
  );
};
