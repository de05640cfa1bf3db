import { CHANNEL_CONTACT, CONNECTION_FIELDS } from '@ccp/schemas';

import { MARKDOWN } from '../../render-common.ts';
import type { ChannelModule } from '../module.ts';
import { createWebexConnector, webexWebhookUrl } from './client.ts';
import { renderWebex } from './render.ts';
import { webexWebhooks } from './webhook.ts';
import { setupValue, webhookUrlOf } from '../setup.ts';

// Webex: a bot posting markdown and an Adaptive Card to the learner's e-mail.

export const webex: ChannelModule = {
  key: 'webex',
  contact: CHANNEL_CONTACT.webex,
  connectionFields: CONNECTION_FIELDS.webex,
  createConnector: (settings) => createWebexConnector(settings.webex),
  render: renderWebex,
  textStyle: MARKDOWN,
  // client.ts WEBEX_STATUSES names Webex's response codes
  // (https://developer.webex.com/docs/api/v1/messages/create-a-message, "Response Codes")
  failureCodes: {
    person_not_found: 'learner_not_found',
    token_invalid: 'auth_failed',
    forbidden: 'auth_failed',
    message_invalid: 'message_rejected',
  },
  webhookPath: 'webex',
  setup: ({ publicUrl }) => ({
    // Registered by the connection itself (client.ts); shown so the administrator knows it.
    values: [setupValue('webhook_url', webhookUrlOf(publicUrl, 'webex'))],
    downloads: [],
  }),
  webhooks: webexWebhooks,
  // Answers come back only through the webhook registered at this server's public https address.
  connectionRefusal: (settings) => {
    const target = webexWebhookUrl(settings.webex);
    return typeof target === 'string' ? null : target.refused;
  },
};
