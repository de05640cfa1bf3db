import type { FastifyPluginAsync } from 'fastify';

import { coverContentType, coverKeyOf } from '../lib/images.ts';

// GET /uploads/covers/<name>: a cover image streamed from the file store (local folder or
// object storage, storage/), so every server answers for covers any server stored. Covers are
// capability URLs (lib/images.ts): nothing lists them, no page they are shown on passes them on,
// and a shared cache keeps none. SVGs are cleaned on upload and served inert.

const COVER_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'x-robots-tag': 'noindex',
  'cache-control': 'private, max-age=86400',
};

export const coversRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { name: string } }>(
    '/uploads/covers/:name',
    { config: { auth: false }, schema: { hide: true } },
    async (request, reply) => {
      const key = coverKeyOf(request.params.name);
      const stored = key ? await app.files.read(key) : null;
      // Unknown, or not a name we generate: as absent as a route that does not exist.
      if (!stored) return reply.callNotFound();
      return reply
        .headers(COVER_HEADERS)
        .type(coverContentType(request.params.name))
        .header('content-length', stored.size)
        .send(stored.stream);
    },
  );
};
