import { actionRequests } from '@ccp/data-provider';
import type { TCourseListItem } from '@ccp/schemas';
import { useCustomMutation, useDelete, useInvalidate } from '@refinedev/core';
import { App } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useClassroomMeta } from '../../../components/layout/classroom-context.ts';
import { isLeftToCaller } from '../../../lib/report-failure.ts';

export type TCourseAction = 'clone' | 'archive' | 'restore' | 'resume' | 'cancel' | 'delete';

/** Statuses still sending lessons: archiving one pauses it, so it asks first. */
const RUNNING: readonly string[] = ['scheduled', 'active'];

/**
 * The course card's actions (spec §2): clone, archive (asked first while learners are taking it),
 * restore, resume and cancel of a paused course, and the permanent delete (asked first). Each says what it did or what failed with its own message (spec §8), the server's
 * reason under it; a plan limit still opens the upgrade modal (the client's own reaction).
 */
export const useCourseActions = () => {
  const { t } = useTranslation();
  const { notification, modal } = App.useApp();
  const invalidate = useInvalidate();
  const classroomMeta = useClassroomMeta();
  const meta = { ...classroomMeta, errorFeedback: 'caller' };
  const { mutateAsync: callAction } = useCustomMutation();
  const { mutateAsync: deleteCourse } = useDelete();
  const [pending, setPending] = useState<string | null>(null);

  const refresh = async () => {
    await Promise.all([
      // 'all': the dashboard's infinite list is not among Refine's 'list' keys.
      invalidate({ resource: 'courses', invalidates: ['all'] }),
      // Figures count courses: a clone or a deletion changes the totals.
      invalidate({ resource: 'analytics', invalidates: ['all'] }),
    ]);
  };

  const run = async (
    action: TCourseAction,
    course: TCourseListItem,
    call: () => Promise<unknown>,
    successKey = `courses.notifications.${action}.success`,
  ) => {
    const names = { name: course.name };
    setPending(`${action}:${course.uuid}`);
    try {
      await call();
      notification.success({ key: `ccp:course-${action}`, message: t(successKey, names) });
      await refresh();
    } catch (error) {
      if (!isLeftToCaller(error)) return;
      notification.error({
        key: `ccp:course-${action}-failed`,
        message: t(`courses.notifications.${action}.failure`, names),
        description: error instanceof Error && error.message ? error.message : undefined,
      });
    } finally {
      setPending(null);
    }
  };

  const custom = (request: { url: string; method: 'post' | 'delete' }) =>
    callAction({
      ...request,
      values: {},
      meta,
      successNotification: false,
      errorNotification: false,
    });

  return {
    /** `action:uuid` while one runs, so its button shows a spinner and others wait. */
    pending,
    clone: (course: TCourseListItem) =>
      run('clone', course, () => custom(actionRequests.cloneCourse(course.uuid))),
    archive: (course: TCourseListItem) => {
      const archive = () =>
        run('archive', course, () => custom(actionRequests.archiveCourse(course.uuid)));
      // Mid-way learners stop receiving lessons: say so before it happens.
      if (!RUNNING.includes(course.status) || course.enrolments === 0) return void archive();
      modal.confirm({
        title: t('courses.archive.title', { name: course.name }),
        content: t('courses.archive.text', { count: course.enrolments }),
        okText: t('courses.actions.archive'),
        cancelText: t('buttons.cancel'),
        onOk: archive,
      });
    },
    restore: (course: TCourseListItem) =>
      run(
        'restore',
        course,
        () => custom(actionRequests.restoreCourse(course.uuid)),
        course.status === 'paused' ? 'courses.notifications.restore.paused' : undefined,
      ),
    resume: (course: TCourseListItem) =>
      run('resume', course, () => custom(actionRequests.resumeCourse(course.uuid))),
    cancel: (course: TCourseListItem) => {
      modal.confirm({
        title: t('courses.cancel.title', { name: course.name }),
        content: t('courses.cancel.text'),
        okText: t('courses.actions.cancelCourse'),
        okType: 'danger',
        cancelText: t('courses.cancel.keep'),
        onOk: () => run('cancel', course, () => custom(actionRequests.cancelCourse(course.uuid))),
      });
    },
    remove: (course: TCourseListItem) => {
      modal.confirm({
        title: t('courses.delete.title', { name: course.name }),
        content: t('courses.delete.text'),
        okText: t('courses.actions.delete'),
        okType: 'danger',
        cancelText: t('buttons.cancel'),
        onOk: () =>
          run('delete', course, () =>
            deleteCourse({
              resource: 'courses',
              id: course.uuid,
              meta,
              mutationMode: 'pessimistic',
              successNotification: false,
              errorNotification: false,
            }),
          ),
      });
    },
  };
};
