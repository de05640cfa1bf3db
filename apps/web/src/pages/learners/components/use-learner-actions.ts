import { actionRequests } from '@ccp/data-provider';
import { MODAL_AUTO_CLOSE_MS } from '@ccp/schemas';
import type { TLearner, TLearnersList } from '@ccp/schemas';
import { useCustomMutation, useDelete, useInvalidate } from '@refinedev/core';
import { App } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { isLeftToCaller } from '../../../lib/report-failure.ts';

export type TLearnerAction = 'archive' | 'restore' | 'delete';

const nameOf = (learner: Pick<TLearner, 'first_name' | 'last_name'>) =>
  `${learner.first_name} ${learner.last_name}`.trim();

/**
 * The learners centre's actions: archive (refused with the spec's message while the learner is
 * active in a course), restore, the permanent delete (asked first), and deleting a list (asked
 * first, then the one-second modal of spec §9). Each names what it did or what failed (spec §8).
 */
export const useLearnerActions = () => {
  const { t } = useTranslation();
  const { notification, modal } = App.useApp();
  const invalidate = useInvalidate();
  const { mutateAsync: callAction } = useCustomMutation();
  const { mutateAsync: deleteRecord } = useDelete();
  const [pending, setPending] = useState<string | null>(null);
  const meta = { errorFeedback: 'caller' };

  // A deleted learner's own page is not read again: it answered 404, and a "Not found." toast
  // stood beside the success (issue 27). Lists and counts are.
  const refresh = (deleted = false) =>
    Promise.all([
      invalidate({ resource: 'learners', invalidates: deleted ? ['list', 'many'] : ['all'] }),
      // Member counts change with archive, restore and delete.
      invalidate({ resource: 'learners-lists', invalidates: ['all'] }),
    ]);

  const run = async (
    key: string,
    texts: { success: string; failure: string },
    call: () => Promise<unknown>,
    deleted = false,
  ) => {
    setPending(key);
    try {
      await call();
      notification.success({ key: `ccp:${key}`, message: texts.success });
      await refresh(deleted);
      return true;
    } catch (error) {
      if (isLeftToCaller(error)) {
        notification.error({
          key: `ccp:${key}:failed`,
          message: texts.failure,
          description: error instanceof Error && error.message ? error.message : undefined,
        });
      }
      return false;
    } finally {
      setPending(null);
    }
  };

  const learnerTexts = (action: TLearnerAction, learner: TLearner) => ({
    success: t(`learners.notifications.${action}.success`, { name: nameOf(learner) }),
    failure: t(`learners.notifications.${action}.failure`, { name: nameOf(learner) }),
  });

  const custom = (request: { url: string; method: 'post' | 'delete' }) =>
    callAction({
      ...request,
      values: {},
      meta,
      successNotification: false,
      errorNotification: false,
    });

  return {
    /** `action:uuid` while one runs. */
    pending,
    archive: (learner: TLearner) =>
      run(`archive:${learner.uuid}`, learnerTexts('archive', learner), () =>
        custom(actionRequests.archiveLearner(learner.uuid)),
      ),
    restore: (learner: TLearner) =>
      run(`restore:${learner.uuid}`, learnerTexts('restore', learner), () =>
        custom(actionRequests.restoreLearner(learner.uuid)),
      ),
    remove: (learner: TLearner, after?: () => void) => {
      modal.confirm({
        title: t('learners.delete.title', { name: nameOf(learner) }),
        content: t('learners.delete.text'),
        okText: t('learners.actions.delete'),
        okType: 'danger',
        cancelText: t('buttons.cancel'),
        onOk: async () => {
          const done = await run(
            `delete:${learner.uuid}`,
            learnerTexts('delete', learner),
            () =>
              deleteRecord({
                resource: 'learners',
                id: learner.uuid,
                meta,
                mutationMode: 'pessimistic',
                successNotification: false,
                errorNotification: false,
                // Refine's own refresh would read the deleted learner's page again too.
                invalidates: ['list', 'many'],
              }),
            true,
          );
          if (done) after?.();
        },
      });
    },
    removeList: (list: TLearnersList, after?: () => void) => {
      modal.confirm({
        title: t('learners-lists.delete.title', { name: list.name }),
        content: t('learners-lists.delete.text'),
        okText: t('learners-lists.actions.delete'),
        okType: 'danger',
        cancelText: t('buttons.cancel'),
        onOk: async () => {
          setPending(`delete-list:${list.uuid}`);
          try {
            // The data provider confirms the answer's `deleted` is this list (spec §7).
            await deleteRecord({
              resource: 'learners-lists',
              id: list.uuid,
              meta,
              mutationMode: 'pessimistic',
              successNotification: false,
              errorNotification: false,
            });
            await refresh();
            after?.();
            // Spec §9: deleting a list shows a modal that closes itself after a second.
            const shown = modal.success({
              title: t('learners-lists.notifications.deleted', { name: list.name }),
              footer: null,
              closable: false,
            });
            setTimeout(() => shown.destroy(), MODAL_AUTO_CLOSE_MS);
          } catch (error) {
            if (isLeftToCaller(error)) {
              notification.error({
                key: 'ccp:delete-list:failed',
                message: t('learners-lists.notifications.deleteFailed', { name: list.name }),
                description: error instanceof Error && error.message ? error.message : undefined,
              });
            }
          } finally {
            setPending(null);
          }
        },
      });
    },
  };
};
