// Builds the API to JavaScript in dist/ (esbuild), so `npm start` runs compiled code without a
// TypeScript loader: dist/server.js (the server), dist/row-worker.js (the import worker thread)
// and dist/pdf-reader.js (the PDF child process, copied as it is). The workspace packages
// (@ccp/schemas) ship TypeScript source and are bundled in, with most dependencies (see EXTERNAL).
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = `${root}dist`;
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

// Dependencies stay in node_modules only when they must: native code, files read from their own
// folder at run time, or code loaded only in some setups. Everything else is bundled: resolving
// and compiling hundreds of small files was most of the start-up time.
const EXTERNAL = [
  'better-sqlite3',
  'pg',
  'pg-native',
  // Loaded at the first visit of /api/docs (plugins/docs.ts); it reads its files from its folder.
  '@fastify/swagger-ui',
  'pdf-parse',
  'tsx',
  // Only with CCP_STORAGE_URL (storage/s3-store.ts loads it on first use).
  '@aws-sdk/client-s3',
  // Loaded at the first English offline draft (ai/terms.ts), not at start-up.
  'compromise',
];
// What both bundles are built with: the server, and the API as a library (below).
const options = {
  outdir: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  external: EXTERNAL,
  // Some bundled CommonJS dependencies call require() for Node's modules.
  banner: {
    js: "import { createRequire as __ccpRequire } from 'node:module'; const require = __ccpRequire(import.meta.url);",
  },
  logLevel: 'warning',
};
await build({
  ...options,
  entryPoints: {
    server: `${root}src/server.ts`,
    'row-worker': `${root}src/imports/row-worker.ts`,
  },
});
// The API as a library (dist/index.js), for the tests that run the bundle's code
// (CCP_TEST_API=dist, the integration suites): built on its own with the same options, so the
// server's code stays in dist/server.js. Shared with the server, it would move to a chunk under
// dist/chunks/, where the paths it finds beside itself (row-worker.js, pdf-reader.js,
// ../../web/dist) no longer exist. Its lazy chunks go to dist/lib/.
await build({
  ...options,
  entryPoints: { index: `${root}src/index.ts` },
  chunkNames: 'lib/[name]-[hash]',
});
copyFileSync(`${root}src/ai/pdf-reader.js`, `${dist}/pdf-reader.js`);
// What `npm start` compares the sources with (scripts/build-if-stale.js).
writeFileSync(`${dist}/BUILT`, `${new Date().toISOString()}\n`);
