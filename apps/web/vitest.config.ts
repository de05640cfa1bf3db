import { defineConfig, mergeConfig } from 'vitest/config';

import viteConfig from './vite.config.ts';

// The app's own Vite config (its plugins resolve `virtual:boot-texts/*`, which src/main.tsx and
// src/lib/language-packs.ts import), with the tests' settings on top.
export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      // Pure logic and source scans only: the browser behaviour is covered by tests/e2e.
      environment: 'node',
      include: ['src/**/*.test.ts'],
    },
  }),
);
