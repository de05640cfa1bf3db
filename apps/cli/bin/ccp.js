#!/usr/bin/env node
// The workspaces ship TypeScript source with no build step, so the launcher compiles on the fly.
import { fileURLToPath } from 'node:url';

import { register } from 'tsx/esm/api';

// Pin our tsconfig: tsx would otherwise pick up whichever tsconfig.json is in the caller's cwd.
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import('../src/index.ts');
