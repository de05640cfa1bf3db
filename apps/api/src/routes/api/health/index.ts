import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { READINESS_REASONS, readinessReasons } from '../../../lib/readiness.ts';

// /api/health: the process is alive and reaches its database (a process manager's liveness
// check). /api/ready: it should get traffic (a load balancer's check; 503 while it stops).
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    {
      config: { auth: false },
      schema: {
        tags: ['health'],
        summary: 'Liveness and database probe',
        security: [],
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => {
      await sql`select 1`.execute(app.db);
      return { status: 'ok' as const };
    },
  );

  app.get(
    '/api/ready',
    {
      config: { auth: false },
      schema: {
        tags: ['health'],
        summary: 'Readiness probe: database reachable, migrations at head, storage writable',
        description:
          'For a load balancer: 503 while the process is stopping or cannot serve, with the reasons.',
        security: [],
        response: {
          200: z.object({ status: z.literal('ready') }),
          503: z.object({
            status: z.literal('not_ready'),
            reasons: z.array(z.enum(READINESS_REASONS)),
          }),
        },
      },
    },
    async (_request, reply) => {
      const reasons = await readinessReasons(app);
      if (reasons.length > 0) return reply.code(503).send({ status: 'not_ready', reasons });
      return { status: 'ready' as const };
    },
  );
};
