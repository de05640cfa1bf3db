import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

import type { Db } from '../db/index.ts';

// The server's Prometheus metrics (issue 18), one registry per app. Counters are kept whether
// or not /metrics is served (they cost an increment); the gauges that read the database and the
// process metrics are collected only when a scrape asks (plugins/metrics.ts).

export const METRICS_PREFIX = 'ccp_';

/** Request duration buckets, seconds: the spec's page targets sit between 0.1 and 1 s. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Job duration buckets, seconds: a 100,000-row import takes tens of seconds. */
const JOB_BUCKETS = [0.1, 0.5, 1, 5, 10, 30, 60, 120, 300, 900, 3600];

export type Metrics = ReturnType<typeof createMetrics>;

export const createMetrics = () => {
  const registry = new Registry();
  const httpRequests = new Counter({
    name: `${METRICS_PREFIX}http_requests_total`,
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: `${METRICS_PREFIX}http_request_duration_seconds`,
    help: 'Time to answer an HTTP request, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });
  const jobDuration = new Histogram({
    name: `${METRICS_PREFIX}job_duration_seconds`,
    help: 'Time a background job ran in this process until it finished, by kind and final status.',
    labelNames: ['kind', 'status'] as const,
    buckets: JOB_BUCKETS,
    registers: [registry],
  });
  const lessons = new Counter({
    name: `${METRICS_PREFIX}lessons_total`,
    help: 'Lessons the scheduler of this process sent or failed to send, by channel and outcome.',
    labelNames: ['channel', 'status'] as const,
    registers: [registry],
  });
  const pacingWait = new Counter({
    name: `${METRICS_PREFIX}channel_pacing_wait_seconds_total`,
    help: "Time the scheduler of this process waited to stay within a chat provider's rate, by channel.",
    labelNames: ['channel'] as const,
    registers: [registry],
  });
  const signInFailures = new Counter({
    name: `${METRICS_PREFIX}sign_in_failures_total`,
    help: 'Failed sign-in steps: a wrong password, a wrong or spent TOTP code, a wrong 2FA setup code.',
    labelNames: ['step'] as const,
    registers: [registry],
  });
  const lockouts = new Counter({
    name: `${METRICS_PREFIX}sign_in_lockouts_total`,
    help: 'Sign-in, 2FA and token requests refused with 429 because their address or account was locked.',
    registers: [registry],
  });
  return {
    registry,
    httpRequests,
    httpDuration,
    jobDuration,
    lessons,
    pacingWait,
    signInFailures,
    lockouts,
  };
};

/**
 * Adds what is read at scrape time: the job queue by kind and status (from the shared database,
 * so every server reports the same queue) and Node's process metrics.
 */
export const collectOnScrape = (metrics: Metrics, db: Db) => {
  new Gauge({
    name: `${METRICS_PREFIX}jobs`,
    help: 'Background jobs waiting (queued) or running, by kind, in the whole database.',
    labelNames: ['kind', 'status'] as const,
    registers: [metrics.registry],
    async collect() {
      const rows = await db
        .selectFrom('jobs')
        .select((eb) => ['kind', 'status', eb.fn.countAll<number>().as('count')])
        .where('status', 'in', ['queued', 'running'])
        .groupBy(['kind', 'status'])
        .execute();
      this.reset();
      for (const row of rows) this.set({ kind: row.kind, status: row.status }, Number(row.count));
    },
  });
  collectDefaultMetrics({ register: metrics.registry, prefix: METRICS_PREFIX });
};
