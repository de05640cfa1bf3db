import path from 'node:path';

import { aiSettingsFromEnv } from './ai/settings.ts';
import type { TAiSettings } from './ai/settings.ts';
import { databaseConfigFromEnv } from './db/index.ts';
import { channelSettingsFromEnv } from './delivery/channel-settings.ts';
import type { ChannelSettings } from './delivery/channel-settings.ts';
import type { DatabaseConfig } from './db/index.ts';
import { parseTrustProxy } from './lib/trust-proxy.ts';
import type { TrustProxy } from './lib/trust-proxy.ts';
import { storageConfigFromEnv } from './storage/storage-config.ts';
import type { StorageConfig } from './storage/storage-config.ts';

export type ServerConfig = {
  host: string;
  port: number;
  /** CCP_DATA_DIR: this server's own folder (the SQLite database, scratch files under tmp/). */
  dataDir: string;
  /**
   * Where uploads, import files, error reports, exports and covers live: CCP_STORAGE_URL
   * (S3-compatible object storage), else the folder CCP_FILES_DIR, else the data dir. Several
   * servers on one PostgreSQL share one of the first two (docs/ARCHITECTURE.md).
   */
  storage: StorageConfig;
  database: DatabaseConfig;
  seed: 'demo' | 'none';
  demoTotpSecret: string;
  accessTtlSeconds: number;
  logLevel: string;
  /** CCP_TRUST_PROXY: which X-Forwarded-For hops to believe (lib/trust-proxy.ts). */
  trustProxy: TrustProxy;
  /** Outgoing mail: SMTP_URL (unset: mails are only kept in the outbox) and MAIL_FROM. */
  mail: { smtpUrl: string | undefined; from: string | undefined };
  /** CCP_JOB_LEASE_SECONDS: a running job silent this long is taken over by another server. */
  jobLeaseSeconds: number;
  /** CCP_SCHEDULER_TICK_SECONDS: how often the delivery scheduler looks for due lessons. */
  schedulerTickSeconds: number;
  /** OPENAI_* settings of the AI transformer and translator. */
  ai: TAiSettings;
  /** CCP_METRICS_TOKEN: the bearer a Prometheus scrape of /metrics must send. */
  metricsToken: string | undefined;
  /** CCP_PUBLIC_URL: every absolute link's address (publicUrlFromEnv). */
  publicUrl: string;
  /** CCP_SECRETS_KEY: seals channel connections' secrets (AES-256-GCM). */
  secretsKey: string | undefined;
  /** CCP_SLACK_API_URL...: the chat providers' API URLs; the public URL, for webhooks. */
  channels: ChannelSettings;
};

const positiveInt = (value: string | undefined, fallback: number, name: string): number => {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0)
    throw new Error(`${name} must be a positive whole number, got "${value}"`);
  return parsed;
};

/** Addresses only this machine reaches. */
export const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

/** Where a server started without CCP_PUBLIC_URL is reached: its own address. */
const localUrlOf = (env: NodeJS.ProcessEnv): string => {
  const host = env.HOST && !['0.0.0.0', '::'].includes(env.HOST) ? env.HOST : 'localhost';
  return `http://${host.includes(':') ? `[${host}]` : host}:${env.PORT || 8080}`;
};

export const PUBLIC_URL_REQUIRED =
  'CCP_PUBLIC_URL is not set: a production server (NODE_ENV=production) listening beyond this machine needs the https address users and chat providers reach it at, e.g. CCP_PUBLIC_URL=https://ccp.example.com. Every link in e-mails, the Slack install and the webhook addresses shown on the Channels page are built from it.';

/**
 * CCP_PUBLIC_URL, read here only: the one source of every absolute link this server hands out
 * (e-mail links, the Slack OAuth redirect, the webhook addresses providers are given). Never the
 * request's Host header, which a client chooses. Unset: this server's own address on a
 * development or loopback start; a production start reachable from elsewhere refuses, since
 * links to http://localhost would reach nobody.
 */
export const publicUrlFromEnv = (env: NodeJS.ProcessEnv): { url: string; configured: boolean } => {
  const value = env.CCP_PUBLIC_URL;
  if (value) {
    if (!/^https?:\/\/[^/\s]+/.test(value))
      throw new Error(`CCP_PUBLIC_URL must be an http(s) URL, got "${value}"`);
    return { url: value.replace(/\/+$/, ''), configured: true };
  }
  const host = env.HOST ?? '127.0.0.1';
  if (env.NODE_ENV === 'production' && !LOOPBACK_HOSTS.has(host))
    throw new Error(PUBLIC_URL_REQUIRED);
  return { url: localUrlOf(env), configured: false };
};

/** Reads the environment once; a bad value stops start-up with a message naming it. */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env): ServerConfig => {
  const dataDir = path.resolve(env.CCP_DATA_DIR ?? 'data');
  const seed = (env.CCP_SEED ?? 'demo').toLowerCase();
  if (seed !== 'demo' && seed !== 'none')
    throw new Error(`CCP_SEED must be "demo" or "none", got "${seed}"`);
  const publicUrl = publicUrlFromEnv(env);
  return {
    host: env.HOST ?? '127.0.0.1',
    port: positiveInt(env.PORT, 8080, 'PORT'),
    dataDir,
    storage: storageConfigFromEnv(env, dataDir),
    database: databaseConfigFromEnv(env, dataDir),
    seed,
    demoTotpSecret: env.CCP_DEMO_TOTP_SECRET ?? 'JBSWY3DPEHPK3PXP',
    accessTtlSeconds: positiveInt(env.CCP_ACCESS_TOKEN_TTL, 15 * 60, 'CCP_ACCESS_TOKEN_TTL'),
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: parseTrustProxy(env.CCP_TRUST_PROXY),
    mail: { smtpUrl: env.SMTP_URL || undefined, from: env.MAIL_FROM || undefined },
    jobLeaseSeconds: positiveInt(env.CCP_JOB_LEASE_SECONDS, 30, 'CCP_JOB_LEASE_SECONDS'),
    schedulerTickSeconds: positiveInt(
      env.CCP_SCHEDULER_TICK_SECONDS,
      60,
      'CCP_SCHEDULER_TICK_SECONDS',
    ),
    ai: aiSettingsFromEnv(env),
    metricsToken: env.CCP_METRICS_TOKEN || undefined,
    publicUrl: publicUrl.url,
    secretsKey: env.CCP_SECRETS_KEY || undefined,
    channels: channelSettingsFromEnv(env, { publicUrl: publicUrl.url }),
  };
};
