import { DownloadOutlined, TeamOutlined, UploadOutlined } from '@ant-design/icons';
import { actionRequests } from '@ccp/data-provider';
import { FINISHED_JOB_STATUSES } from '@ccp/schemas';
import type { TImportJob } from '@ccp/schemas';
import { useCustomMutation, useDataProvider, useOne } from '@refinedev/core';
import { App, Alert, Button, Card, Progress, Result, Space, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';

import { ButtonLink } from '../../../components/button-link.tsx';
import { ROUTES } from '../../../config.ts';
import { formatNumber } from '../../../lib/format.ts';
import { saveFile } from '../../../lib/save-file.ts';

/** How often a running job is asked for its progress. */
export const IMPORT_POLL_MS = 1000;

type Props = { jobUuid: string; onAnother: () => void };

/**
 * A background import as it runs and ends: rows done, created, updated, skipped, failed, the
 * e-mail the server sends at the end (spec §4), the error report, and the target list. Leaving
 * the page does not stop the job; the page finds it again by its id in the address.
 */
export const JobProgress = ({ jobUuid, onAnother }: Props) => {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const dataProvider = useDataProvider();
  const { mutate: custom, mutation: cancelling } = useCustomMutation();
  const { result: job, query } = useOne<TImportJob>({
    resource: 'learners-imports',
    id: jobUuid,
    queryOptions: {
      refetchInterval: (state) => {
        const status = state.state.data?.data.status;
        return status && FINISHED_JOB_STATUSES.includes(status) ? false : IMPORT_POLL_MS;
      },
    },
  });
  if (!job) {
    return query.isError ? (
      <Result status="warning" title={t('learnersImport.job.notFound')} />
    ) : (
      <Card loading />
    );
  }
  const finished = FINISHED_JOB_STATUSES.includes(job.status);
  const downloadErrors = async () => {
    const report = await dataProvider('default').getOne<{ csv: Uint8Array<ArrayBuffer> }>({
      resource: 'learners-imports',
      id: job.uuid,
      meta: { part: 'errors' },
    });
    saveFile(
      // The bytes as sent: the report is in the encoding of the file it came from.
      new Blob([report.data.csv], { type: 'text/csv' }),
      job.file_name.replace(/\.[^.]+$/, '') + '-errors.csv',
    );
  };
  const cancel = () =>
    custom(
      { ...actionRequests.cancelImport(job.uuid), values: {} },
      {
        onSuccess: () => void query.refetch(),
        onError: () =>
          notification.error({ message: t('learnersImport.job.cancelFailed'), placement: 'top' }),
      },
    );

  const counts = (
    <div className="import-job__counts">
      <Statistic title={t('learnersImport.job.created')} value={formatNumber(job.created)} />
      <Statistic title={t('learnersImport.job.updated')} value={formatNumber(job.updated)} />
      <Statistic title={t('learnersImport.job.skipped')} value={formatNumber(job.skipped)} />
      <Statistic title={t('learnersImport.job.failed')} value={formatNumber(job.failed)} />
      {job.warned > 0 ? (
        <Statistic title={t('learnersImport.job.warned')} value={formatNumber(job.warned)} />
      ) : null}
    </div>
  );
  const actions = (
    <Space wrap style={{ justifyContent: 'center' }}>
      {job.error_report_url ? (
        <Button icon={<DownloadOutlined />} onClick={() => void downloadErrors()}>
          {t('learnersImport.job.downloadErrors')}
        </Button>
      ) : null}
      <ButtonLink
        icon={<TeamOutlined />}
        to={
          job.learners_list ? `${ROUTES.learners}?list=${job.learners_list.uuid}` : ROUTES.learners
        }
      >
        {job.learners_list
          ? t('learnersImport.job.openList', { name: job.learners_list.name })
          : t('learnersImport.job.openLearners')}
      </ButtonLink>
      <Button icon={<UploadOutlined />} onClick={onAnother}>
        {t('learnersImport.job.another')}
      </Button>
    </Space>
  );

  if (!finished) {
    return (
      <Card className="import-job" title={t('learnersImport.job.running', { file: job.file_name })}>
        <Progress
          percent={Math.floor(job.progress)}
          status="active"
          aria-label={t('learnersImport.job.progress')}
        />
        <p role="status">
          {t('learnersImport.job.rows', {
            processed: formatNumber(job.processed_rows),
            total: formatNumber(job.total_rows),
          })}
        </p>
        {counts}
        <Alert type="info" showIcon message={t('learnersImport.job.background')} />
        <Button danger loading={cancelling.isPending} onClick={cancel} style={{ marginTop: 16 }}>
          {t('learnersImport.job.cancel')}
        </Button>
      </Card>
    );
  }

  const status =
    job.status === 'completed'
      ? job.failed > 0 || job.warned > 0
        ? 'warning'
        : 'success'
      : job.status === 'canceled'
        ? 'info'
        : 'error';
  return (
    <Card className="import-job">
      <Result
        status={status}
        title={t(`learnersImport.job.title.${job.status}`, { file: job.file_name })}
        subTitle={
          <span role="status">
            {job.error_summary ??
              t('learnersImport.job.summary', {
                total: formatNumber(job.total_rows),
                failed: formatNumber(job.failed),
              })}
          </span>
        }
        extra={actions}
      >
        {counts}
        <p className="import-job__mail">{t('learnersImport.job.mailed')}</p>
      </Result>
    </Card>
  );
};
