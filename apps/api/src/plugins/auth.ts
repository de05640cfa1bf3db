import { MESSAGES } from '@ccp/schemas';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

import type { AuthContext } from '../context.ts';
import { AppError } from '../lib/app-error.ts';
import { findAccessToken } from '../lib/tokens.ts';

const bearerOf = (request: FastifyRequest): string | null => {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1] ?? null;
};

/**
 * Every `/api/` route needs a bearer token unless its config says `auth: false`.
 * First-step (pre-2FA) tokens open only routes that say `auth: 'otp'`.
 */
export const authPlugin = fp(
  (app: FastifyInstance) => {
    app.decorateRequest('auth', null);
    app.addHook('onRequest', async (request) => {
      const required = request.routeOptions.config.auth;
      if (required === false || !request.url.startsWith('/api/')) return;
      // The OpenAPI document and its UI are public, like the contract they describe.
      if (request.url.startsWith('/api/docs')) return;
      if (request.routeOptions.url === undefined) return; // 404s answer as not found, not 401
      const token = bearerOf(request);
      const found = token ? await findAccessToken(app, token) : null;
      if (!found) throw new AppError('UNAUTHENTICATED', MESSAGES.unauthenticated);
      if (found.stage === 'otp' && required !== 'otp') {
        throw new AppError('TWO_FACTOR_REQUIRED', MESSAGES.twoFactorRequired);
      }
      request.auth = found;
    });
  },
  { name: 'ccp-auth', dependencies: ['ccp-errors'] },
);

/** The caller of an authenticated route; throws if the route was declared public by mistake. */
export const authOf = (request: FastifyRequest): AuthContext => {
  if (!request.auth) throw new AppError('UNAUTHENTICATED', MESSAGES.unauthenticated);
  return request.auth;
};
