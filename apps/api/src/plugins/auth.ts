import { MESSAGES } from '@ccp/schemas';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

import { touchSession } from '../accounts/sessions.ts';
import type { AuthContext } from '../context.ts';
import { findApiToken, isApiToken } from '../lib/api-tokens.ts';
import { messageText } from '../i18n/messages.ts';
import { AppError } from '../lib/app-error.ts';
import { routeScope, scopesAllow } from '../lib/token-scopes.ts';
import { findAccessToken } from '../lib/tokens.ts';

const bearerOf = (request: FastifyRequest): string | null => {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1] ?? null;
};

/**
 * A personal API token as the caller: 401 when unknown, expired or revoked; 403 on a route its
 * scopes do not open (lib/token-scopes.ts), and always on token and session management.
 */
const apiTokenAuth = async (
  app: FastifyInstance,
  request: FastifyRequest,
  token: string,
): Promise<AuthContext> => {
  const found = await findApiToken(app, token);
  if (!found) throw new AppError('UNAUTHENTICATED', MESSAGES.unauthenticated);
  const needed = routeScope(request.method, request.routeOptions.url ?? '');
  if (needed === 'never') throw new AppError('FORBIDDEN', MESSAGES.apiTokenNotAllowed);
  if (needed !== 'any' && !scopesAllow(found.scopes, needed)) {
    // Named, so a CI job's log says which scope the token lacks.
    throw new AppError('FORBIDDEN', messageText('apiTokenScopeMissing', { scope: needed }));
  }
  return {
    user: found.user,
    stage: 'full',
    tokenHash: '',
    familyUuid: '',
    apiToken: { uuid: found.uuid, scopes: found.scopes },
  };
};

/**
 * Every `/api/` route needs a bearer token unless its config says `auth: false`.
 * First-step (pre-2FA) tokens open only routes that say `auth: 'otp'`; personal API tokens only
 * the routes their scopes allow.
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
      if (token && isApiToken(token)) {
        request.auth = await apiTokenAuth(app, request, token);
        return;
      }
      const found = token ? await findAccessToken(app, token) : null;
      if (!found) throw new AppError('UNAUTHENTICATED', MESSAGES.unauthenticated);
      if (found.stage === 'otp' && required !== 'otp') {
        throw new AppError('TWO_FACTOR_REQUIRED', MESSAGES.twoFactorRequired);
      }
      request.auth = found;
      if (found.stage === 'full') await touchSession(app, found.familyUuid);
    });
  },
  { name: 'ccp-auth', dependencies: ['ccp-errors'] },
);

/** The caller of an authenticated route; throws if the route was declared public by mistake. */
export const authOf = (request: FastifyRequest): AuthContext => {
  if (!request.auth) throw new AppError('UNAUTHENTICATED', MESSAGES.unauthenticated);
  return request.auth;
};
