import {
  CSRF_HEADER,
  MESSAGES,
  REFRESH_COOKIE_HEADER,
  REFRESH_COOKIE_NAME,
  REFRESH_COOKIE_PATH,
} from '@ccp/schemas';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { AppError } from '../../../lib/app-error.ts';

// The web app's refresh token lives in a cookie no script can read (issue 30): in localStorage,
// an injected script took a 30-day session with it. The CLI keeps asking for it in the body.

const ATTRIBUTES = `Path=${REFRESH_COOKIE_PATH}; HttpOnly; SameSite=Strict`;

/** Host names of this machine, where `npm start` serves plain http. */
const LOOPBACK_HOST = /^(localhost|[^.]+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * `Secure` everywhere but plain http to a loopback host: a browser (Safari) drops a Secure cookie
 * set over http://localhost, and there nothing leaves the machine. Any other host over plain http
 * gets Secure too, so a deployment without TLS signs the browser out on reload instead of sending
 * the refresh token in clear.
 */
const attributesFor = (request: FastifyRequest): string =>
  request.protocol === 'http' && LOOPBACK_HOST.test(request.hostname)
    ? ATTRIBUTES
    : `${ATTRIBUTES}; Secure`;

/** Whether the client asked for its refresh token as a cookie. */
const wantsCookie = (request: FastifyRequest): boolean =>
  request.headers[REFRESH_COOKIE_HEADER] === '1';

/**
 * The token pair as answered: for a client that asked for the cookie, the refresh token is set
 * as one (living as long as the token) and left out of the body.
 */
export const deliverRefreshToken = <T extends { refresh_token: string }>(
  request: FastifyRequest,
  reply: FastifyReply,
  pair: T,
  maxAgeSeconds: number,
): T => {
  if (!wantsCookie(request)) return pair;
  reply.header(
    'set-cookie',
    `${REFRESH_COOKIE_NAME}=${pair.refresh_token}; Max-Age=${maxAgeSeconds}; ${attributesFor(request)}`,
  );
  return { ...pair, refresh_token: '' };
};

/** Ends the cookie (sign-out): the browser forgets it. */
export const clearRefreshCookie = (request: FastifyRequest, reply: FastifyReply): void => {
  reply.header('set-cookie', `${REFRESH_COOKIE_NAME}=; Max-Age=0; ${attributesFor(request)}`);
};

const cookieValue = (request: FastifyRequest): string | null => {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === REFRESH_COOKIE_NAME && value.length > 0) return value.join('=') || null;
  }
  return null;
};

/**
 * The refresh token of a refresh call: the body's, else the cookie's. The cookie is sent by the
 * browser whoever asks, so using it needs CSRF_HEADER, which no other site's page can add (a
 * custom header makes the request one a browser sends cross-site only after a CORS preflight,
 * which this server never allows); SameSite=Strict already keeps it from other sites' requests.
 */
export const refreshTokenOf = (request: FastifyRequest, fromBody: string | undefined) => {
  if (fromBody) return fromBody;
  const cookie = cookieValue(request);
  if (!cookie) return null;
  if (request.headers[CSRF_HEADER] !== '1') {
    throw new AppError('FORBIDDEN', MESSAGES.csrfHeaderMissing);
  }
  return cookie;
};
