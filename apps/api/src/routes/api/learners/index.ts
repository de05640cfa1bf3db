import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Placeholder: filled by its slice of the foundation issue.
export const learnersRoutes: FastifyPluginAsyncZod = async () => {};
