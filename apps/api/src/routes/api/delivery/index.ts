import {
  CHANNEL_KEYS,
  MESSAGES,
  ZChannelEventsRequestSchema,
  ZChannelEventsResponseSchema,
  ZChannelParamsSchema,
  ZChannelTokenParamsSchema,
  ZChannelTokenResponseSchema,
  ZCreatedChannelTokenResponseSchema,
  ZListChannelTokensResponseSchema,
} from '@ccp/schemas';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { applyChannelEvents } from '../../../delivery/events.ts';
import type { ChannelCaller } from '../../../delivery/events.ts';
import {
  createChannelToken,
  findChannelCaller,
  listChannelTokens,
  revokeChannelToken,
} from '../../../delivery/tokens.ts';
import { AppError, notFound } from '../../../lib/app-error.ts';
import { authOf } from '../../../plugins/auth.ts';

const TAGS = ['channels'];

const bearerOf = (request: FastifyRequest): string | null => {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1] ?? null;
};

// The channel a request was authenticated for, set by the events route's onRequest hook.
const callers = new WeakMap<FastifyRequest, ChannelCaller>();

const adminCompanyOf = (request: FastifyRequest): string => {
  const { user } = authOf(request);
  if (user.is_admin !== 1) throw new AppError('FORBIDDEN', MESSAGES.channelTokensAdminOnly);
  return user.company_uuid;
};

/**
 * The channels' side of delivery: the events endpoint a connector reports to with a channel
 * token, and the administrators' management of those tokens.
 */
export const deliveryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/v1/channels/:channel/events',
    {
      config: { auth: false },
      // Authenticate before the body is validated: an unknown caller learns nothing about it.
      onRequest: async (request) => {
        const { channel } = request.params as { channel?: string };
        if (!channel || !(CHANNEL_KEYS as readonly string[]).includes(channel)) throw notFound();
        const token = bearerOf(request);
        const caller = token ? await findChannelCaller(app, token, channel) : null;
        if (!caller) throw new AppError('UNAUTHENTICATED', MESSAGES.unauthenticated);
        callers.set(request, caller);
      },
      schema: {
        tags: TAGS,
        summary:
          'Report learner events from a channel (delivered, read, answered, opted in, declined)',
        description:
          'Authenticated with a channel token of the company (`Authorization: Bearer <channel token>`, see the tokens calls), not a user token. `delivered`, `read` and `answered` name the lesson send by `delivery_uuid` (answered: `answer: {correct, text?}`); `opted_in` and `declined` name the enrolment by `course_uuid` and `learner_uuid`. `occurred_at` is ISO 8601 with a zone. The batch (1 to 500 events) is applied all or nothing: an unknown delivery or enrolment (or one of another company or channel) answers 404, a lesson not sent yet or an opt-in after the enrolment close time 422. A repeated event answers `duplicate` and changes nothing. See docs/delivery.md.',
        security: [{ bearer: [] }],
        params: ZChannelParamsSchema,
        body: ZChannelEventsRequestSchema,
        response: { 200: ZChannelEventsResponseSchema },
      },
    },
    async (request) => {
      const caller = callers.get(request);
      if (!caller) throw new AppError('UNAUTHENTICATED', MESSAGES.unauthenticated);
      const results = await applyChannelEvents(app, caller, request.body.events);
      const recorded = results.filter((result) => result.status === 'recorded').length;
      return {
        data: {
          received: results.length,
          recorded,
          duplicates: results.length - recorded,
          results,
        },
      };
    },
  );

  app.get(
    '/api/v1/channels/:channel/tokens',
    {
      schema: {
        tags: TAGS,
        summary: 'List the company’s tokens for a channel (administrators)',
        description: 'Newest first, without the secrets.',
        params: ZChannelParamsSchema,
        response: { 200: ZListChannelTokensResponseSchema },
      },
    },
    async (request) => ({
      data: await listChannelTokens(app, adminCompanyOf(request), request.params.channel),
    }),
  );

  app.post(
    '/api/v1/channels/:channel/tokens',
    {
      schema: {
        tags: TAGS,
        summary: 'Create a channel token for the events endpoint (administrators)',
        description:
          'Answers the secret `token` once; only its SHA-256 hash is stored. The channel connector sends it as `Authorization: Bearer <token>` to `POST /api/v1/channels/{channel}/events`.',
        params: ZChannelParamsSchema,
        response: { 201: ZCreatedChannelTokenResponseSchema },
      },
    },
    async (request, reply) => {
      const companyUuid = adminCompanyOf(request);
      const token = await createChannelToken(app, companyUuid, request.params.channel);
      return reply.code(201).send({ data: token });
    },
  );

  app.delete(
    '/api/v1/channels/:channel/tokens/:tokenUuid',
    {
      schema: {
        tags: TAGS,
        summary: 'Revoke a channel token (administrators)',
        description:
          'Idempotent: revoking a revoked token answers it with its first revocation time.',
        params: ZChannelTokenParamsSchema,
        response: { 200: ZChannelTokenResponseSchema },
      },
    },
    async (request) => {
      const { channel, tokenUuid } = request.params;
      const token = await revokeChannelToken(app, adminCompanyOf(request), channel, tokenUuid);
      if (!token) throw notFound();
      return { data: token };
    },
  );
};
