import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { oauthRoutes } from './oauth.ts';
import { usersRoutes } from './users.ts';

/** Authentication, the signed-in user and two-factor setup (spec §7 "Authentication and user"). */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  // Token and secret answers must not be cached (RFC 6749 §5.1).
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  await app.register(oauthRoutes);
  await app.register(usersRoutes);
};
