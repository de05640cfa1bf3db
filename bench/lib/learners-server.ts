import type * as Api from '../../apps/api/src/index.ts';
import type { DatabaseConfig } from '../../apps/api/src/db/index.ts';
import { issueTokenPair } from '../../apps/api/src/lib/tokens.ts';
import { BENCH_NOW } from './dataset.ts';

// The API of bench/learners.ts in a process of its own, so the load generator does not share its
// event loop. argv: the database config (JSON), the data dir, the bench user's uuid. Prints
// `{ port, token }` on one line once listening; stops on SIGTERM. The API is the bundle `npm
// start` runs (apps/api/dist, built by learners-process.ts), or with BENCH_API=source the
// TypeScript source (tsx compiles it with a `__name` call per named closure, which the bundle has
// not). Only the bench's token is issued by the source.

const api = (
  process.env.BENCH_API === 'source'
    ? await import('../../apps/api/src/index.ts')
    : await import(new URL('../../apps/api/dist/index.js', import.meta.url).href)
) as typeof Api;

const [configText, dataDir, userUuid] = process.argv.slice(2);
const database = JSON.parse(configText!) as DatabaseConfig;
const clock = api.createManualClock(BENCH_NOW);
const app = await api.buildApp({ database, dataDir: dataDir!, clock, logger: false });
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
