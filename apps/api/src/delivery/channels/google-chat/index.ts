import { CHANNEL_CONTACT, CONNECTION_FIELDS } from '@ccp/schemas';

import type { RenderedPayload } from '../../message.ts';
import type { ChannelModule } from '../module.ts';
import { chatEndpointUrl, createGoogleChatConnector } from './client.ts';
import { CHAT_HTML, GOOGLE_CHAT_MESSAGE_BYTES, renderGoogleChat } from './render.ts';
import { googleChatWebhooks } from './webhook.ts';
import { setupValue, webhookUrlOf } from '../setup.ts';

// Google Chat: a Chat app (service account) writing cards into learners' direct-message spaces.

const bytesOf = (payload: RenderedPayload) => Buffer.byteLength(JSON.stringify(payload), 'utf8');

export const googleChat: ChannelModule = {
  key: 'google-chat',
  contact: CHANNEL_CONTACT['google-chat'],
  connectionFields: CONNECTION_FIELDS['google-chat'],
  // The connector finds a learner among the Chat users its webhook kept (users.ts).
  createConnector: (settings, { db }) =>
    createGoogleChatConnector(settings.googleChat, undefined, db),
  render: renderGoogleChat,
  textStyle: CHAT_HTML,
  // Nothing splits a Chat message: one over the size is said before the course starts.
  previewIssues: (_lesson, payload) =>
    bytesOf(payload) > GOOGLE_CHAT_MESSAGE_BYTES
      ? [{ code: 'textTooLong', params: { max: GOOGLE_CHAT_MESSAGE_BYTES } }]
      : [],
  // channels/google-chat/client.ts names Google's errors (https://developers.google.com/workspace/chat/api/reference/rest)
  failureCodes: {
    app_not_added: 'app_not_installed',
    credentials_invalid: 'auth_failed',
    permission_denied: 'auth_failed',
    service_account_invalid: 'auth_failed',
    message_invalid: 'message_rejected',
  },
  webhookPath: 'google-chat',
  setup: ({ publicUrl, connection }) => ({
    // The HTTP endpoint URL audience needs the connection's own URL (known once it is saved);
    // the project number audience shares one URL.
    values: [
      ...(connection
        ? [setupValue('endpoint_url', chatEndpointUrl(publicUrl, connection.uuid))]
        : []),
      setupValue('shared_endpoint_url', webhookUrlOf(publicUrl, 'google-chat')),
    ],
    downloads: [],
  }),
  webhooks: googleChatWebhooks,
};
