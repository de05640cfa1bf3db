import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import fastifySwagger from '@fastify/swagger';
import Fastify from 'fastify';
import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';

import type { TAiSettingsInput } from './ai/settings.ts';
import type { AuthSettings } from './context.ts';
import { createDatabase, migrateToLatest } from './db/index.ts';
import type { DatabaseConfig, DatabaseHandle } from './db/index.ts';
import { resolveChannelSettings } from './delivery/channel-settings.ts';
import { hasConnections, MissingSecretsKeyError } from './delivery/connections.ts';
import { settleAfterAnswer } from './lib/after-response.ts';
import { systemClock } from './lib/clock.ts';
import type { Clock } from './lib/clock.ts';
import { mailPlugin } from './lib/mail.ts';
import { createDeliveryWake } from './delivery/wake.ts';
import { createMetrics } from './lib/metrics.ts';
import { UPLOAD_IDLE_TIMEOUT_MS } from './lib/multipart.ts';
import { rejectNulCharacters } from './lib/nul.ts';
import { createSecretBox, parseSecretsKey } from './lib/secrets.ts';
import { fastifyTrustProxy } from './lib/trust-proxy.ts';
import type { TrustProxy } from './lib/trust-proxy.ts';
import { openApiTransform } from './lib/openapi.ts';
import type { MailSettings } from './lib/mail.ts';
import { authPlugin } from './plugins/auth.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import type { MetricsOptions } from './plugins/metrics.ts';
import { clientErrorHandler, errorsPlugin, frameworkErrors } from './plugins/errors.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { aiRoutes } from './routes/api/ai/index.ts';
import { webPlugin } from './plugins/web.ts';
import { docsPlugin } from './plugins/docs.ts';
import { analyticsRoutes } from './routes/api/analytics/index.ts';
import { accountRoutes } from './routes/api/account/index.ts';
import { apiTokensRoutes } from './routes/api/api-tokens/index.ts';
import { authRoutes } from './routes/api/auth/index.ts';
import { courseWizardRoutes } from './routes/api/course-wizard/index.ts';
import { channelConnectionsRoutes } from './routes/api/channel-connections/index.ts';
import { coursesRoutes } from './routes/api/courses/index.ts';
import { deliveryRoutes } from './routes/api/delivery/index.ts';
import { sendsRoutes } from './routes/api/delivery/sends.ts';
import { healthRoutes } from './routes/api/health/index.ts';
import { learnersListsRoutes } from './routes/api/learners-lists/index.ts';
import { learnersRoutes } from './routes/api/learners/index.ts';
import { organisationRoutes } from './routes/api/organisation/index.ts';
import { subscriptionRoutes } from './routes/api/subscription/index.ts';
import { teamRoutes } from './routes/api/team/index.ts';
import { termsRoutes } from './routes/api/terms/index.ts';
import { importsRoutes } from './routes/api/imports/index.ts';
import type { ImportsRoutesOptions } from './routes/api/imports/index.ts';
import { outboxRoutes } from './routes/api/outbox/index.ts';
import { testLessonsRoutes } from './routes/api/test-lessons/index.ts';
import { webhooksRoutes } from './routes/api/webhooks/index.ts';
import { coversRoutes } from './routes/covers.ts';
import { createLocalFileStore } from './storage/index.ts';
import type { FileStore } from './storage/index.ts';
import './context.ts';

export type AppOptions = {
  /** A config to open, or an open handle the caller owns (tests share one per file). */
  database: DatabaseConfig | DatabaseHandle;
  /**
   * This process's own folder: scratch files (uploads being checked, downloads being read) under
   * tmp/, and the files themselves unless `files` says otherwise.
   */
  dataDir: string;
  /**
   * Where kept files live (import uploads, error reports, exports, covers): a local folder or
   * object storage (CCP_STORAGE_URL, storage/). Default: the folder `dataDir`.
   */
  files?: FileStore;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  auth?: Partial<AuthSettings>;
  /** Behind reverse proxies: which X-Forwarded-For hops to believe (CCP_TRUST_PROXY). */
  trustProxy?: TrustProxy;
  /** Run migrations on start; default true. */
  migrate?: boolean;
  /** The AI provider (OPENAI_* settings); without an API key the AI import works offline. */
  ai?: TAiSettingsInput;
  /** Outgoing mail (SMTP_URL, MAIL_FROM); without an SMTP URL mails only reach the outbox. */
  mail?: MailSettings;
  /** GET /metrics: with a bearer token (CCP_METRICS_TOKEN) or from loopback; default off. */
  metrics?: MetricsOptions;
  /** Silence from a client in the middle of an upload before it answers 408 (tests lower it). */
  uploadIdleTimeoutMs?: number;
  /** Bulk learner import settings (the upload limit, lowered by tests). */
  imports?: ImportsRoutesOptions;
  /**
   * The built web app to serve at `/` (default: `apps/web/dist` of this checkout, when it is
   * built); `false` serves the API only.
   */
  webDist?: string | false;
  /**
   * Where users reach the web app, for links in e-mails (CCP_PUBLIC_URL). Never taken from the
   * request's Host header, which a client chooses (a reset link pointing elsewhere).
   */
  publicUrl?: string;
  /** CCP_SECRETS_KEY: the AES-256-GCM key of channel connections' secrets. */
  secretsKey?: string;
  /** Chat providers' API URLs (CCP_SLACK_API_URL...); tests point them at fakes. */
  channels?: Parameters<typeof resolveChannelSettings>[0];
};

/** The public address when CCP_PUBLIC_URL is not set. */
export const DEFAULT_PUBLIC_URL = 'http://localhost:8080';

/** Where `npm run build -w @ccp/web` writes the app. */
export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

export const DEFAULT_AUTH_SETTINGS: AuthSettings = {
  accessTtlSeconds: 15 * 60,
  refreshTtlSeconds: 30 * 24 * 60 * 60,
  maxFailuresPerMinute: 5,
  accountFreeFailures: 5,
  accountDelayBaseMs: 500,
  accountDelayMaxMs: 10_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

// Secrets never reach the logs.
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.body.password',
  'req.body.refresh_token',
  'req.body.code',
];

// Tokens only ever travel in the Authorization header, but a client may still put one in a query
// string by mistake: the logged URL keeps the keys and drops such values.
const SECRET_QUERY_KEY = /token|code|password|secret|key|signature/i;

/** A request URL as logged: the value of any query parameter that may hold a secret is redacted. */
export const loggedUrl = (url: string): string => {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const query = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      const key = pair.split('=')[0] ?? '';
      let name = key;
      try {
        name = decodeURIComponent(key);
      } catch {
        // Not valid percent-encoding: judged as written.
      }
      return SECRET_QUERY_KEY.test(name) ? `${key}=[Redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, mark)}?${query}`;
};

const SERIALIZERS = {
  req: (request: FastifyRequest) => ({
    method: request.method,
    url: loggedUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }),
};

/** Builds the API as a Fastify instance without listening; `server.ts` listens. */
export const buildApp = async (options: AppOptions): Promise<FastifyInstance> => {
  const logger =
    options.logger === true
      ? { redact: REDACT, serializers: SERIALIZERS }
      : options.logger && typeof options.logger === 'object'
        ? { ...options.logger, redact: REDACT, serializers: SERIALIZERS }
        : false;
  // Trust X-Forwarded-For only when told a proxy is in front: otherwise a client could pick its own IP
  // and dodge the per-IP sign-in limit.
  const app = Fastify({
    logger,
    bodyLimit: 10 * 1024 * 1024,
    trustProxy: fastifyTrustProxy(options.trustProxy ?? false),
    // Errors raised before a route runs answer in the product's shape too.
    frameworkErrors,
    clientErrorHandler,
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
  mkdirSync(app.dataDir, { recursive: true });
  app.decorate('files', options.files ?? createLocalFileStore(app.dataDir));
  app.decorate('authSettings', { ...DEFAULT_AUTH_SETTINGS, ...options.auth });
  app.decorate('publicUrl', (options.publicUrl ?? DEFAULT_PUBLIC_URL).replace(/\/+$/, ''));
  app.decorate('uploadIdleTimeoutMs', options.uploadIdleTimeoutMs ?? UPLOAD_IDLE_TIMEOUT_MS);
  app.decorate('metrics', createMetrics());
  app.decorate('deliveryWake', createDeliveryWake());
  app.decorate('lifecycle', { stopping: false });
  // Work started after an answer ends before the database closes.
  app.addHook('onClose', async () => settleAfterAnswer(app));
  if (ownsDatabase) app.addHook('onClose', async () => handle.close());
  app.decorate(
    'secretBox',
    options.secretsKey ? createSecretBox(parseSecretsKey(options.secretsKey)) : null,
  );
  app.decorate('channelSettings', resolveChannelSettings(options.channels));
  // Connections saved under a key cannot be used without it: refuse to start.
  if (!app.secretBox && (await hasConnections(handle.db))) {
    if (ownsDatabase) await handle.close();
    throw new MissingSecretsKeyError();
  }

  await app.register(errorsPlugin);
  await app.register(metricsPlugin, options.metrics ?? {});
  // helmet's headers (the web app sets its own CSP when it is served; the API answers JSON only).
  await app.register(securityHeadersPlugin);
  app.addHook('preValidation', rejectNulCharacters);
  // Multipart bodies are left unread here: the route reads them as they stream in
  // (lib/multipart.ts), with its own limits.
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
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
    transform: openApiTransform,
  });
  await app.register(docsPlugin);
  await app.register(coversRoutes);
  await app.register(authPlugin);
  await app.register(mailPlugin, options.mail ?? {});

  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(apiTokensRoutes);
  await app.register(accountRoutes);
  await app.register(teamRoutes);
  await app.register(organisationRoutes);
  await app.register(subscriptionRoutes);
  await app.register(termsRoutes);
  await app.register(coursesRoutes);
  await app.register(courseWizardRoutes);
  await app.register(learnersRoutes);
  await app.register(learnersListsRoutes);
  await app.register(importsRoutes, options.imports ?? {});
  await app.register(outboxRoutes);
  await app.register(deliveryRoutes);
  await app.register(sendsRoutes);
  await app.register(aiRoutes, { settings: options.ai });
  await app.register(analyticsRoutes);
  await app.register(channelConnectionsRoutes);
  await app.register(testLessonsRoutes);
  await app.register(webhooksRoutes);

  // Last: the web app's SPA fallback answers only what no API route claims.
  const webDist = options.webDist ?? DEFAULT_WEB_DIST;
  if (webDist !== false) await app.register(webPlugin, { root: webDist });

  return app;
};
