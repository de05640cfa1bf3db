import { negotiateLocale } from '@ccp/schemas';
import type { TLocale } from '@ccp/schemas';
import type { FastifyRequest } from 'fastify';

/** The language a request asked for with `Accept-Language` (en, it, de; English by default). */
export const requestLanguage = (request: Pick<FastifyRequest, 'headers'>): TLocale =>
  negotiateLocale(request.headers['accept-language']);
