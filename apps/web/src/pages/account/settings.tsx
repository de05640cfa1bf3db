import { actionRequests } from '@ccp/data-provider';
import {
  LOCALES,
  RECOVERY_CODES_LOW,
  ZChangePasswordRequestSchema,
  ZFreshCodeRequestSchema,
  ZUpdateProfileRequestSchema,
} from '@ccp/schemas';
import type { TLocale, TSession, TUser } from '@ccp/schemas';
import { useCustom, useCustomMutation, useDelete, useGetIdentity, useList } from '@refinedev/core';
import type { HttpError } from '@refinedev/core';
import { Alert, App, Button, Card, Form, Input, Popconfirm, Select, Space, Table, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';

import { PageHeader } from '../../components/page-header.tsx';
import { LANGUAGE_NAMES, ROUTES } from '../../config.ts';
import { changeLanguage } from '../../lib/texts.ts';
import { formatDate } from '../../lib/format.ts';
import { saveFile } from '../../lib/save-file.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { showFieldErrors } from '../../lib/use-schema-form.ts';
import { DeliveryHoursCard } from './delivery-hours-card.tsx';
import { useSchemaRules } from './use-schema-rules.ts';

const QUIET = { successNotification: false, errorNotification: false } as const;
const CALLER = { meta: { errorFeedback: 'caller' } } as const;

/** Name and preferred language (which e-mails then use, and the app switches to). */
const ProfileCard = ({ user }: { user: TUser }) => {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const [form] = Form.useForm();
  const field = useSchemaRules(ZUpdateProfileRequestSchema);
  const { mutate, mutation } = useCustomMutation<TUser>();
  useEffect(() => {
    form.setFieldsValue({
      first_name: user.first_name,
      last_name: user.last_name,
      locale: user.locale,
    });
  }, [form, user]);
  const save = (values: { first_name: string; last_name: string; locale: TLocale }) =>
    mutate(
      { ...actionRequests.updateProfile(), values, ...QUIET, ...CALLER },
      {
        onSuccess: () => {
          notification.success({ key: 'ccp:profile', message: t('account.profile.saved') });
          void changeLanguage(values.locale);
        },
        onError: (error: HttpError) => void showFieldErrors(form, error),
      },
    );
  return (
    <Card title={t('account.profile.title')} className="account-card">
      <Form form={form} layout="vertical" onFinish={save} requiredMark={false}>
        <div className="account-grid">
          <Form.Item label={t('account.profile.firstName')} {...field('first_name')}>
            <Input autoComplete="given-name" />
          </Form.Item>
          <Form.Item label={t('account.profile.lastName')} {...field('last_name')}>
            <Input autoComplete="family-name" />
          </Form.Item>
        </div>
        <Form.Item label={t('account.profile.email')}>
          <Input value={user.email} disabled />
        </Form.Item>
        <Form.Item
          label={t('account.profile.language')}
          extra={t('account.profile.languageHelp')}
          {...field('locale')}
        >
          <Select
            options={LOCALES.map((locale) => ({ value: locale, label: LANGUAGE_NAMES[locale] }))}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={mutation.isPending}>
          {t('account.profile.save')}
        </Button>
      </Form>
    </Card>
  );
};

/** Current password and a new one; every other session ends. */
const PasswordCard = () => {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const [form] = Form.useForm();
  const field = useSchemaRules(ZChangePasswordRequestSchema);
  const { mutate, mutation } = useCustomMutation();
  const save = (values: { current_password: string; password: string }) =>
    mutate(
      { ...actionRequests.changePassword(), values, ...QUIET, ...CALLER },
      {
        onSuccess: () => {
          form.resetFields();
          notification.success({ key: 'ccp:password', message: t('account.password.changed') });
        },
        onError: (error: HttpError) => void showFieldErrors(form, error),
      },
    );
  return (
    <Card title={t('account.password.title')} className="account-card">
      <Form form={form} layout="vertical" onFinish={save} requiredMark={false}>
        <Form.Item label={t('account.password.current')} {...field('current_password')}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          label={t('account.password.new')}
          extra={t('pages.reset.rules')}
          {...field('password')}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={mutation.isPending}>
          {t('account.password.save')}
        </Button>
      </Form>
    </Card>
  );
};

/** The codes as a text file to keep. */
const downloadCodes = (codes: string[], title: string) => {
  const blob = new Blob([`${title}\n\n${codes.join('\n')}\n`], { type: 'text/plain' });
  saveFile(blob, 'ccp-recovery-codes.txt');
};

/** Recovery codes (how many remain, new ones with a fresh code) and re-enrolling the app. */
const TwoFactorCard = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<{ code: string }>();
  const field = useSchemaRules(ZFreshCodeRequestSchema);
  const [codes, setCodes] = useState<string[] | null>(null);
  const { result: status, query } = useCustom<{ remaining: number; total: number }>({
    ...actionRequests.recoveryCodesStatus(),
    ...CALLER,
  });
  const { mutate, mutation } = useCustomMutation<{ codes: string[] }>();
  const run = (action: 'codes' | 'reenrol') => {
    void form.validateFields().then(({ code }) =>
      mutate(
        {
          ...(action === 'codes'
            ? actionRequests.newRecoveryCodes()
            : actionRequests.reenrolTwoFactor()),
          values: { code },
          ...QUIET,
          ...CALLER,
        },
        {
          onSuccess: ({ data }) => {
            form.resetFields();
            if (action === 'reenrol') {
              void navigate(ROUTES.twoFactor);
              return;
            }
            setCodes(data.codes);
            void query.refetch();
          },
          onError: (error: HttpError) => void showFieldErrors(form, error),
        },
      ),
    );
  };
  const remaining = status.data?.remaining;
  return (
    <Card title={t('account.twoFactor.title')} className="account-card">
      <p>
        <Tag color="green">{t('account.twoFactor.on')}</Tag>{' '}
        {remaining !== undefined &&
          t('account.twoFactor.remaining', { count: remaining, total: status.data?.total ?? 10 })}
      </p>
      {remaining !== undefined && remaining <= RECOVERY_CODES_LOW && !codes && (
        <Alert
          type="warning"
          showIcon
          message={t(remaining === 0 ? 'account.twoFactor.none' : 'account.twoFactor.low')}
          className="account-alert"
        />
      )}
      {codes && (
        <Alert
          type="success"
          showIcon
          className="account-alert"
          message={t('account.twoFactor.codesTitle')}
          description={
            <div>
              <p>{t('account.twoFactor.codesOnce')}</p>
              <ol className="recovery-codes" aria-label={t('account.twoFactor.codesTitle')}>
                {codes.map((code) => (
                  <li key={code}>
                    <code>{code}</code>
                  </li>
                ))}
              </ol>
              <Space>
                <Button onClick={() => downloadCodes(codes, t('account.twoFactor.codesTitle'))}>
                  {t('account.twoFactor.download')}
                </Button>
                <Button onClick={() => setCodes(null)}>{t('account.twoFactor.saved')}</Button>
              </Space>
            </div>
          }
        />
      )}
      <Form form={form} layout="vertical" requiredMark={false}>
        <Form.Item
          label={t('api-tokens.fields.code.label')}
          extra={t('api-tokens.fields.code.help')}
          {...field('code')}
        >
          <Input inputMode="numeric" autoComplete="one-time-code" maxLength={7} />
        </Form.Item>
        <Space wrap>
          <Button type="primary" loading={mutation.isPending} onClick={() => run('codes')}>
            {t('account.twoFactor.newCodes')}
          </Button>
          <Popconfirm
            title={t('account.twoFactor.reenrolConfirm')}
            description={t('account.twoFactor.reenrolHelp')}
            onConfirm={() => run('reenrol')}
          >
            <Button>{t('account.twoFactor.reenrol')}</Button>
          </Popconfirm>
        </Space>
      </Form>
    </Card>
  );
};

/** A browser's name from its User-Agent, for the sessions list. */
const deviceOf = (agent: string | null, unknown: string): string => {
  if (!agent) return unknown;
  const browser = /Edg\//.test(agent)
    ? 'Edge'
    : /Firefox\//.test(agent)
      ? 'Firefox'
      : /Chrome\//.test(agent)
        ? 'Chrome'
        : /Safari\//.test(agent)
          ? 'Safari'
          : null;
  const system = /Windows/.test(agent)
    ? 'Windows'
    : /Mac OS X/.test(agent)
      ? 'macOS'
      : /Android/.test(agent)
        ? 'Android'
        : /iPhone|iPad/.test(agent)
          ? 'iOS'
          : /Linux/.test(agent)
            ? 'Linux'
            : null;
  return browser && system ? `${browser} · ${system}` : agent.slice(0, 60);
};

/** Open sessions with "sign out" each and everywhere else. */
const SessionsCard = () => {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const { result, query } = useList<TSession>({
    resource: 'sessions',
    pagination: { mode: 'off' },
  });
  const { mutate: remove } = useDelete();
  const { mutate, mutation } = useCustomMutation<{ signed_out: number }>();
  const others = result.data.filter((session) => !session.current).length;
  const signOutOthers = () =>
    mutate(
      { ...actionRequests.signOutOthers(), values: {}, ...QUIET },
      {
        onSuccess: ({ data }) => {
          notification.success({
            key: 'ccp:sessions',
            message: t('account.sessions.signedOut', { count: data.signed_out }),
          });
          void query.refetch();
        },
      },
    );
  return (
    <Card
      title={t('account.sessions.title')}
      className="account-card"
      extra={
        <Button onClick={signOutOthers} disabled={others === 0} loading={mutation.isPending}>
          {t('account.sessions.signOutOthers')}
        </Button>
      }
    >
      <Table<TSession>
        rowKey="uuid"
        size="small"
        loading={query.isLoading}
        dataSource={result.data}
        pagination={false}
        scroll={{ x: true }}
        columns={[
          {
            title: t('account.sessions.device'),
            render: (_, session) => (
              <span>
                {deviceOf(session.user_agent, t('account.sessions.unknownDevice'))}{' '}
                {session.current && <Tag color="blue">{t('account.sessions.current')}</Tag>}
              </span>
            ),
          },
          {
            title: t('account.sessions.ip'),
            dataIndex: 'ip',
            render: (ip: string | null) => ip ?? '—',
          },
          {
            title: t('account.sessions.lastUsed'),
            dataIndex: 'last_used_at',
            render: (value: string) => formatDate(value),
          },
          {
            title: '',
            align: 'right',
            render: (_, session) =>
              session.current ? null : (
                <Button
                  size="small"
                  onClick={() =>
                    remove(
                      { resource: 'sessions', id: session.uuid, successNotification: false },
                      { onSuccess: () => void query.refetch() },
                    )
                  }
                >
                  {t('account.sessions.signOut')}
                </Button>
              ),
          },
        ]}
      />
    </Card>
  );
};

/** /account: the page under the user's name in the top bar. */
export const AccountSettings = () => {
  const { t } = useTranslation();
  usePageTitle(t('account.title'));
  const { data: user } = useGetIdentity<TUser>();
  return (
    <section className="page-section page-narrow">
      <PageHeader
        title={t('account.title')}
        subtitle={t('account.intro')}
        back={{ to: ROUTES.dashboard, label: t('layout.nav.home') }}
        extra={
          <Space wrap>
            <Link to={ROUTES.plan}>{t('layout.nav.plan')}</Link>
            {user?.is_admin && <Link to={ROUTES.team}>{t('layout.nav.team')}</Link>}
          </Space>
        }
      />
      <div className="account-cards">
        {user && <ProfileCard user={user} />}
        <PasswordCard />
        <TwoFactorCard />
        <SessionsCard />
        {user?.is_admin && <DeliveryHoursCard />}
        <Card title={t('api-tokens.titles.list')} className="account-card">
          <p>{t('api-tokens.intro')}</p>
          <Link to={ROUTES.apiTokens}>{t('account.tokens.manage')}</Link>
        </Card>
      </div>
    </section>
  );
};
