import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import type { Plugin } from 'vite';

const WORKSPACE_PACKAGE = /\/packages\/(schemas|data-provider)\//;

// Our workspace packages only define things (zod schemas, constants, functions), but their
// package.json files do not say so, so the bundler keeps every module they contain. Importing one
// constant from @ccp/schemas would then pull in zod and all schemas (~33 KB gzip) on /login.
const sideEffectFreeWorkspace = (): Plugin => ({
  name: 'ccp:side-effect-free-workspace',
  enforce: 'pre',
  async resolveId(source, importer, options) {
    if (!source.startsWith('@ccp/') && !WORKSPACE_PACKAGE.test(importer ?? '')) return null;
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    if (resolved && WORKSPACE_PACKAGE.test(resolved.id)) {
      return { ...resolved, moduleSideEffects: false };
    }
    return resolved;
  },
});

// The API serves these next to each file (@fastify/static `preCompressed`): a third of the bytes
// on the wire without compressing on every request.
const precompress = (): Plugin => ({
  name: 'ccp:precompress',
  apply: 'build',
  writeBundle(options, bundle) {
    const dir = options.dir ?? 'dist';
    for (const fileName of Object.keys(bundle)) {
      if (!/\.(js|css|html|svg|json)$/.test(fileName)) continue;
      const file = path.join(dir, fileName);
      const content = readFileSync(file);
      if (content.length < 1024) continue;
      writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      writeFileSync(
        `${file}.br`,
        brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      );
    }
  },
});

const apiTarget = process.env.CCP_API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), sideEffectFreeWorkspace(), precompress()],
  server: {
    port: 5173,
    // `npm run dev -w @ccp/web` next to `npm run dev`: the API answers /api and /uploads.
    proxy: { '/api': apiTarget, '/uploads': apiTarget },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 900,
  },
});
