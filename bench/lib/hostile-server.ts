// The server process of bench/hostile-uploads.ts: the API on a fresh SQLite database in a temp
// dir, with one company (enterprise plan, so no plan limit answers first), a classroom, a draft
// course and a signed-in administrator. It prints one JSON line {port, token, classroom, course}
// and serves until it is killed. Run as its own process so its RSS is the server's alone.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { buildApp } from '../../apps/api/src/app.ts';
import { insertDraftCourse } from '../../apps/api/src/courses/courses-repository.ts';
import { newUuid } from '../../apps/api/src/lib/ids.ts';
import { createBenchAccount } from './account.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'ccp-bench-hostile-'));
const app = await buildApp({
  database: { dialect: 'sqlite', file: path.join(dir, 'bench.sqlite') },
  dataDir: dir,
  logger: false,
  webDist: false,
});
const now = new Date().toISOString();
const {
  companyUuid: company,
  classroomUuid: classroom,
  userUuid: user,
  accessToken,
} = await createBenchAccount(app);
const course = newUuid();
await insertDraftCourse(
  app.db,
  {
    uuid: course,
    company_uuid: company,
    classroom_uuid: classroom,
    name: 'Bench',
    description: 'Bench course.',
    image_path: null,
    category: null,
    distribution: null,
    creator_uuid: user,
  },
  now,
);
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(`${JSON.stringify({ port, token: accessToken, classroom, course })}\n`);
