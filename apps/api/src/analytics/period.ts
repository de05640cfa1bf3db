import { CHART_DAYS, DELIVERY_TIME_ZONE } from '@ccp/schemas';
import type { TAnalyticsPeriodQuery } from '@ccp/schemas';

// Analytics days are Europe/Rome calendar days, like the delivery schedule. A day starts at
// 00:00 Rome time, which is always a whole UTC hour (23:00 or 22:00 the day before), and never
// falls in a summer-time change (those happen at 02:00/03:00).

const romeParts = new Intl.DateTimeFormat('en-CA', {
  timeZone: DELIVERY_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  hourCycle: 'h23',
});

const partsOf = (instant: Date) => {
  const parts = Object.fromEntries(
    romeParts.formatToParts(instant).map((part) => [part.type, part.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
};

/** The Europe/Rome calendar day of an instant, 'YYYY-MM-DD'. */
export const romeDate = (instant: Date): string => partsOf(instant).date;

/** `date` plus `days` calendar days. */
export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The instant 00:00 Europe/Rome starts `date`. */
export const romeDayStart = (date: string): Date => {
  const midnightUtc = Date.parse(`${date}T00:00:00Z`);
  for (const offsetHours of [1, 2]) {
    const candidate = new Date(midnightUtc - offsetHours * 3_600_000);
    const parts = partsOf(candidate);
    if (parts.date === date && parts.hour === 0) return candidate;
  }
  throw new Error(`No Europe/Rome midnight found for ${date}`);
};

/**
 * A period of lesson sends: those scheduled at or after `from` and before `to` (ISO instants),
 * either end open when null. `startDate`/`endDate` echo the Rome days it covers.
 */
export type Period = {
  from: string | null;
  to: string | null;
  startDate: string | null;
  endDate: string | null;
};

export const ALL_TIME: Period = { from: null, to: null, startDate: null, endDate: null };

/** The period of `start_date`..`end_date` (inclusive Rome days); open where a date is missing. */
export const periodOf = (query: TAnalyticsPeriodQuery): Period => ({
  from: query.start_date ? romeDayStart(query.start_date).toISOString() : null,
  to: query.end_date ? romeDayStart(addDays(query.end_date, 1)).toISOString() : null,
  startDate: query.start_date ?? null,
  endDate: query.end_date ?? null,
});

export const isAllTime = (period: Period): boolean => period.from === null && period.to === null;

/**
 * The chart period: CHART_DAYS days ending today by default; from a start date alone, the
 * CHART_DAYS days from it; to an end date alone, the CHART_DAYS days up to it.
 */
export const chartPeriodOf = (
  query: TAnalyticsPeriodQuery,
  now: Date,
): Period & { startDate: string; endDate: string } => {
  const endDate =
    query.end_date ??
    (query.start_date ? addDays(query.start_date, CHART_DAYS - 1) : romeDate(now));
  const startDate = query.start_date ?? addDays(endDate, -(CHART_DAYS - 1));
  return { ...periodOf({ start_date: startDate, end_date: endDate }), startDate, endDate };
};

/** Every day from `startDate` to `endDate`, inclusive. */
export const daysBetween = (startDate: string, endDate: string): string[] => {
  const days: string[] = [];
  for (let day = startDate; day <= endDate; day = addDays(day, 1)) days.push(day);
  return days;
};
