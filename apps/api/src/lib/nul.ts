import { MESSAGES } from '@ccp/schemas';
import type { FastifyRequest } from 'fastify';

import { validationError } from './app-error.ts';

// PostgreSQL text cannot hold the NUL character: a name or a search with "\u0000" answered 500
// there (found by the OpenAPI fuzz test on Postgres). No field of the product needs it, so it is
// refused on every route, whatever the database, before validation.

const MAX_DEPTH = 64;

/** The dotted path of the first string (or key) holding a NUL character, or null. */
export const nulPath = (value: unknown, path: string, depth = 0): string | null => {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return at;
    const found = nulPath(item, at, depth + 1);
    if (found !== null) return found;
  }
  return null;
};

/** preValidation hook: 422 naming the field when a parameter, query or body holds NUL. */
export const rejectNulCharacters = async (request: FastifyRequest) => {
  for (const [part, value] of [
    ['params', request.params],
    ['query', request.query],
    ['body', request.body],
  ] as const) {
    const found = nulPath(value, '');
    if (found !== null) throw validationError({ [found || part]: [MESSAGES.nulCharacter] });
  }
};
