import { timeZoneNames } from '@ccp/schemas';
import { Select } from 'antd';
import type { SelectProps } from 'antd';
import { useMemo } from 'react';

// A time zone picker: every IANA zone the browser knows (the same tz database the API plans
// with), searchable by any part of its name ("york", "Rome"). Shared by the learner form and the
// company's delivery hours.

type Props = Omit<SelectProps<string | null>, 'options' | 'showSearch'>;

/** 'America/Argentina/Buenos_Aires' → 'America / Argentina / Buenos Aires'. */
export const timeZoneLabel = (zone: string) => zone.replace(/_/g, ' ').replace(/\//g, ' / ');

export const TimeZoneSelect = (props: Props) => {
  const options = useMemo(
    () => timeZoneNames().map((zone) => ({ value: zone, label: timeZoneLabel(zone) })),
    [],
  );
  return <Select {...props} showSearch optionFilterProp="label" options={options} />;
};
