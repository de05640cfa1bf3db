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
 * True when a request path names something other than it seems: an encoded slash or backslash
 * (one segment to this router, two to a proxy or a file server) or a dot segment, written or
 * percent-encoded (browsers resolve them before sending; only hand-made requests hold them).
 */
export const isAmbiguousPath = (url: string): boolean => {
  const path = url.split('?', 1)[0] ?? '';
  if (/%(2f|5c)/i.test(path)) return true;
  return path.split('/').some((segment) => {
    const bare = segment.replace(/%2e/gi, '.');
    return bare === '.' || bare === '..';
  });
};

/**
 * Every `/api/` route needs a bearer token unless its config says `auth: false`. Which route a
 * request reaches is the router's decision (on the decoded path): `/%61pi/v1/languages` reaches
 * `/api/v1/languages` and is judged as it; the raw URL once let it through unauthenticated.
 * First-step (pre-2FA) tokens open only routes that say `auth: 'otp'`; personal API tokens only
 * the routes their scopes allow.
 */
export const authPlugin = fp(
  (app: FastifyInstance) => {
    app.decorateRequest('auth', null);
    app.addHook('onRequest', async (request) => {
      if (isAmbiguousPath(request.url)) {
        throw new AppError('BAD_REQUEST', MESSAGES.requestMalformed);
      }
      const required = request.routeOptions.config.auth;
      const route = request.routeOptions.url;
      if (route === undefined) return; // 404s answer as not found, not 401
      if (required === false || !route.startsWith('/api/')) return;
      // The OpenAPI document and its UI are public, like the contract they describe.
      if (route === '/api/docs' || route.startsWith('/api/docs/')) return;
      const token = bearerOf(request);
      if (token && isApiToken(token)) {
        request.auth = await apiTokenAuth(app, request, token);
        return;
      }
      const found = token ? await findAccessToken(app, token) : null;
      if (!found) throw new AppError('UNAUTHENTICATED', MESSAGES.unauthenticated);
      // A full sign-in whose 2FA was reset since may only set it up again (issue 30).
      const firstStepOnly = found.stage === 'otp' || Number(found.user.is_2fa_enabled) !== 1;
      if (firstStepOnly && required !== 'otp') {
        throw new AppError('TWO_FACTOR_REQUIRED', MESSAGES.twoFactorRequired);
      }
      const { sessionLastUsedAt, ...auth } = found;
      request.auth = auth;
      if (auth.stage === 'full') await touchSession(app, auth.familyUuid, sessionLastUsedAt);
    });
  },
  { name: 'ccp-auth', dependencies: ['ccp-errors'] },
);

/** The caller of an authenticated route; throws if the route was declared public by mistake. */
export const authOf = (request: FastifyRequest): AuthContext => {
  if (!request.auth) throw new AppError('UNAUTHENTICATED', MESSAGES.unauthenticated);
  return request.auth;
};
