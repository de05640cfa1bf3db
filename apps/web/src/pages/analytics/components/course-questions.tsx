import { retentionRates } from '@ccp/schemas';
import type { TCourseQuestion } from '@ccp/schemas';
import { useList } from '@refinedev/core';
import { Table } from 'antd';
import { useTranslation } from 'react-i18next';

import { useClassroomMeta } from '../../../components/layout/classroom-context.ts';
import { formatNumber, formatPercent } from '../../../lib/format.ts';
import { MetricInfo } from './metric.tsx';

// Retention by question (issue 28): each lesson day's question with how its tries ended — right
// on the first try, right after the course repeated it, not right yet — as one stacked bar.

const OUTCOMES = ['firstTry', 'afterRepeat', 'notYet'] as const;

const sharesOf = (question: TCourseQuestion) =>
  retentionRates({
    tried: question.questions_tried,
    firstTry: question.right_first_try,
    afterRepeat: question.right_after_repeat,
  });

const OutcomeBar = ({ question }: { question: TCourseQuestion }) => {
  const { t } = useTranslation();
  const shares = sharesOf(question);
  const label = t('analytics.questions.bar', {
    firstTry: formatNumber(question.right_first_try),
    afterRepeat: formatNumber(question.right_after_repeat),
    notYet: formatNumber(question.not_right_yet),
  });
  return (
    <div className="retention-bar" role="img" aria-label={label} title={label}>
      {OUTCOMES.map((outcome) =>
        shares[outcome] > 0 ? (
          <span
            key={outcome}
            className={`retention-bar-${outcome}`}
            style={{ width: `${shares[outcome]}%` }}
          />
        ) : null,
      )}
    </div>
  );
};

export const CourseQuestions = ({ courseUuid }: { courseUuid: string }) => {
  const { t } = useTranslation();
  const classroomMeta = useClassroomMeta();
  const { result, query } = useList<TCourseQuestion>({
    resource: 'analytics',
    meta: { ...classroomMeta, report: 'course-questions', courseId: courseUuid },
    pagination: { mode: 'off' },
    errorNotification: false,
  });
  const questions = result.data;
  const tried = questions.some((question) => question.questions_tried > 0);
  return (
    <section className="insights-card" aria-labelledby="course-questions-title">
      <div className="section-head section-head-tight">
        <h3 id="course-questions-title" className="chart-title">
          {t('analytics.questions.title')} <MetricInfo metric="retention" />
        </h3>
        <ul className="retention-legend">
          {OUTCOMES.map((outcome) => (
            <li key={outcome}>
              <span className={`retention-swatch retention-bar-${outcome}`} aria-hidden />
              {t(`analytics.questions.${outcome}`)}
            </li>
          ))}
        </ul>
      </div>
      <Table<TCourseQuestion>
        rowKey="day"
        size="small"
        loading={query.isLoading}
        scroll={{ x: 600 }}
        dataSource={tried ? questions : []}
        locale={{ emptyText: t('analytics.questions.empty') }}
        pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
        columns={[
          { key: 'day', title: t('analytics.questions.day'), width: 70, dataIndex: 'day' },
          {
            key: 'question',
            title: t('analytics.questions.question'),
            render: (_, question) => question.title ?? '—',
          },
          {
            key: 'tried',
            title: t('analytics.questions.tried'),
            align: 'right',
            width: 90,
            render: (_, question) => formatNumber(question.questions_tried),
          },
          {
            key: 'outcomes',
            title: t('analytics.questions.outcomes'),
            width: 200,
            render: (_, question) =>
              question.questions_tried > 0 ? <OutcomeBar question={question} /> : '—',
          },
          {
            key: 'retention',
            title: t('analytics.questions.retention'),
            align: 'right',
            width: 110,
            render: (_, question) =>
              question.questions_tried > 0 ? formatPercent(question.retention) : '—',
          },
        ]}
      />
    </section>
  );
};
