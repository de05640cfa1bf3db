import type { TDeliveryHoursResponse } from '@ccp/schemas';
import { useCustom } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ROUTES } from '../../../config.ts';
import { useCountryName } from '../../../lib/country-name.ts';

// What the company's delivery hours do to every course (issue 28), said beside the delivery
// time: the quiet hours and the holiday country, with the way to change them (account settings,
// administrators).

export const DeliveryHoursNote = () => {
  const { t } = useTranslation();
  const { query } = useCustom<TDeliveryHoursResponse>({
    url: '/api/v1/company/delivery-hours',
    method: 'get',
    meta: { errorFeedback: 'caller' },
  });
  const countryName = useCountryName();
  const hours = query.data?.data;
  if (!hours) return null;
  const parts = [
    hours.quiet_hours
      ? t('courses.wizard.delivery.hoursQuiet', hours.quiet_hours)
      : t('courses.wizard.delivery.hoursNoQuiet'),
    hours.holiday_country
      ? t('courses.wizard.delivery.hoursHolidays', {
          country: countryName(hours.holiday_country),
        })
      : t('courses.wizard.delivery.hoursNoHolidays'),
  ];
  return (
    <p className="muted form-grid-wide delivery-hours-note">
      {parts.join(' · ')}.{' '}
      <Link to={ROUTES.account}>{t('courses.wizard.delivery.hoursChange')}</Link>
    </p>
  );
};
