import { EyeOutlined } from '@ant-design/icons';
import { MESSAGES } from '@ccp/schemas';
import type { TDeliveryCalendar, TDeliveryOptions, TLocale, TPublishProblem } from '@ccp/schemas';
import { useCustom } from '@refinedev/core';
import { Alert, App, Button, Card, Drawer, Select, Spin } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';

import { useClassroomMeta } from '../../../components/layout/classroom-context.ts';
import { LANGUAGE_NAMES, ROUTES } from '../../../config.ts';
import { formatDate, formatNumber } from '../../../lib/format.ts';
import { describeMessage } from '../../../lib/messages.ts';
import { translateMessage } from '../../../lib/translate-message.ts';
import { publishProblems } from './draft.ts';
import { useCourseSave } from './use-course-save.ts';
import { useDraftSnapshot, useWizard } from './wizard-context.ts';

// The Finish step (spec §2, §5): the publish check, each problem naming day, language and option
// and linking to its field; a summary of what will be sent; scheduling. Plan limits met on
// scheduling open the upgrade modal (the client's 402 reaction, with the server's feature key,
// required amount and limit).

const ChannelPreview = lazy(() =>
  import('./channel-preview.tsx').then((module) => ({ default: module.ChannelPreview })),
);

const LESSON_PATH = /^lessons\.\d+\.(.+)$/;

export const FinishStep = () => {
  const { t } = useTranslation();
  const { notification, modal } = App.useApp();
  const navigate = useNavigate();
  const { store, goTo, editable, hasLearnersLists } = useWizard();
  const snapshot = useDraftSnapshot(store);
  const classroomMeta = useClassroomMeta();
  const save = useCourseSave(store);
  const [scheduling, setScheduling] = useState(false);
  const [serverProblems, setServerProblems] = useState<string[] | null>(null);
  const [previewDay, setPreviewDay] = useState(1);
  const [previewOpen, setPreviewOpen] = useState(false);
  const [fixFirst, setFixFirst] = useState(false);
  const problems = useMemo(
    () =>
      publishProblems(store, new Date(), hasLearnersLists, t('validation.answerResponseDefault')),
    // statesVersion and the snapshot say when the course changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [store, snapshot, hasLearnersLists, t],
  );
  const { distribution, learners_lists: lists } = snapshot.delivery;
  const channel = distribution.channels?.[0] ?? null;

  const { query: optionsQuery } = useCustom<TDeliveryOptions>({
    url: `/api/v1/classrooms/{classroomUuid}/courses/${snapshot.uuid}/delivery-options`,
    method: 'get',
    config: { query: { ...(channel ? { channel } : {}), lists: lists.join(',') } },
    meta: classroomMeta,
  });
  const options = optionsQuery.data?.data;
  // A channel with no working connection sends nothing (the Channels page says so): name it and
  // how many learners would get nothing, and ask before scheduling on it.
  const chosen = options?.channels.find((entry) => entry.key === channel);
  const silentText =
    channel && chosen && !chosen.sends
      ? t('courses.wizard.finish.notSending', {
          channel: t(`courses.wizard.channels.${channel}`),
          status: t(`channel-connections.status.${chosen.connection}`),
          count: options?.reached ?? 0,
        })
      : null;
  const { query: calendarQuery } = useCustom<TDeliveryCalendar>({
    url: '/api/v1/courses/helpers/delivery-calendar',
    method: 'post',
    config: { payload: { distribution, days: snapshot.days } },
    queryOptions: { enabled: !!distribution.start_date },
    meta: { errorFeedback: 'caller' },
  });
  const calendar = calendarQuery.data?.data;

  const languageName = (code?: string) => (code ? (LANGUAGE_NAMES[code as TLocale] ?? code) : '');
  const problemText = (problem: TPublishProblem) => {
    const text = problem.key
      ? translateMessage(describeMessage(MESSAGES[problem.key]), t)
      : problem.message;
    const where =
      problem.day !== undefined && problem.language !== undefined
        ? problem.option !== undefined
          ? t('courses.wizard.finish.whereOption', {
              day: problem.day,
              language: languageName(problem.language),
              option: problem.option,
            })
          : t('courses.wizard.finish.where', {
              day: problem.day,
              language: languageName(problem.language),
            })
        : null;
    return where ? `${where}: ${text}` : text;
  };
  const openProblem = (problem: TPublishProblem) => {
    if (problem.path.startsWith('distribution') || problem.path.startsWith('learners_lists')) {
      goTo('delivery');
      return;
    }
    if (problem.day !== undefined && problem.language !== undefined) {
      // A missing lesson opens on its title, the first field to write.
      const focus =
        LESSON_PATH.exec(problem.path)?.[1] ??
        (problem.key === 'lessonMissing' ? 'title' : undefined);
      const search = new URLSearchParams({
        day: String(problem.day),
        lang: problem.language,
        ...(focus ? { focus } : {}),
      });
      goTo('content', `?${search.toString()}`);
      return;
    }
    goTo('content');
  };

  const schedule = async () => {
    setServerProblems(null);
    if (problems.length > 0) {
      setFixFirst(true);
      return;
    }
    if (silentText && snapshot.status === 'draft') {
      modal.confirm({
        title: t('courses.wizard.finish.confirmTitle'),
        content: silentText,
        okText: t('courses.wizard.finish.confirmOk'),
        cancelText: t('buttons.cancel'),
        onOk: () => void publish(),
      });
      return;
    }
    await publish();
  };

  const publish = async () => {
    setScheduling(true);
    const result = await save({ status: 'scheduled', delivery: true });
    setScheduling(false);
    if (result.ok) {
      notification.success({
        key: 'ccp:course-scheduled',
        message: t('courses.wizard.finish.scheduled', { name: snapshot.name }),
      });
      void navigate(ROUTES.dashboard);
    } else if (result.invalid) {
      setServerProblems([
        result.invalid.message,
        ...result.invalid.other.flatMap((entry) => entry.messages),
      ]);
    }
  };

  const first = calendar?.slots[0];
  const last = calendar?.slots[calendar.slots.length - 1];
  const listNames =
    options?.lists.filter((list) => lists.includes(list.uuid)).map((list) => list.name) ?? [];

  return (
    <div className="finish-step">
      <div className="finish-layout">
        <Card className="wizard-card" title={t('courses.wizard.finish.check')}>
          {silentText && (
            <Alert
              type="warning"
              showIcon
              className="form-alert"
              data-testid="channel-not-sending"
              message={silentText}
              description={
                <>
                  {t('courses.wizard.finish.notSendingHint')}{' '}
                  <Link to={ROUTES.channels}>{t('courses.wizard.finish.openChannels')}</Link>
                </>
              }
            />
          )}
          {problems.length === 0 ? (
            silentText ? null : (
              <Alert
                type="success"
                showIcon
                message={t(
                  snapshot.status === 'draft'
                    ? 'courses.wizard.finish.ready'
                    : 'courses.wizard.finish.readyLive',
                )}
              />
            )
          ) : (
            <>
              {fixFirst && (
                <Alert
                  type="error"
                  showIcon
                  role="alert"
                  className="form-alert"
                  message={translateMessage(describeMessage(MESSAGES.fixAllErrors), t)}
                />
              )}
              <p>{t('courses.wizard.finish.problems', { count: problems.length })}</p>
              <ul className="problem-list">
                {problems.map((problem, index) => (
                  <li key={`${problem.path}:${index}`}>
                    <Button
                      type="link"
                      className="problem-link"
                      onClick={() => openProblem(problem)}
                    >
                      {problemText(problem)}
                    </Button>
                  </li>
                ))}
              </ul>
            </>
          )}
          {serverProblems && (
            <Alert
              type="error"
              showIcon
              role="alert"
              className="form-alert"
              message={translateMessage(describeMessage(serverProblems[0] ?? ''), t)}
              description={
                serverProblems.length > 1 ? (
                  <ul className="problem-list">
                    {serverProblems.slice(1).map((text, index) => (
                      <li key={index}>{text}</li>
                    ))}
                  </ul>
                ) : null
              }
            />
          )}
        </Card>
        <Card className="wizard-card" title={t('courses.wizard.finish.summary')}>
          <dl className="summary-list">
            <dt>{t('courses.wizard.finish.days')}</dt>
            <dd>{formatNumber(snapshot.days)}</dd>
            <dt>{t('courses.wizard.finish.languages')}</dt>
            <dd>
              {snapshot.languages
                .map((language) =>
                  language.is_primary
                    ? t('courses.wizard.finish.primaryLanguage', {
                        language: languageName(language.short_name),
                      })
                    : languageName(language.short_name),
                )
                .join(', ')}
            </dd>
            <dt>{t('courses.wizard.finish.channel')}</dt>
            <dd>{channel ? t(`courses.wizard.channels.${channel}`) : '—'}</dd>
            <dt>{t('courses.wizard.finish.lists')}</dt>
            <dd>{listNames.length ? listNames.join(', ') : '—'}</dd>
            <dt>{t('courses.wizard.finish.reached')}</dt>
            <dd>
              {options?.reached !== null && options?.reached !== undefined
                ? formatNumber(options.reached)
                : '—'}
            </dd>
            <dt>{t('courses.wizard.finish.firstSend')}</dt>
            <dd>{first ? formatDate(first.at) : '—'}</dd>
            <dt>{t('courses.wizard.finish.lastSend')}</dt>
            <dd>{last ? formatDate(last.at) : '—'}</dd>
          </dl>
          <div className="finish-preview">
            <Select
              aria-label={t('courses.wizard.finish.previewDay')}
              value={previewDay}
              onChange={setPreviewDay}
              options={Array.from({ length: snapshot.days }, (_, index) => ({
                value: index + 1,
                label: t('courses.wizard.content.day', { day: index + 1 }),
              }))}
            />
            <Button icon={<EyeOutlined />} onClick={() => setPreviewOpen(true)}>
              {t('courses.wizard.preview.open')}
            </Button>
          </div>
        </Card>
      </div>
      <div className="wizard-footer">
        <Button onClick={() => goTo('delivery')}>{t('courses.wizard.back')}</Button>
        <span className="wizard-footer-end">
          {editable && (
            <Button type="primary" loading={scheduling} onClick={() => void schedule()}>
              {snapshot.status === 'draft'
                ? t('courses.wizard.finish.schedule')
                : t('courses.wizard.finish.saveScheduled')}
            </Button>
          )}
        </span>
      </div>
      <Drawer
        open={previewOpen}
        onClose={() => setPreviewOpen(false)}
        title={t('courses.wizard.preview.title', {
          day: previewDay,
          language: languageName(store.primary()),
        })}
        width={560}
        destroyOnHidden
      >
        {previewOpen && (
          <Suspense fallback={<Spin />}>
            <ChannelPreview
              courseUuid={snapshot.uuid}
              day={previewDay}
              language={store.primary()}
              lesson={store.lesson(previewDay, store.primary())}
              channel={channel}
            />
          </Suspense>
        )}
      </Drawer>
    </div>
  );
};
