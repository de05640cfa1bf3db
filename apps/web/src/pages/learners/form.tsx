import { LOCALES } from '@ccp/schemas';
import type { TChannel, TLearnersList } from '@ccp/schemas';
import { useList } from '@refinedev/core';
import { Form, Input, Select } from 'antd';
import type { FormProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { PhoneInput } from '../../components/phone-input.tsx';
import { TimeZoneSelect } from '../../components/time-zone-select.tsx';
import type { TSchemaField } from '../../lib/zod-form.ts';

type Props = {
  formProps: FormProps;
  field: TSchemaField;
  footer: ReactNode;
};

/** A learner's fields (spec §2 /learners/mode/{uuid}), shared by create and edit. */
export const LearnerForm = ({ formProps, field, footer }: Props) => {
  const { t } = useTranslation();
  const { result: channels } = useList<TChannel>({
    resource: 'channels',
    pagination: { mode: 'off' },
  });
  const { result: lists } = useList<TLearnersList>({
    resource: 'learners-lists',
    pagination: { mode: 'off' },
  });
  return (
    <Form {...formProps} layout="vertical" requiredMark>
      <div className="form-grid">
        <Form.Item {...field('first_name')} label={t('learners.fields.firstName')}>
          <Input autoComplete="given-name" maxLength={255} />
        </Form.Item>
        <Form.Item {...field('last_name')} label={t('learners.fields.lastName')}>
          <Input autoComplete="family-name" maxLength={255} />
        </Form.Item>
        <Form.Item
          {...field('channels')}
          label={t('learners.fields.channels')}
          extra={t('learners.help.channels')}
        >
          <Select
            mode="multiple"
            options={channels.data.map((channel) => ({ value: channel.key, label: channel.name }))}
            placeholder={t('learners.placeholders.channels')}
          />
        </Form.Item>
        <Form.Item {...field('locale')} label={t('learners.fields.locale')}>
          <Select
            options={LOCALES.map((locale) => ({
              value: locale,
              label: t(`enum.locale.${locale}`),
            }))}
          />
        </Form.Item>
        <Form.Item
          {...field('time_zone')}
          label={t('learners.fields.timeZone')}
          extra={t('learners.help.timeZone')}
        >
          <TimeZoneSelect allowClear placeholder={t('learners.placeholders.timeZone')} />
        </Form.Item>
        <Form.Item
          {...field('email')}
          label={t('learners.fields.email')}
          dependencies={['channels']}
          extra={t('learners.help.email')}
        >
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item
          {...field('phone')}
          label={t('learners.fields.phone')}
          dependencies={['channels']}
          extra={t('learners.help.phone')}
        >
          <PhoneInput />
        </Form.Item>
        <Form.Item name="lists" label={t('learners.fields.lists')} className="form-grid-wide">
          <Select
            mode="multiple"
            allowClear
            options={lists.data.map((list) => ({ value: list.uuid, label: list.name }))}
            placeholder={t('learners.placeholders.lists')}
            optionFilterProp="label"
          />
        </Form.Item>
      </div>
      {footer}
    </Form>
  );
};
