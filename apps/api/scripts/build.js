// Builds the API to JavaScript in dist/ (esbuild), so `npm start` runs compiled code without a
// TypeScript loader: dist/server.js (the server), dist/row-worker.js (the import worker thread)
// and dist/pdf-reader.js (the PDF child process, copied as it is). The workspace packages
// (@ccp/schemas) ship TypeScript source and are bundled in, with most dependencies (see EXTERNAL).
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
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
  // Loaded at the first HTML or SVG to clean (lib/sanitize-html.ts), not at start-up.
  'sanitize-html',
];
// Node's own modules are loaded with require(), not imported as ES modules. Importing one as an
// ES module reads every export to build its namespace, which runs the lazy getters Node puts on
// some of them: on Node 22 and 24 `import { STATUS_CODES } from 'node:http'` reads
// http.WebSocket, which loads Node's copy of undici (fetch), 1-1.5 MB of an idle server's heap
// that nothing at start-up uses (issue 32). require() returns the same object without reading its
// properties, and esbuild's wrapper of a CommonJS module reads a property only when it is used.
const BUILTIN = new RegExp(`^(node:.+|${builtinModules.join('|')})$`);
const builtinsThroughRequire = {
  name: 'builtins-through-require',
  setup(builder) {
    builder.onResolve({ filter: BUILTIN }, (args) =>
      args.kind === 'import-statement' || args.kind === 'dynamic-import'
        ? { path: args.path, namespace: 'node-builtin' }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};
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
  plugins: [builtinsThroughRequire],
  // Some bundled CommonJS dependencies call require() for Node's modules.
  banner: {
    js: "import { createRequire as __ccpRequire } from 'node:module'; const require = __ccpRequire(import.meta.url);",
  },
  logLevel: 'warning',
};
await build({
  ...options,
  // The server's code without its indentation and line breaks: V8 keeps the source of every
  // module it loads (5.6 MB at start-up, 4.1 MB without the whitespace) and an index of its lines
  // (0.7 MB). Names are kept, so stack traces still name the functions; dist/*.map maps them to
  // the sources (`node --enable-source-maps`). The library build below stays readable for tests.
  minifyWhitespace: true,
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

// V8 keeps a script's source in memory while it runs: one byte a character when all of them are
// Latin-1, two (UTF-16) otherwise. esbuild escapes non-ASCII text in strings (charset 'ascii') but
// not in comments, regular expressions or String.raw templates, and a few '’' and '→' there kept
// the server's 6 MB of code as 12 MB of heap (issue 32: idle RSS over 120 MB on Node 22 and 24).
// Each such character becomes its \u escape: inert in a comment, the same character in a regular
// expression or a template's value. (A raw template's text would read the escape: String.raw
// builds only regular expressions here.)
const asciiOnly = (file) => {
  const code = readFileSync(file, 'utf8');
  if (!/[\u0080-\uffff]/.test(code)) return;
  // `\’` (an escaped character) would become `\\u2019`: refuse rather than change its meaning.
  const escaped = /\\[\u0080-\uffff]/.exec(code);
  if (escaped) throw new Error(`${file}: an escaped non-ASCII character at ${escaped.index}`);
  const hex = (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  // Without the u flag each UTF-16 unit matches alone: an astral character becomes its pair.
  writeFileSync(file, code.replace(/[\u0080-\uffff]/g, hex));
};
for (const entry of readdirSync(dist, { recursive: true })) {
  if (String(entry).endsWith('.js')) asciiOnly(`${dist}/${entry}`);
}
copyFileSync(`${root}src/ai/pdf-reader.js`, `${dist}/pdf-reader.js`);
// What `npm start` compares the sources with (scripts/build-if-stale.js).
writeFileSync(`${dist}/BUILT`, `${new Date().toISOString()}\n`);
