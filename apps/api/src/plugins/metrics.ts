import { timingSafeEqual } from 'node:crypto';

import fp from 'fastify-plugin';

import { collectOnScrape } from '../lib/metrics.ts';

// GET /metrics in Prometheus' text format (issue 18). Request counts and durations are taken for
// every app; the route exists only when the operator opened it:
// - `token` (CCP_METRICS_TOKEN): a scrape must send `Authorization: Bearer <token>`;
// - `loopback`: without a token, scrapes from 127.0.0.1/::1 are answered (the server is bound to
//   loopback and no proxy forwards public traffic to it, see server.ts).
// Otherwise /metrics answers 404 like any unknown path.

export type MetricsOptions = { token?: string; loopback?: boolean };

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

export const metricsPlugin = fp<MetricsOptions>(async (app, options) => {
  const { metrics } = app;
  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern, never the raw URL: ids would make a series per learner.
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { method: request.method, route, status: String(reply.statusCode) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
  });

  const token = options.token || undefined;
  if (!token && !options.loopback) return;
  collectOnScrape(metrics, app.db);
  app.get(
    '/metrics',
    { config: { auth: false }, schema: { hide: true } },
    async (request, reply) => {
      const header = request.headers.authorization ?? '';
      const allowed = token
        ? header.startsWith('Bearer ') && sameSecret(header.slice(7), token)
        : LOOPBACK.has(request.socket.remoteAddress ?? '');
      // Not found, like a server without metrics: a prober learns nothing.
      if (!allowed) return reply.callNotFound();
      const body = await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(body);
    },
  );
});
