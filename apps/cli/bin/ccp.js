#!/usr/bin/env node
// The packed ccp runs its bundle (dist/, built by `npm run build`). In a checkout without a build
// it runs the TypeScript source through tsx instead (development only: tsx is not packed).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = new URL('../dist/ccp.js', import.meta.url);
if (existsSync(fileURLToPath(bundle)) && !process.env.CCP_FROM_SOURCE) {
  await import(bundle.href);
} else {
  const { register } = await import('tsx/esm/api');
  // Pin our tsconfig: tsx would otherwise pick up whichever tsconfig.json is in the caller's cwd.
  register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
  await import('../src/index.ts');
}
