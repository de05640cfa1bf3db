import { ZCreateLearnersListRequestSchema } from '@ccp/schemas';
import type { TCreateLearnersListRequest, TLearnersList } from '@ccp/schemas';
import { App, Button, Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { PageHeader } from '../../components/page-header.tsx';
import { ROUTES } from '../../config.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { useSchemaForm } from '../../lib/use-schema-form.ts';
import { LearnersListForm } from './form.tsx';

/** /learners/list/create: a new learners list, named by the spec's rule, with its first members. */
export const LearnersListCreate = () => {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const navigate = useNavigate();
  usePageTitle(t('learners-lists.titles.create'));
  const { formProps, saveButtonProps, field } = useSchemaForm<
    TLearnersList,
    TCreateLearnersListRequest
  >({
    resource: 'learners-lists',
    action: 'create',
    schema: ZCreateLearnersListRequestSchema,
    redirect: false,
    successNotification: false,
    warnWhenUnsavedChanges: true,
    onMutationSuccess: ({ data }) => {
      notification.success({
        key: 'ccp:learners-list-created',
        message: t('learners-lists.notifications.created', { name: data.name }),
      });
      void navigate(`${ROUTES.learners}?list=${encodeURIComponent(data.uuid)}`);
    },
    failureMessage: t('validation.learnersListCreateFailed'),
  });
  return (
    <section className="page-section page-narrow">
      <PageHeader
        title={t('learners-lists.titles.create')}
        subtitle={t('learners-lists.intro')}
        back={{ to: ROUTES.learners, label: t('learners.titles.list') }}
      />
      <Card>
        <LearnersListForm
          formProps={formProps}
          field={field}
          withLearners
          footer={
            <div className="form-actions">
              <Button onClick={() => void navigate(ROUTES.learners)}>{t('buttons.cancel')}</Button>
              <Button type="primary" {...saveButtonProps}>
                {t('learners-lists.actions.create')}
              </Button>
            </div>
          }
        />
      </Card>
    </section>
  );
};
