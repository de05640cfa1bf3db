import { EyeOutlined, PlusOutlined, StarFilled, TranslationOutlined } from '@ant-design/icons';
import type { ApiError } from '@ccp/data-provider';
import { LOCALES, MESSAGES } from '@ccp/schemas';
import type { TAiCourseResult, TLocale } from '@ccp/schemas';
import { useCustomMutation } from '@refinedev/core';
import { Alert, App, Button, Card, Drawer, Popconfirm, Select, Tooltip } from 'antd';
import type { FormInstance } from 'antd';
import { lazy, Suspense, useCallback, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { flushSync } from 'react-dom';
import { useSearchParams } from 'react-router';

import { useClassroomMeta } from '../../../components/layout/classroom-context.ts';
import { LANGUAGE_NAMES } from '../../../config.ts';
import { textsIn } from '../../../i18n.ts';
import { describeMessage } from '../../../lib/messages.ts';
import { useAiGenerator } from '../../../lib/use-ai-generator.ts';
import { isLeftToCaller, reportFailure } from '../../../lib/report-failure.ts';
import { translateMessage } from '../../../lib/translate-message.ts';
import { pathOf } from '../../../lib/zod-form.ts';
import { DayList } from './day-list.tsx';
import { contentComplete } from './draft.ts';
import { LessonForm } from './lesson-form.tsx';
import { useCourseSave } from './use-course-save.ts';
import { useDraftSnapshot, useWizard } from './wizard-context.ts';

/** How long a removed language can be put back, in seconds. */
const LANGUAGE_UNDO_SECONDS = 10;

// The Content step (spec §2, §4): the course's languages (one primary), its days (at most 30),
// and one lesson per day and language. Switching or adding a language, day or lesson waits while
// the current lesson has errors; once a second language exists no day can be added, and a
// language can be added only once the primary one is complete.

const ChannelPreview = lazy(() =>
  import('./channel-preview.tsx').then((module) => ({ default: module.ChannelPreview })),
);

const isLocale = (value: string | null): value is TLocale =>
  (LOCALES as readonly (string | null)[]).includes(value);

export const ContentStep = () => {
  const { t } = useTranslation();
  const { modal, notification } = App.useApp();
  const { store, goTo, editable } = useWizard();
  const snapshot = useDraftSnapshot(store);
  // The lesson form's instance, to validate before a switch.
  const formRef = useRef<FormInstance | null>(null);
  const [params, setParams] = useSearchParams();
  const classroomMeta = useClassroomMeta();
  const save = useCourseSave(store);
  const [saving, setSaving] = useState(false);
  const [blocked, setBlocked] = useState<string | null>(null);
  const [invalidLessons, setInvalidLessons] = useState<{ day: number; language: TLocale }[]>([]);
  const [otherProblems, setOtherProblems] = useState<string[]>([]);
  const [previewOpen, setPreviewOpen] = useState(false);
  const [formGeneration, setFormGeneration] = useState(0);
  const [translation, setTranslation] = useState<{ type: 'error'; message: string } | null>(null);
  const { mutateAsync: callApi, mutation: translating } = useCustomMutation<TAiCourseResult>();
  const aiGenerator = useAiGenerator();

  // The lesson shown: the address's at first (a reload, a publish-check link), then the creator's
  // choice, shown in the same event as the click (the address follows, which the router renders
  // as a transition: a key typed meanwhile went to the day being left).
  const [selection, setSelection] = useState(() => ({
    day: params.get('day'),
    language: params.get('lang'),
    focus: params.get('focus'),
  }));
  const show = (nextDay: number, nextLanguage: TLocale) => {
    flushSync(() => setSelection({ day: String(nextDay), language: nextLanguage, focus: null }));
    setParams({ day: String(nextDay), lang: nextLanguage }, { replace: true });
  };

  const primary = store.primary();
  const requestedDay = Number(selection.day);
  const day =
    Number.isInteger(requestedDay) && requestedDay >= 1 && requestedDay <= snapshot.days
      ? requestedDay
      : 1;
  const requestedLanguage = selection.language;
  const language =
    isLocale(requestedLanguage) &&
    snapshot.languages.some((entry) => entry.short_name === requestedLanguage)
      ? requestedLanguage
      : primary;
  const focus = selection.focus ? pathOf(selection.focus) : null;
  const languageName = useCallback(
    (short: string) => LANGUAGE_NAMES[short as TLocale] ?? short,
    [],
  );
  let primaryComplete = true;
  for (let entry = 1; entry <= snapshot.days; entry += 1) {
    if (store.state(entry, primary) !== 'valid') primaryComplete = false;
  }

  /** The current lesson may be left: untouched, or without errors. */
  const currentIsValid = async (): Promise<boolean> => {
    // The store checks the lesson with the same schema on every change: only a lesson with
    // errors needs the form's check, which shows them (running it on all ~40 fields of a valid
    // lesson cost ~25 ms of each day switch).
    if (store.state(day, language) !== 'invalid') {
      if (blocked) setBlocked(null);
      return true;
    }
    try {
      await formRef.current?.validateFields({ recursive: true });
      if (store.state(day, language) === 'invalid') throw new Error('invalid');
      setBlocked(null);
      return true;
    } catch {
      setBlocked(t('courses.wizard.content.fixFirst'));
      setInvalidLessons([{ day, language }]);
      setOtherProblems([]);
      return false;
    }
  };

  /** A banner link: the lesson with errors, each shown on its field. */
  const goToErrors = async (nextDay: number, nextLanguage: TLocale) => {
    if (nextDay !== day || nextLanguage !== language) {
      if (!(await currentIsValid())) return;
      show(nextDay, nextLanguage);
    }
    // After the switch has painted the lesson: its errors on its fields, the first in view.
    requestAnimationFrame(() => {
      const form = formRef.current;
      void form?.validateFields({ recursive: true }).catch(() => {
        const first = form.getFieldsError().find((entry) => entry.errors.length > 0);
        if (first) form.scrollToField(first.name, { focus: true, block: 'center' });
      });
    });
  };

  const select = async (nextDay: number, nextLanguage: TLocale) => {
    if (nextDay === day && nextLanguage === language) return;
    if (!(await currentIsValid())) return;
    setTranslation(null);
    show(nextDay, nextLanguage);
  };

  const addDay = async () => {
    if (!(await currentIsValid())) return;
    store.addDay();
    show(store.snapshot().days, primary);
  };

  const addLanguage = async (next: TLocale) => {
    if (!(await currentIsValid())) return;
    // True/false answers are labelled in the lesson's language, not the interface's.
    const inLesson = await textsIn(next);
    store.addLanguage(next, [
      inLesson('courses.wizard.assessment.trueAnswer'),
      inLesson('courses.wizard.assessment.falseAnswer'),
    ]);
    show(1, next);
  };

  const addDayBlocked =
    snapshot.languages.length > 1
      ? t('courses.wizard.content.noDaysWithLanguages')
      : snapshot.days >= 30
        ? t('courses.wizard.content.maxDays')
        : store.state(snapshot.days, primary) === 'empty'
          ? t('courses.wizard.content.writeDayFirst', { day: snapshot.days })
          : null;
  const otherLanguages = LOCALES.filter(
    (code) => !snapshot.languages.some((entry) => entry.short_name === code),
  );

  /** Every lesson with errors (its own or the last save's), for the banner's links. */
  const lessonsWithErrors = () => {
    const found: { day: number; language: TLocale }[] = [];
    for (let entry = 1; entry <= store.snapshot().days; entry += 1) {
      for (const { short_name: code } of store.snapshot().languages) {
        if (store.state(entry, code) === 'invalid') found.push({ day: entry, language: code });
      }
    }
    return found;
  };

  const saveProgress = async (): Promise<boolean> => {
    // The shown lesson's errors stay on its fields: the save would be refused for them anyway.
    if (!(await currentIsValid())) return false;
    setSaving(true);
    const result = await save();
    setSaving(false);
    if (result.ok) {
      notification.success({ key: 'ccp:course-saved', message: t('notifications.changesSaved') });
      setInvalidLessons([]);
      return true;
    }
    // The form stays: the server's field errors join the lesson's own (LessonForm shows both),
    // and the banner links to every lesson that has some.
    if (result.invalid) {
      setBlocked(t('courses.wizard.content.notSaved'));
      setInvalidLessons(lessonsWithErrors());
      setOtherProblems(result.invalid.other.flatMap((entry) => entry.messages));
    }
    return false;
  };

  const next = async () => {
    if (!(await currentIsValid())) return;
    if (!contentComplete(store)) {
      setBlocked(t('courses.wizard.content.incomplete'));
      return;
    }
    const proceed = async () => {
      if (store.isDirty() && !(await saveProgress())) return;
      goTo('delivery');
    };
    if (snapshot.days === 1) {
      modal.confirm({
        title: t('courses.wizard.content.oneLessonTitle'),
        content: t('courses.wizard.content.oneLessonText'),
        okText: t('courses.wizard.content.oneLessonConfirm'),
        cancelText: t('courses.wizard.content.oneLessonCancel'),
        onOk: proceed,
      });
    } else await proceed();
  };

  const translate = async () => {
    setTranslation(null);
    if (store.isDirty() && !(await saveProgress())) return;
    try {
      const result = await callApi({
        url: `/api/v1/classrooms/{classroomUuid}/courses/${store.snapshot().uuid}/translate`,
        method: 'post',
        values: {
          target_language: language,
          days: [day],
          overwrite: store.hasLesson(day, language),
        },
        meta: { ...classroomMeta, errorFeedback: 'caller' },
        successNotification: false,
        errorNotification: false,
      });
      const course = result.data.course;
      if (!course.lessons.some((lesson) => lesson.day === day && lesson.language === language)) {
        setTranslation({
          type: 'error',
          message: translateMessage(describeMessage(MESSAGES.translationNotFound), t),
        });
        return;
      }
      store.replaceFromCourse(course);
      store.markSaved();
      setFormGeneration((value) => value + 1);
      notification.success({
        key: 'ccp:translated',
        message: t('courses.wizard.translate.done', {
          day,
          language: languageName(language),
        }),
      });
    } catch (error) {
      const failure = error as Partial<ApiError>;
      if (!isLeftToCaller(error)) return;
      if (failure.statusCode && failure.statusCode >= 500 && failure.message) {
        setTranslation({ type: 'error', message: failure.message });
      } else reportFailure(error);
    }
  };

  const removeDay = (removed: number) => {
    store.removeDay(removed);
    show(Math.min(day, store.snapshot().days), language);
    setFormGeneration((value) => value + 1);
  };

  // The day list's handlers stay the same functions across renders (its days re-render only
  // when their own title or markers change), and call this render's code.
  const dayHandlers = useRef({ select, addDay, removeDay });
  useLayoutEffect(() => {
    dayHandlers.current = { select, addDay, removeDay };
  });
  const onSelectDay = useCallback(
    (nextDay: number, nextLanguage: TLocale) =>
      void dayHandlers.current.select(nextDay, nextLanguage),
    [],
  );
  const onAddDay = useCallback(() => void dayHandlers.current.addDay(), []);
  const onRemoveDay = useCallback((removed: number) => dayHandlers.current.removeDay(removed), []);

  const lesson = store.lesson(day, language);
  const primaryDayComplete = store.state(day, primary) === 'valid';
  // Without an AI provider the button says why it cannot translate, before anyone presses it.
  const noProvider = aiGenerator === 'offline';
  const translateBar =
    language !== primary ? (
      <div className="translate-bar">
        <Tooltip
          title={
            noProvider
              ? null
              : primaryDayComplete
                ? null
                : t('courses.wizard.translate.needsPrimary')
          }
        >
          <Button
            icon={<TranslationOutlined />}
            onClick={() => void translate()}
            loading={translating.isPending}
            disabled={noProvider || !primaryDayComplete || !editable}
          >
            {t('courses.wizard.translate.button', { language: languageName(primary) })}
          </Button>
        </Tooltip>
        {noProvider && (
          <span className="muted translate-note">
            {t('courses.wizard.translate.needsProvider')}
          </span>
        )}
        {translation && (
          <Alert type="error" showIcon message={translation.message} className="translate-alert" />
        )}
      </div>
    ) : null;

  // A removed language can be put back for a while, lessons and all (issue 27).
  const removeLanguage = (code: TLocale) => {
    const undo = store.removeLanguage(code);
    show(day, primary);
    const key = `ccp:language-removed:${code}`;
    notification.info({
      key,
      message: t('courses.wizard.content.languageRemoved', { language: languageName(code) }),
      duration: LANGUAGE_UNDO_SECONDS,
      actions: (
        <Button
          size="small"
          onClick={() => {
            undo();
            notification.destroy(key);
          }}
        >
          {t('courses.wizard.content.undoRemoveLanguage')}
        </Button>
      ),
    });
  };

  return (
    <div className="content-step">
      <div
        className="language-bar"
        role="tablist"
        aria-label={t('courses.wizard.content.languages')}
      >
        {snapshot.languages.map((entry) => (
          <span key={entry.short_name} className="language-tab-wrap">
            <button
              type="button"
              role="tab"
              aria-selected={entry.short_name === language}
              className={`language-tab${entry.short_name === language ? ' language-tab-current' : ''}`}
              onClick={() => void select(day, entry.short_name)}
            >
              {entry.is_primary && (
                <StarFilled
                  aria-label={t('courses.wizard.content.primary')}
                  className="language-primary"
                />
              )}
              {languageName(entry.short_name)}
            </button>
            {!entry.is_primary && editable && (
              <Popconfirm
                title={t('courses.wizard.content.removeLanguageConfirm', {
                  language: languageName(entry.short_name),
                })}
                okText={t('courses.wizard.content.removeLanguage')}
                cancelText={t('buttons.cancel')}
                onConfirm={() => removeLanguage(entry.short_name)}
              >
                <Button type="link" size="small" className="language-remove">
                  {t('courses.wizard.content.removeLanguage')}
                </Button>
              </Popconfirm>
            )}
          </span>
        ))}
        {editable && otherLanguages.length > 0 && (
          <Tooltip title={primaryComplete ? null : t('courses.wizard.content.primaryFirst')}>
            <Select<TLocale>
              className="language-add"
              value={null}
              placeholder={
                <>
                  <PlusOutlined /> {t('courses.wizard.content.addLanguage')}
                </>
              }
              aria-label={t('courses.wizard.content.addLanguage')}
              disabled={!primaryComplete}
              options={otherLanguages.map((code) => ({ value: code, label: languageName(code) }))}
              onChange={(value) => void addLanguage(value)}
            />
          </Tooltip>
        )}
        <Button
          className="preview-button"
          icon={<EyeOutlined />}
          onClick={() => setPreviewOpen(true)}
        >
          {t('courses.wizard.preview.open')}
        </Button>
      </div>
      {!primaryComplete && snapshot.languages.length === 1 && otherLanguages.length > 0 && (
        <p className="muted language-note">{t('courses.wizard.content.primaryFirst')}</p>
      )}
      {blocked && (
        <Alert
          type="error"
          showIcon
          message={blocked}
          className="content-alert"
          role="alert"
          description={
            invalidLessons.length + otherProblems.length > 0 ? (
              <ul className="problem-list">
                {invalidLessons.map((entry) => (
                  <li key={`${entry.day}:${entry.language}`}>
                    <Button
                      type="link"
                      className="problem-link"
                      onClick={() => void goToErrors(entry.day, entry.language)}
                    >
                      {t('courses.wizard.content.formLabel', {
                        day: entry.day,
                        language: languageName(entry.language),
                      })}
                    </Button>
                  </li>
                ))}
                {otherProblems.map((text, index) => (
                  <li key={`other:${index}`}>{translateMessage(describeMessage(text), t)}</li>
                ))}
              </ul>
            ) : null
          }
        />
      )}
      <div className="content-layout">
        <DayList
          store={store}
          day={day}
          language={language}
          languageName={languageName}
          onSelect={onSelectDay}
          onAdd={onAddDay}
          onRemove={onRemoveDay}
          addBlocked={addDayBlocked}
          readOnly={!editable}
        />
        <Card
          className="lesson-card"
          title={t('courses.wizard.content.formLabel', { day, language: languageName(language) })}
        >
          <LessonForm
            // One form for every lesson (it takes the next one's values on a switch); a new
            // generation after a failed save or a translation starts it over.
            key={formGeneration}
            formRef={formRef}
            lesson={lesson}
            languageName={languageName(language)}
            onChange={(values, valid) => {
              store.setLesson(day, language, values, valid);
              if (blocked) setBlocked(null);
            }}
            serverErrors={store.serverErrors(day, language)}
            focus={focus}
            readOnly={!editable}
            extra={translateBar}
          />
        </Card>
      </div>
      <div className="wizard-footer">
        <Button onClick={() => goTo('intro')}>{t('courses.wizard.back')}</Button>
        <span className="wizard-footer-end">
          {editable && (
            <Button onClick={() => void saveProgress()} loading={saving}>
              {t('courses.wizard.saveProgress')}
            </Button>
          )}
          <Button type="primary" onClick={() => void next()}>
            {t('courses.wizard.next')}
          </Button>
        </span>
      </div>
      <Drawer
        open={previewOpen}
        onClose={() => setPreviewOpen(false)}
        title={t('courses.wizard.preview.title', { day, language: languageName(language) })}
        width={560}
        destroyOnHidden
      >
        {previewOpen && (
          <Suspense fallback={<div className="preview-loading" aria-busy="true" />}>
            <ChannelPreview
              courseUuid={snapshot.uuid}
              day={day}
              language={language}
              lesson={store.lesson(day, language)}
            />
          </Suspense>
        )}
      </Drawer>
    </div>
  );
};
