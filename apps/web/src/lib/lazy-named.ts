import { lazy } from 'react';
import type { ComponentType } from 'react';

import { loadChunk } from './chunk-load.ts';

/**
 * React.lazy for a named export (the code base has no default exports). A chunk gone after a
 * redeploy reloads the page once; a lost network shows the network error (lib/chunk-load.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own constraint is ComponentType<any>.
export const lazyNamed = <K extends string, C extends ComponentType<any>>(
  load: () => Promise<Record<K, C>>,
  name: K,
) => lazy(async () => ({ default: (await loadChunk(load))[name] }));
