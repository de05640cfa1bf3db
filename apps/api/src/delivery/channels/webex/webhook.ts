import { findConnectionByKey, markProved } from '../../connections.ts';
import { applyInbound, parseAction } from '../../inbound.ts';
import { unsigned } from '../webhook.ts';
import type { ChannelWebhooks, WebhookDeps } from '../webhook.ts';
import { fetchAttachmentAction } from './client.ts';
import { parseWebexNotification, verifyWebexRequest } from './inbound.ts';

// Webex: the `attachmentActions` webhook the connection test registered with its secret
// (X-Spark-Signature); the notification names the submit, whose inputs are fetched from Webex.

export const webexWebhooks = (deps: WebhookDeps): ChannelWebhooks => ({
  receive: {
    summary: 'Webex card submit (signed with the webhook secret, X-Spark-Signature)',
    handle: async (request) => {
      const notification = parseWebexNotification(request.raw);
      const connection = notification
        ? await findConnectionByKey(deps, 'webex', notification.createdBy)
        : null;
      const secret = connection?.secrets.webhook_secret;
      if (
        !notification ||
        !connection ||
        !secret ||
        !verifyWebexRequest(secret, request.header('x-spark-signature'), request.raw)
      ) {
        throw unsigned();
      }
      if (notification.resource !== 'attachmentActions' || notification.event !== 'created') {
        return {};
      }
      // A signed submit came back through the registered webhook: the round trip the
      // connection test could not make.
      await markProved(deps, connection, 'webhook_round_trip');
      // The notification names the submit; its inputs are fetched from Webex with the bot's token.
      const submitted = await fetchAttachmentAction(
        deps.channelSettings.webex,
        connection,
        notification.actionId,
      );
      const action = parseAction(submitted.inputs);
      if (!action) return {};
      const status = await applyInbound(deps, {
        channel: 'webex',
        companyUuid: connection.companyUuid,
        providerUserId: submitted.personId,
        providerMessageId: submitted.id,
        action,
      });
      return { body: { status } };
    },
  },
});
