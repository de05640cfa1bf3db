import {
  BarChartOutlined,
  CaretRightOutlined,
  CloseCircleOutlined,
  CopyOutlined,
  DeleteOutlined,
  EditOutlined,
  InboxOutlined,
  UndoOutlined,
} from '@ant-design/icons';
import { ARCHIVE_RETENTION_DAYS, INSIGHT_COURSE_STATUSES } from '@ccp/schemas';
import type { TCourseInsight, TCourseListItem, TCourseStatus } from '@ccp/schemas';
import type { MenuProps } from 'antd';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { courseReportPath, courseWizardPath } from '../../../config.ts';
import { formatDate, formatNumber, formatPercent } from '../../../lib/format.ts';
import { CardMenu } from './card-menu.tsx';
import { CourseStatus } from './course-status.tsx';
import type { TCourseAction } from './use-course-actions.ts';

/** Statuses the wizard opens for editing (the API saves these, docs/decisions.md "Courses"). */
const EDITABLE: readonly TCourseStatus[] = ['draft', 'scheduled', 'paused'];
const FIGURES = ['delivery', 'completion', 'activity', 'progress'] as const;
/** Statuses a creator can cancel for good (the API's rule). */
const CANCELABLE: readonly TCourseStatus[] = ['scheduled', 'active', 'paused'];
const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days left before the purge deletes an archived course (never below 0). */
const daysBeforeDeletion = (deletedAt: string): number =>
  Math.max(
    0,
    Math.ceil((Date.parse(deletedAt) + ARCHIVE_RETENTION_DAYS * DAY_MS - Date.now()) / DAY_MS),
  );

type Props = {
  course: TCourseListItem;
  insight: TCourseInsight | undefined;
  pending: string | null;
  onAction: (action: TCourseAction, course: TCourseListItem) => void;
};

const Cover = ({ course }: { course: TCourseListItem }) => {
  if (course.image) {
    return <img className="course-cover" src={course.image} alt="" loading="lazy" />;
  }
  const initials = course.name
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => word.charAt(0).toUpperCase())
    .join('');
  return (
    <div className="course-cover course-cover-empty" aria-hidden>
      {initials}
    </div>
  );
};

/**
 * A course on the dashboard (spec §2): cover, status, dates, enrolments and the delivery,
 * completion, activity and progress figures, and its actions. Archived cards show when they were
 * archived, and restore or delete. Memoised: appending a page renders only the new cards.
 */
export const CourseCard = memo(function CourseCard({ course, insight, pending, onAction }: Props) {
  const { t } = useTranslation();
  const archived = course.deleted_at !== null;
  const counted = INSIGHT_COURSE_STATUSES.includes(course.status);
  const busy = (action: TCourseAction) => pending === `${action}:${course.uuid}`;
  const opens = archived
    ? null
    : EDITABLE.includes(course.status)
      ? courseWizardPath(course.uuid)
      : counted
        ? courseReportPath(course.uuid)
        : null;
  // Scheduled is when Schedule was pressed; the first send is when lessons start (Finish's).
  const dates = [
    ['created', course.created_at],
    ['scheduled', course.scheduled_at],
    ['firstSend', course.first_send_at],
    ['delivered', course.delivered_at],
    ['updated', course.updated_at],
    ['deleted', course.deleted_at],
  ].filter((entry): entry is [string, string] => Boolean(entry[1]));

  const paused = course.status === 'paused';
  const more: MenuProps['items'] = [
    { key: 'clone', label: t('courses.actions.clone'), icon: <CopyOutlined /> },
    { key: 'archive', label: t('courses.actions.archive'), icon: <InboxOutlined /> },
    ...(CANCELABLE.includes(course.status)
      ? [
          {
            key: 'cancel',
            label: t('courses.actions.cancelCourse'),
            icon: <CloseCircleOutlined />,
          },
        ]
      : []),
    { type: 'divider' },
    { key: 'delete', label: t('courses.actions.delete'), icon: <DeleteOutlined />, danger: true },
  ];

  return (
    <article
      className="course-card"
      aria-labelledby={`course-${course.uuid}`}
      data-course={course.uuid}
    >
      <Cover course={course} />
      <div className="course-body">
        <div className="course-head">
          {archived ? (
            <span className="course-status status-archived" data-status="archived">
              {t('courses.fields.deleted')}
            </span>
          ) : (
            <CourseStatus status={course.status} />
          )}
          {course.category && <span className="course-category">{course.category}</span>}
        </div>
        <h3 id={`course-${course.uuid}`} className="course-name">
          {opens ? <Link to={opens}>{course.name}</Link> : course.name}
        </h3>
        <p className="course-description">{course.description}</p>
        <dl className="course-dates">
          {dates.map(([key, value]) => (
            <div key={key}>
              <dt>{t(`courses.fields.${key}`)}</dt>
              <dd>{formatDate(value)}</dd>
            </div>
          ))}
        </dl>
        <dl className="course-figures">
          {/* One figure, one definition (docs/metrics.md): a draft's learners reached as Finish
              counts them, a published course's enrolled learners as Insights counts them. */}
          <div className="course-enrolments">
            {course.reached !== null ? (
              <>
                <dt>{t('courses.fields.reached')}</dt>
                <dd>{formatNumber(course.reached)}</dd>
              </>
            ) : (
              <>
                <dt>{t('courses.fields.enrolments')}</dt>
                <dd>{formatNumber(course.enrolments)}</dd>
              </>
            )}
          </div>
          {insight &&
            FIGURES.map((key) => (
              <div key={key} data-figure={key}>
                <dt>{t(`courses.fields.${key}`)}</dt>
                <dd>
                  <span className="figure-value">{formatPercent(insight[key])}</span>
                  <span className="figure-bar" aria-hidden>
                    <span style={{ width: `${insight[key]}%` }} />
                  </span>
                </dd>
              </div>
            ))}
        </dl>
        {archived && course.deleted_at && (
          <p className="course-hint muted">
            {t('courses.list.deletedIn', { count: daysBeforeDeletion(course.deleted_at) })}
          </p>
        )}
        {paused && !archived && <p className="course-hint">{t('courses.list.pausedHint')}</p>}
        {!insight && !archived && !paused && (
          <p className="course-hint muted">{t('courses.list.noFigures')}</p>
        )}
      </div>
      <footer className="course-actions">
        {archived ? (
          <>
            <button
              type="button"
              className="card-button"
              aria-busy={busy('restore')}
              disabled={busy('restore')}
              onClick={() => onAction('restore', course)}
            >
              <UndoOutlined aria-hidden /> {t('courses.actions.restore')}
            </button>
            <button
              type="button"
              className="card-button card-button-danger"
              aria-busy={busy('delete')}
              disabled={busy('delete')}
              onClick={() => onAction('delete', course)}
            >
              <DeleteOutlined aria-hidden /> {t('courses.actions.delete')}
            </button>
          </>
        ) : (
          <>
            {paused ? (
              <button
                type="button"
                className="card-button card-button-primary"
                aria-busy={busy('resume')}
                disabled={busy('resume')}
                onClick={() => onAction('resume', course)}
              >
                <CaretRightOutlined aria-hidden /> {t('courses.actions.resume')}
              </button>
            ) : counted ? (
              <Link className="card-button" to={courseReportPath(course.uuid)}>
                <BarChartOutlined aria-hidden /> {t('courses.actions.viewReport')}
              </Link>
            ) : opens ? (
              <Link className="card-button" to={opens}>
                <EditOutlined aria-hidden /> {t('courses.actions.open')}
              </Link>
            ) : (
              <span />
            )}
            <CardMenu
              label={t('courses.actions.more', { name: course.name })}
              items={more}
              busy={busy('clone') || busy('archive') || busy('cancel') || busy('delete')}
              onSelect={(key) => onAction(key as TCourseAction, course)}
            />
          </>
        )}
      </footer>
    </article>
  );
});
