import { CHANNEL_CONTACT, CONNECTION_FIELDS } from '@ccp/schemas';

import { MARKDOWN } from '../../render-common.ts';
import type { ChannelModule } from '../module.ts';
import { createWebexConnector } from './client.ts';
import { renderWebex } from './render.ts';
import { webexWebhooks } from './webhook.ts';

// Webex: a bot posting markdown and an Adaptive Card to the learner's e-mail.

export const webex: ChannelModule = {
  key: 'webex',
  contact: CHANNEL_CONTACT.webex,
  connectionFields: CONNECTION_FIELDS.webex,
  createConnector: (settings) => createWebexConnector(settings.webex),
  render: renderWebex,
  textStyle: MARKDOWN,
  // https://developer.webex.com/docs/basics (HTTP status codes; `errors[].description`)
  failureCodes: {
    person_not_found: 'learner_not_found',
    http_401: 'auth_failed',
    http_403: 'auth_failed',
    http_400: 'message_rejected',
  },
  webhookPath: 'webex',
  webhooks: webexWebhooks,
};
