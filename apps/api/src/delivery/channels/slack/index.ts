import { CHANNEL_CONTACT, CONNECTION_FIELDS } from '@ccp/schemas';

import type { ChannelModule } from '../module.ts';
import { createSlackConnector } from './client.ts';
import { slackOAuth } from './oauth.ts';
import { SLACK_LIMITS, SLACK_MRKDWN, renderSlack } from './render.ts';
import { slackWebhooks } from './webhook.ts';
import { slackSetup } from './manifest.ts';

// Slack: a Slack app (bot token by "Add to Slack" or pasted), Block Kit messages in the app's DM.

export const slack: ChannelModule = {
  key: 'slack',
  contact: CHANNEL_CONTACT.slack,
  connectionFields: CONNECTION_FIELDS.slack,
  createConnector: (settings) => createSlackConnector(settings.slack),
  render: renderSlack,
  textStyle: SLACK_MRKDWN,
  previewIssues: ({ answers }) => {
    const max = SLACK_LIMITS.buttonText;
    return answers.some((answer) => [...answer].length > max)
      ? [{ code: 'buttonTextCut', params: { max } }]
      : [];
  },
  // https://api.slack.com/methods/users.lookupByEmail#errors, /methods/chat.postMessage#errors
  failureCodes: {
    users_not_found: 'learner_not_found',
    user_not_found: 'learner_not_found',
    user_disabled: 'learner_not_found',
    account_inactive: 'auth_failed',
    invalid_auth: 'auth_failed',
    not_authed: 'auth_failed',
    token_revoked: 'auth_failed',
    token_expired: 'auth_failed',
    missing_scope: 'auth_failed',
    no_permission: 'auth_failed',
    team_access_not_granted: 'auth_failed',
    invalid_blocks: 'message_rejected',
    invalid_blocks_format: 'message_rejected',
    msg_too_long: 'message_rejected',
    too_many_attachments: 'message_rejected',
    cannot_dm_bot: 'learner_not_found',
  },
  webhookPath: 'slack',
  setup: slackSetup,
  webhooks: slackWebhooks,
  oauth: slackOAuth,
};
