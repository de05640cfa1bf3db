import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import type { Plugin } from 'vite';

import { DEFAULT_LOCALE, LOCALES } from '../../packages/schemas/src/constants.ts';
import { BOOT_TEXT_KEYS, pickTexts } from './src/boot/boot-texts.ts';

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

// @refinedev/antd is one bundled module: importing its form hooks keeps its imports of the
// Markdown renderer its MarkdownField uses (react-markdown, remark-gfm and ~300 KB below them),
// because those packages do not say they are free of side effects. They are (they only define
// functions), so the bundler may drop them where nothing renders Markdown: -40 KB gzip on every
// form page. The app renders no Markdown.
const MARKDOWN_ROOTS = new Set(['react-markdown', 'remark-gfm']);
const sideEffectFreeMarkdown = (): Plugin => ({
  name: 'ccp:side-effect-free-markdown',
  enforce: 'pre',
  async resolveId(source, importer, options) {
    if (!MARKDOWN_ROOTS.has(source)) return null;
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    return resolved ? { ...resolved, moduleSideEffects: false } : resolved;
  },
});

// The API serves these next to each file when the browser accepts them
// (apps/api/src/plugins/web.ts): a third of the bytes on the wire without compressing on every
// request.
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

// The sign-in screen's texts of each language (src/boot/boot-texts.ts) as a module of their own,
// `virtual:boot-texts/<language>`, so /login loads a few hundred bytes of texts instead of the
// whole language; `virtual:boot-texts/default` is the default language's, which the entry holds.
const BOOT_TEXTS = 'virtual:boot-texts/';
const LOCALES_DIR = path.resolve(import.meta.dirname, '../../locales');
const bootTexts = (): Plugin => ({
  name: 'ccp:boot-texts',
  resolveId: (source) => (source.startsWith(BOOT_TEXTS) ? `\0${source}` : null),
  load(id) {
    if (!id.startsWith(`\0${BOOT_TEXTS}`)) return null;
    const name = id.slice(BOOT_TEXTS.length + 1);
    const language = name === 'default' ? DEFAULT_LOCALE : name;
    if (!(LOCALES as readonly string[]).includes(language)) {
      throw new Error(`No language "${language}" (${LOCALES.join(', ')}).`);
    }
    const file = path.join(LOCALES_DIR, `${language}.json`);
    this.addWatchFile(file);
    const texts = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    return `export default ${JSON.stringify(pickTexts(texts, BOOT_TEXT_KEYS))};`;
  },
});

const apiTarget = process.env.CCP_API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    react(),
    sideEffectFreeWorkspace(),
    sideEffectFreeMarkdown(),
    bootTexts(),
    precompress(),
  ],
  server: {
    port: 5173,
    // `npm run dev -w @ccp/web` next to `npm run dev`: the API answers /api and /uploads.
    proxy: { '/api': apiTarget, '/uploads': apiTarget },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        // Everything the entry needs (React, the sign-in screen and its texts) in one file next to
        // it, instead of the small chunks it shares with the app: fewer requests before /login.
        codeSplitting: { groups: [{ name: 'boot', tags: ['$initial'] }] },
      },
    },
  },
});
