import { availableParallelism } from 'node:os';

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at once on the 2-core CI machine (vitest's default is cores - 1): these files mostly
    // wait for the ccp processes they start. Measured: 62 s against 91 s (docs/decisions.md).
    maxWorkers: availableParallelism(),
  },
});
