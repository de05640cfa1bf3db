import { CHANNEL_CONTACT, CONNECTION_FIELDS } from '@ccp/schemas';

import { MARKDOWN } from '../../render-common.ts';
import type { ChannelModule } from '../module.ts';
import { createTeamsConnector } from './client.ts';
import { renderTeamsActivity } from './render.ts';
import { teamsWebhooks } from './webhook.ts';
import { setupValue, webhookUrlOf } from '../setup.ts';
import { TEAMS_APP_PACKAGE_FILE, TEAMS_APP_PACKAGE_PATH } from './app-package.ts';

// Microsoft Teams: a bot (Bot Framework) writing Adaptive Cards into learners' personal chats.

export const teams: ChannelModule = {
  key: 'ms-teams',
  contact: CHANNEL_CONTACT['ms-teams'],
  connectionFields: CONNECTION_FIELDS['ms-teams'],
  // Teams finds a learner among the conversations its webhook kept.
  createConnector: (settings, { db }) => createTeamsConnector(settings.teams, { db }),
  render: renderTeamsActivity,
  textStyle: MARKDOWN,
  // https://learn.microsoft.com/en-us/azure/bot-service/rest-api/bot-framework-rest-connector-api-reference#error-codes
  failureCodes: {
    not_installed: 'app_not_installed',
    conversation_not_found: 'app_not_installed',
    unauthorized: 'auth_failed',
    rejected: 'message_rejected',
  },
  // The segment bots were registered with (messaging endpoint …/webhooks/teams), not the key.
  webhookPath: 'teams',
  setup: ({ publicUrl }) => ({
    values: [
      setupValue('messaging_endpoint', webhookUrlOf(publicUrl, 'teams')),
      setupValue('valid_domain', new URL(publicUrl).host),
    ],
    // The zip is built on request (GET TEAMS_APP_PACKAGE_PATH), with the saved app id.
    downloads: [
      {
        key: 'teams_app_package',
        file_name: TEAMS_APP_PACKAGE_FILE,
        media_type: 'application/zip',
        path: TEAMS_APP_PACKAGE_PATH,
      },
    ],
  }),
  webhooks: teamsWebhooks,
};
