import { InfoCircleOutlined } from '@ant-design/icons';
import { scoreBand, scoreBandCount } from '@ccp/schemas';
import type { TScoreKind } from '@ccp/schemas';
import { Popover } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** How a figure's words are chosen: a score band, or none. */
export type TBand = { kind: TScoreKind } | null;

type Props = {
  /** `metrics.<key>` in locales/: name, definition, formula. */
  metric: string;
  value: number | null | undefined;
  /** The value as shown (formatted in the interface language). */
  text: string;
  band: TBand;
  /** Words instead of a band (the mood). */
  words?: ReactNode;
  large?: boolean;
};

const toneOf = (band: number, bands: number) => {
  const position = bands > 1 ? band / (bands - 1) : 1;
  return position < 0.34 ? 'low' : position < 0.67 ? 'mid' : 'high';
};

/** The definition and formula of a figure, one source with docs/metrics.md (locales `metrics`). */
export const MetricInfo = ({ metric }: { metric: string }) => {
  const { t, i18n } = useTranslation();
  return (
    <Popover
      trigger={['hover', 'click']}
      title={t(`metrics.${metric}.name`)}
      content={
        <div className="metric-info">
          <p>{t(`metrics.${metric}.definition`)}</p>
          <p className="metric-formula">
            <span className="muted">{t('analytics.formula')}</span> {t(`metrics.${metric}.formula`)}
          </p>
          {/* What a channel cannot report, where the figure depends on it (issue 25). */}
          {i18n.exists(`metrics.${metric}.note`) && (
            <p className="metric-note muted">{t(`metrics.${metric}.note`)}</p>
          )}
        </div>
      }
    >
      <button
        type="button"
        className="metric-info-button"
        aria-label={t('analytics.aboutMetric', { name: t(`metrics.${metric}.name`) })}
      >
        <InfoCircleOutlined aria-hidden />
      </button>
    </Popover>
  );
};

/**
 * A figure with its name, its value, the words of its score band (spec §9) and a popover with its
 * definition and formula, so it explains itself.
 */
export const Metric = ({ metric, value, text, band, words, large = false }: Props) => {
  const { t } = useTranslation();
  let wording: ReactNode = null;
  let tone = '';
  if (words) wording = words;
  else if (band && value !== null && value !== undefined) {
    const index = scoreBand(band.kind, value);
    wording = t(`scores.${band.kind}.${index}`);
    tone = ` tone-${toneOf(index, scoreBandCount(band.kind))}`;
  }
  return (
    <div className={`metric${large ? ' metric-large' : ''}`} data-metric={metric}>
      <div className="metric-head">
        <span className="metric-name">{t(`metrics.${metric}.name`)}</span>
        <MetricInfo metric={metric} />
      </div>
      <div className="metric-value">{text || '—'}</div>
      <div className={`metric-band${tone}`}>{wording ?? '\u00a0'}</div>
    </div>
  );
};
