import {
  API_TOKEN_SCOPES,
  ZApiTokenResponseSchema,
  ZCreateApiTokenRequestSchema,
  ZListApiTokensResponseSchema,
  ZRevokedAllApiTokensResponseSchema,
  ZRevokedApiTokenResponseSchema,
  ZUuidParamsSchema,
} from '@ccp/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { newApiToken, revokeAllApiTokens, serializeApiToken } from '../../../lib/api-tokens.ts';
import { notFound } from '../../../lib/app-error.ts';
import { newUuid } from '../../../lib/ids.ts';
import { authOf } from '../../../plugins/auth.ts';
import { requireFreshCode } from '../auth/shared.ts';

// Personal API tokens (issue 12): made with a fresh 2FA code, shown once, listed with their last
// use, revoked at any time. A token itself can never reach these routes (lib/token-scopes.ts).

const tags = ['api tokens'];
const DAY_MS = 24 * 60 * 60 * 1000;

export const apiTokensRoutes: FastifyPluginAsyncZod = async (app) => {
  // The token is in the creation answer: never cached.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.post(
    '/api/v1/users/me/tokens',
    {
      schema: {
        tags,
        summary: 'Create a personal API token (shown once)',
        'x-errors': [429],
        description: `Body {name, scopes, expires_in_days (1–365, default 90), code}: code is a fresh code of the user's authenticator, spent like a sign-in code (wrong codes count towards the 429 limit; a code whose step was used answers CODE_ALREADY_USED). Scopes: ${API_TOKEN_SCOPES.join(', ')}. The answer's token is the only copy: the server keeps a hash.`,
        body: ZCreateApiTokenRequestSchema,
        response: { 201: ZApiTokenResponseSchema },
      },
    },
    async (request, reply) => {
      const { user } = authOf(request);
      await requireFreshCode(request, reply, user, request.body.code);

      const now = app.clock.now();
      const { token, hash, hint } = newApiToken();
      const row = {
        uuid: newUuid(),
        user_uuid: user.uuid,
        name: request.body.name,
        token_hash: hash,
        hint,
        scopes: JSON.stringify(request.body.scopes),
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + request.body.expires_in_days * DAY_MS).toISOString(),
        last_used_at: null,
        revoked_at: null,
      };
      await app.db.insertInto('api_tokens').values(row).execute();
      return reply.code(201).send({ data: { ...serializeApiToken(row), token } });
    },
  );

  app.get(
    '/api/v1/users/me/tokens',
    {
      schema: {
        tags,
        summary: "The user's API tokens that are not revoked (expired ones too), newest first",
        response: { 200: ZListApiTokensResponseSchema },
      },
    },
    async (request) => {
      const rows = await app.db
        .selectFrom('api_tokens')
        .selectAll()
        .where('user_uuid', '=', authOf(request).user.uuid)
        .where('revoked_at', 'is', null)
        .orderBy('created_at', 'desc')
        .orderBy('uuid')
        .execute();
      return { data: rows.map(serializeApiToken) };
    },
  );

  app.delete(
    '/api/v1/users/me/tokens',
    {
      schema: {
        tags,
        summary: 'Revoke all your API tokens: they stop working at once',
        description:
          'For a token that may have leaked with no way to tell which. A password reset by e-mail link and an administrator’s reset of your 2FA do the same.',
        response: { 200: ZRevokedAllApiTokensResponseSchema },
      },
    },
    async (request) => ({
      data: { revoked: await revokeAllApiTokens(app, authOf(request).user.uuid) },
    }),
  );

  app.delete(
    '/api/v1/users/me/tokens/:uuid',
    {
      schema: {
        tags,
        summary: 'Revoke an API token: it stops working at once',
        params: ZUuidParamsSchema,
        response: { 200: ZRevokedApiTokenResponseSchema },
      },
    },
    async (request) => {
      const revoked = await app.db
        .updateTable('api_tokens')
        .set({ revoked_at: app.clock.now().toISOString() })
        .where('uuid', '=', request.params.uuid)
        .where('user_uuid', '=', authOf(request).user.uuid)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(revoked.numUpdatedRows) !== 1) throw notFound();
      return { data: { revoked: request.params.uuid } };
    },
  );
};
