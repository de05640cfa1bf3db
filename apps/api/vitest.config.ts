import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Files run in parallel workers, each on its own temporary database (or Postgres schema).
    pool: 'forks',
  },
});
