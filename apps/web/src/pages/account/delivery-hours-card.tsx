import { ZDeliveryHoursSchema } from '@ccp/schemas';
import type { TDeliveryHoursInput, TDeliveryHoursResponse } from '@ccp/schemas';
import { useCustom, useCustomMutation } from '@refinedev/core';
import type { HttpError } from '@refinedev/core';
import { App, Button, Card, Form, Select, Spin, TimePicker } from 'antd';
import dayjs from 'dayjs';
import type { Dayjs } from 'dayjs';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { TimeZoneSelect } from '../../components/time-zone-select.tsx';
import { useCountryName } from '../../lib/country-name.ts';
import { showFieldErrors } from '../../lib/use-schema-form.ts';
import { useSchemaRules } from './use-schema-rules.ts';

// The company's delivery hours (issue 28), for administrators: the zone of learners without
// their own, quiet hours in each learner's local time, and the country whose public holidays
// delay lessons. Both empty times mean no quiet hours; no country means holidays do not delay.

export const DELIVERY_HOURS_URL = '/api/v1/company/delivery-hours';
const QUIET = { successNotification: false, errorNotification: false } as const;
const CALLER = { meta: { errorFeedback: 'caller' } } as const;

type TFormValues = {
  time_zone: string;
  quiet_hours: { start: string | null; end: string | null };
  holiday_country: string | null;
};

const timeProps = {
  getValueProps: (value: string | null) => ({ value: value ? dayjs(value, 'HH:mm') : null }),
  normalize: (value: Dayjs | null) => (value ? value.format('HH:mm') : null),
};

export const DeliveryHoursCard = () => {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const [form] = Form.useForm<TFormValues>();
  const field = useSchemaRules(ZDeliveryHoursSchema);
  const countryName = useCountryName();
  const { query } = useCustom<TDeliveryHoursResponse>({
    url: DELIVERY_HOURS_URL,
    method: 'get',
    ...CALLER,
  });
  const hours = query.data?.data;
  const { mutate, mutation } = useCustomMutation<TDeliveryHoursResponse>();
  useEffect(() => {
    if (!hours) return;
    form.setFieldsValue({
      time_zone: hours.time_zone,
      quiet_hours: { start: hours.quiet_hours?.start ?? null, end: hours.quiet_hours?.end ?? null },
      holiday_country: hours.holiday_country,
    });
  }, [form, hours]);
  const countries = useMemo(
    () =>
      (hours?.holiday_countries ?? [])
        .map((code) => ({ value: code, label: countryName(code) }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    [hours, countryName],
  );
  const save = (values: TFormValues) => {
    const { start, end } = values.quiet_hours;
    const body: TDeliveryHoursInput = {
      time_zone: values.time_zone,
      quiet_hours: start || end ? { start: start ?? '', end: end ?? '' } : null,
      holiday_country: values.holiday_country ?? null,
    };
    mutate(
      { url: DELIVERY_HOURS_URL, method: 'put', values: body, ...QUIET, ...CALLER },
      {
        onSuccess: () => {
          notification.success({ key: 'ccp:delivery-hours', message: t('account.hours.saved') });
          void query.refetch();
        },
        onError: (error: HttpError) => void showFieldErrors(form, error),
      },
    );
  };
  return (
    <Card title={t('account.hours.title')} className="account-card">
      <p className="muted">{t('account.hours.intro')}</p>
      {!hours ? (
        <Spin />
      ) : (
        <Form form={form} layout="vertical" onFinish={save} requiredMark={false}>
          <Form.Item
            label={t('account.hours.timeZone')}
            extra={t('account.hours.timeZoneHelp')}
            {...field('time_zone')}
          >
            <TimeZoneSelect />
          </Form.Item>
          <div className="account-grid">
            <Form.Item
              label={t('account.hours.quietStart')}
              name={['quiet_hours', 'start']}
              {...timeProps}
            >
              <TimePicker format="HH:mm" minuteStep={5} needConfirm={false} />
            </Form.Item>
            <Form.Item
              label={t('account.hours.quietEnd')}
              name={['quiet_hours', 'end']}
              {...timeProps}
            >
              <TimePicker format="HH:mm" minuteStep={5} needConfirm={false} />
            </Form.Item>
          </div>
          <p className="muted">{t('account.hours.quietHelp')}</p>
          <Form.Item
            label={t('account.hours.holidayCountry')}
            extra={t('account.hours.holidayCountryHelp')}
            name="holiday_country"
          >
            <Select
              allowClear
              showSearch
              optionFilterProp="label"
              placeholder={t('account.hours.noHolidays')}
              options={countries}
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={mutation.isPending}>
            {t('account.hours.save')}
          </Button>
        </Form>
      )}
    </Card>
  );
};
