import { actionRequests } from '@ccp/data-provider';
import type { TCourseDeliveryFailure } from '@ccp/schemas';
import { useCustom, useCustomMutation } from '@refinedev/core';
import { App, Button, Table, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { useClassroomMeta } from '../../../components/layout/classroom-context.ts';
import { learnerViewPath } from '../../../config.ts';
import { formatDate } from '../../../lib/format.ts';

// The course report's lessons and invitations that did not go, with why (issue 25), and "Resend
// all" for administrators and the course's creator once the cause is fixed. Hidden when nothing
// failed.

export const CourseFailures = ({ courseUuid }: { courseUuid: string }) => {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const classroomMeta = useClassroomMeta();
  const { result, query } = useCustom<{ items: TCourseDeliveryFailure[]; resendable: boolean }>({
    ...actionRequests.courseDeliveryFailures(courseUuid),
    method: 'get',
    meta: classroomMeta,
    errorNotification: false,
  });
  const { mutate, mutation } = useCustomMutation<{ lessons: number; invitations: number }>();
  const items = result?.data.items ?? [];
  if (items.length === 0) return null;
  const resendAll = () =>
    mutate(
      {
        ...actionRequests.resendCourseSends(courseUuid),
        values: { all_failed: true },
        meta: classroomMeta,
        successNotification: false,
      },
      {
        onSuccess: ({ data }) => {
          notification.success({
            message: t('insights.failures.resent', {
              lessons: data.lessons,
              invitations: data.invitations,
            }),
          });
          void query.refetch();
        },
      },
    );
  return (
    <section className="insights-card course-failures" aria-labelledby="course-failures-title">
      <div className="course-summary-head">
        <div>
          <h3 id="course-failures-title" className="course-summary-name">
            {t('insights.failures.title', { count: items.length })}
          </h3>
          <p className="muted">{t('insights.failures.intro')}</p>
        </div>
        {result?.data.resendable && (
          <Button type="primary" loading={mutation.isPending} onClick={resendAll}>
            {t('insights.failures.resendAll')}
          </Button>
        )}
      </div>
      <Table<TCourseDeliveryFailure>
        rowKey="uuid"
        size="small"
        scroll={{ x: 760 }}
        dataSource={items}
        pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
        columns={[
          {
            key: 'learner',
            title: t('insights.failures.learner'),
            render: (_, item) => (
              <Link to={learnerViewPath(item.learner.uuid)}>
                {`${item.learner.first_name} ${item.learner.last_name}`.trim()}
              </Link>
            ),
          },
          {
            key: 'what',
            title: t('insights.failures.what'),
            width: 130,
            render: (_, item) =>
              item.day === null
                ? t('insights.failures.invitation')
                : t('insights.failures.day', { day: item.day }),
          },
          {
            key: 'channel',
            title: t('insights.failures.channel'),
            width: 140,
            render: (_, item) => t(`courses.wizard.channels.${item.channel}`),
          },
          {
            key: 'at',
            title: t('insights.failures.when'),
            width: 150,
            render: (_, item) => formatDate(item.at) || '—',
          },
          {
            key: 'why',
            title: t('insights.failures.why'),
            render: (_, item) => (
              <Tooltip title={item.failure.detail || undefined}>
                <span className="send-failure" data-reason={item.failure.reason}>
                  {item.failure.message}
                </span>
              </Tooltip>
            ),
          },
        ]}
      />
    </section>
  );
};
