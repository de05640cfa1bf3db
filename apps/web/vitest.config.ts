import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Pure logic and source scans only: the browser behaviour is covered by tests/e2e.
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
