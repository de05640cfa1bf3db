import { actionRequests } from '@ccp/data-provider';
import type { TChannelKey, TChannelSetup, TTemplateCreation } from '@ccp/schemas';
import { useCustom, useCustomMutation, useDataProvider } from '@refinedev/core';
import { Alert, Button, Collapse, Descriptions, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { isLeftToCaller } from '../../lib/report-failure.ts';
import { saveFile } from '../../lib/save-file.ts';

/** How many steps each provider's guide has (locales `channel-connections.setup.steps.<channel>.s<n>`). */
const GUIDE_STEPS: Record<TChannelKey, number> = {
  slack: 3,
  'ms-teams': 5,
  whatsapp: 3,
  webex: 2,
  'google-chat': 3,
};

type TSetupDownload = TChannelSetup['downloads'][number];

/**
 * Saves a guide's file: text that came with the guide as it is, a binary file (the Teams app
 * package) fetched from the API when asked for. Answers the server's reason when it refused.
 */
const useSaveDownload = () => {
  const dataProvider = useDataProvider();
  const [saving, setSaving] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const save = async (download: TSetupDownload) => {
    setFailure(null);
    if (download.content !== undefined) {
      saveFile(new Blob([download.content], { type: download.media_type }), download.file_name);
      return;
    }
    // Our data provider has `custom`; Refine's type leaves it optional.
    const { custom } = dataProvider();
    if (download.path === undefined || !custom) return;
    setSaving(download.key);
    try {
      const { data } = await custom({
        url: download.path,
        method: 'get',
        meta: { responseType: 'bytes', errorFeedback: 'caller' },
      });
      const bytes = data as unknown as Uint8Array<ArrayBuffer>;
      saveFile(new Blob([bytes], { type: download.media_type }), download.file_name);
    } catch (error) {
      // The server says why in the user's language (no https public URL, no app id saved yet).
      if (isLeftToCaller(error)) setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setSaving(null);
    }
  };
  return { save, saving, failure };
};

const CREATION_COLOR: Record<TTemplateCreation['outcome'], string> = {
  created: 'gold',
  exists: 'default',
  failed: 'red',
};

/**
 * "Create missing templates" (WhatsApp, once the connection is saved): Meta creates those the
 * business account lacks; each name and language then says what Meta answered — created and
 * pending its review, already there with its status, or refused in Meta's words.
 */
const CreateTemplates = ({ onChanged }: { onChanged: () => void }) => {
  const { t } = useTranslation();
  const { mutate, mutation } = useCustomMutation<TTemplateCreation[]>();
  const [results, setResults] = useState<TTemplateCreation[] | null>(null);
  const create = () =>
    mutate(
      { ...actionRequests.createWhatsAppTemplates(), values: {}, successNotification: false },
      {
        onSuccess: ({ data }) => {
          setResults(data);
          onChanged();
        },
      },
    );
  return (
    <Space direction="vertical" size="small" style={{ width: '100%' }}>
      <Button onClick={create} loading={mutation.isPending}>
        {t('channel-connections.setup.templates.create')}
      </Button>
      {results && (
        <ul className="channel-connection-proofs channel-template-creations" aria-live="polite">
          {results.map((item) => (
            <li key={`${item.name}:${item.language}`}>
              <Tag color={CREATION_COLOR[item.outcome]}>
                {t(`channel-connections.setup.templates.outcomes.${item.outcome}`)}
              </Tag>
              <Typography.Text code>{item.name}</Typography.Text> · {item.language}
              {item.status && ` · ${item.status}`}
              {item.error && (
                <>
                  {' · '}
                  <Typography.Text type="danger">{item.error}</Typography.Text>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </Space>
  );
};

/**
 * A provider's setup on one screen: what to create there, the values to paste (each with a copy
 * button, built by the server from its public URL), the files to upload, and why the provider
 * could not reach this server yet, if so. Open until the channel is connected.
 */
export const SetupGuide = ({
  channel,
  open,
  saved,
  onChanged,
  savedAt,
}: {
  channel: TChannelKey;
  open: boolean;
  /** The connection is saved: the provider can be asked to create what the guide lists. */
  saved: boolean;
  onChanged: () => void;
  /** When the connection last changed: its guide may change with it. */
  savedAt: string | null;
}) => {
  const { t } = useTranslation();
  const { result, query } = useCustom<TChannelSetup>({ ...actionRequests.channelSetup(channel) });
  // A saved connection adds to its guide (Google Chat's own endpoint URL, shown once saved):
  // asked again when the connection changes, not only when the page opens.
  const shownFor = useRef(savedAt);
  useEffect(() => {
    if (shownFor.current === savedAt) return;
    shownFor.current = savedAt;
    void query.refetch();
  }, [savedAt, query]);
  // Until it answers, Refine's result holds an empty object.
  const setup = Array.isArray(result.data?.values) ? result.data : undefined;
  const steps = Array.from({ length: GUIDE_STEPS[channel] }, (_, index) => index + 1);
  const download = useSaveDownload();
  return (
    <Collapse
      size="small"
      className="channel-setup-guide"
      defaultActiveKey={open ? ['guide'] : []}
      items={[
        {
          key: 'guide',
          label: t('channel-connections.setup.title'),
          children: (
            <Space direction="vertical" size="small" style={{ width: '100%' }}>
              {setup?.refusal && <Alert type="warning" showIcon message={setup.refusal} />}
              <ol className="channel-setup-steps">
                {steps.map((step) => (
                  <li key={step}>{t(`channel-connections.setup.steps.${channel}.s${step}`)}</li>
                ))}
              </ol>
              {setup && setup.values.length > 0 && (
                <Descriptions
                  size="small"
                  column={1}
                  bordered
                  title={t('channel-connections.setup.paste')}
                  className="channel-setup-values"
                  items={setup.values.map(({ key, value }) => ({
                    key,
                    label: t(`channel-connections.setup.values.${key}`),
                    children: (
                      <Typography.Text code copyable={{ text: value }} className="setup-value">
                        {value}
                      </Typography.Text>
                    ),
                  }))}
                />
              )}
              {setup?.templates && setup.templates.length > 0 && (
                <Table
                  size="small"
                  className="channel-setup-templates"
                  title={() =>
                    t('channel-connections.setup.templates.title', { variable: '{{1}}' })
                  }
                  pagination={false}
                  rowKey={(row) => `${row.name}:${row.language}`}
                  dataSource={setup.templates}
                  scroll={{ x: true }}
                  columns={[
                    {
                      key: 'name',
                      title: t('channel-connections.setup.templates.name'),
                      render: (_, row) => (
                        <Typography.Text code copyable>
                          {row.name}
                        </Typography.Text>
                      ),
                    },
                    {
                      key: 'language',
                      title: t('channel-connections.setup.templates.language'),
                      dataIndex: 'language',
                    },
                    {
                      key: 'body',
                      title: t('channel-connections.setup.templates.body'),
                      render: (_, row) => <Typography.Text copyable>{row.body}</Typography.Text>,
                    },
                    {
                      key: 'quick_replies',
                      title: t('channel-connections.setup.templates.quickReplies'),
                      render: (_, row) => row.quick_replies.join(' · '),
                    },
                  ]}
                />
              )}
              {setup?.templates && setup.templates.length > 0 && saved && (
                <CreateTemplates onChanged={onChanged} />
              )}
              {setup && setup.downloads.length > 0 && (
                <Space wrap>
                  {setup.downloads.map((file) => (
                    <Button
                      key={file.key}
                      loading={download.saving === file.key}
                      onClick={() => void download.save(file)}
                    >
                      {t('channel-connections.setup.download')}:{' '}
                      {t(`channel-connections.setup.downloads.${file.key}`)}
                    </Button>
                  ))}
                </Space>
              )}
              {download.failure && (
                <Alert
                  type="error"
                  showIcon
                  className="channel-setup-download-error"
                  message={download.failure}
                />
              )}
            </Space>
          ),
        },
      ]}
    />
  );
};
