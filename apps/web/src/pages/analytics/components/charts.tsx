import { Column, Line, Pie } from '@ant-design/charts';
import { useTranslation } from 'react-i18next';

import { formatDay, formatNumber } from '../../../lib/format.ts';

// The insights charts, in their own chunk (loaded by /insights only): @ant-design/charts is the
// heaviest library of the app. Each chart has its data as a table for screen readers.

export type TSeriesPoint = { date: string; delivered: number; read: number; answered: number };
export type TSlice = { key: string; label: string; value: number };

const SERIES = ['delivered', 'read', 'answered'] as const;
const HEIGHT = 260;
const numberAxis = { y: { labelFormatter: (value: number) => formatNumber(value) } };

const DataTable = ({
  caption,
  head,
  rows,
}: {
  caption: string;
  head: string[];
  rows: string[][];
}) => (
  <table className="visually-hidden">
    <caption>{caption}</caption>
    <thead>
      <tr>
        {head.map((cell) => (
          <th key={cell} scope="col">
            {cell}
          </th>
        ))}
      </tr>
    </thead>
    <tbody>
      {rows.map((row) => (
        <tr key={row[0]}>
          {row.map((cell, index) =>
            index === 0 ? (
              <th key={index} scope="row">
                {cell}
              </th>
            ) : (
              <td key={index}>{cell}</td>
            ),
          )}
        </tr>
      ))}
    </tbody>
  </table>
);

/** Lessons delivered, read and answered per day (spec §9: 15 days). */
export const DistributionChart = ({ days, caption }: { days: TSeriesPoint[]; caption: string }) => {
  const { t } = useTranslation();
  const data = days.flatMap((day) =>
    SERIES.map((series) => ({
      day: formatDay(day.date),
      series: t(`analytics.charts.${series}`),
      value: day[series],
    })),
  );
  return (
    <figure className="chart" data-chart="distribution">
      <Line
        data={data}
        xField="day"
        yField="value"
        colorField="series"
        height={HEIGHT}
        axis={numberAxis}
        legend={{ color: { position: 'bottom' } }}
        tooltip={{
          items: [{ channel: 'y', valueFormatter: (value: number) => formatNumber(value) }],
        }}
      />
      <DataTable
        caption={caption}
        head={[
          t('analytics.charts.day'),
          ...SERIES.map((series) => t(`analytics.charts.${series}`)),
        ]}
        rows={days.map((day) => [
          formatDay(day.date),
          ...SERIES.map((series) => formatNumber(day[series])),
        ])}
      />
    </figure>
  );
};

/** A share of a whole: lessons delivered per channel. */
export const ShareChart = ({
  slices,
  caption,
  kind,
}: {
  slices: TSlice[];
  caption: string;
  kind: string;
}) => {
  const { t } = useTranslation();
  return (
    <figure className="chart" data-chart={kind}>
      <Pie
        data={slices}
        angleField="value"
        colorField="label"
        innerRadius={0.6}
        height={HEIGHT}
        legend={{ color: { position: 'bottom' } }}
        tooltip={{
          items: [{ channel: 'y', valueFormatter: (value: number) => formatNumber(value) }],
        }}
      />
      <DataTable
        caption={caption}
        head={[t('analytics.charts.item'), t('analytics.charts.value')]}
        rows={slices.map((slice) => [slice.label, formatNumber(slice.value)])}
      />
    </figure>
  );
};

/** Counts side by side (the learners per status), each in its own colour when given. */
export const CountsChart = ({
  slices,
  caption,
  kind,
  colors,
}: {
  slices: TSlice[];
  caption: string;
  kind: string;
  /** Colours by slice key. */
  colors?: Record<string, string>;
}) => {
  const { t } = useTranslation();
  return (
    <figure className="chart" data-chart={kind}>
      <Column
        data={slices}
        xField="label"
        yField="value"
        colorField="label"
        height={HEIGHT}
        axis={numberAxis}
        legend={false}
        {...(colors
          ? {
              scale: {
                color: {
                  domain: slices.map((slice) => slice.label),
                  range: slices.map((slice) => colors[slice.key] ?? '#8c8c8c'),
                },
              },
            }
          : {})}
        tooltip={{
          items: [{ channel: 'y', valueFormatter: (value: number) => formatNumber(value) }],
        }}
      />
      <DataTable
        caption={caption}
        head={[t('analytics.charts.item'), t('analytics.charts.value')]}
        rows={slices.map((slice) => [slice.label, formatNumber(slice.value)])}
      />
    </figure>
  );
};
