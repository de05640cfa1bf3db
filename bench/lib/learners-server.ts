import { buildApp } from '../../apps/api/src/app.ts';
import type { DatabaseConfig } from '../../apps/api/src/db/index.ts';
import { createManualClock } from '../../apps/api/src/lib/clock.ts';
import { issueTokenPair } from '../../apps/api/src/lib/tokens.ts';
import { BENCH_NOW } from './dataset.ts';

// The API of bench/learners.ts in a process of its own, so the load generator does not share its
// event loop. argv: the database config (JSON), the data dir, the bench user's uuid. Prints
// `{ port, token }` on one line once listening; stops on SIGTERM.

const [configText, dataDir, userUuid] = process.argv.slice(2);
const database = JSON.parse(configText!) as DatabaseConfig;
const clock = createManualClock(BENCH_NOW);
const app = await buildApp({ database, dataDir: dataDir!, clock, logger: false });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('no port');
const tokens = await issueTokenPair(
  { db: app.db, clock, settings: app.authSettings },
  userUuid!,
  'full',
);
process.stdout.write(`${JSON.stringify({ port: address.port, token: tokens.access_token })}\n`);
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
