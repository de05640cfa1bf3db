import { z } from 'zod';

import { ZUuidSchema, dataEnvelope } from './common.ts';
import { MAX_IDS_PER_REQUEST, TEXT_LIMITS } from './constants.ts';
import { MESSAGES } from './messages.ts';

export const ZLearnersListSchema = z.object({
  uuid: ZUuidSchema,
  name: z.string(),
  /** Members that are not archived. */
  learners_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TLearnersList = z.infer<typeof ZLearnersListSchema>;

export const ZLearnersListResponseSchema = dataEnvelope(ZLearnersListSchema);
export const ZListLearnersListsResponseSchema = dataEnvelope(z.array(ZLearnersListSchema));

/** A list name: required and up to 100 characters; digits allowed ("Sales 2026"). */
export const ZLearnersListNameSchema = z
  .string({ error: MESSAGES.nameRequired })
  .trim()
  .min(1, { error: MESSAGES.nameRequired })
  .max(TEXT_LIMITS.listName, { error: MESSAGES.listNameMax });

export const ZCreateLearnersListRequestSchema = z.object({
  name: ZLearnersListNameSchema,
  /** Learners to put in the new list. */
  learners: z
    .array(z.uuid({ error: MESSAGES.learnerUnknown }), { error: MESSAGES.learnerUnknown })
    .max(MAX_IDS_PER_REQUEST, { error: MESSAGES.idsMax })
    .optional(),
});
export type TCreateLearnersListRequest = z.input<typeof ZCreateLearnersListRequestSchema>;

export const ZUpdateLearnersListRequestSchema = z.object({ name: ZLearnersListNameSchema });
export type TUpdateLearnersListRequest = z.input<typeof ZUpdateLearnersListRequestSchema>;

/** DELETE answers the uuid it deleted; the client checks it equals the one it asked for. */
export const ZDeletedLearnersListSchema = z.object({ deleted: ZUuidSchema });
export type TDeletedLearnersList = z.infer<typeof ZDeletedLearnersListSchema>;
