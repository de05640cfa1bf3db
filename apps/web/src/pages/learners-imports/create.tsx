import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { ApiError } from '@ccp/data-provider';
import { IMPORT_TEMPLATE_HEADER, MESSAGES, UPLOAD_MAX_BYTES } from '@ccp/schemas';
import type { TImportEncoding, TImportJob, TLearnersList } from '@ccp/schemas';
import { useCreate, useList } from '@refinedev/core';
import {
  Alert,
  Button,
  Card,
  Form,
  Progress,
  Select,
  Space,
  Steps,
  Typography,
  Upload,
} from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { PageHeader } from '../../components/page-header.tsx';
import { ROUTES } from '../../config.ts';
import { formatBytes } from '../../lib/format.ts';
import { saveFile } from '../../lib/save-file.ts';
import { describeMessage } from '../../lib/messages.ts';
import { translateMessage } from '../../lib/translate-message.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { JobProgress } from './components/job-progress.tsx';
import {
  MappingStep,
  initialChoice,
  mappingOf,
  overridesOf,
  phoneCountriesOf,
} from './components/mapping-step.tsx';
import type { TMappingChoice } from './components/mapping-step.tsx';
import { readPreview } from './preview.ts';
import type { TFilePreview } from './preview.ts';

/** The file types the import reads (spec §9; .xls is refused with its own message, as decided). */
const ACCEPT = '.csv,.xlsx';

/** The file's own problem before any byte is sent, as the server would say it; null when fine. */
const fileProblem = (file: File): string | null => {
  if (/\.xls$/i.test(file.name)) return MESSAGES.importXlsUnsupported;
  if (!/\.(csv|xlsx)$/i.test(file.name)) return MESSAGES.importFileType;
  if (file.size > UPLOAD_MAX_BYTES) return MESSAGES.fileTooLarge;
  if (file.size === 0) return MESSAGES.importFileEmpty;
  return null;
};

const downloadTemplate = () =>
  saveFile(
    new Blob([`${IMPORT_TEMPLATE_HEADER}\r\n`], { type: 'text/csv;charset=utf-8' }),
    'learners-import-template.csv',
  );

type TUpload = { sent: number; total: number };

/**
 * /learners/upload (spec §2): a .csv or .xlsx, its columns matched to the learner fields and
 * correctable (with defaults for what address books and HR exports lack), then the upload with
 * its progress and the background job's. The job's id is kept in the address (`?job=`), so
 * leaving and coming back, or reloading, shows it again.
 */
export const LearnersImportCreate = () => {
  const { t, i18n } = useTranslation();
  usePageTitle(t('learnersImport.title'));
  const [params, setParams] = useSearchParams();
  const jobUuid = params.get('job');
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [preview, setPreview] = useState<TFilePreview | null>(null);
  const [choice, setChoice] = useState<TMappingChoice | null>(null);
  const [listUuid, setListUuid] = useState<string | undefined>(params.get('list') ?? undefined);
  const [upload, setUpload] = useState<TUpload | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const { mutateAsync: create } = useCreate<TImportJob>();
  const { result: lists } = useList<TLearnersList>({
    resource: 'learners-lists',
    pagination: { mode: 'off' },
  });
  const say = (text: string) => translateMessage(describeMessage(text), t);

  const reset = () => {
    setFile(null);
    setPreview(null);
    setChoice(null);
    setProblem(null);
    setFailure(null);
    setUpload(null);
    setParams({}, { replace: true });
  };

  const pick = async (picked: File) => {
    reset();
    const refused = fileProblem(picked);
    if (refused) {
      setProblem(say(refused));
      return;
    }
    setFile(picked);
    try {
      const read = await readPreview(picked);
      setPreview(read);
      if (read) setChoice(initialChoice(read.header, i18n.language.slice(0, 2)));
      if (read && read.header.length === 0) setProblem(say(MESSAGES.importFileEmpty));
    } catch {
      setProblem(say(MESSAGES.importXlsxBroken));
      setFile(null);
    }
  };

  // The user's encoding for a CSV whose guess was wrong: the preview is read again with it, and
  // the upload sends it, so the server reads the file the same way.
  const reread = async (encoding: TImportEncoding) => {
    if (!file) return;
    setPreview(await readPreview(file, encoding));
  };

  const start = async () => {
    if (!file) return;
    const controller = new AbortController();
    abort.current = controller;
    setFailure(null);
    setUpload({ sent: 0, total: file.size });
    try {
      const { data: job } = await create({
        resource: 'learners-imports',
        values: {
          file,
          ...(listUuid ? { list_uuid: listUuid } : {}),
          ...(preview && choice
            ? {
                columns: overridesOf(preview.header, choice),
                phone_countries: phoneCountriesOf(preview.header, choice),
                default_channels: choice.defaultChannels,
                ...(choice.defaultLocale ? { default_locale: choice.defaultLocale } : {}),
                default_country: choice.defaultCountry,
                // The encoding the preview read the CSV with: the server reads it the same way.
                ...(preview.encoding ? { encoding: preview.encoding.encoding } : {}),
              }
            : {}),
        },
        meta: {
          signal: controller.signal,
          onUploadProgress: (sent: number, total: number) => setUpload({ sent, total }),
          errorFeedback: 'caller',
        },
        successNotification: false,
        errorNotification: false,
      });
      setParams({ job: job.uuid }, { replace: false });
    } catch (error) {
      if (!controller.signal.aborted) {
        const message = error instanceof Error ? error.message : String(error);
        const fieldErrors = error instanceof ApiError ? error.errors : undefined;
        setFailure(
          Object.values(fieldErrors ?? {})
            .flat()
            .join(' ') || message,
        );
      }
    } finally {
      setUpload(null);
      abort.current = null;
    }
  };

  const mapping = preview && choice ? mappingOf(preview.header, choice) : null;
  const step = jobUuid ? 2 : file ? 1 : 0;

  return (
    <section className="page-section learners-import-page">
      <PageHeader
        back={{ to: ROUTES.learners, label: t('learners.titles.list') }}
        title={t('learnersImport.title')}
        subtitle={t('learnersImport.intro')}
      />
      <Steps
        className="import-steps"
        current={step}
        size="small"
        items={[
          { title: t('learnersImport.steps.file') },
          { title: t('learnersImport.steps.columns') },
          { title: t('learnersImport.steps.import') },
        ]}
      />
      {jobUuid ? (
        <JobProgress jobUuid={jobUuid} onAnother={reset} />
      ) : (
        <Card>
          <Form layout="vertical">
            <Form.Item label={t('learnersImport.file.label')} required>
              <Upload.Dragger
                accept={ACCEPT}
                multiple={false}
                showUploadList={false}
                disabled={upload !== null}
                beforeUpload={(picked) => {
                  void pick(picked);
                  return Upload.LIST_IGNORE;
                }}
              >
                <p className="ant-upload-drag-icon">
                  <InboxOutlined />
                </p>
                <p className="ant-upload-text">
                  {file
                    ? t('learnersImport.file.chosen', {
                        name: file.name,
                        size: formatBytes(file.size),
                      })
                    : t('learnersImport.file.drop')}
                </p>
                <p className="ant-upload-hint">{t('learnersImport.file.hint')}</p>
              </Upload.Dragger>
            </Form.Item>
            {problem ? <Alert type="error" showIcon role="alert" message={problem} /> : null}
            <Space wrap className="import-file__extras">
              <Button icon={<DownloadOutlined />} onClick={downloadTemplate}>
                {t('learnersImport.file.template')}
              </Button>
              <Select
                aria-label={t('learnersImport.file.list')}
                placeholder={t('learnersImport.file.listPlaceholder')}
                allowClear
                value={listUuid}
                onChange={(next?: string) => setListUuid(next)}
                options={lists.data.map((list) => ({ value: list.uuid, label: list.name }))}
                style={{ minWidth: 260 }}
              />
            </Space>
          </Form>
          {file && !preview && !problem ? (
            <Alert type="info" showIcon message={t('learnersImport.mapping.noPreview')} />
          ) : null}
          {preview && choice ? (
            <MappingStep
              preview={preview}
              choice={choice}
              onChange={setChoice}
              onEncoding={(encoding) => void reread(encoding)}
            />
          ) : null}
          {failure ? (
            <Alert type="error" showIcon role="alert" message={failure} style={{ marginTop: 16 }} />
          ) : null}
          {upload ? (
            <div className="import-upload">
              <Typography.Text>
                {t('learnersImport.upload.sending', {
                  sent: formatBytes(upload.sent),
                  total: formatBytes(upload.total || file?.size || 0),
                })}
              </Typography.Text>
              <Progress
                percent={upload.total ? Math.floor((upload.sent / upload.total) * 100) : 0}
                status="active"
                aria-label={t('learnersImport.upload.progress')}
              />
              <Button onClick={() => abort.current?.abort()}>
                {t('learnersImport.upload.cancel')}
              </Button>
            </div>
          ) : (
            <div className="import-actions">
              <Button
                type="primary"
                disabled={!file || problem !== null || (mapping?.problems.length ?? 0) > 0}
                onClick={() => void start()}
              >
                {t('learnersImport.start')}
              </Button>
            </div>
          )}
        </Card>
      )}
    </section>
  );
};
