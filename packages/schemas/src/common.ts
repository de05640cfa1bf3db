import { z } from 'zod';

import { PAGINATION } from './constants.ts';

export const ZUuidSchema = z.uuid();
export const ZIsoDateTimeSchema = z.iso.datetime({ offset: true });
/** Nullable ISO timestamp as the API returns it. */
export const ZTimestampSchema = z.string().nullable();

/** Query flags arrive as strings: accept true/false/1/0 and real booleans. */
export const ZBooleanishSchema = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((value) => value === true || value === 'true' || value === '1');

export const ZPageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(PAGINATION.maxPerPage).optional(),
});
export type TPageQuery = z.infer<typeof ZPageQuerySchema>;

export const ZPaginationMetaSchema = z.object({
  current_page: z.number().int(),
  last_page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
  from: z.number().int().nullable(),
  to: z.number().int().nullable(),
});
export type TPaginationMeta = z.infer<typeof ZPaginationMetaSchema>;

export const ZPaginationLinksSchema = z.object({
  first: z.string(),
  last: z.string(),
  prev: z.string().nullable(),
  next: z.string().nullable(),
});
export type TPaginationLinks = z.infer<typeof ZPaginationLinksSchema>;

/** `{ data: T }`, the envelope of every success answer. */
export const dataEnvelope = <T extends z.ZodType>(schema: T) => z.object({ data: schema });

/** `{ data: T[], meta, links }`, the envelope of a paginated list. */
export const paginatedEnvelope = <T extends z.ZodType>(schema: T) =>
  z.object({ data: z.array(schema), meta: ZPaginationMetaSchema, links: ZPaginationLinksSchema });

export const ZUuidParamsSchema = z.object({ uuid: ZUuidSchema });

/** Letters (accented too), spaces, apostrophes and dashes (spec §5 name fields). */
export const NAME_PATTERN = /^(?=.*\p{L})[\p{L}\p{M}' ’-]+$/u;
