import { MESSAGES } from '@ccp/schemas';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';

import {
  parseSlackEvent,
  parseSlackInteraction,
  verifySlackRequest,
} from '../../../delivery/channels/slack/inbound.ts';
import {
  connectionsOfChannel,
  findConnectionByKey,
  findConnectionByUuid,
  proveProviderKey,
} from '../../../delivery/connections.ts';
import {
  handleWhatsAppMessage,
  handleWhatsAppStatus,
  parseWhatsAppWebhook,
  verifyWhatsAppRequest,
} from '../../../delivery/channels/whatsapp/inbound.ts';
import { fetchAttachmentAction } from '../../../delivery/channels/webex/client.ts';
import {
  parseWebexNotification,
  verifyWebexRequest,
} from '../../../delivery/channels/webex/inbound.ts';
import { createGoogleTokenSource } from '../../../delivery/channels/google-chat/client.ts';
import {
  expectedAudience,
  handleChatEvent,
  parseChatEvent,
  proveProjectNumber,
  verifyChatRequest,
} from '../../../delivery/channels/google-chat/inbound.ts';
import { createTokenSource } from '../../../delivery/channels/teams/client.ts';
import { audienceOf } from '../../../delivery/channels/jwt.ts';
import {
  handleTeamsActivity,
  parseTeamsActivity,
  verifyTeamsRequest,
} from '../../../delivery/channels/teams/inbound.ts';
import { applyInbound, applyReply, parseAction } from '../../../delivery/inbound.ts';
import { AppError } from '../../../lib/app-error.ts';

// The providers' webhooks: bodies read raw (signatures are over the exact bytes), each verified
// the way its provider signs before anything is read from it; an unsigned, wrongly signed or
// stale request answers 401 and changes nothing.

const WEBHOOK_BODY_LIMIT = 1024 * 1024;

const unsigned = () => new AppError('UNAUTHENTICATED', MESSAGES.webhookSignatureInvalid);

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

export const webhooksRoutes: FastifyPluginAsync = async (app) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT },
    (_request, body, done) => {
      done(null, body);
    },
  );

  // Slack: the Events API (JSON: the URL check, a learner's message in the app's DM) and
  // interactivity (form-encoded: a tapped button) may share this Request URL.
  const slackSigned = (request: FastifyRequest, raw: string, secret: string | undefined) =>
    secret !== undefined &&
    verifySlackRequest(
      secret,
      {
        signature: header(request, 'x-slack-signature'),
        timestamp: header(request, 'x-slack-request-timestamp'),
      },
      raw,
      app.clock.now().getTime(),
    );

  const slackEvents = async (request: FastifyRequest, raw: string) => {
    const event = parseSlackEvent(raw);
    if (!event) throw unsigned();
    // The URL check names no team: any Slack connection's secret may have signed it.
    const candidates =
      event.kind === 'url_verification'
        ? await connectionsOfChannel(app, 'slack')
        : [await findConnectionByKey(app, 'slack', event.teamId)];
    const connection = candidates.find(
      (candidate) => candidate && slackSigned(request, raw, candidate.secrets.signing_secret),
    );
    if (!connection) throw unsigned();
    if (event.kind === 'url_verification') return { challenge: event.challenge };
    if (event.kind === 'other') return { status: 'ignored' };
    const status = await applyReply(app, {
      channel: 'slack',
      companyUuid: connection.companyUuid,
      providerUserId: event.userId,
      providerMessageId: event.eventId,
      text: event.text,
    });
    return { status };
  };

  app.post(
    '/api/v1/webhooks/slack',
    {
      config: { auth: false },
      schema: {
        tags: ['webhooks'],
        summary:
          'Slack: a learner tapped an answer (interactivity) or wrote one in the DM (Events API); signed v0',
      },
    },
    async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      if (raw.trimStart().startsWith('{')) {
        return reply.code(200).send(await slackEvents(request, raw));
      }
      const interaction = parseSlackInteraction(raw);
      const connection = interaction
        ? await findConnectionByKey(app, 'slack', interaction.teamId)
        : null;
      if (
        !interaction ||
        !connection ||
        !slackSigned(request, raw, connection.secrets.signing_secret)
      ) {
        throw unsigned();
      }
      // Not one of our buttons (a link's click): acknowledged, nothing to record.
      if (!interaction.action) return reply.code(200).send();
      const status = await applyInbound(app, {
        channel: 'slack',
        companyUuid: connection.companyUuid,
        providerUserId: interaction.userId,
        providerMessageId: interaction.eventId,
        action: interaction.action,
      });
      return reply.code(200).send({ status });
    },
  );

  // Webex: the `attachmentActions` webhook the connection test registered with its secret.
  app.post(
    '/api/v1/webhooks/webex',
    {
      config: { auth: false },
      schema: {
        tags: ['webhooks'],
        summary: 'Webex card submit (signed with the webhook secret, X-Spark-Signature)',
      },
    },
    async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const notification = parseWebexNotification(raw);
      const connection = notification
        ? await findConnectionByKey(app, 'webex', notification.createdBy)
        : null;
      const secret = connection?.secrets.webhook_secret;
      if (
        !notification ||
        !connection ||
        !secret ||
        !verifyWebexRequest(secret, header(request, 'x-spark-signature'), raw)
      ) {
        throw unsigned();
      }
      if (notification.resource !== 'attachmentActions' || notification.event !== 'created') {
        return reply.code(200).send();
      }
      // The notification names the submit; its inputs are fetched from Webex with the bot's token.
      const submitted = await fetchAttachmentAction(
        app.channelSettings.webex,
        connection,
        notification.actionId,
      );
      const action = parseAction(submitted.inputs);
      if (!action) return reply.code(200).send();
      const status = await applyInbound(app, {
        channel: 'webex',
        companyUuid: connection.companyUuid,
        providerUserId: submitted.personId,
        providerMessageId: submitted.id,
        action,
      });
      return reply.code(200).send({ status });
    },
  );

  // WhatsApp: the subscription check (GET with hub.verify_token) of the app's webhook settings.
  app.get(
    '/api/v1/webhooks/whatsapp',
    {
      config: { auth: false },
      schema: {
        tags: ['webhooks'],
        summary: 'WhatsApp webhook verification: answers hub.challenge for the right verify token',
      },
    },
    async (request, reply) => {
      const query = request.query as Record<string, string | undefined>;
      const given = query['hub.verify_token'] ?? '';
      const connections = await connectionsOfChannel(app, 'whatsapp');
      const known = connections.some(
        (connection) => given !== '' && connection.secrets.verify_token === given,
      );
      if (query['hub.mode'] !== 'subscribe' || !known) throw unsigned();
      return reply
        .code(200)
        .type('text/plain')
        .send(query['hub.challenge'] ?? '');
    },
  );

  // WhatsApp: learners' messages and taps, and the statuses of ours (signed with the app
  // secret, X-Hub-Signature-256).
  app.post(
    '/api/v1/webhooks/whatsapp',
    {
      config: { auth: false },
      schema: {
        tags: ['webhooks'],
        summary:
          'WhatsApp message or status: a learner tapped Start, Join or an answer, or typed; a message of ours was delivered, read or failed',
      },
    },
    async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const parsed = parseWhatsAppWebhook(raw);
      const connection = parsed
        ? await findConnectionByKey(app, 'whatsapp', parsed.phoneNumberId)
        : null;
      const secret = connection?.secrets.app_secret;
      if (
        !parsed ||
        !connection ||
        !secret ||
        !verifyWhatsAppRequest(secret, header(request, 'x-hub-signature-256'), raw)
      ) {
        throw unsigned();
      }
      let status: string = 'ignored';
      // Statuses first: they are idempotent, so a 503 below (Meta delivers again) repeats nothing.
      for (const receipt of parsed.statuses) {
        status = await handleWhatsAppStatus(app, connection, receipt);
      }
      for (const message of parsed.messages) {
        status = await handleWhatsAppMessage(app, connection, message);
      }
      return reply.code(200).send({ status });
    },
  );

  // Teams: the Bot Connector posts activities with an RS256 bearer token whose signing key must
  // endorse the activity's channel (msteams); only personal conversations are kept (inbound.ts).
  const teamsToken = createTokenSource(app.channelSettings.teams);
  app.post(
    '/api/v1/webhooks/teams',
    {
      config: { auth: false },
      schema: {
        tags: ['webhooks'],
        summary:
          'Teams activity: the app installed or removed in a personal chat, a message or a card submitted (Bot Framework JWT)',
      },
    },
    async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const activity = parseTeamsActivity(raw);
      const authorization = header(request, 'authorization');
      const appId = audienceOf(authorization);
      const connection =
        activity && appId ? await findConnectionByKey(app, 'ms-teams', appId) : null;
      if (
        !activity ||
        !appId ||
        !connection ||
        !(await verifyTeamsRequest(
          app.channelSettings.teams,
          appId,
          authorization,
          activity,
          app.clock.now(),
        ))
      ) {
        throw unsigned();
      }
      const status = await handleTeamsActivity(app, teamsToken, connection, activity);
      return reply.code(200).send({ status });
    },
  );

  // Google Chat, "Project Number" audience, at the one URL every company may give Chat: a JWT
  // for a project number routes only to the connection that proved that number (an earlier
  // signed event, or this one when the company's own app is in the event's space).
  const chat = app.channelSettings.googleChat;
  const chatToken = createGoogleTokenSource(chat);
  app.post(
    '/api/v1/webhooks/google-chat',
    {
      config: { auth: false },
      schema: {
        tags: ['webhooks'],
        summary:
          'Google Chat event, Project Number audience (bearer JWT from chat@system.gserviceaccount.com)',
      },
    },
    async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const event = parseChatEvent(raw);
      const authorization = header(request, 'authorization');
      const projectNumber = audienceOf(authorization) ?? '';
      if (
        !event ||
        !/^\d+$/.test(projectNumber) ||
        !(await verifyChatRequest(
          chat,
          { audience: 'project_number', projectNumber },
          authorization,
          app.clock.now(),
        ))
      ) {
        throw unsigned();
      }
      const connection =
        (await findConnectionByKey(app, 'google-chat', projectNumber)) ??
        (await proveProjectNumber(app, chat, chatToken, projectNumber, event));
      if (!connection) throw unsigned();
      const status = await handleChatEvent(app, connection, event);
      return reply.code(200).send({ status });
    },
  );

  // Google Chat at a connection's own endpoint URL (the Channels page shows it), for either
  // audience: an ID token for exactly this URL, or a JWT for the connection's project number —
  // which, arriving at this company's own URL, proves the number is theirs.
  app.post(
    '/api/v1/webhooks/google-chat/:connection',
    {
      config: { auth: false },
      schema: {
        tags: ['webhooks'],
        summary:
          'Google Chat event at the connection’s endpoint URL (ID token for the URL, or project number JWT)',
      },
    },
    async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const event = parseChatEvent(raw);
      const { connection: uuid } = request.params as { connection: string };
      const connection = await findConnectionByUuid(app, 'google-chat', uuid);
      const expected = connection ? expectedAudience(chat, connection) : null;
      if (
        !event ||
        !connection ||
        !expected ||
        !(await verifyChatRequest(
          chat,
          expected,
          header(request, 'authorization'),
          app.clock.now(),
        ))
      ) {
        throw unsigned();
      }
      if (expected.audience === 'project_number' && !connection.providerKey) {
        await proveProviderKey(app, connection, expected.projectNumber);
      }
      const status = await handleChatEvent(app, connection, event);
      return reply.code(200).send({ status });
    },
  );
};
