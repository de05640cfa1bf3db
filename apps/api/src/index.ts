// The API's public entry, for the cross-app tests in tests/: build it in-process, seed it, move its clock.
export { buildApp, DEFAULT_AUTH_SETTINGS } from './app.ts';
export type { AppOptions } from './app.ts';
export { createDatabase } from './db/index.ts';
export type { DatabaseConfig, DatabaseHandle } from './db/index.ts';
export { createManualClock, systemClock } from './lib/clock.ts';
export type { Clock } from './lib/clock.ts';
export { DEMO_PASSWORD, seedDemo } from './seed/demo.ts';
// Background jobs (bulk import): a cross-app test runs the queue with drainJobs, or starts a runner.
export { drainJobs, startJobRunner } from './jobs/runner.ts';
export type { JobRunner, JobRunnerOptions } from './jobs/runner.ts';
// The delivery scheduler's tick, for tests that run the built server's own code (test/support/api-under-test.ts).
export { runSchedulerTick } from './delivery/scheduler.ts';
export type { SchedulerOptions, TickResult } from './delivery/scheduler.ts';
