import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import type * as Api from '@ccp/api';
import type { FastifyInstance } from 'fastify';
import * as OTPAuth from 'otpauth';

// The API these suites talk to is the bundle `npm start` runs (apps/api/dist/index.js, the same
// chunks as dist/server.js), built when stale exactly as `npm start` builds it: a dependency that
// only breaks once bundled (issue 25) fails here too, not only in production.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const loadBuiltApi = async (): Promise<typeof Api> => {
  const built = spawnSync(process.execPath, ['scripts/build-if-stale.js', 'api'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`the API did not build:\n${built.stderr}`);
  const entry = pathToFileURL(path.join(ROOT, 'apps/api/dist/index.js')).href;
  return (await import(/* @vite-ignore */ entry)) as typeof Api;
};

export const builtApi = await loadBuiltApi();
const { buildApp, createDatabase, createManualClock, DEMO_PASSWORD, seedDemo } = builtApi;

export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';
export { DEMO_PASSWORD };

export type RunningApi = {
  app: FastifyInstance;
  /** Base URL, e.g. http://127.0.0.1:43123 */
  url: string;
  clock: ReturnType<typeof createManualClock>;
  /** The current TOTP code of the demo accounts at the server's clock. */
  totp: (stepOffset?: number) => string;
  close: () => Promise<void>;
};

/**
 * The real API on a temporary SQLite database with the demo organisation, listening on a free
 * loopback port, with a manual clock (starting at the real time, so a process spawned against it
 * computes the same TOTP codes).
 */
export const startApi = async (): Promise<RunningApi> => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ccp-integration-'));
  const database = createDatabase({ dialect: 'sqlite', file: path.join(dataDir, 'ccp.sqlite') });
  const clock = createManualClock(new Date());
  // The sign-in delay after an account's failures (500 ms doubling to 10 s) is a real timer; this
  // server's time is the manual clock, so it passes none: the http-client file's two lock-out
  // tests waited 15 s for it. The delay itself is the API suite's (auth-login.test.ts).
  const auth = { sleep: () => Promise.resolve() };
  const app = await buildApp({ database, dataDir, clock, auth });
  await seedDemo(app.db, { totpSecret: DEMO_TOTP_SECRET, now: clock.now() });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const totp = (stepOffset = 0) =>
    new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(DEMO_TOTP_SECRET) }).generate({
      timestamp: clock.now().getTime() + stepOffset * 30_000,
    });
  return {
    app,
    url,
    clock,
    totp,
    close: async () => {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};
