import type { TApiTokenScope } from '@ccp/schemas';

// Which routes a personal API token opens (issue 12; docs/decisions.md "API tokens"). Decided by
// the route's pattern and method, in one table, so a new route is closed to tokens until it is
// listed here (a test walks every registered route).

/** A scope the route needs, `any` (every live token), or `never` (sessions only). */
export type TRouteScope = TApiTokenScope | 'any' | 'never';

type Rule = {
  /** Matched against the route's pattern (`/api/v1/learners/:uuid`), not the request URL. */
  pattern: RegExp;
  read: TRouteScope;
  write: TRouteScope;
};

const READS = new Set(['GET', 'HEAD']);

// First match wins: the exceptions come before the broad rules.
const RULES: readonly Rule[] = [
  // Tokens never manage tokens or sessions, nor set up 2FA.
  { pattern: /^\/api\/v1\/users\/(me\/tokens|oauth\/|2fa)/, read: 'never', write: 'never' },
  // Who am I, my company, its classrooms and plan, the reference data: any token.
  {
    pattern:
      /^\/api\/v1\/(users\/me|company|companies\/:[^/]+\/classrooms|channels|languages|translations)$/,
    read: 'any',
    write: 'never',
  },
  { pattern: /^\/api\/v1\/users\/me\/subscriptions/, read: 'any', write: 'never' },
  // Course names and statuses: a CI job names the course it exports.
  { pattern: /^\/api\/v1\/classrooms\/:[^/]+\/courses\/short$/, read: 'any', write: 'never' },
  // Exports: requesting one produces the file that is then downloaded, so both are reading.
  {
    pattern:
      /^\/api\/v1\/analytics\/(courses\/:[^/]+\/export-|classrooms\/:[^/]+\/courses\/:[^/]+\/export$|exports\/)/,
    read: 'exports:read',
    write: 'exports:read',
  },
  { pattern: /^\/api\/v[12]\/analytics\//, read: 'analytics:read', write: 'never' },
  // The AI import and translation spend the plan's AI usage: sessions only.
  {
    pattern:
      /^\/api\/v1\/(classrooms\/:[^/]+\/courses\/(import|:[^/]+\/translate)|courses\/helpers)/,
    read: 'never',
    write: 'never',
  },
  {
    pattern: /^\/api\/v1\/classrooms\/:[^/]+\/courses(\/|$)/,
    read: 'courses:read',
    write: 'courses:write',
  },
  // Learners, their lists and the bulk imports.
  {
    pattern: /^\/api\/v1\/learners(-lists)?(\/|$)/,
    read: 'learners:read',
    write: 'learners:write',
  },
];

/** What a token needs to call `method` on the route `pattern`; `never` for unlisted routes. */
export const routeScope = (method: string, pattern: string): TRouteScope => {
  const rule = RULES.find((candidate) => candidate.pattern.test(pattern));
  if (!rule) return 'never';
  return READS.has(method.toUpperCase()) ? rule.read : rule.write;
};

/** A `:write` scope also reads the same things. */
export const scopesAllow = (scopes: readonly string[], needed: TApiTokenScope): boolean =>
  scopes.includes(needed) ||
  (needed.endsWith(':read') && scopes.includes(needed.replace(/:read$/, ':write')));
