import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';

import { CHANNELS } from '../../../delivery/channels/index.ts';
import type { WebhookEndpoint, WebhookRequest } from '../../../delivery/channels/webhook.ts';

// The providers' webhooks, one handler for all: each channel module at its path
// (/api/v1/webhooks/<webhookPath>) receives the raw body (signatures are over the exact bytes)
// and the headers, verifies them the way its provider signs before anything is read, and answers
// 401 with nothing changed for an unsigned, wrongly signed or stale request (Teams: 403, as the Bot
// Connector's authentication page asks, teams/webhook.ts). The paths stay the
// ones providers were given; each is its own route, so the API document names every one.

const WEBHOOK_BODY_LIMIT = 1024 * 1024;

const webhookRequest = (request: FastifyRequest): WebhookRequest => ({
  raw: typeof request.body === 'string' ? request.body : '',
  header: (name) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  },
  query: request.query as Record<string, string | undefined>,
  params: request.params as Record<string, string | undefined>,
});

const answer =
  (endpoint: WebhookEndpoint) => async (request: FastifyRequest, reply: FastifyReply) => {
    const { body, contentType } = await endpoint.handle(webhookRequest(request));
    reply.code(200);
    if (contentType) reply.type(contentType);
    return reply.send(body);
  };

const options = (endpoint: WebhookEndpoint) => ({
  config: { auth: false as const },
  schema: { tags: ['webhooks'], summary: endpoint.summary },
});

export const webhooksRoutes: FastifyPluginAsync = async (app) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT },
    (_request, body, done) => {
      done(null, body);
    },
  );

  for (const channel of Object.values(CHANNELS)) {
    const url = `/api/v1/webhooks/${channel.webhookPath}`;
    const { receive, check, atConnection } = channel.webhooks(app);
    app.post(url, options(receive), answer(receive));
    if (check) app.get(url, options(check), answer(check));
    if (atConnection) app.post(`${url}/:connection`, options(atConnection), answer(atConnection));
  }
};
