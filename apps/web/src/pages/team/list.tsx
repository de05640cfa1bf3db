import { actionRequests } from '@ccp/data-provider';
import { ROLE_NEEDING_FRESH_CODE, TEAM_ROLES, ZCreateInvitationRequestSchema } from '@ccp/schemas';
import type { TAuditEntry, TInvitation, TTeamMember, TTeamRole, TUsage, TUser } from '@ccp/schemas';
import {
  useCreate,
  useCustom,
  useCustomMutation,
  useDelete,
  useGetIdentity,
  useList,
  useUpdate,
} from '@refinedev/core';
import type { HttpError } from '@refinedev/core';
import { App, Button, Card, Form, Input, Popconfirm, Select, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';

import { PageHeader } from '../../components/page-header.tsx';
import { ROUTES } from '../../config.ts';
import { formatDate } from '../../lib/format.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { showFieldErrors } from '../../lib/use-schema-form.ts';
import { useSchemaRules } from '../account/use-schema-rules.ts';
import { ResetTwoFactorButton } from './reset-two-factor.tsx';

const QUIET = { successNotification: false, errorNotification: false } as const;

type TInviteValues = { email: string; role: TTeamRole; code?: string };

/** Invite by e-mail; beyond the plan's seats the API's 402 opens the upgrade modal. */
const InviteForm = ({ onInvited }: { onInvited: () => void }) => {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const [form] = Form.useForm<TInviteValues>();
  // An administrator's invitation asks for a fresh code of the inviter's authenticator (issue 30).
  const needsCode = Form.useWatch('role', form) === ROLE_NEEDING_FRESH_CODE;
  const field = useSchemaRules(ZCreateInvitationRequestSchema);
  const { mutate, mutation } = useCreate<TInvitation>();
  const invite = (values: TInviteValues) =>
    mutate(
      { resource: 'team-invitations', values, ...QUIET, meta: { errorFeedback: 'caller' } },
      {
        onSuccess: ({ data }) => {
          form.resetFields();
          notification.success({
            key: 'ccp:invited',
            message: t('team.invite.sent', { email: data.email }),
          });
          onInvited();
        },
        onError: (error: HttpError) => {
          // A 402 opens the upgrade modal whoever asked; a 422 shows under its field.
          if (showFieldErrors(form, error) || error.statusCode === 402) return;
          notification.error({ key: 'ccp:invite-failed', message: error.message });
        },
      },
    );
  return (
    <Form
      form={form}
      layout="inline"
      onFinish={invite}
      initialValues={{ role: 'creator' }}
      className="team-invite"
      requiredMark={false}
    >
      <Form.Item label={t('team.invite.email')} {...field('email')} className="team-invite-email">
        <Input type="email" autoComplete="off" placeholder={t('team.invite.placeholder')} />
      </Form.Item>
      <Form.Item label={t('team.invite.role')} name="role">
        <Select
          style={{ minWidth: 150 }}
          options={TEAM_ROLES.map((role) => ({ value: role, label: t(`team.roles.${role}`) }))}
        />
      </Form.Item>
      {needsCode && (
        <Form.Item
          label={t('api-tokens.fields.code.label')}
          tooltip={t('team.invite.codeHelp')}
          preserve={false}
          {...field('code')}
        >
          <Input
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            style={{ width: 110 }}
          />
        </Form.Item>
      )}
      <Button type="primary" htmlType="submit" loading={mutation.isPending}>
        {t('team.invite.submit')}
      </Button>
    </Form>
  );
};

/** /team: the company's creators, invitations within the seats, and the audit log. */
export const TeamList = () => {
  const { t } = useTranslation();
  usePageTitle(t('team.title'));
  const { data: me } = useGetIdentity<TUser>();
  const members = useList<TTeamMember>({ resource: 'team-members', pagination: { mode: 'off' } });
  const invitations = useList<TInvitation>({
    resource: 'team-invitations',
    pagination: { mode: 'off' },
  });
  const audit = useList<TAuditEntry>({ resource: 'audit-log', pagination: { mode: 'off' } });
  const seats = useCustom<TUsage>({ ...actionRequests.usage('creator-seats') });
  const { mutate: update } = useUpdate<TTeamMember>();
  const { mutate: revoke } = useDelete();
  const { mutate: act } = useCustomMutation<TTeamMember>();

  const refresh = () => {
    void members.query.refetch();
    void invitations.query.refetch();
    void audit.query.refetch();
    void seats.query.refetch();
  };
  const memberAction = (request: { url: string; method: 'post' }) =>
    act({ ...request, values: {}, successNotification: false }, { onSuccess: refresh });

  const seat = seats.result.data;
  const seatText = seat
    ? seat.limit === -1
      ? t('team.seats.unlimited', { used: seat.used })
      : t('team.seats.used', { used: seat.used, limit: seat.limit })
    : '';

  return (
    <section className="page-section">
      <PageHeader
        title={t('team.title')}
        subtitle={t('team.intro')}
        back={{ to: ROUTES.account, label: t('account.title') }}
        extra={seat && <Tag color={seat.remaining === 0 ? 'red' : 'blue'}>{seatText}</Tag>}
      />
      <Card title={t('team.invite.title')} className="account-card">
        <InviteForm onInvited={refresh} />
      </Card>
      <Card title={t('team.members.title')} className="account-card team-members">
        <Table<TTeamMember>
          rowKey="uuid"
          loading={members.query.isLoading}
          dataSource={members.result.data}
          pagination={false}
          scroll={{ x: 900 }}
          rowClassName={(member) => (member.deactivated_at ? 'team-row-off' : '')}
          columns={[
            {
              title: t('team.members.name'),
              render: (_, member) => (
                <div>
                  <div>
                    {member.first_name} {member.last_name}{' '}
                    {member.deactivated_at && <Tag>{t('team.members.deactivated')}</Tag>}
                  </div>
                  <div className="team-email">{member.email}</div>
                </div>
              ),
            },
            {
              title: t('team.members.role'),
              render: (_, member) => (
                <Select<TTeamRole>
                  size="small"
                  value={member.role}
                  disabled={!!member.deactivated_at}
                  aria-label={t('team.members.roleOf', { name: member.email })}
                  style={{ minWidth: 140 }}
                  options={TEAM_ROLES.map((role) => ({
                    value: role,
                    label: t(`team.roles.${role}`),
                  }))}
                  onChange={(role) =>
                    update(
                      {
                        resource: 'team-members',
                        id: member.uuid,
                        values: { role },
                        successNotification: false,
                      },
                      { onSuccess: refresh, onError: refresh },
                    )
                  }
                />
              ),
            },
            {
              title: t('team.members.twoFactor'),
              render: (_, member) =>
                member.is_2fa_enabled ? (
                  <Tag color="green">{t('team.members.twoFactorOn')}</Tag>
                ) : (
                  <Tag color="orange">{t('team.members.twoFactorOff')}</Tag>
                ),
            },
            {
              title: t('team.members.lastSignIn'),
              render: (_, member) =>
                member.last_sign_in_at
                  ? formatDate(member.last_sign_in_at)
                  : t('team.members.never'),
            },
            {
              title: '',
              align: 'right',
              render: (_, member) =>
                member.uuid === me?.uuid ? (
                  <Tag>{t('team.members.you')}</Tag>
                ) : (
                  <Space size="small" wrap>
                    {member.is_2fa_enabled && !member.deactivated_at && (
                      <ResetTwoFactorButton member={member} onDone={refresh} />
                    )}
                    {member.deactivated_at ? (
                      <Button
                        size="small"
                        onClick={() => memberAction(actionRequests.reactivate(member.uuid))}
                      >
                        {t('team.members.reactivate')}
                      </Button>
                    ) : (
                      <Popconfirm
                        title={t('team.members.deactivateConfirm', { name: member.first_name })}
                        description={t('team.members.deactivateHelp')}
                        onConfirm={() => memberAction(actionRequests.deactivate(member.uuid))}
                      >
                        <Button size="small" danger>
                          {t('team.members.deactivate')}
                        </Button>
                      </Popconfirm>
                    )}
                  </Space>
                ),
            },
          ]}
        />
      </Card>
      <Card title={t('team.invitations.title')} className="account-card team-invitations">
        <Table<TInvitation>
          rowKey="uuid"
          size="small"
          loading={invitations.query.isLoading}
          dataSource={invitations.result.data}
          pagination={false}
          scroll={{ x: 700 }}
          locale={{ emptyText: t('team.invitations.empty') }}
          columns={[
            { title: t('team.invite.email'), dataIndex: 'email' },
            {
              title: t('team.members.role'),
              dataIndex: 'role',
              render: (role: TTeamRole) => t(`team.roles.${role}`),
            },
            {
              title: t('team.invitations.expires'),
              dataIndex: 'expires_at',
              render: (value: string) => formatDate(value),
            },
            {
              title: '',
              align: 'right',
              render: (_, invitation) => (
                <Popconfirm
                  title={t('team.invitations.revokeConfirm', { email: invitation.email })}
                  onConfirm={() =>
                    revoke(
                      {
                        resource: 'team-invitations',
                        id: invitation.uuid,
                        successNotification: false,
                      },
                      { onSuccess: refresh },
                    )
                  }
                >
                  <Button size="small">{t('team.invitations.revoke')}</Button>
                </Popconfirm>
              ),
            },
          ]}
        />
      </Card>
      <Card title={t('team.audit.title')} className="account-card team-audit">
        <Table<TAuditEntry>
          rowKey="uuid"
          size="small"
          loading={audit.query.isLoading}
          dataSource={audit.result.data}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          scroll={{ x: 800 }}
          columns={[
            {
              title: t('team.audit.when'),
              dataIndex: 'created_at',
              render: (value: string) => formatDate(value),
            },
            {
              title: t('team.audit.who'),
              render: (_, entry) => entry.actor.email ?? t('team.audit.nobody'),
            },
            {
              title: t('team.audit.what'),
              render: (_, entry) => t(`team.audit.actions.${entry.action.replace('.', '_')}`),
            },
            { title: t('team.audit.target'), dataIndex: 'target' },
            { title: t('team.audit.from'), dataIndex: 'ip' },
          ]}
        />
      </Card>
    </section>
  );
};
