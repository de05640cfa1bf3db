import path from 'node:path';
import { pathToFileURL } from 'node:url';

import * as source from '../../src/index.ts';
import { ROOT, buildCompiledServer } from './compiled-server.ts';

// Which API the tests build: the TypeScript source (default), or, with CCP_TEST_API=dist, the
// bundle `npm start` runs (apps/api/dist/index.js, built by the same stale check). The bundle
// is what users run: a dependency that esbuild wraps differently from Node's loader (issue 25:
// @slack/web-api's WebClient undefined, "Client is not a constructor") fails only there.

export const TESTS_BUILT_API = process.env.CCP_TEST_API === 'dist';

const loadBuilt = async (): Promise<typeof source> => {
  buildCompiledServer();
  const entry = pathToFileURL(path.join(ROOT, 'apps/api/dist/index.js')).href;
  return (await import(/* @vite-ignore */ entry)) as typeof source;
};

const api = TESTS_BUILT_API ? await loadBuilt() : source;

export const { buildApp, createDatabase, runSchedulerTick } = api;
