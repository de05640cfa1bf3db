import { lazy } from 'react';
import type { ComponentType } from 'react';

/** React.lazy for a named export (the code base has no default exports). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own constraint is ComponentType<any>.
export const lazyNamed = <K extends string, C extends ComponentType<any>>(
  load: () => Promise<Record<K, C>>,
  name: K,
) => lazy(async () => ({ default: (await load())[name] }));
