import { CHANNEL_CONTACT, CONNECTION_FIELDS } from '@ccp/schemas';

import type { RenderedPayload } from '../../message.ts';
import type { ChannelModule } from '../module.ts';
import { createGoogleChatConnector } from './client.ts';
import { CHAT_HTML, GOOGLE_CHAT_MESSAGE_BYTES, renderGoogleChat } from './render.ts';
import { googleChatWebhooks } from './webhook.ts';

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
  webhooks: googleChatWebhooks,
};
