import { MESSAGES } from '@ccp/schemas';

import { AppError } from '../../../lib/app-error.ts';
import { findConnectionByKey } from '../../connections.ts';
import { audienceOf } from '../jwt.ts';
import type { ChannelWebhooks, WebhookDeps } from '../webhook.ts';
import { createTokenSource } from './client.ts';
import { handleTeamsActivity, parseTeamsActivity, verifyTeamsRequest } from './inbound.ts';

// Teams: the Bot Connector posts activities with an RS256 bearer token whose signing key must
// endorse the activity's channel (msteams); only personal conversations are kept (inbound.ts).

/**
 * A request whose token is missing or fails any requirement (Bearer scheme, issuer, audience the
 * bot's app id, lifetime, signature, serviceUrl claim, the key's endorsement of msteams) is
 * answered 403 Forbidden, as the Bot Connector's authentication page asks of a bot
 * (https://learn.microsoft.com/en-us/azure/bot-service/rest-api/bot-framework-rest-connector-authentication,
 * "Connector to Bot", steps 3 and 4), not the 401 the other providers' webhooks answer.
 */
const forbidden = () => new AppError('FORBIDDEN', MESSAGES.webhookSignatureInvalid);

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
          throw forbidden();
        }
        const status = await handleTeamsActivity(deps, tokenOf, connection, activity);
        return { body: { status } };
      },
    },
  };
};
