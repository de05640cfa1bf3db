#!/usr/bin/env node
// The packed ccp runs its bundle (dist/, built by `npm run build`). In a checkout without a build
// it runs the TypeScript source through tsx instead (development only: tsx is not packed).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// `ccp --version` answers before any of the program loads: CI images call it to check the
// install, and it stays within 1.5× of a bare `node -e 0` (bench/cli.ts startup).
const args = process.argv.slice(2);
const versionOnly = args.length === 1 && (args[0] === '--version' || args[0] === '-V');

const bundle = new URL('../dist/ccp.js', import.meta.url);
if (versionOnly) {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${version}\n`);
} else if (existsSync(fileURLToPath(bundle)) && !process.env.CCP_FROM_SOURCE) {
  await import(bundle.href);
} else {
  const { register } = await import('tsx/esm/api');
  // Pin our tsconfig: tsx would otherwise pick up whichever tsconfig.json is in the caller's cwd.
  register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
  await import('../src/index.ts');
}
