import {
  API_TOKEN_DEFAULT_DAYS,
  API_TOKEN_SCOPES,
  ZCreateApiTokenRequestSchema,
} from '@ccp/schemas';
import type { TApiToken, TCreateApiTokenRequest, TCreatedApiToken } from '@ccp/schemas';
import { useDelete, useList } from '@refinedev/core';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Form,
  Input,
  Popconfirm,
  Select,
  Table,
  Tag,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { PageHeader } from '../../components/page-header.tsx';
import { ROUTES } from '../../config.ts';
import { formatDate } from '../../lib/format.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { useSchemaForm } from '../../lib/use-schema-form.ts';

const EXPIRY_DAYS = [7, 30, 90, 180, 365] as const;
// A command line, the same in every language.
const USAGE = 'CCP_TOKEN=… ccp insights export --course "…" --type statistics -o stats.csv';

/** The new token, shown once with a copy button: the server keeps only its hash. */
const NewToken = ({ token, onDone }: { token: TCreatedApiToken; onDone: () => void }) => {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const copy = () => {
    void navigator.clipboard.writeText(token.token).then(() =>
      notification.success({
        key: 'ccp:token-copied',
        message: t('api-tokens.notifications.copied'),
      }),
    );
  };
  return (
    <Alert
      type="success"
      showIcon
      message={t('api-tokens.created.title', { name: token.name })}
      description={
        <div className="api-token-secret">
          <p>{t('api-tokens.created.once')}</p>
          <div className="api-token-copy">
            <Input readOnly value={token.token} aria-label={t('api-tokens.created.label')} />
            <Button type="primary" onClick={copy}>
              {t('api-tokens.actions.copy')}
            </Button>
          </div>
          <p className="api-token-usage">
            {t('api-tokens.created.usage')}
            <br />
            <code>{USAGE}</code>
          </p>
          <Button onClick={onDone}>{t('api-tokens.actions.done')}</Button>
        </div>
      }
    />
  );
};

/** /account/tokens: personal API tokens for CI (create with scopes and expiry, copy once, revoke). */
export const ApiTokenList = () => {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  usePageTitle(t('api-tokens.titles.list'));
  const [created, setCreated] = useState<TCreatedApiToken | null>(null);
  const { result, query } = useList<TApiToken>({
    resource: 'api-tokens',
    pagination: { mode: 'off' },
  });
  const { mutate: revoke } = useDelete();
  const { formProps, saveButtonProps, field, form } = useSchemaForm<
    TCreatedApiToken,
    TCreateApiTokenRequest
  >({
    resource: 'api-tokens',
    action: 'create',
    schema: ZCreateApiTokenRequestSchema,
    redirect: false,
    successNotification: false,
    onMutationSuccess: ({ data }) => {
      setCreated(data);
      form.resetFields();
    },
    failureMessage: t('api-tokens.notifications.createFailed'),
  });

  const scopeOptions = API_TOKEN_SCOPES.map((scope) => ({
    value: scope,
    label: (
      <span className="api-token-scope">
        <code>{scope}</code>
        <span>{t(`api-tokens.scopes.${scope.replace(':', '_')}`)}</span>
      </span>
    ),
  }));

  return (
    <section className="page-section page-narrow">
      <PageHeader
        title={t('api-tokens.titles.list')}
        subtitle={t('api-tokens.intro')}
        back={{ to: ROUTES.dashboard, label: t('layout.nav.home') }}
      />
      {created && <NewToken token={created} onDone={() => setCreated(null)} />}
      <Card title={t('api-tokens.titles.create')} className="api-token-card">
        <Form
          {...formProps}
          layout="vertical"
          requiredMark
          initialValues={{ expires_in_days: API_TOKEN_DEFAULT_DAYS, scopes: ['exports:read'] }}
        >
          <Form.Item {...field('name')} label={t('api-tokens.fields.name.label')}>
            <Input placeholder={t('api-tokens.fields.name.placeholder')} maxLength={100} />
          </Form.Item>
          <Form.Item {...field('scopes')} label={t('api-tokens.fields.scopes.label')}>
            <Checkbox.Group options={scopeOptions} className="api-token-scopes" />
          </Form.Item>
          <Form.Item {...field('expires_in_days')} label={t('api-tokens.fields.expiry.label')}>
            <Select
              options={EXPIRY_DAYS.map((days) => ({
                value: days,
                label: t('api-tokens.fields.expiry.days', { count: days }),
              }))}
            />
          </Form.Item>
          <Form.Item
            {...field('code')}
            label={t('api-tokens.fields.code.label')}
            extra={t('api-tokens.fields.code.help')}
          >
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
          </Form.Item>
          <div className="form-actions">
            <Button type="primary" {...saveButtonProps}>
              {t('api-tokens.actions.create')}
            </Button>
          </div>
        </Form>
      </Card>
      <Card title={t('api-tokens.titles.yours')}>
        <Table<TApiToken>
          rowKey="uuid"
          size="small"
          loading={query.isLoading}
          dataSource={result?.data ?? []}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: t('api-tokens.empty') }}
          columns={[
            { title: t('api-tokens.fields.name.label'), dataIndex: 'name' },
            {
              title: t('api-tokens.fields.scopes.label'),
              render: (_value, token) =>
                token.scopes.map((scope) => <Tag key={scope}>{scope}</Tag>),
            },
            {
              title: t('api-tokens.columns.token'),
              render: (_value, token) => <code>{token.hint}</code>,
            },
            {
              title: t('api-tokens.columns.expires'),
              render: (_value, token) => formatDate(token.expires_at),
            },
            {
              title: t('api-tokens.columns.lastUsed'),
              render: (_value, token) =>
                token.last_used_at ? formatDate(token.last_used_at) : t('api-tokens.columns.never'),
            },
            {
              title: '',
              render: (_value, token) => (
                <Popconfirm
                  title={t('api-tokens.revoke.title', { name: token.name })}
                  description={t('api-tokens.revoke.description')}
                  okText={t('api-tokens.actions.revoke')}
                  cancelText={t('buttons.cancel')}
                  onConfirm={() =>
                    revoke(
                      {
                        resource: 'api-tokens',
                        id: token.uuid,
                        successNotification: false,
                        meta: { errorFeedback: 'caller' },
                      },
                      {
                        onSuccess: () =>
                          notification.success({
                            key: 'ccp:token-revoked',
                            message: t('api-tokens.notifications.revoked', { name: token.name }),
                          }),
                      },
                    )
                  }
                >
                  <Button danger size="small">
                    {t('api-tokens.actions.revoke')}
                  </Button>
                </Popconfirm>
              ),
            },
          ]}
        />
      </Card>
    </section>
  );
};
