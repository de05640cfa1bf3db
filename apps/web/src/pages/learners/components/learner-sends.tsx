import { actionRequests } from '@ccp/data-provider';
import { PAUSE_REASONS } from '@ccp/schemas';
import type { TLearnerCourseDelivery, TLessonSend, TPauseReason } from '@ccp/schemas';
import { useCustom, useCustomMutation } from '@refinedev/core';
import { App, Button, Skeleton, Table, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

import { formatDate } from '../../../lib/format.ts';

// What was sent to the learner on chat, course by course (issue 25): the opt-in invitation and
// each lesson day, why what did not go failed (in the reader's language, the provider's own words
// on hover), and a Resend for administrators and the course's creator.

type TSendState = TLessonSend['status'] | 'waiting';

const isPauseReason = (value: string): value is TPauseReason =>
  (PAUSE_REASONS as readonly string[]).includes(value);

const STATE_COLOR: Record<TSendState, string> = {
  scheduled: 'default',
  sending: 'processing',
  sent: 'green',
  failed: 'red',
  canceled: 'default',
  waiting: 'gold',
};

/** A scheduled lesson the provider asked to wait for shows as waiting, with its time. */
const stateOf = (send: TLessonSend): TSendState =>
  send.status === 'scheduled' && send.next_attempt_at ? 'waiting' : send.status;

const Failure = ({ failure }: { failure: TLessonSend['failure'] }) =>
  failure ? (
    <Tooltip title={failure.detail || undefined}>
      <span className="send-failure" data-reason={failure.reason}>
        {failure.message}
      </span>
    </Tooltip>
  ) : (
    '—'
  );

/**
 * A learner who gets no lessons of the course (issue 28): paused (after unanswered lessons, or by
 * a trainer) with a Resume, or stopped with STOP; a learner receiving lessons can be paused.
 * The buttons are for administrators and the course's creator.
 */
const PauseNote = ({
  learnerUuid,
  enrollment,
  onChanged,
}: {
  learnerUuid: string;
  enrollment: TLearnerCourseDelivery['enrollment'];
  onChanged: () => void;
}) => {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const { mutate, mutation } = useCustomMutation();
  const change = (resume: boolean) =>
    mutate(
      {
        ...(resume
          ? actionRequests.resumeEnrolment(learnerUuid, enrollment.uuid)
          : actionRequests.pauseEnrolment(learnerUuid, enrollment.uuid)),
        values: {},
        successNotification: false,
      },
      {
        onSuccess: () => {
          notification.success({
            message: t(resume ? 'learners.sends.resumed' : 'learners.sends.paused'),
          });
          onChanged();
        },
      },
    );
  const reason = enrollment.pause_reason;
  if (!reason || !isPauseReason(reason)) {
    return enrollment.pausable ? (
      <p className="send-invitation">
        <Button size="small" loading={mutation.isPending} onClick={() => change(false)}>
          {t('learners.sends.pause')}
        </Button>
      </p>
    ) : null;
  }
  return (
    <p className="send-invitation" data-testid="pause" data-reason={reason}>
      <Tag color={reason === 'stop' ? 'red' : 'orange'}>
        {t(`enum.pauseReason.${reason}.status`)}
      </Tag>{' '}
      {t(`enum.pauseReason.${reason}.why`, {
        date: enrollment.paused_at ? formatDate(enrollment.paused_at) : '',
      })}{' '}
      {enrollment.resumable && (
        <Button
          size="small"
          type="primary"
          className="send-resend"
          loading={mutation.isPending}
          onClick={() => change(true)}
        >
          {t('learners.sends.resume')}
        </Button>
      )}
    </p>
  );
};

const CourseSends = ({
  learnerUuid,
  course,
  onResent,
}: {
  learnerUuid: string;
  course: TLearnerCourseDelivery;
  onResent: () => void;
}) => {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const { mutate, mutation } = useCustomMutation<{ lessons: number; invitations: number }>();
  const resend = (values: { lessons?: string[]; invitations?: string[] }) =>
    mutate(
      {
        ...actionRequests.resendCourseSends(course.course.uuid, course.course.classroom_uuid),
        values,
        successNotification: false,
      },
      {
        onSuccess: () => {
          notification.success({ message: t('learners.sends.resent') });
          onResent();
        },
      },
    );
  const { invitation } = course;
  return (
    <section
      className="insights-card learner-sends"
      aria-labelledby={`sends-${course.course.uuid}`}
    >
      <div className="course-summary-head">
        <div>
          <h3 id={`sends-${course.course.uuid}`} className="course-summary-name">
            {course.course.name}
          </h3>
          <p className="muted">
            {t('learners.sends.channel', {
              channel: t(`courses.wizard.channels.${course.enrollment.channel}`),
            })}
          </p>
        </div>
      </div>
      <PauseNote learnerUuid={learnerUuid} enrollment={course.enrollment} onChanged={onResent} />
      {invitation && (
        <p className="send-invitation" data-testid="invitation">
          <strong>{t('learners.sends.invitation')}</strong>{' '}
          {invitation.sent_at ? (
            <Tag color="green">
              {t('learners.sends.invitationSent', { date: formatDate(invitation.sent_at) })}
            </Tag>
          ) : invitation.failure ? (
            <>
              <Tag color="red">{t('enum.deliveryStatus.failed')}</Tag>
              <Failure failure={invitation.failure} />{' '}
              {invitation.retry_at &&
                t('learners.sends.retryAt', { date: formatDate(invitation.retry_at) })}
              {invitation.resendable && (
                <Button
                  size="small"
                  className="send-resend"
                  loading={mutation.isPending}
                  onClick={() => resend({ invitations: [course.enrollment.uuid] })}
                >
                  {t('learners.sends.resend')}
                </Button>
              )}
            </>
          ) : (
            <Tag>{t('learners.sends.invitationPending')}</Tag>
          )}
        </p>
      )}
      <Table
        rowKey="uuid"
        size="small"
        pagination={false}
        scroll={{ x: 720 }}
        dataSource={course.lessons}
        locale={{ emptyText: t('learners.sends.noLessons') }}
        columns={[
          { key: 'day', title: t('learners.view.day'), width: 70, render: (_, send) => send.day },
          {
            key: 'status',
            title: t('learners.sends.status'),
            width: 150,
            render: (_, send) => {
              const state = stateOf(send);
              return (
                <Tag color={STATE_COLOR[state]} data-state={state}>
                  {t(`enum.deliveryStatus.${state}`)}
                </Tag>
              );
            },
          },
          {
            key: 'when',
            title: t('learners.sends.when'),
            width: 160,
            render: (_, send) =>
              formatDate(send.sent_at ?? send.next_attempt_at ?? send.scheduled_for) || '—',
          },
          {
            key: 'reason',
            title: t('learners.sends.reason'),
            render: (_, send) => <Failure failure={send.failure} />,
          },
          {
            key: 'action',
            title: '',
            width: 130,
            render: (_, send) =>
              send.resendable ? (
                <Button
                  size="small"
                  className="send-resend"
                  loading={mutation.isPending}
                  onClick={() => resend({ lessons: [send.uuid] })}
                >
                  {t('learners.sends.resend')}
                </Button>
              ) : null,
          },
        ]}
      />
    </section>
  );
};

/** The learner's sends per course, or nothing while they are in no course. */
export const LearnerSends = ({ learnerUuid }: { learnerUuid: string }) => {
  const { t } = useTranslation();
  const { result, query } = useCustom<TLearnerCourseDelivery[]>({
    ...actionRequests.learnerDeliveries(learnerUuid),
    method: 'get',
    errorNotification: false,
  });
  if (query.isLoading) return <Skeleton active />;
  const courses = result?.data ?? [];
  if (courses.length === 0) return null;
  return (
    <>
      <h2 className="section-title section-spaced">{t('learners.sends.title')}</h2>
      <p className="muted">{t('learners.sends.intro')}</p>
      {courses.map((course) => (
        <CourseSends
          key={course.course.uuid}
          learnerUuid={learnerUuid}
          course={course}
          onResent={() => void query.refetch()}
        />
      ))}
    </>
  );
};
