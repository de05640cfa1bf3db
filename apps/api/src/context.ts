import type { DeliveryWake } from './delivery/wake.ts';
import type { ChannelSettings } from './delivery/channel-settings.ts';
import type { SecretBox } from './lib/secrets.ts';
import type { TApiTokenScope } from '@ccp/schemas';

import type { Metrics } from './lib/metrics.ts';
import type { Clock } from './lib/clock.ts';
import type { OpenApiExtras } from './lib/openapi.ts';
import type { Db, Dialect } from './db/index.ts';
import type { UsersTable } from './db/types.ts';
import type { FileStore } from './storage/index.ts';

export type AuthStage = 'otp' | 'full';

/** The signed-in caller, set by the auth hook on every authenticated request. */
export type AuthContext = {
  user: UsersTable;
  stage: AuthStage;
  tokenHash: string;
  familyUuid: string;
  /** Set when the bearer is a personal API token (never for a session's access token). */
  apiToken?: { uuid: string; scopes: TApiTokenScope[] };
};

export type AuthSettings = {
  /** Access token lifetime; 15 minutes unless CCP_ACCESS_TOKEN_TTL says otherwise. */
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
  /** Failed sign-in attempts allowed per minute for one address, or one (username, address), before 429. */
  maxFailuresPerMinute: number;
  /** Failures of one account (from anywhere, last 15 minutes) before its attempts are slowed. */
  accountFreeFailures: number;
  /** The first delay; it doubles with every further failure, up to `accountDelayMaxMs`. */
  accountDelayBaseMs: number;
  accountDelayMaxMs: number;
  /** Waits the account delay; tests record it instead. */
  sleep: (ms: number) => Promise<void>;
};

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    dialect: Dialect;
    clock: Clock;
    /** This process's own folder (scratch files under tmp/). */
    dataDir: string;
    /** Where kept files live: a local folder or object storage (storage/). */
    files: FileStore;
    authSettings: AuthSettings;
    /** The web app's address for links in e-mails, without a trailing slash. */
    publicUrl: string;
    /** Milliseconds an upload may go without a byte from the client before it answers 408. */
    uploadIdleTimeoutMs: number;
    /** Prometheus counters and histograms of this app (lib/metrics.ts). */
    metrics: Metrics;
    /** Seals channel connections' secrets (CCP_SECRETS_KEY); null when no key is set. */
    secretBox: SecretBox | null;
    /** Where each chat provider's API lives (fakes in tests). */
    channelSettings: ChannelSettings;
    /** Nudges the running scheduler (delivery/wake.ts): an answer's feedback goes at once. */
    deliveryWake: DeliveryWake;
    /** Set when the process is stopping (SIGTERM): /api/ready answers 503 from then on. */
    lifecycle: { stopping: boolean };
  }
  interface FastifyRequest {
    /** Set by the auth hook; routes with `config.auth: false` have none. */
    auth: AuthContext | null;
  }
  // Read by the OpenAPI transform only (lib/openapi.ts).
  interface FastifySchema {
    'x-media'?: OpenApiExtras['x-media'];
    'x-body'?: OpenApiExtras['x-body'];
    'x-redirect'?: OpenApiExtras['x-redirect'];
    'x-errors'?: OpenApiExtras['x-errors'];
  }
  interface FastifyContextConfig {
    /**
     * Who may call the route: `false` anyone; `'otp'` also a first-step (pre-2FA) token;
     * default (undefined or `'full'`) a fully signed-in user.
     */
    auth?: false | AuthStage;
  }
}
