import type { TLearner } from '@ccp/schemas';
import { useSelect } from '@refinedev/antd';
import { Form, Input, Select } from 'antd';
import type { FormProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import type { TSchemaField } from '../../lib/zod-form.ts';

type Props = {
  formProps: FormProps;
  field: TSchemaField;
  /** Whether members can be picked (a new list); a rename shows the name only. */
  withLearners?: boolean;
  footer: ReactNode;
};

const learnerLabel = (learner: TLearner) => {
  const name = `${learner.first_name} ${learner.last_name}`.trim();
  const contact = learner.email ?? learner.phone ?? '';
  return contact ? `${name} · ${contact}` : name;
};

/** The learners list form, shared by create and rename: the name, and for a new list its members. */
export const LearnersListForm = ({ formProps, field, withLearners = false, footer }: Props) => {
  const { t } = useTranslation();
  const { selectProps } = useSelect<TLearner>({
    resource: 'learners',
    optionLabel: learnerLabel,
    optionValue: 'uuid',
    pagination: { pageSize: 20, mode: 'server' },
    onSearch: (value) => [{ field: 'search', operator: 'contains', value }],
    queryOptions: { enabled: withLearners },
  });
  return (
    <Form {...formProps} layout="vertical" requiredMark>
      <Form.Item
        {...field('name')}
        label={t('learners-lists.fields.name.label')}
        extra={t('learners-lists.fields.name.help')}
      >
        <Input
          autoFocus
          placeholder={t('learners-lists.fields.name.placeholder')}
          maxLength={100}
          showCount
        />
      </Form.Item>
      {withLearners && (
        <Form.Item
          name="learners"
          label={t('learners-lists.fields.learners.label')}
          extra={t('learners-lists.fields.learners.help')}
        >
          <Select
            {...selectProps}
            mode="multiple"
            allowClear
            placeholder={t('learners-lists.fields.learners.placeholder')}
            notFoundContent={t('learners-lists.fields.learners.none')}
          />
        </Form.Item>
      )}
      {footer}
    </Form>
  );
};
