import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { buildApp } from '../app.ts';

// Prints the served OpenAPI document (GET /api/docs/json) of an app built in memory, without
// listening: the input of the data provider's generated types (packages/data-provider,
// `npm run openapi`).

const dataDir = mkdtempSync(path.join(tmpdir(), 'ccp-openapi-'));
try {
  const app = await buildApp({ database: { dialect: 'sqlite', file: ':memory:' }, dataDir });
  const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
  if (response.statusCode !== 200)
    throw new Error(`/api/docs/json answered ${response.statusCode}`);
  process.stdout.write(response.body);
  await app.close();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
