import { mkdirSync } from 'node:fs';
import path from 'node:path';

import fastifyHelmet from '@fastify/helmet';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { UPLOAD_MAX_BYTES } from '@ccp/schemas';
import Fastify from 'fastify';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';

import type { AuthSettings } from './context.ts';
import { createDatabase, migrateToLatest } from './db/index.ts';
import type { DatabaseConfig, DatabaseHandle } from './db/index.ts';
import { systemClock } from './lib/clock.ts';
import type { Clock } from './lib/clock.ts';
import { authPlugin } from './plugins/auth.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { authRoutes } from './routes/api/auth/index.ts';
import { coursesRoutes } from './routes/api/courses/index.ts';
import { healthRoutes } from './routes/api/health/index.ts';
import { learnersListsRoutes } from './routes/api/learners-lists/index.ts';
import { learnersRoutes } from './routes/api/learners/index.ts';
import { organisationRoutes } from './routes/api/organisation/index.ts';
import { subscriptionRoutes } from './routes/api/subscription/index.ts';
import { termsRoutes } from './routes/api/terms/index.ts';
import './context.ts';

export type AppOptions = {
  /** A config to open, or an open handle the caller owns (tests share one per file). */
  database: DatabaseConfig | DatabaseHandle;
  /** Where uploads (cover images, import files) live. */
  dataDir: string;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  auth?: Partial<AuthSettings>;
  /** Behind a reverse proxy: take the client IP from X-Forwarded-For (CCP_TRUST_PROXY). */
  trustProxy?: boolean;
  /** Run migrations on start; default true. */
  migrate?: boolean;
};

export const DEFAULT_AUTH_SETTINGS: AuthSettings = {
  accessTtlSeconds: 15 * 60,
  refreshTtlSeconds: 30 * 24 * 60 * 60,
  maxFailuresPerMinute: 5,
};

// Secrets never reach the logs.
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.body.password',
  'req.body.refresh_token',
  'req.body.code',
];

/** Builds the API as a Fastify instance without listening; `server.ts` listens. */
export const buildApp = async (options: AppOptions): Promise<FastifyInstance> => {
  const logger =
    options.logger === true
      ? { redact: REDACT }
      : options.logger && typeof options.logger === 'object'
        ? { ...options.logger, redact: REDACT }
        : false;
  // Trust X-Forwarded-For only when told a proxy is in front: otherwise a client could pick its own IP
  // and dodge the per-IP sign-in limit.
  const app = Fastify({
    logger,
    bodyLimit: 10 * 1024 * 1024,
    trustProxy: options.trustProxy ?? false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const handle = 'db' in options.database ? options.database : createDatabase(options.database);
  const ownsDatabase = !('db' in options.database);
  if (options.migrate !== false) await migrateToLatest(handle);
  app.decorate('db', handle.db);
  app.decorate('dialect', handle.dialect);
  app.decorate('clock', options.clock ?? systemClock);
  app.decorate('dataDir', path.resolve(options.dataDir));
  mkdirSync(path.join(app.dataDir, 'uploads'), { recursive: true });
  app.decorate('authSettings', { ...DEFAULT_AUTH_SETTINGS, ...options.auth });
  if (ownsDatabase) app.addHook('onClose', async () => handle.close());

  await app.register(errorsPlugin);
  // The web app sets its own CSP when it is served (web issue); the API answers JSON only.
  await app.register(fastifyHelmet, { contentSecurityPolicy: false, global: true });
  await app.register(fastifyMultipart, {
    limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 50 },
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'CCP API',
        description:
          'The REST contract of the Content Creators Platform. Every call but the token calls needs `Authorization: Bearer <access_token>`. Errors answer `{ error: { status, code, message, errors? } }`.',
        version: '1',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  await app.register(fastifyStatic, {
    root: path.join(app.dataDir, 'uploads'),
    prefix: '/uploads/',
    decorateReply: false,
    // Uploaded SVGs may carry scripts: serve them inert.
    setHeaders: (res) => {
      res.setHeader(
        'Content-Security-Policy',
        "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      );
      res.setHeader('X-Content-Type-Options', 'nosniff');
    },
  });
  await app.register(authPlugin);

  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(organisationRoutes);
  await app.register(subscriptionRoutes);
  await app.register(termsRoutes);
  await app.register(coursesRoutes);
  await app.register(learnersRoutes);
  await app.register(learnersListsRoutes);

  return app;
};
