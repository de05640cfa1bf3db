import { MESSAGES } from '@ccp/schemas';
import type { FastifyInstance, FastifyReply } from 'fastify';

import { AppError } from '../../../lib/app-error.ts';

/** What lib/tokens.ts needs, taken from the app. */
export const tokenDeps = (app: FastifyInstance) => ({
  db: app.db,
  clock: app.clock,
  settings: app.authSettings,
});

/** The 429 for a locked username, user or address, telling the client when to retry. */
export const tooManyAttempts = (reply: FastifyReply, retryAfterSeconds: number): AppError => {
  reply.header('retry-after', String(retryAfterSeconds));
  return new AppError('TOO_MANY_ATTEMPTS', MESSAGES.tooManyAttempts);
};
