import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import openapiTS, { COMMENT_HEADER, astToString } from 'openapi-typescript';

// The API's OpenAPI document, as the current code serves it, turned into TypeScript types
// (openapi-typescript) in contract/generated/openapi.ts (not committed: always fresh), which
// contract/contract.ts checks the client's request and response types against (issue 32).
// `npm run typecheck` runs this first, so the server, its document and the client cannot drift
// apart unnoticed.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const folder = fileURLToPath(new URL('../contract/generated/', import.meta.url));

const document = execFileSync(
  process.execPath,
  ['--import', 'tsx', 'apps/api/src/tools/openapi-document.ts'],
  {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, LOG_LEVEL: 'silent' },
  },
);
mkdirSync(folder, { recursive: true });
writeFileSync(
  `${folder}openapi.ts`,
  COMMENT_HEADER + astToString(await openapiTS(JSON.parse(document))),
);
