import type {
  TConversationQuery,
  TCourse,
  TCourseDeliveryFailure,
  TImportJob,
  TLearnerConversation,
  TLearnerCourseDelivery,
  TLearner,
  TLearnerReachability,
  TResendRequest,
  TSubscriptionFunctionKey,
  TSyncLearnerListsResult,
  TUpgradeRequest,
  TUsage,
} from '@ccp/schemas';
import type { CustomParams } from '@refinedev/core';

import type { CcpDataProvider } from './data-provider.ts';
import type { QueryValue } from './http-client.ts';
import { channelConnectionActionRequests } from './resources/channel-connections.ts';
import { courseActionRequests } from './resources/courses.ts';
import { aiImportActionRequests } from './resources/ai-imports.ts';
import { importActionRequests } from './resources/learners-imports.ts';
import { learnerActionRequests, learnerFromServer } from './resources/learners.ts';
import { accountActionRequests } from './resources/reference.ts';
import { teamActionRequests } from './resources/team.ts';
import type { Session } from './session.ts';

type ActionRequest = Pick<CustomParams, 'url' | 'method'>;

/**
 * The `{url, method}` of each action of spec §7 that is not a CRUD call, gathered from the
 * resource modules. Spread it into `useCustomMutation().mutate({ ...actionRequests.cloneCourse(uuid),
 * values })` in the web app or into `dataProvider.custom({ ...actionRequests.cloneCourse(uuid),
 * payload })`; `custom` fills `{classroomUuid}` with the current classroom.
 */
export const actionRequests = {
  ...courseActionRequests,
  ...learnerActionRequests,
  ...accountActionRequests,
  ...importActionRequests,
  ...aiImportActionRequests,
  ...teamActionRequests,
  ...channelConnectionActionRequests,
};

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
    resumeCourse: (uuid: string) => call<TCourse>(actionRequests.resumeCourse(uuid)),
    cancelCourse: (uuid: string) => call<TCourse>(actionRequests.cancelCourse(uuid)),
    archiveLearner: async (uuid: string) =>
      membershipChanged(
        learnerFromServer(await call<TLearner>(actionRequests.archiveLearner(uuid))),
      ),
    restoreLearner: async (uuid: string) =>
      membershipChanged(
        learnerFromServer(await call<TLearner>(actionRequests.restoreLearner(uuid))),
      ),
    syncLearnerLists: async (uuid: string, lists: string[]) =>
      membershipChanged(
        await call<TSyncLearnerListsResult>(actionRequests.syncLearnerLists(uuid), { lists }),
      ),
    learnerReachability: (uuid: string) =>
      call<TLearnerReachability>(actionRequests.learnerReachability(uuid)),
    learnerDeliveries: (uuid: string) =>
      call<TLearnerCourseDelivery[]>(actionRequests.learnerDeliveries(uuid)),
    learnerConversation: async (uuid: string, query: TConversationQuery = {}) =>
      (
        await provider.custom({
          ...actionRequests.learnerConversation(uuid),
          query: query as Record<string, QueryValue>,
        })
      ).data as unknown as TLearnerConversation,
    courseDeliveryFailures: (uuid: string, classroomUuid?: string) =>
      call<{ items: TCourseDeliveryFailure[]; resendable: boolean }>(
        actionRequests.courseDeliveryFailures(uuid, classroomUuid),
      ),
    resendCourseSends: (uuid: string, request: TResendRequest, classroomUuid?: string) =>
      call<{ lessons: number; invitations: number }>(
        actionRequests.resendCourseSends(uuid, classroomUuid),
        request,
      ),
    requestUpgrade: (requestedFunction: TSubscriptionFunctionKey) =>
      call<TUpgradeRequest>(actionRequests.requestUpgrade(), { requestedFunction }),
    usage: (key: TSubscriptionFunctionKey) => call<TUsage>(actionRequests.usage(key)),
    cancelImport: (uuid: string) => call<TImportJob>(actionRequests.cancelImport(uuid)),
    acceptTerms: (uuids: readonly string[]) =>
      call<{ accepted: string[] }>(
        actionRequests.acceptTerms(),
        uuids.map((uuid) => ({ uuid })),
      ),
  };
};

export type CcpActions = ReturnType<typeof createActions>;
