import { InboxOutlined } from '@ant-design/icons';
import type { ApiError } from '@ccp/data-provider';
import {
  AI_ASSESSMENT_TYPES,
  AI_IMPORT_TYPES,
  AI_MODELS,
  COURSE_SOURCE_TYPES,
  LOCALES,
  MESSAGES,
  TEXT_LIMITS,
  UPLOAD_MAX_BYTES,
  ZAiImportFieldsSchema,
} from '@ccp/schemas';
import type { TAiImportFields, TAiImportJob } from '@ccp/schemas';
import { useCreate } from '@refinedev/core';
import { Alert, Button, Card, Form, Input, InputNumber, Progress, Select } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { useClassroomMeta } from '../../components/layout/classroom-context.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { LANGUAGE_NAMES, ROUTES } from '../../config.ts';
import { formatNumber } from '../../lib/format.ts';
import { describeMessage } from '../../lib/messages.ts';
import { isLeftToCaller, reportFailure } from '../../lib/report-failure.ts';
import { translateMessage } from '../../lib/translate-message.ts';
import { useAiGenerator } from '../../lib/use-ai-generator.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { schemaField } from '../../lib/zod-form.ts';
import { AiImportJob } from './components/ai-import-job.tsx';
import './import.css';

// The AI import (spec §2 "Transform existing content", §9): a document, video or audio file and
// the course's intro become a draft course, opened in the wizard's Content step for review. The
// file's size and type are checked before any byte is sent; the upload shows its progress and
// can be canceled; then a background job on the server writes the lessons (a provider, or the
// offline generator, which reads documents only). The job's id goes into the address (`?job=`):
// leaving the page does not stop it, and coming back shows it.

type TValues = Omit<TAiImportFields, 'language'> & { language: string; file?: File };

const ACCEPT = AI_IMPORT_TYPES.map((type) => `.${type}`).join(',');
const extensionOf = (name: string) => name.split('.').pop()?.toLowerCase() ?? '';
const isDocument = (name: string) =>
  (COURSE_SOURCE_TYPES as readonly string[]).includes(extensionOf(name));

/** Bytes as megabytes with one decimal, in the user's number format. */
const megabytes = (bytes: number) => formatNumber(Math.round(bytes / 104_857.6) / 10);

type TPhase =
  | { kind: 'idle' }
  | { kind: 'uploading'; sent: number; total: number }
  | { kind: 'reading' }
  | { kind: 'canceled' };

const FileInput = ({ value, onChange }: { value?: File; onChange?: (file?: File) => void }) => {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className="import-file">
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        className="visually-hidden"
        aria-label={t('courses.import.file')}
        onChange={(event) => {
          onChange?.(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
      <button type="button" className="import-drop" onClick={() => input.current?.click()}>
        <InboxOutlined aria-hidden className="import-drop-icon" />
        <span className="import-drop-text">
          {value
            ? t('courses.import.fileChosen', {
                name: value.name,
                size: megabytes(value.size),
              })
            : t('courses.import.fileChoose')}
        </span>
        <span className="muted import-drop-help">
          {t('courses.import.fileHelp', { types: AI_IMPORT_TYPES.join(', ') })}
        </span>
      </button>
    </div>
  );
};

export const CourseImport = () => {
  const { t } = useTranslation();
  const classroomMeta = useClassroomMeta();
  const title = t('courses.titles.import');
  usePageTitle(title);
  const [params, setParams] = useSearchParams();
  const jobUuid = params.get('job');
  const [form] = Form.useForm<TValues>();
  const [phase, setPhase] = useState<TPhase>({ kind: 'idle' });
  const [failure, setFailure] = useState<string | null>(null);
  // The job this visit started (followed to its end), not one found in the address.
  const [started, setStarted] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const { mutateAsync: upload } = useCreate<TAiImportJob>();
  const offline = useAiGenerator() === 'offline';

  const translate = useMemo(
    () => (text: string) => translateMessage(describeMessage(text), t),
    [t],
  );
  const field = useMemo(() => schemaField(ZAiImportFieldsSchema, translate), [translate]);
  const fileRule = useMemo(
    () => ({
      validator: async (_: unknown, file?: File) => {
        if (!file) throw new Error(translate(MESSAGES.courseSourceFileRequired));
        if (!(AI_IMPORT_TYPES as readonly string[]).includes(extensionOf(file.name))) {
          throw new Error(translate(MESSAGES.aiFileType));
        }
        // Spec §9: refused before any byte is sent.
        if (file.size > UPLOAD_MAX_BYTES) throw new Error(translate(MESSAGES.fileTooLarge));
        if (offline && !isDocument(file.name)) {
          throw new Error(translate(MESSAGES.aiTranscriptionNotConfigured));
        }
      },
    }),
    [translate, offline],
  );

  const busy = phase.kind === 'uploading' || phase.kind === 'reading';

  const submit = async (values: TValues) => {
    const { file, ...fields } = values;
    if (!file) return;
    setFailure(null);
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ kind: 'uploading', sent: 0, total: file.size });
    try {
      const { data: job } = await upload({
        resource: 'ai-imports',
        values: { ...fields, file },
        meta: {
          ...classroomMeta,
          errorFeedback: 'caller',
          signal: controller.signal,
          // Once sent, the server reads a document before it answers with the queued job.
          onUploadProgress: (sent: number, total: number) =>
            setPhase(sent >= total ? { kind: 'reading' } : { kind: 'uploading', sent, total }),
        },
        successNotification: false,
        errorNotification: false,
      });
      setPhase({ kind: 'idle' });
      setStarted(job.uuid);
      setParams({ job: job.uuid });
    } catch (error) {
      if (controller.signal.aborted) {
        setPhase({ kind: 'canceled' });
        return;
      }
      setPhase({ kind: 'idle' });
      const apiError = error as Partial<ApiError>;
      if (apiError.statusCode === 422 && apiError.errors) {
        form.setFields(
          Object.entries(apiError.errors).map(([name, errors]) => ({
            name: name as keyof TValues,
            errors: errors.map(translate),
          })),
        );
        return;
      }
      if (!isLeftToCaller(error)) return;
      if (apiError.message) setFailure(apiError.message);
      else reportFailure(error);
    } finally {
      abort.current = null;
    }
  };

  const percent =
    phase.kind === 'uploading' && phase.total > 0
      ? Math.floor((phase.sent / phase.total) * 100)
      : phase.kind === 'reading'
        ? 100
        : 0;

  return (
    <section className="page-section import-page">
      <PageHeader
        title={title}
        subtitle={t('courses.import.lead')}
        back={{ to: ROUTES.dashboard, label: t('layout.nav.home') }}
      />
      {jobUuid && (
        <AiImportJob
          key={jobUuid}
          jobUuid={jobUuid}
          started={started === jobUuid}
          onRetry={() => setParams({}, { replace: true })}
          onAnother={() => {
            form.resetFields();
            setParams({}, { replace: true });
          }}
        />
      )}
      {/* Kept while a job is shown, so a failed or stopped import is tried again as it was. */}
      <div hidden={!!jobUuid}>
        {offline && (
          <Alert
            type="info"
            showIcon
            className="form-alert"
            message={t('courses.import.offlineTitle')}
            description={t('courses.import.offlineText')}
          />
        )}
        <Card className="wizard-card">
          <Form<TValues>
            form={form}
            layout="vertical"
            requiredMark
            disabled={busy}
            initialValues={{
              language: 'en',
              number_of_lessons: 5,
              assessment_type: 'random',
              model: 'gpt-3.5',
            }}
            onFinish={(values) => void submit(values)}
          >
            <div className="form-grid">
              <Form.Item {...field(['name'])} label={t('courses.wizard.intro.name')}>
                <Input count={{ show: true, max: TEXT_LIMITS.courseName }} />
              </Form.Item>
              <Form.Item {...field(['language'])} label={t('courses.import.language')}>
                <Select
                  options={LOCALES.map((code) => ({ value: code, label: LANGUAGE_NAMES[code] }))}
                />
              </Form.Item>
              <Form.Item
                {...field(['description'])}
                label={t('courses.wizard.intro.description')}
                extra={t('courses.wizard.intro.descriptionHelp')}
                className="form-grid-wide"
              >
                <Input.TextArea
                  autoSize={{ minRows: 2, maxRows: 5 }}
                  count={{ show: true, max: TEXT_LIMITS.description }}
                />
              </Form.Item>
              <Form.Item {...field(['number_of_lessons'])} label={t('courses.import.lessons')}>
                <InputNumber className="input-number-full" />
              </Form.Item>
              <Form.Item {...field(['assessment_type'])} label={t('courses.import.assessments')}>
                <Select
                  options={AI_ASSESSMENT_TYPES.map((value) => ({
                    value,
                    label: t(`courses.import.assessmentTypes.${value}`),
                  }))}
                />
              </Form.Item>
              <Form.Item
                {...field(['model'])}
                label={t('courses.import.model')}
                extra={offline ? t('courses.import.modelOffline') : null}
              >
                <Select
                  options={AI_MODELS.map((value) => ({
                    value,
                    label: t(`courses.import.models.${value}`),
                  }))}
                />
              </Form.Item>
              <Form.Item
                name="file"
                label={t('courses.import.file')}
                required
                rules={[fileRule]}
                validateTrigger="onChange"
                className="form-grid-wide"
              >
                <FileInput />
              </Form.Item>
            </div>
            {phase.kind !== 'idle' && (
              <div className="import-progress" role="status" aria-live="polite">
                {phase.kind === 'canceled' ? (
                  <Alert type="warning" showIcon message={t('courses.import.canceled')} />
                ) : (
                  <>
                    <Progress
                      percent={percent}
                      status="active"
                      aria-label={t('courses.import.progress')}
                    />
                    <p className="muted">
                      {phase.kind === 'uploading'
                        ? t('courses.import.uploading', {
                            sent: megabytes(phase.sent),
                            total: megabytes(phase.total),
                          })
                        : t('courses.import.reading')}
                    </p>
                  </>
                )}
              </div>
            )}
            {failure && <Alert type="error" showIcon className="form-alert" message={failure} />}
            <div className="form-actions">
              {phase.kind === 'uploading' && (
                <Button disabled={false} onClick={() => abort.current?.abort()}>
                  {t('courses.import.cancel')}
                </Button>
              )}
              <Button type="primary" htmlType="submit" loading={busy}>
                {t('courses.import.submit')}
              </Button>
            </div>
          </Form>
        </Card>
      </div>
    </section>
  );
};
