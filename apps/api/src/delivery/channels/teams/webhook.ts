import { findConnectionByKey } from '../../connections.ts';
import { audienceOf } from '../jwt.ts';
import { unsigned } from '../webhook.ts';
import type { ChannelWebhooks, WebhookDeps } from '../webhook.ts';
import { createTokenSource } from './client.ts';
import { handleTeamsActivity, parseTeamsActivity, verifyTeamsRequest } from './inbound.ts';

// Teams: the Bot Connector posts activities with an RS256 bearer token whose signing key must
// endorse the activity's channel (msteams); only personal conversations are kept (inbound.ts).

export const teamsWebhooks = (deps: WebhookDeps): ChannelWebhooks => {
  const tokenOf = createTokenSource(deps.channelSettings.teams);
  return {
    receive: {
      summary:
        'Teams activity: the app installed or removed in a personal chat, a message or a card submitted (Bot Framework JWT)',
      handle: async (request) => {
        const activity = parseTeamsActivity(request.raw);
        const authorization = request.header('authorization');
        const appId = audienceOf(authorization);
        const connection =
          activity && appId ? await findConnectionByKey(deps, 'ms-teams', appId) : null;
        if (
          !activity ||
          !appId ||
          !connection ||
          !(await verifyTeamsRequest(
            deps.channelSettings.teams,
            appId,
            authorization,
            activity,
            deps.clock.now(),
          ))
        ) {
          throw unsigned();
        }
        const status = await handleTeamsActivity(deps, tokenOf, connection, activity);
        return { body: { status } };
      },
    },
  };
};
