import type { ResourceProps } from '@refinedev/core';

import { ROUTES } from './config.ts';

/** The Refine resources with their routes; screens fill them in with their issues. */
export const RESOURCES: ResourceProps[] = [
  { name: 'dashboard', list: ROUTES.dashboard },
  { name: 'courses', create: ROUTES.coursesCreate },
  { name: 'learners', list: ROUTES.learners },
  { name: 'insights', list: ROUTES.insights },
];
