import { connectionsOfChannel, findConnectionByKey } from '../../connections.ts';
import { unsigned } from '../webhook.ts';
import type { ChannelWebhooks, WebhookDeps } from '../webhook.ts';
import {
  handleWhatsAppMessage,
  handleWhatsAppStatus,
  parseWhatsAppWebhook,
  verifyWhatsAppRequest,
} from './inbound.ts';

// WhatsApp: the subscription check of the app's webhook settings (GET with hub.verify_token),
// then learners' messages and taps, and the statuses of ours, signed with the app secret
// (X-Hub-Signature-256).

export const whatsappWebhooks = (deps: WebhookDeps): ChannelWebhooks => ({
  check: {
    summary: 'WhatsApp webhook verification: answers hub.challenge for the right verify token',
    handle: async ({ query }) => {
      const given = query['hub.verify_token'] ?? '';
      const connections = await connectionsOfChannel(deps, 'whatsapp');
      const known = connections.some(
        (connection) => given !== '' && connection.secrets.verify_token === given,
      );
      if (query['hub.mode'] !== 'subscribe' || !known) throw unsigned();
      return { body: query['hub.challenge'] ?? '', contentType: 'text/plain' };
    },
  },
  receive: {
    summary:
      'WhatsApp message or status: a learner tapped Start, Join or an answer, or typed; a message of ours was delivered, read or failed',
    handle: async (request) => {
      const parsed = parseWhatsAppWebhook(request.raw);
      const connection = parsed
        ? await findConnectionByKey(deps, 'whatsapp', parsed.phoneNumberId)
        : null;
      const secret = connection?.secrets.app_secret;
      if (
        !parsed ||
        !connection ||
        !secret ||
        !verifyWhatsAppRequest(secret, request.header('x-hub-signature-256'), request.raw)
      ) {
        throw unsigned();
      }
      let status: string = 'ignored';
      // Statuses first: they are idempotent, so a 503 below (Meta delivers again) repeats nothing.
      for (const receipt of parsed.statuses) {
        status = await handleWhatsAppStatus(deps, connection, receipt);
      }
      for (const message of parsed.messages) {
        status = await handleWhatsAppMessage(deps, connection, message);
      }
      return { body: { status } };
    },
  },
});
