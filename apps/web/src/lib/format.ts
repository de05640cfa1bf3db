import { DATE_FORMAT, NUMBER_LOCALE } from '@ccp/schemas';
import dayjs from 'dayjs';
import 'dayjs/locale/de';
import 'dayjs/locale/it';
import i18n from 'i18next';

// Dates and numbers as spec §9 shows them: dd-MM-yyyy hh:mm (24-hour) and Italian number
// formatting, whatever the interface language. dayjs follows the language for the names antd's
// date pickers show (months, weekdays, first day of the week).

const numbers = new Intl.NumberFormat(NUMBER_LOCALE);

export const formatDate = (value: string | number | Date | null | undefined): string => {
  if (value === null || value === undefined || value === '') return '';
  const date = dayjs(value);
  return date.isValid() ? date.format(DATE_FORMAT) : '';
};

export const formatNumber = (value: number | null | undefined): string =>
  value === null || value === undefined || Number.isNaN(value) ? '' : numbers.format(value);

export const formatPercent = (value: number | null | undefined): string =>
  value === null || value === undefined || Number.isNaN(value)
    ? ''
    : `${numbers.format(Math.round(value * 10) / 10)}%`;

const followLanguage = (lng: string | undefined) => {
  dayjs.locale(lng && ['en', 'it', 'de'].includes(lng) ? lng : 'en');
};

/** Keeps dayjs's locale on the interface language (called by the authenticated layout). */
export const syncDayjsLocale = (): (() => void) => {
  followLanguage(i18n.language);
  i18n.on('languageChanged', followLanguage);
  return () => i18n.off('languageChanged', followLanguage);
};
