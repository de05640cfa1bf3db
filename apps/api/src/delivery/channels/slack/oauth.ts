import type { WebClient } from '@slack/web-api';

import type { ChannelOAuth } from '../module.ts';
import { classifySlackError, slackClient } from './client.ts';

// "Add to Slack": OAuth v2 (https://api.slack.com/authentication/oauth-v2). The administrator
// approves the app at Slack's authorize URL; Slack sends them back with a code, which
// oauth.v2.access exchanges for the bot token.

// im:history: the learner's messages in the app's DM (Events API `message.im`), open answers.
export const SLACK_SCOPES = [
  'chat:write',
  'im:history',
  'im:write',
  'users:read',
  'users:read.email',
] as const;

/** Where Slack sends the administrator back after "Add to Slack" (the app's redirect URL). */
export const SLACK_OAUTH_PATH = '/api/v1/webhooks/slack/oauth';

/** The redirect URL this server gives Slack: on its public URL, as the app's settings must list it. */
export const slackRedirectUrl = (publicUrl: string) => `${publicUrl}${SLACK_OAUTH_PATH}`;

export const slackOAuth: ChannelOAuth = {
  authorizeUrl: (settings, { clientId, redirectUri, state }) => {
    const url = new URL(settings.slack.authorizeUrl);
    url.searchParams.set('client_id', clientId);
    url.searchParams.set('scope', SLACK_SCOPES.join(','));
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('state', state);
    return url.toString();
  },
  exchange: async (settings, { clientId, clientSecret, code, redirectUri }) => {
    let access: Awaited<ReturnType<WebClient['oauth']['v2']['access']>>;
    try {
      access = await (
        await slackClient(settings.slack, undefined)
      ).oauth.v2.access({
        client_id: clientId,
        client_secret: clientSecret,
        code,
        // Slack requires the redirect URI the authorize URL carried, else bad_redirect_uri.
        redirect_uri: redirectUri,
      });
    } catch (error) {
      return { ok: false, code: classifySlackError(error).code, error };
    }
    if (!access.access_token) return { ok: false, code: 'no_token' };
    return {
      ok: true,
      providerIds: { team_id: access.team?.id ?? '' },
      secrets: { bot_token: access.access_token },
    };
  },
  // A Slack app saved with its client id and secret but no bot token waits for "Add to Slack".
  awaitsInstall: (connection) => !connection.secrets.bot_token,
};
