import { DATE_FORMAT, DEFAULT_LOCALE, NUMBER_LOCALES } from '@ccp/schemas';
import type { TLocale } from '@ccp/schemas';
import dayjs from 'dayjs';
import 'dayjs/locale/de';
import 'dayjs/locale/it';
import i18n from 'i18next';

// Dates as spec §9 shows them, dd-MM-yyyy hh:mm (24-hour) in every language; numbers in the
// interface language's format (Italian in Italian: 1.234,5). dayjs follows the language for the
// names antd's date pickers show (months, weekdays, first day of the week).

const formats = new Map<string, Intl.NumberFormat>();
const numberFormat = (): Intl.NumberFormat => {
  const language = (i18n.language in NUMBER_LOCALES ? i18n.language : DEFAULT_LOCALE) as TLocale;
  let format = formats.get(language);
  if (!format) {
    format = new Intl.NumberFormat(NUMBER_LOCALES[language]);
    formats.set(language, format);
  }
  return format;
};

export const formatDate = (value: string | number | Date | null | undefined): string => {
  if (value === null || value === undefined || value === '') return '';
  const date = dayjs(value);
  return date.isValid() ? date.format(DATE_FORMAT) : '';
};

/** A calendar day (YYYY-MM-DD) as dd-MM, the chart's axis label (spec §9's day and month order). */
export const formatDay = (date: string): string => {
  const [, month = '', day = ''] = date.split('-');
  return `${day}-${month}`;
};

export const formatNumber = (value: number | null | undefined): string =>
  value === null || value === undefined || Number.isNaN(value) ? '' : numberFormat().format(value);

export const formatPercent = (value: number | null | undefined): string =>
  value === null || value === undefined || Number.isNaN(value)
    ? ''
    : `${numberFormat().format(Math.round(value * 10) / 10)}%`;

const followLanguage = (lng: string | undefined) => {
  dayjs.locale(lng && ['en', 'it', 'de'].includes(lng) ? lng : 'en');
};

/** Keeps dayjs's locale on the interface language (called by the authenticated layout). */
export const syncDayjsLocale = (): (() => void) => {
  followLanguage(i18n.language);
  i18n.on('languageChanged', followLanguage);
  return () => i18n.off('languageChanged', followLanguage);
};

/** Minutes as "2 h 05 min" (or "45 min") in the interface language. */
export const formatDuration = (
  minutes: number | null | undefined,
  t: (key: string, options: Record<string, unknown>) => string,
): string => {
  if (minutes === null || minutes === undefined || Number.isNaN(minutes)) return '';
  const hours = Math.floor(minutes / 60);
  const rest = Math.round(minutes % 60);
  if (hours === 0) return t('format.minutes', { minutes: rest });
  return t('format.hoursMinutes', {
    hours: numberFormat().format(hours),
    minutes: String(rest).padStart(2, '0'),
  });
};

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB'] as const;

/** A size in bytes as people read it, in the interface language's digits: 1,5 MB. */
export const formatBytes = (bytes: number): string => {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${numberFormat().format(unit === 0 ? value : Math.round(value * 10) / 10)} ${BYTE_UNITS[unit]}`;
};
