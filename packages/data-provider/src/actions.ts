import { normalizePhoneFromServer } from '@ccp/schemas';
import type {
  TCourse,
  TLearner,
  TLearnerReachability,
  TSubscriptionFunctionKey,
  TSyncLearnerListsResult,
  TUpgradeRequest,
  TUsage,
} from '@ccp/schemas';
import type { CustomParams } from '@refinedev/core';

import { COURSES_PATH } from './data-provider.ts';
import type { CcpDataProvider } from './data-provider.ts';
import type { Session } from './session.ts';

type ActionRequest = Pick<CustomParams, 'url' | 'method'>;

const id = (value: string) => {
  if (value === '') throw new Error('A record id is required.');
  return encodeURIComponent(value);
};

/**
 * The `{url, method}` of each action of spec §7 that is not a CRUD call. Spread it into
 * `useCustomMutation().mutate({ ...actionRequests.cloneCourse(uuid), values })` in the web app or
 * into `dataProvider.custom({ ...actionRequests.cloneCourse(uuid), payload })`; `custom` fills
 * `{classroomUuid}` with the current classroom.
 */
export const actionRequests = {
  cloneCourse: (uuid: string) =>
    ({ url: `${COURSES_PATH}/${id(uuid)}/clone`, method: 'post' }) satisfies ActionRequest,
  /** Soft delete; `deleteOne` is the permanent one. */
  archiveCourse: (uuid: string) =>
    ({ url: `${COURSES_PATH}/${id(uuid)}/soft`, method: 'delete' }) satisfies ActionRequest,
  restoreCourse: (uuid: string) =>
    ({ url: `${COURSES_PATH}/${id(uuid)}/restore`, method: 'post' }) satisfies ActionRequest,
  archiveLearner: (uuid: string) =>
    ({ url: `/api/v1/learners/${id(uuid)}/soft`, method: 'delete' }) satisfies ActionRequest,
  restoreLearner: (uuid: string) =>
    ({ url: `/api/v1/learners/${id(uuid)}/restore`, method: 'post' }) satisfies ActionRequest,
  /** Payload `{ lists: uuid[] }`: exactly the lists the learner ends up in. */
  syncLearnerLists: (uuid: string) =>
    ({
      url: `/api/v1/learners/${id(uuid)}/learners-lists/sync`,
      method: 'patch',
    }) satisfies ActionRequest,
  learnerReachability: (uuid: string) =>
    ({ url: `/api/v1/learners/${id(uuid)}/reachability`, method: 'get' }) satisfies ActionRequest,
  /** Payload `{ requestedFunction }`. */
  requestUpgrade: () =>
    ({
      url: '/api/v1/users/me/subscriptions/upgrade-request',
      method: 'post',
    }) satisfies ActionRequest,
  usage: (key: TSubscriptionFunctionKey) =>
    ({
      url: `/api/v1/users/me/subscriptions/${id(key)}/usage`,
      method: 'get',
    }) satisfies ActionRequest,
  /** Payload `[{ uuid }]`, every term the user can accept (check with `missingMandatoryTerms`). */
  acceptTerms: () =>
    ({ url: '/api/v1/users/me/terms-and-conditions', method: 'post' }) satisfies ActionRequest,
};

const withPhone = (learner: TLearner): TLearner => ({
  ...learner,
  phone: normalizePhoneFromServer(learner.phone),
});

/**
 * The same actions as typed calls through `provider.custom` (the CLI and tests use these), each
 * answering the API's `data`. Calls that change list membership forget the session's lists.
 */
export const createActions = (provider: CcpDataProvider, session?: Session) => {
  const call = async <T>(request: ActionRequest, payload?: unknown): Promise<T> =>
    (await provider.custom({ ...request, ...(payload === undefined ? {} : { payload }) }))
      .data as T;
  const membershipChanged = <T>(value: T): T => {
    session?.invalidateLearnersLists();
    return value;
  };

  return {
    cloneCourse: (uuid: string) => call<TCourse>(actionRequests.cloneCourse(uuid)),
    archiveCourse: (uuid: string) => call<TCourse>(actionRequests.archiveCourse(uuid)),
    restoreCourse: (uuid: string) => call<TCourse>(actionRequests.restoreCourse(uuid)),
    archiveLearner: async (uuid: string) =>
      membershipChanged(withPhone(await call<TLearner>(actionRequests.archiveLearner(uuid)))),
    restoreLearner: async (uuid: string) =>
      membershipChanged(withPhone(await call<TLearner>(actionRequests.restoreLearner(uuid)))),
    syncLearnerLists: async (uuid: string, lists: string[]) =>
      membershipChanged(
        await call<TSyncLearnerListsResult>(actionRequests.syncLearnerLists(uuid), { lists }),
      ),
    learnerReachability: (uuid: string) =>
      call<TLearnerReachability>(actionRequests.learnerReachability(uuid)),
    requestUpgrade: (requestedFunction: TSubscriptionFunctionKey) =>
      call<TUpgradeRequest>(actionRequests.requestUpgrade(), { requestedFunction }),
    usage: (key: TSubscriptionFunctionKey) => call<TUsage>(actionRequests.usage(key)),
    acceptTerms: (uuids: readonly string[]) =>
      call<{ accepted: string[] }>(
        actionRequests.acceptTerms(),
        uuids.map((uuid) => ({ uuid })),
      ),
  };
};

export type CcpActions = ReturnType<typeof createActions>;
