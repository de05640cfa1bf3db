import { actionRequests } from '@ccp/data-provider';
import { ZCreateLearnerRequestSchema, ZUpdateLearnerRequestSchema } from '@ccp/schemas';
import type { TLearner } from '@ccp/schemas';
import { useCustomMutation } from '@refinedev/core';
import { App, Button, Card, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';

import { useLeaveGuard } from '../../components/leave-guard.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ROUTES, learnerViewPath } from '../../config.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { useSchemaForm } from '../../lib/use-schema-form.ts';
import { LearnerForm } from './form.tsx';

type TFormValues = {
  first_name: string;
  last_name: string;
  email?: string | null;
  phone?: string | null;
  channels: string[];
  locale: string;
  time_zone?: string | null;
  lists?: string[];
};

/** The record as the form holds it: channel keys and list uuids (the API answers objects). */
const toFormValues = (learner: TLearner): TFormValues => ({
  first_name: learner.first_name,
  last_name: learner.last_name,
  email: learner.email,
  phone: learner.phone,
  channels: learner.channels.map((channel) => channel.key),
  locale: learner.locale,
  time_zone: learner.time_zone,
  lists: learner.learners_lists.map((list) => list.uuid),
});

/**
 * /learners/mode/{uuid} (spec §2): a new learner (`new`) or an existing one. The learner is saved,
 * then their lists are synced (PATCH …/learners-lists/sync). Leaving with unsaved changes asks
 * first, in the wizard's dialog (save, leave without saving, stay); the learners plan limit opens the upgrade modal (the client's 402 reaction).
 */
export const LearnerEdit = () => {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const navigate = useNavigate();
  const { id = 'new' } = useParams();
  const creating = id === 'new';
  usePageTitle(creating ? t('learners.titles.create') : t('learners.titles.edit'));
  const { mutateAsync: sync } = useCustomMutation();
  const { form, formProps, saveButtonProps, field, onFinish, query, formLoading } = useSchemaForm<
    TLearner,
    TFormValues
  >({
    resource: 'learners',
    action: creating ? 'create' : 'edit',
    id: creating ? undefined : id,
    schema: creating ? ZCreateLearnerRequestSchema : ZUpdateLearnerRequestSchema,
    redirect: false,
    successNotification: false,
    // The app's own leave dialog below, not Refine's (the browser's confirm).
    warnWhenUnsavedChanges: false,
    failureMessage: t(`learners.notifications.${creating ? 'createFailed' : 'updateFailed'}`),
    queryOptions: { select: (result) => ({ ...result, data: result.data }) },
  });
  const learner = query?.data?.data;

  /** Saves the learner and their lists; answers the learner's uuid, or null when refused. */
  const persist = async (values: TFormValues): Promise<string | null> => {
    const { lists = [], ...body } = values;
    const saved = await onFinish(body as TFormValues).catch(() => undefined);
    if (!saved) return null;
    const uuid = saved.data.uuid;
    const before =
      learner?.learners_lists
        .map((list) => list.uuid)
        .sort()
        .join() ?? '';
    if ([...lists].sort().join() !== before) {
      await sync({
        ...actionRequests.syncLearnerLists(uuid),
        method: 'patch',
        values: { lists },
        successNotification: false,
      });
    }
    form.resetFields();
    notification.success({
      key: 'ccp:learner-saved',
      message: t(creating ? 'notifications.learnerCreated' : 'notifications.learnerUpdated'),
    });
    return uuid;
  };

  const save = async (values: TFormValues) => {
    const uuid = await persist(values);
    if (uuid) void navigate(learnerViewPath(uuid));
  };

  const { guard } = useLeaveGuard({
    dirty: () => form.isFieldsTouched(),
    save: async () => {
      const values = await form.validateFields().catch(() => null);
      return values !== null && (await persist(values)) !== null;
    },
    textKey: 'learners.leave',
  });

  const title = creating
    ? t('learners.titles.create')
    : learner
      ? t('learners.titles.editNamed', { name: `${learner.first_name} ${learner.last_name}` })
      : t('learners.titles.edit');

  return (
    <section className="page-section page-medium">
      {guard}
      <PageHeader
        title={title}
        subtitle={t('learners.formIntro')}
        back={{ to: ROUTES.learners, label: t('learners.titles.list') }}
      />
      <Card>
        {!creating && formLoading && !learner ? (
          <Spin />
        ) : (
          <LearnerForm
            formProps={{
              ...formProps,
              ...(learner
                ? { initialValues: toFormValues(learner) }
                : { initialValues: { locale: 'en', channels: [] } }),
              onFinish: (values) => void save(values as TFormValues),
            }}
            field={field}
            footer={
              <div className="form-actions">
                <Button onClick={() => void navigate(-1)}>{t('buttons.cancel')}</Button>
                <Button type="primary" {...saveButtonProps}>
                  {creating ? t('learners.actions.createSubmit') : t('buttons.save')}
                </Button>
              </div>
            }
          />
        )}
      </Card>
    </section>
  );
};
