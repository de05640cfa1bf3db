import { availableParallelism } from 'node:os';

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One file per core: vitest's default (cores - 1) runs one at a time on the 2-core CI machine,
    // while these files mostly wait for the processes they start.
    maxWorkers: availableParallelism(),
  },
});
