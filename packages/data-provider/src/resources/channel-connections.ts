import type { TChannelConnection } from '@ccp/schemas';
import type { CustomParams } from '@refinedev/core';

import { apiData, segment, wholeList } from '../utils/api.ts';
import { readFilters, rejectSorters } from '../utils/query.ts';
import type { ResourceHandlers } from './types.ts';

export const CHANNEL_CONNECTIONS_PATH = '/api/v1/channel-connections';

/**
 * channel-connections: the company's five chat providers (id: the channel key). GET (whole
 * list), PUT /{channel} {fields} connects and tests, DELETE /{channel} disconnects.
 */
export const channelConnectionsResource: ResourceHandlers = {
  getList: async (params, context) => {
    rejectSorters('channel-connections', params.sorters);
    readFilters('channel-connections', params.filters, {});
    const rows = await apiData<TChannelConnection[]>(context, 'GET', CHANNEL_CONNECTIONS_PATH);
    return wholeList(rows.map((row) => ({ ...row, id: row.channel })));
  },
  update: async (id, variables, context) =>
    apiData<TChannelConnection>(context, 'PUT', `${CHANNEL_CONNECTIONS_PATH}/${segment(id)}`, {
      body: { fields: variables.fields },
    }),
  deleteOne: async (id, context) =>
    apiData(context, 'DELETE', `${CHANNEL_CONNECTIONS_PATH}/${segment(id)}`),
};

type ActionRequest = Pick<CustomParams, 'url' | 'method'>;

export const channelConnectionActionRequests = {
  /** Tests a connection with its provider; answers the connection. */
  testChannelConnection: (channel: string) =>
    ({
      url: `${CHANNEL_CONNECTIONS_PATH}/${encodeURIComponent(channel)}/test`,
      method: 'post',
    }) satisfies ActionRequest,
  /** The provider's setup guide (administrators): values to paste, files to upload, a refusal. */
  channelSetup: (channel: string) =>
    ({
      url: `${CHANNEL_CONNECTIONS_PATH}/${encodeURIComponent(channel)}/setup`,
      method: 'get',
    }) satisfies ActionRequest,
  /**
   * "Create missing templates" (WhatsApp): creates at Meta the guide's templates the business
   * account lacks, tests the connection again; answers per name and language what Meta said.
   */
  createWhatsAppTemplates: () =>
    ({
      url: `${CHANNEL_CONNECTIONS_PATH}/whatsapp/templates`,
      method: 'post',
    }) satisfies ActionRequest,
  /** The administrator's last test lesson on the channel (to poll) and the contact to prefill. */
  testLessonState: (channel: string) =>
    ({
      url: `${CHANNEL_CONNECTIONS_PATH}/${encodeURIComponent(channel)}/test-lesson`,
      method: 'get',
    }) satisfies ActionRequest,
  /** Sends the administrator the sample lesson, `{ address }`; answers the test lesson. */
  sendTestLesson: (channel: string) =>
    ({
      url: `${CHANNEL_CONNECTIONS_PATH}/${encodeURIComponent(channel)}/test-lesson`,
      method: 'post',
    }) satisfies ActionRequest,
  /** No payload (the redirect URL is the server's CCP_PUBLIC_URL); answers `{ url }` of Slack's authorize page. */
  installSlack: () =>
    ({ url: `${CHANNEL_CONNECTIONS_PATH}/slack/install`, method: 'post' }) satisfies ActionRequest,
};
