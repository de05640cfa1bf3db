import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { buildApp, createDatabase, createManualClock, DEMO_PASSWORD, seedDemo } from '@ccp/api';
import type { FastifyInstance } from 'fastify';
import * as OTPAuth from 'otpauth';

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
  const app = await buildApp({ database, dataDir, clock });
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
