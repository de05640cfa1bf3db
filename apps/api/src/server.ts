import { buildApp } from './app.ts';
import { LOOPBACK_HOSTS, loadConfig } from './config.ts';
import { startScheduler } from './delivery/scheduler.ts';
import { schedulePurge } from './jobs/purge.ts';
import { startJobRunner } from './jobs/runner.ts';
import { isEmptyDatabase } from './seed/empty-database.ts';
import { openFileStore } from './storage/index.ts';

/** How long a stop may take after SIGTERM before the process exits anyway. */
const STOP_DEADLINE_MS = 10_000;

// Starts the API: migrate, seed the demo on an empty database, listen, and close cleanly on a signal.
const main = async () => {
  const config = loadConfig();
  const files = openFileStore(config.storage, config.dataDir);
  const app = await buildApp({
    database: config.database,
    dataDir: config.dataDir,
    files,
    logger: { level: config.logLevel },
    auth: { accessTtlSeconds: config.accessTtlSeconds },
    trustProxy: config.trustProxy,
    mail: config.mail,
    ai: config.ai,
    // Without a token, /metrics answers loopback scrapes only when the server listens on loopback
    // alone and no proxy forwards public requests to it (they would all come from loopback).
    metrics: {
      token: config.metricsToken,
      loopback: LOOPBACK_HOSTS.has(config.host) && config.trustProxy === false,
    },
    publicUrl: config.publicUrl,
    secretsKey: config.secretsKey,
    channels: config.channels,
  });

  // The demo's content (courses in three languages) loads only to seed an empty database: a
  // server that starts again does not keep it in memory (issue 32, idle RSS).
  if (config.seed === 'demo' && (await isEmptyDatabase(app.db))) {
    const { seedDemo } = await import('./seed/demo.ts');
    const summary = await seedDemo(app.db, {
      totpSecret: config.demoTotpSecret,
      now: app.clock.now(),
    });
    const lines = [
      '',
      'Seeded the demo organisation. Sign in with:',
      ...summary.accounts.map((account) => `  ${account.email.padEnd(28)} ${account.note}`),
      `  password for all: ${summary.password}`,
      `  TOTP secret of the accounts with 2FA enabled: ${summary.totpSecret}`,
      '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }

  // The purge, the scheduler and the job runner start once the server answers (start-up time,
  // issue 18): none of them is needed to serve the first request.
  let stopBackground: (() => Promise<void>) | null = null;
  let backgroundStopped: Promise<void> | null = null;
  const stopBackgroundOnce = () => (backgroundStopped ??= stopBackground?.() ?? Promise.resolve());
  // Registered after the database's own hook, so it runs before it (Fastify runs onClose hooks
  // last registered first, once in-flight requests are done): jobs are handed back while the
  // database is still open.
  app.addHook('onClose', async () => stopBackgroundOnce());
  let closing = false;
  // A graceful stop (issue 32): /api/ready answers 503 at once, running jobs are handed back
  // (queued again, lease released) while the server stops accepting connections and finishes
  // the requests it has; past STOP_DEADLINE_MS the process exits anyway.
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.lifecycle.stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), STOP_DEADLINE_MS);
    force.unref();
    stopBackgroundOnce().catch((error: unknown) =>
      app.log.error({ err: error }, 'stopping the background work failed'),
    );
    app
      .close()
      .then(() => process.exit(0))
      .catch(() => process.exit(1));
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  process.stdout.write(
    `CCP API listening on http://${config.host}:${config.port} (docs: /api/docs, database: ${config.database.dialect}, files: ${files.location})\n`,
  );
  if (closing) return;
  const stopPurge = schedulePurge(app);
  const stopScheduler = startScheduler(app, config.schedulerTickSeconds * 1000);
  const jobRunner = startJobRunner(app, { leaseMs: config.jobLeaseSeconds * 1000 });
  stopBackground = async () => {
    stopPurge();
    await stopScheduler();
    await jobRunner.stop();
  };
  // A store that cannot be used is said at once rather than at the first upload; checked after
  // listening, so a slow store does not hold the health probe.
  files
    .check()
    .catch((error: unknown) =>
      app.log.error(
        { err: error },
        `file storage unusable: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
};

main().catch((error: unknown) => {
  process.stderr.write(
    `CCP failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
