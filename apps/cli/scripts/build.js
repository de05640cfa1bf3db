// Bundles ccp into dist/ (esbuild): one ESM entry with commander and the program's flags, and a
// chunk per command loaded when it runs, so `ccp --version` and `ccp --help` read little code.
// Every dependency is bundled: the packed package has none and needs no TypeScript at run time.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}dist`, { recursive: true, force: true });

// The workspace packages ship TypeScript source without a `sideEffects` field: say they have
// none, so a constant imported from @ccp/schemas does not pull every zod schema into the entry.
const sideEffectFree = {
  name: 'ccp-side-effect-free',
  setup(context) {
    context.onResolve({ filter: /^@ccp\/(schemas|data-provider)$/ }, async (args) => {
      // The resolve below comes back here: let esbuild answer that one itself.
      if (args.pluginData === 'ccp') return undefined;
      const resolved = await context.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        pluginData: 'ccp',
      });
      return { ...resolved, sideEffects: false };
    });
  },
};

await build({
  entryPoints: { ccp: `${root}src/index.ts` },
  outdir: `${root}dist`,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  minify: !process.env.CCP_BUILD_DEBUG,
  legalComments: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  // Some bundled CommonJS dependencies call require() for Node's modules.
  banner: {
    js: "import { createRequire as __ccpRequire } from 'node:module'; const require = __ccpRequire(import.meta.url);",
  },
  plugins: [sideEffectFree],
  logLevel: 'warning',
});
