import {
  findConnectionByKey,
  findConnectionByUuid,
  markProved,
  proveProviderKey,
} from '../../connections.ts';
import type { Connection } from '../../message.ts';
import { audienceOf } from '../jwt.ts';
import { unsigned } from '../webhook.ts';
import type { ChannelWebhooks, WebhookDeps } from '../webhook.ts';
import { createGoogleTokenSource } from './client.ts';
import {
  expectedAudience,
  handleChatEvent,
  parseChatEvent,
  proveProjectNumber,
  verifyChatRequest,
} from './inbound.ts';

// Google Chat posts events with a bearer token for one of two audiences: the app's project
// number (a JWT from chat@system.gserviceaccount.com), or the HTTP endpoint URL (a Google ID
// token), which is each connection's own URL.

/**
 * A signed event reached a connection awaiting one: the audience its test could not prove is
 * proved, and the connection is connected (connections.ts markProved).
 */
const verified = async (
  deps: WebhookDeps,
  connection: Connection,
  providerIds: Record<string, string> = {},
) => {
  if (connection.status !== 'awaiting_verification') return;
  await markProved(deps, connection, 'signed_event', { verify: true, providerIds });
};

export const googleChatWebhooks = (deps: WebhookDeps): ChannelWebhooks => {
  const chat = deps.channelSettings.googleChat;
  const tokenOf = createGoogleTokenSource(chat);
  return {
    // "Project Number" audience, at the one URL every company may give Chat: a JWT for a project
    // number routes only to the connection that proved that number (an earlier signed event, or
    // this one when the company's own app is in the event's space).
    receive: {
      summary:
        'Google Chat event, Project Number audience (bearer JWT from chat@system.gserviceaccount.com)',
      handle: async (request) => {
        const event = parseChatEvent(request.raw);
        const authorization = request.header('authorization');
        const projectNumber = audienceOf(authorization) ?? '';
        if (
          !event ||
          !/^\d+$/.test(projectNumber) ||
          !(await verifyChatRequest(
            chat,
            { audience: 'project_number', projectNumber },
            authorization,
            deps.clock.now(),
          ))
        ) {
          throw unsigned();
        }
        const connection =
          (await findConnectionByKey(deps, 'google-chat', projectNumber)) ??
          (await proveProjectNumber(deps, chat, tokenOf, projectNumber, event));
        if (!connection) throw unsigned();
        await verified(deps, connection);
        const status = await handleChatEvent(deps, connection, event);
        return { body: { status } };
      },
    },
    // A connection's own endpoint URL (the Channels page shows it), for either audience: an ID
    // token for exactly this URL, or a JWT for the connection's project number — which,
    // arriving at this company's own URL, proves the number is theirs.
    atConnection: {
      summary:
        'Google Chat event at the connection’s endpoint URL (ID token for the URL, or project number JWT)',
      handle: async (request) => {
        const event = parseChatEvent(request.raw);
        const connection = await findConnectionByUuid(
          deps,
          'google-chat',
          request.params.connection ?? '',
        );
        const expected = connection ? expectedAudience(chat, connection) : null;
        if (
          !event ||
          !connection ||
          !expected ||
          !(await verifyChatRequest(
            chat,
            expected,
            request.header('authorization'),
            deps.clock.now(),
          ))
        ) {
          throw unsigned();
        }
        if (expected.audience === 'project_number') {
          // The number is this company's only once no other holds it (issue 30).
          const holds =
            connection.providerKey === expected.projectNumber ||
            (!connection.providerKey &&
              (await proveProviderKey(deps, connection, expected.projectNumber)));
          if (holds) await verified(deps, connection);
        } else {
          await verified(deps, connection, { verified_endpoint: expected.endpointUrl });
        }
        const status = await handleChatEvent(deps, connection, event);
        return { body: { status } };
      },
    },
  };
};
