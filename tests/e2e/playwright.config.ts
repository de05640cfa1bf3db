import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { defineConfig } from '@playwright/test';

import { freePort } from './support/free-port.ts';

// The browser tests drive Debian's Chromium against the real server (apps/api serving the built
// apps/web/dist) on a free port, with a fresh SQLite database seeded with the demo.
// `npm test -w @ccp/e2e` builds the web app first when it is stale.

// Workers load this file again: the environment carries the runner's choices over to them.
process.env.CCP_E2E_PORT ??= String(await freePort());
// The server's data and the sign-in codes already spent; support/serve.ts removes it on exit.
process.env.CCP_E2E_TMP ??= mkdtempSync(path.join(tmpdir(), 'ccp-e2e-'));
const baseURL = `http://127.0.0.1:${process.env.CCP_E2E_PORT}`;
const CI = !!process.env.CI;

export default defineConfig({
  testDir: './specs',
  forbidOnly: CI,
  // Tests change the server's state (a 2FA setup, accepted terms, learners): the onboarding spec
  // opts out of retries, the others are safe to run twice.
  retries: CI ? 1 : 0,
  // Two cores, shared with the server.
  workers: 2,
  fullyParallel: false,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    baseURL,
    locale: 'en-GB',
    timezoneId: 'Europe/Rome',
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Browser downloads do not work here: never `npx playwright install`.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    // The server itself: what a browser is sent (no browser needed).
    { name: 'api', testMatch: 'api/**/*.spec.ts' },
    { name: 'ui', testIgnore: 'api/**' },
  ],
  webServer: {
    command: 'tsx support/serve.ts',
    url: `${baseURL}/api/health`,
    env: { PORT: process.env.CCP_E2E_PORT, HOST: '127.0.0.1' },
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
