import { actionRequests } from '@ccp/data-provider';
import { CONNECTION_FIELDS, TEST_LESSON_POLL_INTERVAL_MS } from '@ccp/schemas';
import type { TChannelConnection } from '@ccp/schemas';
import { useCustomMutation, useDelete, useList, useUpdate } from '@refinedev/core';
import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Form,
  Input,
  Popconfirm,
  Select,
  Space,
  Tag,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { PageHeader } from '../../components/page-header.tsx';
import { ROUTES } from '../../config.ts';
import { formatDate } from '../../lib/format.ts';
import { reportFailure } from '../../lib/report-failure.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { TestLesson } from './components/test-lesson.tsx';
import { ConnectionProofs } from './connection-proofs.tsx';
import { SetupGuide } from './setup-guide.tsx';

const STATUS_COLOR: Record<TChannelConnection['status'], string> = {
  connected: 'green',
  awaiting_verification: 'gold',
  error: 'red',
  disconnected: 'default',
  not_connected: 'default',
  demo: 'purple',
};

/** What a provider said of the connection (its test), shown beside the form's own fields. */
const DETAIL_KEYS = [
  'team',
  'team_id',
  'bot_user_id',
  'bot_id',
  'display_phone_number',
  'template_status',
  'template_languages',
  'template_gaps',
  'template_problems',
  'invitation_template_status',
  'invitation_template_languages',
  'invitation_template_gaps',
  'client_email',
  'endpoint_url',
] as const;

type TRow = TChannelConnection & { id: string };

/**
 * An administrator's form for one provider: its fields (secrets write-only) open from "Connect"
 * or "Change credentials", so the page first shows every channel's status at a glance; the
 * test, "Add to Slack" and disconnect stay beside it.
 */
const ConnectionForm = ({ row, onSaved }: { row: TRow; onSaved: () => void }) => {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const { notification } = App.useApp();
  const [form] = Form.useForm<Record<string, string>>();
  const { mutate: update, mutation } = useUpdate();
  const { mutate: custom, mutation: customMutation } = useCustomMutation<{ url: string }>();
  const { mutate: remove } = useDelete();
  const fields = CONNECTION_FIELDS[row.channel];

  const save = (values: Record<string, string>) => {
    const filled = Object.fromEntries(
      Object.entries(values).filter(([, value]) => typeof value === 'string'),
    );
    update(
      {
        resource: 'channel-connections',
        id: row.channel,
        values: { fields: filled },
        successNotification: false,
        errorNotification: false,
        // Field errors show under their fields; anything else the page reports itself.
        meta: { errorFeedback: 'caller' },
      },
      {
        onSuccess: ({ data }) => {
          const saved = data as unknown as TChannelConnection;
          // A Slack app saved without a bot token is not tested: "Add to Slack" gets the token.
          const awaitsInstall = saved.status === 'disconnected' && !saved.last_error;
          const awaitsEvent = saved.status === 'awaiting_verification';
          notification[
            saved.status === 'connected' || awaitsInstall || awaitsEvent ? 'success' : 'warning'
          ]({
            key: `ccp:connection-${row.channel}`,
            message: t(
              awaitsInstall
                ? 'channel-connections.awaitingInstall'
                : `channel-connections.notifications.${saved.status === 'connected' ? 'connected' : awaitsEvent ? 'awaiting' : 'failed'}`,
            ),
          });
          form.resetFields(fields.filter((field) => field.secret).map((field) => field.key));
          onSaved();
        },
        onError: (error) => {
          const errors = (error as { errors?: Record<string, string[]> }).errors ?? {};
          const onFields = Object.entries(errors).filter(([key]) => key.startsWith('fields.'));
          if (onFields.length === 0) {
            reportFailure(error);
            return;
          }
          form.setFields(
            onFields.map(([key, messages]) => ({
              name: key.replace(/^fields\./, ''),
              errors: messages,
            })),
          );
        },
      },
    );
  };

  const test = () =>
    custom(
      {
        ...actionRequests.testChannelConnection(row.channel),
        values: {},
        successNotification: false,
      },
      { onSuccess: onSaved },
    );

  const addToSlack = () =>
    custom(
      {
        ...actionRequests.installSlack(),
        // The server builds the redirect URL from CCP_PUBLIC_URL, never from this page's address.
        values: {},
        successNotification: false,
      },
      {
        onSuccess: ({ data }) => {
          window.location.assign(data.url);
        },
      },
    );

  return (
    <Form
      form={form}
      // The forms' field ids are prefixed by their channel: Slack and Webex both have a bot
      // token, and a label must name its own card's input.
      name={`connection-${row.channel}`}
      layout="vertical"
      // A choice never saved shows its default (the first option), as the server reads it.
      initialValues={{
        ...Object.fromEntries(
          fields.flatMap((field) => (field.options ? [[field.key, field.options[0]]] : [])),
        ),
        ...Object.fromEntries(Object.entries(row.provider_ids).filter(([, value]) => value !== '')),
      }}
      onFinish={save}
      className="channel-connection-form"
      aria-label={t(`courses.wizard.channels.${row.channel}`)}
    >
      {open &&
        fields.map((field) => (
          <Form.Item
            key={field.key}
            name={field.key}
            label={t(`channel-connections.fields.${field.key}`)}
            extra={
              field.secret && row.secrets_set.includes(field.key)
                ? t('channel-connections.secretStored')
                : i18n.exists(`channel-connections.hints.${field.key}`)
                  ? t(`channel-connections.hints.${field.key}`)
                  : undefined
            }
          >
            {field.options ? (
              <Select
                options={field.options.map((value) => ({
                  value,
                  label: t(`channel-connections.options.${field.key}.${value}`),
                }))}
              />
            ) : field.secret ? (
              <Input.Password autoComplete="new-password" />
            ) : (
              <Input autoComplete="off" />
            )}
          </Form.Item>
        ))}
      <Space wrap>
        {/* Two elements (keys): a reused button would turn into the submit during its own
            click and send the empty form. */}
        {open ? (
          <Button key="save" type="primary" htmlType="submit" loading={mutation.isPending}>
            {t('channel-connections.actions.save')}
          </Button>
        ) : (
          <Button
            key="open"
            type={row.status === 'not_connected' ? 'primary' : 'default'}
            onClick={() => setOpen(true)}
          >
            {t(
              `channel-connections.actions.${row.status === 'not_connected' ? 'connect' : 'edit'}`,
            )}
          </Button>
        )}
        {row.status !== 'not_connected' && row.status !== 'demo' && (
          <Button onClick={test} loading={customMutation.isPending}>
            {t('channel-connections.actions.test')}
          </Button>
        )}
        {row.channel === 'slack' && (
          <Button onClick={addToSlack}>{t('channel-connections.actions.addToSlack')}</Button>
        )}
        {row.status !== 'not_connected' && (
          <Popconfirm
            title={t('channel-connections.disconnect.title')}
            description={t('channel-connections.disconnect.description')}
            onConfirm={() =>
              remove(
                { resource: 'channel-connections', id: row.channel, successNotification: false },
                { onSuccess: onSaved },
              )
            }
          >
            <Button danger>{t('channel-connections.actions.disconnect')}</Button>
          </Popconfirm>
        )}
        {open && (
          <Button
            type="text"
            onClick={() => {
              form.resetFields();
              setOpen(false);
            }}
          >
            {t('buttons.cancel')}
          </Button>
        )}
      </Space>
    </Form>
  );
};

const ChannelCard = ({ row, onSaved }: { row: TRow; onSaved: () => void }) => {
  const { t } = useTranslation();
  const name = t(`courses.wizard.channels.${row.channel}`);
  const details = DETAIL_KEYS.filter((key) => row.provider_ids[key]);
  return (
    <Card
      className="channel-connection-card"
      data-channel={row.channel}
      title={name}
      extra={
        <Tag color={STATUS_COLOR[row.status]} className="channel-connection-status">
          {t(`channel-connections.status.${row.status}`)}
        </Tag>
      }
    >
      {row.status !== 'connected' && (
        <Alert
          type={row.status === 'awaiting_verification' ? 'warning' : 'info'}
          showIcon
          message={t(
            !row.available
              ? 'channel-connections.notAvailable'
              : row.status === 'demo'
                ? 'channel-connections.demo'
                : row.status === 'awaiting_verification'
                  ? 'channel-connections.awaitingVerification'
                  : 'channel-connections.onlyRecorded',
            { provider: name },
          )}
        />
      )}
      {details.length > 0 && (
        <Descriptions
          size="small"
          column={1}
          className="channel-connection-details"
          items={details.map((key) => ({
            key,
            label: t(`channel-connections.details.${key}`),
            children: row.provider_ids[key],
          }))}
        />
      )}
      {row.last_error && (
        <Alert
          type="error"
          showIcon
          message={t('channel-connections.lastError')}
          description={row.last_error}
        />
      )}
      <ConnectionProofs row={row} />
      {row.last_tested_at && (
        <p className="channel-connection-tested">
          {t('channel-connections.lastTested', { date: formatDate(row.last_tested_at) })}
        </p>
      )}
      {row.editable && row.available && (
        <SetupGuide
          channel={row.channel}
          open={row.status !== 'connected'}
          saved={row.status !== 'not_connected' && row.status !== 'demo'}
          savedAt={row.updated_at}
          onChanged={onSaved}
        />
      )}
      {row.editable && <ConnectionForm row={row} onSaved={onSaved} />}
      {row.editable && row.status === 'connected' && (
        <TestLesson channel={row.channel} onAnswered={onSaved} />
      )}
    </Card>
  );
};

/** What "Add to Slack" came back with: Slack's redirect lands here with the outcome. */
const SlackInstallOutcome = () => {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  if (params.get('connected') === 'slack') {
    return (
      <Alert type="success" showIcon message={t('channel-connections.slackInstall.connected')} />
    );
  }
  if (params.get('slack_install') !== 'failed') return null;
  const reason = params.get('reason') ?? '';
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      message={
        reason === 'state_invalid'
          ? t('validation.slackInstallStateInvalid')
          : t('channel-connections.slackInstall.failed', { reason })
      }
    />
  );
};

/** /channels: each chat provider's connection; administrators connect and test, others see status. */
export const ChannelConnectionList = () => {
  const { t } = useTranslation();
  usePageTitle(t('channel-connections.titles.list'));
  const { result, query } = useList<TRow>({
    resource: 'channel-connections',
    pagination: { mode: 'off' },
    // A channel awaiting the provider's signed event connects when the administrator adds the
    // app there: the page asks again until it has, as it does for a test lesson's answer.
    queryOptions: {
      refetchInterval: (state) =>
        state.state.data?.data.some((row) => row.status === 'awaiting_verification')
          ? TEST_LESSON_POLL_INTERVAL_MS
          : false,
    },
  });
  const rows = result.data;
  const editable = rows.some((row) => row.editable);
  return (
    <section className="page-section page-narrow">
      <PageHeader
        title={t('channel-connections.titles.list')}
        subtitle={
          query.isLoading
            ? undefined
            : t(editable ? 'channel-connections.intro' : 'channel-connections.introReadOnly')
        }
        back={{ to: ROUTES.dashboard, label: t('layout.nav.home') }}
      />
      <SlackInstallOutcome />
      <div className="channel-connection-grid">
        {rows.map((row) => (
          <ChannelCard key={row.channel} row={row} onSaved={() => void query.refetch()} />
        ))}
      </div>
    </section>
  );
};
