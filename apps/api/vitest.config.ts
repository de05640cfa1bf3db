import { defineConfig } from 'vitest/config';

const TEST_FILES = ['test/**/*.test.ts', 'src/**/*.test.ts'];
// Files that replace a module (vi.mock) need a module registry of their own.
const MOCKING_FILES = ['test/imports/race.test.ts', 'test/security/enumeration.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Files run in parallel workers, each on its own temporary database (or Postgres schema).
    pool: 'forks',
    // One worker (vitest's default on 2 cores: cores - 1) beside the main process, which compiles
    // the modules: measured, two workers took 1.65x the wall time for the same CPU (docs/decisions.md,
    // "CI legs: where the time went"). With --maxWorkers=2 on PostgreSQL, a database per worker
    // (see the file).
    setupFiles: ['test/support/pg-worker-database.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'api',
          include: TEST_FILES,
          exclude: MOCKING_FILES,
          // A worker evaluates the app's modules once for all the files it runs, instead of once
          // per file: that was 70 % of the suite's time (every file builds a whole Fastify app on
          // its own database, so nothing but the module code is shared).
          isolate: false,
        },
      },
      { extends: true, test: { name: 'api-mocking', include: MOCKING_FILES } },
    ],
  },
});
