import type { IncomingMessage, ServerResponse } from 'node:http';

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import type { HelmetOptions } from 'helmet';

// The security headers of every answer: helmet's, without its Content-Security-Policy (the API
// answers JSON; the web app sets its own). @fastify/helmet built helmet's middleware from these
// options again on every request (11–17 µs a call, 3.6 % of the API's busy time under the learners
// bench: issue 32). The headers do not depend on the request, so helmet runs once, at start-up,
// on a response that records what it sets, and each answer gets the same headers.

const HELMET_OPTIONS: HelmetOptions = { contentSecurityPolicy: false };

/** The headers helmet's middleware sets with `options` (it only sets and removes headers). */
export const helmetHeaders = (options: HelmetOptions): Record<string, string> => {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (error?: unknown) => {
      if (error !== undefined) throw new Error('helmet refused its options', { cause: error });
    },
  );
  return headers;
};

export const securityHeadersPlugin = fp(
  (app: FastifyInstance) => {
    const headers = helmetHeaders(HELMET_OPTIONS);
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
  { name: 'ccp-security-headers' },
);
