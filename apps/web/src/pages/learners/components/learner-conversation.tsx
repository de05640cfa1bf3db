import { actionRequests } from '@ccp/data-provider';
import type { TConversationDay, TLearnerConversation } from '@ccp/schemas';
import { useCustom } from '@refinedev/core';
import { Button, Empty, Select, Skeleton, Tag, Timeline, Tooltip } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { conversationLine } from './conversation-lines.ts';

// The learner's conversation on chat, day by day (issue 28): a course's lessons, receipts,
// answers, feedback, reminders, repeats, pauses and resumes in the order they happened, in the
// reader's time zone. The latest days come first; "Show earlier days" pages back.

/** The reader's own time zone: the days and times the page shows are theirs. */
const readerTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

const Day = ({ day }: { day: TConversationDay }) => {
  const { t } = useTranslation();
  return (
    <section className="conversation-day" aria-label={dayjs(day.date).format('dddd DD-MM-YYYY')}>
      <h4 className="conversation-date">{dayjs(day.date).format('dddd DD-MM-YYYY')}</h4>
      <Timeline
        items={day.events.map((event, index) => {
          const line = conversationLine(event, t);
          const text = t(`learners.conversation.events.${line.key}`, line.params);
          const verdict =
            event.answer && event.answer.correct !== null ? (
              <Tag color={event.answer.correct ? 'green' : 'red'}>
                {t(`learners.conversation.${event.answer.correct ? 'right' : 'wrong'}`)}
              </Tag>
            ) : null;
          return {
            key: `${event.at}-${event.type}-${index}`,
            color: line.tone,
            children: (
              <div className={`conversation-step conversation-${line.side}`} data-type={event.type}>
                <time dateTime={event.at} className="conversation-time">
                  {dayjs(event.at).format('HH:mm')}
                </time>{' '}
                {event.failure?.detail ? (
                  <Tooltip title={event.failure.detail}>
                    <span>{text}</span>
                  </Tooltip>
                ) : (
                  <span>{text}</span>
                )}{' '}
                {verdict}
              </div>
            ),
          };
        })}
      />
    </section>
  );
};

/** One page of days: the latest ones, or those before `before`; the oldest page offers more. */
const ConversationPage = ({
  learnerUuid,
  course,
  before,
  onEarlier,
}: {
  learnerUuid: string;
  course: string | undefined;
  before: string | undefined;
  onEarlier: ((date: string) => void) | null;
}) => {
  const { t } = useTranslation();
  const { result, query } = useCustom<TLearnerConversation>({
    ...actionRequests.learnerConversation(learnerUuid),
    method: 'get',
    config: {
      query: {
        tz: readerTimeZone(),
        ...(course ? { course } : {}),
        ...(before ? { before } : {}),
      },
    },
    errorNotification: false,
  });
  if (query.isLoading) return <Skeleton active />;
  const page = result?.data;
  if (!page) return null;
  return (
    <>
      {onEarlier && page.earlier && (
        <Button className="conversation-earlier" onClick={() => onEarlier(page.earlier!)}>
          {t('learners.conversation.earlier')}
        </Button>
      )}
      {page.days.map((day) => (
        <Day key={day.date} day={day} />
      ))}
    </>
  );
};

/** The courses and the first page: which course, and whether anything was said yet. */
export const LearnerConversation = ({ learnerUuid }: { learnerUuid: string }) => {
  const { t } = useTranslation();
  const [course, setCourse] = useState<string | undefined>(undefined);
  // Cursors of the pages shown, latest first; a click on "Show earlier days" adds one.
  const [pages, setPages] = useState<string[]>([]);
  const { result, query } = useCustom<TLearnerConversation>({
    ...actionRequests.learnerConversation(learnerUuid),
    method: 'get',
    config: { query: { tz: readerTimeZone(), ...(course ? { course } : {}) } },
    errorNotification: false,
  });
  if (query.isLoading) return <Skeleton active />;
  const first = result?.data;
  if (!first || first.courses.length === 0) return null;
  const chosen = first.course?.uuid;
  const older = [...pages].reverse();
  return (
    <section className="insights-card learner-conversation" aria-labelledby="conversation-title">
      <div className="course-summary-head">
        <div>
          <h2 id="conversation-title" className="section-title">
            {t('learners.conversation.title')}
          </h2>
          <p className="muted">{t('learners.conversation.intro')}</p>
        </div>
        {first.courses.length > 1 && (
          <Select
            aria-label={t('learners.conversation.course')}
            className="conversation-course"
            value={chosen}
            onChange={(value: string) => {
              setCourse(value);
              setPages([]);
            }}
            options={first.courses.map((item) => ({ value: item.uuid, label: item.name }))}
          />
        )}
      </div>
      {first.days.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t('learners.conversation.empty')}
        />
      ) : (
        <>
          {older.map((before, index) => (
            <ConversationPage
              key={before}
              learnerUuid={learnerUuid}
              course={chosen}
              before={before}
              onEarlier={index === 0 ? (date) => setPages([...pages, date]) : null}
            />
          ))}
          {pages.length === 0 && first.earlier && (
            <Button className="conversation-earlier" onClick={() => setPages([first.earlier!])}>
              {t('learners.conversation.earlier')}
            </Button>
          )}
          {first.days.map((day) => (
            <Day key={day.date} day={day} />
          ))}
        </>
      )}
    </section>
  );
};
