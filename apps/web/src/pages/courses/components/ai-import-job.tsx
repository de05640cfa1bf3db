import { EditOutlined, UploadOutlined } from '@ant-design/icons';
import { actionRequests } from '@ccp/data-provider';
import { FINISHED_JOB_STATUSES } from '@ccp/schemas';
import type { TAiImportJob } from '@ccp/schemas';
import { useCustomMutation, useOne } from '@refinedev/core';
import { Alert, App, Button, Card, Progress, Result, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { useClassroomMeta } from '../../../components/layout/classroom-context.ts';
import { ButtonLink } from '../../../components/button-link.tsx';
import { courseStepPath } from '../../../config.ts';
import { formatNumber } from '../../../lib/format.ts';

/** How often a running import is asked for its progress. */
export const AI_IMPORT_POLL_MS = 1000;

type Props = {
  jobUuid: string;
  /** Started on this visit: its end opens the course (a job found ended is shown instead). */
  started: boolean;
  /** Back to the form, its values kept (a failed or stopped import). */
  onRetry: () => void;
  /** A new, empty form. */
  onAnother: () => void;
};

/**
 * An AI import as its background job runs and ends: the step (reading, writing, saving) and its
 * progress, a way to stop it, then the draft opened in the wizard's Content step. Leaving the
 * page does not stop the job; the page finds it again by its id in the address (`?job=`), and a
 * job that ended meanwhile is shown with a link to its course instead of opening it unasked.
 */
export const AiImportJob = ({ jobUuid, started, onRetry, onAnother }: Props) => {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const navigate = useNavigate();
  const classroomMeta = useClassroomMeta();
  const { mutate: custom, mutation: cancelling } = useCustomMutation();
  const { result: job, query } = useOne<TAiImportJob>({
    resource: 'ai-imports',
    id: jobUuid,
    meta: classroomMeta,
    queryOptions: {
      refetchInterval: (state) => {
        const status = state.state.data?.data.status;
        return status && FINISHED_JOB_STATUSES.includes(status) ? false : AI_IMPORT_POLL_MS;
      },
    },
  });
  const finished = job ? FINISHED_JOB_STATUSES.includes(job.status) : false;
  // Started or seen running on this visit: its end opens the course; found ended, it is shown.
  const [followed, setFollowed] = useState(started);
  if (job && !finished && !followed) setFollowed(true);

  useEffect(() => {
    if (!job || job.status !== 'completed' || !job.course_uuid || !followed) return;
    notification.success({
      key: 'ccp:imported',
      message: t('courses.import.done', { name: job.name, count: job.lessons }),
      description:
        [...job.warnings, ...(job.problems.length ? [t('courses.import.review')] : [])].join(' ') ||
        undefined,
    });
    void navigate(courseStepPath(job.course_uuid, 'content'));
  }, [job, followed, navigate, notification, t]);

  if (!job) {
    return query.isError ? (
      <Result status="warning" title={t('courses.import.job.notFound')} />
    ) : (
      <Card loading />
    );
  }

  const cancel = () =>
    custom(
      { ...actionRequests.cancelAiImport(job.uuid), values: {}, meta: classroomMeta },
      {
        onSuccess: () => void query.refetch(),
        onError: () =>
          notification.error({ message: t('courses.import.job.cancelFailed'), placement: 'top' }),
      },
    );

  if (!finished || (job.status === 'completed' && followed)) {
    return (
      <Card className="import-job" title={t('courses.import.job.running', { file: job.file_name })}>
        <Progress
          percent={job.progress}
          status="active"
          aria-label={t('courses.import.progress')}
        />
        <p role="status" className="import-job-phase">
          {t(`courses.import.job.phase.${job.phase}`, { file: job.file_name })}
        </p>
        <Alert type="info" showIcon message={t('courses.import.job.background')} />
        {!finished && (
          <Button
            danger
            loading={cancelling.isPending}
            onClick={cancel}
            className="import-job-stop"
          >
            {t('courses.import.job.cancel')}
          </Button>
        )}
      </Card>
    );
  }

  const another = (
    <Button icon={<UploadOutlined />} onClick={onAnother}>
      {t('courses.import.job.another')}
    </Button>
  );
  if (job.status === 'completed' && job.course_uuid) {
    return (
      <Card className="import-job">
        <Result
          status="success"
          title={t('courses.import.job.ready', {
            name: job.name,
            count: formatNumber(job.lessons),
          })}
          subTitle={job.warnings.join(' ') || undefined}
          extra={
            <Space wrap>
              <ButtonLink
                type="primary"
                icon={<EditOutlined />}
                to={courseStepPath(job.course_uuid, 'content')}
              >
                {t('courses.import.job.open')}
              </ButtonLink>
              {another}
            </Space>
          }
        />
      </Card>
    );
  }
  return (
    <Card className="import-job">
      <Result
        status={job.status === 'canceled' ? 'info' : 'error'}
        title={t(`courses.import.job.title.${job.status === 'canceled' ? 'canceled' : 'failed'}`, {
          file: job.file_name,
        })}
        subTitle={<span role="status">{job.error_summary ?? t('courses.import.job.nothing')}</span>}
        extra={
          <Space wrap>
            <Button type="primary" onClick={onRetry}>
              {t('courses.import.job.retry')}
            </Button>
            {another}
          </Space>
        }
      />
    </Card>
  );
};
