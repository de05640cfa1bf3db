import { actionRequests } from '@ccp/data-provider';
import { ZFreshCodeRequestSchema } from '@ccp/schemas';
import type { TTeamMember } from '@ccp/schemas';
import { useCustomMutation } from '@refinedev/core';
import type { HttpError } from '@refinedev/core';
import { Button, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { showFieldErrors } from '../../lib/use-schema-form.ts';
import { useSchemaRules } from '../account/use-schema-rules.ts';

const QUIET = { successNotification: false, errorNotification: false } as const;

/**
 * Reset a creator's 2FA, confirmed with a fresh code of the administrator's own authenticator:
 * an administrator's session alone cannot take over another's account (issue 30).
 */
export const ResetTwoFactorButton = ({
  member,
  onDone,
}: {
  member: TTeamMember;
  onDone: () => void;
}) => {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ code: string }>();
  const field = useSchemaRules(ZFreshCodeRequestSchema);
  const { mutate, mutation } = useCustomMutation<TTeamMember>();
  const close = () => {
    setOpen(false);
    form.resetFields();
  };
  const reset = () =>
    void form.validateFields().then(({ code }) =>
      mutate(
        {
          ...actionRequests.resetTwoFactor(member.uuid),
          values: { code },
          ...QUIET,
          meta: { errorFeedback: 'caller' },
        },
        {
          onSuccess: () => {
            close();
            onDone();
          },
          onError: (error: HttpError) => void showFieldErrors(form, error),
        },
      ),
    );
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)}>
        {t('team.members.reset2fa')}
      </Button>
      <Modal
        open={open}
        title={t('team.members.reset2faConfirm', { name: member.first_name })}
        okText={t('team.members.reset2fa')}
        okButtonProps={{ danger: true, loading: mutation.isPending }}
        onOk={reset}
        onCancel={close}
      >
        <p>{t('team.members.reset2faHelp')}</p>
        <Form form={form} layout="vertical" requiredMark={false} onFinish={reset}>
          <Form.Item
            label={t('api-tokens.fields.code.label')}
            extra={t('api-tokens.fields.code.help')}
            {...field('code')}
          >
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={7} autoFocus />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
};
