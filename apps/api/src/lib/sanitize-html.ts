import { createRequire } from 'node:module';

import type sanitize from 'sanitize-html';

// sanitize-html brings postcss, htmlparser2 and their helpers (about 0.5 MB of code the server
// held from start-up on; issue 32, idle RSS on Node 22 and 24): it is loaded at the first HTML or
// SVG to clean. Synchronously (require), as its callers are; it stays out of the bundle
// (scripts/build.js EXTERNAL), so the require finds it in node_modules.
let library: typeof sanitize | undefined;

/** sanitize-html, loaded on first use. */
export const sanitizeHtmlLibrary = (): typeof sanitize =>
  (library ??= createRequire(import.meta.url)('sanitize-html') as typeof sanitize);
