import {
  CheckCircleFilled,
  CloseCircleFilled,
  ClockCircleOutlined,
  EditOutlined,
  MinusCircleOutlined,
  QuestionCircleOutlined,
} from '@ant-design/icons';
import { actionRequests } from '@ccp/data-provider';
import type {
  TAssessmentState,
  TLearner,
  TLearnerInsights,
  TLearnerReachability,
} from '@ccp/schemas';
import { useCustom, useOne } from '@refinedev/core';
import { Empty, Result, Skeleton, Table } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';

import { ButtonLink } from '../../components/button-link.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { timeZoneLabel } from '../../components/time-zone-select.tsx';
import { ROUTES, learnerEditPath } from '../../config.ts';
import { formatDate, formatDuration, formatPercent } from '../../lib/format.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { CourseStatus } from '../courses/components/course-status.tsx';
import { LearnerState, Reachability } from './components/learner-badges.tsx';
import { LearnerConversation } from './components/learner-conversation.tsx';
import { LearnerSends } from './components/learner-sends.tsx';
import { useLearnerActions } from './components/use-learner-actions.ts';

const STATE_ICONS: Record<TAssessmentState, ReactNode> = {
  not_sent: <MinusCircleOutlined aria-hidden />,
  pending: <ClockCircleOutlined aria-hidden />,
  correct: <CheckCircleFilled aria-hidden />,
  wrong: <CloseCircleFilled aria-hidden />,
  not_answered: <QuestionCircleOutlined aria-hidden />,
};

/** Seconds as the shortest readable duration ("25 min", "1 h 05 min", "45 s"). */
const useSeconds = () => {
  const { t } = useTranslation();
  return (seconds: number | null) => {
    if (seconds === null) return '—';
    if (seconds < 60) return t('format.seconds', { seconds });
    return formatDuration(Math.round(seconds / 60), t);
  };
};

/**
 * /learners/view/{uuid} (spec §2): contact details, reachability per channel, status, learning
 * time, courses, and for each course day the assessment state (spec §4: not yet sent, answered
 * correct or wrong, not answered within 72 hours) with the learner's answer.
 */
export const LearnerShow = () => {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const seconds = useSeconds();
  const actions = useLearnerActions();
  const { result: learner, query } = useOne<TLearner>({ resource: 'learners', id });
  const { result: insights, query: insightsQuery } = useOne<TLearnerInsights>({
    resource: 'analytics',
    id,
    meta: { report: 'learner' },
    errorNotification: false,
  });
  const { result: reach } = useCustom<TLearnerReachability>({
    ...actionRequests.learnerReachability(id),
    method: 'get',
    errorNotification: false,
  });
  const name = learner ? `${learner.first_name} ${learner.last_name}`.trim() : '';
  usePageTitle(name || t('learners.titles.show'));

  if (query.isError) {
    return (
      <section className="page-section">
        <Result
          status="404"
          title={t('learners.notFound')}
          extra={<ButtonLink to={ROUTES.learners}>{t('learners.titles.list')}</ButtonLink>}
        />
      </section>
    );
  }
  if (!learner) {
    return (
      <section className="page-section">
        <Skeleton active paragraph={{ rows: 8 }} />
      </section>
    );
  }

  const archived = learner.status === 'archived';
  const details: [string, ReactNode][] = [
    [t('learners.fields.email'), learner.email ?? '—'],
    [t('learners.fields.phone'), learner.phone ?? '—'],
    [t('learners.fields.locale'), t(`enum.locale.${learner.locale}`)],
    [
      t('learners.fields.timeZone'),
      learner.time_zone ? timeZoneLabel(learner.time_zone) : t('learners.companyTimeZone'),
    ],
    [t('learners.fields.lists'), learner.learners_lists.map((list) => list.name).join(', ') || '—'],
    [t('learners.fields.status'), <LearnerState key="state" learner={learner} />],
    [t('learners.fields.reachability'), <Reachability key="reach" value={learner.reachability} />],
    [t('learners.fields.created'), formatDate(learner.created_at)],
    [t('learners.fields.learningTime'), formatDuration(learner.learning_time, t)],
  ];

  return (
    <section className="page-section learner-page">
      <PageHeader
        title={name}
        subtitle={t('learners.viewIntro')}
        back={{ to: ROUTES.learners, label: t('learners.titles.list') }}
        extra={
          archived ? (
            <>
              <button
                type="button"
                className="card-button"
                onClick={() => void actions.restore(learner)}
              >
                {t('learners.actions.restore')}
              </button>
              <button
                type="button"
                className="card-button card-button-danger"
                onClick={() => actions.remove(learner, () => void navigate(ROUTES.learners))}
              >
                {t('learners.actions.delete')}
              </button>
            </>
          ) : (
            <>
              <button
                type="button"
                className="card-button"
                onClick={() => void actions.archive(learner)}
              >
                {t('learners.actions.archive')}
              </button>
              <ButtonLink type="primary" icon={<EditOutlined />} to={learnerEditPath(learner.uuid)}>
                {t('learners.actions.edit')}
              </ButtonLink>
            </>
          )
        }
      />
      <div className="learner-grid">
        <section className="insights-card" aria-labelledby="contact-title">
          <h2 id="contact-title" className="section-title">
            {t('learners.view.details')}
          </h2>
          <dl className="details-list">
            {details.map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </section>
        <section className="insights-card" aria-labelledby="channels-title">
          <h2 id="channels-title" className="section-title">
            {t('learners.view.channels')}
          </h2>
          <ul className="reach-list">
            {(
              reach?.data.channels ??
              learner.channels.map((channel) => ({ ...channel, reachable: null }))
            ).map((channel) => (
              <li key={channel.key}>
                <span>{channel.name}</span>
                <span
                  className={`badge badge-${channel.reachable === null ? 'unknown' : channel.reachable ? 'reachable' : 'unreachable'}`}
                >
                  {t(
                    `learners.view.reachable.${channel.reachable === null ? 'unknown' : channel.reachable ? 'yes' : 'no'}`,
                  )}
                </span>
              </li>
            ))}
          </ul>
          {insights && (
            <dl className="details-list details-figures">
              <div>
                <dt>{t('learners.view.activity')}</dt>
                <dd>{formatPercent(insights.courses_activity)}</dd>
              </div>
              <div>
                <dt>{t('learners.view.completion')}</dt>
                <dd>{formatPercent(insights.courses_completion)}</dd>
              </div>
              <div>
                <dt>{t('learners.view.progress')}</dt>
                <dd>{formatPercent(insights.courses_progress)}</dd>
              </div>
            </dl>
          )}
        </section>
      </div>
      <h2 className="section-title section-spaced">{t('learners.view.courses')}</h2>
      {insightsQuery.isLoading ? (
        <Skeleton active />
      ) : !insights || insights.courses.length === 0 ? (
        <Empty
          className="courses-empty"
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t('learners.view.noCourses')}
        />
      ) : (
        insights.courses.map((course) => (
          <section
            key={course.uuid}
            className="insights-card"
            aria-labelledby={`course-${course.uuid}`}
          >
            <div className="course-summary-head">
              <div>
                <h3 id={`course-${course.uuid}`} className="course-summary-name">
                  {course.name}
                </h3>
                <p className="muted">
                  <CourseStatus status={course.status} />{' '}
                  <span className={`learner-status learner-status-${course.learner_status}`}>
                    {t(`enum.learnerStatus.${course.learner_status}`)}
                  </span>{' '}
                  {t('learners.view.courseFigures', {
                    progress: formatPercent(course.progress),
                    time: formatDuration(course.learning_time, t),
                  })}
                </p>
              </div>
            </div>
            <Table
              rowKey="day"
              size="small"
              pagination={false}
              scroll={{ x: 860 }}
              dataSource={course.days}
              columns={[
                {
                  key: 'day',
                  title: t('learners.view.day'),
                  width: 70,
                  render: (_, day) => day.day,
                },
                {
                  key: 'title',
                  title: t('learners.view.lesson'),
                  render: (_, day) => day.title ?? '—',
                },
                {
                  key: 'sent',
                  title: t('learners.view.sent'),
                  width: 150,
                  render: (_, day) => formatDate(day.sent_at) || '—',
                },
                {
                  key: 'state',
                  title: t('learners.view.assessment'),
                  width: 170,
                  render: (_, day) => (
                    <>
                      <span className={`day-state day-state-${day.state}`} data-state={day.state}>
                        {STATE_ICONS[day.state]} {t(`enum.assessmentState.${day.state}`)}
                      </span>
                      {/* Retention (issue 28): got right when the question came back. */}
                      {day.right_after_repeat_at && (
                        <div className="muted day-repeat-right">
                          {t('learners.view.rightAfterRepeat', {
                            date: formatDate(day.right_after_repeat_at),
                          })}
                        </div>
                      )}
                    </>
                  ),
                },
                {
                  key: 'answer',
                  title: t('learners.view.answer'),
                  render: (_, day) => day.answer ?? '—',
                },
                {
                  key: 'dtr',
                  title: t('learners.view.dtr'),
                  width: 100,
                  render: (_, day) => seconds(day.dtr_seconds),
                },
                {
                  key: 'dtca',
                  title: t('learners.view.dtca'),
                  width: 100,
                  render: (_, day) => seconds(day.dtca_seconds),
                },
              ]}
            />
          </section>
        ))
      )}
      <LearnerConversation learnerUuid={learner.uuid} />
      <LearnerSends learnerUuid={learner.uuid} />
    </section>
  );
};
