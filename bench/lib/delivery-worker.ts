import { buildApp } from '../../apps/api/src/app.ts';
import type { AppOptions } from '../../apps/api/src/app.ts';
import type { DatabaseConfig } from '../../apps/api/src/db/index.ts';
import { runSchedulerTick } from '../../apps/api/src/delivery/scheduler.ts';
import { createManualClock } from '../../apps/api/src/lib/clock.ts';

// The scheduler process of bench/delivery.ts: opens the bench's database as a server would (its
// connections, the provider URLs pointed at the fake), runs one scheduler tick at the given time
// with the connectors' real pacing, and prints one JSON line: the tick's wall time, the time in
// calls to the provider (every fetch and its body read, timed here), the time spent waiting for
// the connection's pace (the scheduler's own metric), and the CPU used. bench/delivery.ts kills
// it with SIGKILL mid-tick and starts it again.

export type WorkerConfig = {
  database: DatabaseConfig;
  dataDir: string;
  secretsKey: string;
  channels: AppOptions['channels'];
  /** The scheduler's "now" (ISO): the lessons are due then. */
  at: string;
};

export type WorkerReport = {
  tick_ms: number;
  provider_ms: number;
  provider_calls: number;
  pacing_wait_ms: number;
  cpu_ms: number;
  sent: number;
  failed: number;
  /** Answers told their feedback, and unread lessons reminded (the --conversation run). */
  feedback: number;
  reminders: number;
};

const main = async () => {
  const config = JSON.parse(process.env.BENCH_DELIVERY_WORKER ?? '') as WorkerConfig;
  // The provider's share of the time: from the request to the end of its answer's body,
  // measured around every fetch and body read (the WhatsApp, Webex, Teams and Google Chat
  // clients use fetch, then response.text()).
  const realFetch = globalThis.fetch;
  const textOf = Object.getOwnPropertyDescriptor(Response.prototype, 'text')!.value as (
    this: Response,
  ) => Promise<string>;
  let providerMs = 0;
  let providerCalls = 0;
  const timed = async <T>(call: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await call();
    } finally {
      providerMs += performance.now() - started;
    }
  };
  globalThis.fetch = (...args: Parameters<typeof fetch>) => {
    providerCalls += 1;
    return timed(() => realFetch(...args));
  };
  Response.prototype.text = function (this: Response) {
    return timed(() => textOf.call(this));
  };
  const app = await buildApp({
    database: config.database,
    dataDir: config.dataDir,
    clock: createManualClock(config.at),
    secretsKey: config.secretsKey,
    channels: config.channels,
    logger: false,
  });
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await runSchedulerTick(app);
  const tickMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const waits = await app.metrics.pacingWait.get();
  const report: WorkerReport = {
    tick_ms: Math.round(tickMs),
    provider_ms: Math.round(providerMs),
    provider_calls: providerCalls,
    pacing_wait_ms: Math.round(waits.values.reduce((sum, value) => sum + value.value, 0) * 1000),
    cpu_ms: Math.round((used.user + used.system) / 1000),
    sent: result.sent,
    failed: result.failed,
    feedback: result.feedback,
    reminders: result.reminders,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
  await app.close();
};

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
