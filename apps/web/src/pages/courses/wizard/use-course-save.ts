import type { ApiError } from '@ccp/data-provider';
import type { TCourse } from '@ccp/schemas';
import { useUpdate } from '@refinedev/core';
import { useTranslation } from 'react-i18next';

import { useClassroomMeta } from '../../../components/layout/classroom-context.ts';
import { isLeftToCaller, reportFailure } from '../../../lib/report-failure.ts';
import { pathOf } from '../../../lib/zod-form.ts';
import { lessonKey } from './draft.ts';
import type { TDraftStore, TLessonServerErrors } from './draft.ts';

export type TSaveResult =
  | { ok: true; course: TCourse }
  | {
      ok: false;
      /** A 422: its message and the errors that belong to no lesson (delivery, languages). */
      invalid?: { message: string; other: { path: string; messages: string[] }[] };
    };

const LESSON_PATH = /^lessons\.(\d+)(?:\.(.+))?$/;

/**
 * Saves the whole course (`POST …/courses/{uuid}` as JSON). A 422's field errors go to the
 * lessons they name (by the position each lesson had in the body), the rest to the caller; a 402
 * is the client's (the upgrade modal); other failures show as the client would have shown them.
 */
export const useCourseSave = (store: TDraftStore) => {
  const { t } = useTranslation();
  const classroomMeta = useClassroomMeta();
  const { mutateAsync } = useUpdate<TCourse>();

  return async (
    options: { status?: 'draft' | 'scheduled'; delivery?: boolean } = {},
  ): Promise<TSaveResult> => {
    const version = store.version();
    const { body, sent } = store.requestBody(t('validation.answerResponseDefault'), options);
    try {
      const result = await mutateAsync({
        resource: 'courses',
        id: store.snapshot().uuid,
        values: body,
        meta: { ...classroomMeta, errorFeedback: 'caller' },
        successNotification: false,
        errorNotification: false,
      });
      store.markSaved(version);
      store.setStatus(result.data.status);
      store.setServerErrors(new Map());
      return { ok: true, course: result.data };
    } catch (error) {
      const failure = error as Partial<ApiError>;
      if (failure.statusCode === 422 && failure.errors) {
        const byLesson = new Map<string, TLessonServerErrors>();
        const other: { path: string; messages: string[] }[] = [];
        for (const [path, messages] of Object.entries(failure.errors)) {
          const match = LESSON_PATH.exec(path);
          const lesson = match ? sent[Number(match[1])] : undefined;
          if (lesson && match?.[2]) {
            const key = lessonKey(lesson.day, lesson.language);
            const list = byLesson.get(key) ?? [];
            list.push({ name: pathOf(match[2]), errors: messages });
            byLesson.set(key, list);
          } else other.push({ path, messages });
        }
        store.setServerErrors(byLesson);
        return { ok: false, invalid: { message: failure.message ?? '', other } };
      }
      if (isLeftToCaller(error)) reportFailure(error);
      return { ok: false };
    }
  };
};
