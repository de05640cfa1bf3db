import { z } from 'zod';

import { ZUuidSchema, dataEnvelope } from './common.ts';
import { MAX_IDS_PER_REQUEST } from './constants.ts';
import { MESSAGES } from './messages.ts';

/** 'company': accepted once by an administrator for the organisation; 'user': by each user. */
export const TERMS_SCOPES = ['company', 'user'] as const;
export type TTermsScope = (typeof TERMS_SCOPES)[number];

/** A term still to accept; `can_accept` is false for company terms when the caller is no administrator. */
export const ZTermsItemSchema = z.object({
  uuid: ZUuidSchema,
  title: z.string(),
  content: z.string(),
  can_accept: z.boolean(),
  scope: z.enum(TERMS_SCOPES),
});
export type TTermsItem = z.infer<typeof ZTermsItemSchema>;
export const ZListTermsToAcceptResponseSchema = dataEnvelope(z.array(ZTermsItemSchema));

export const ZAcceptTermsItemSchema = z.object({
  uuid: z.uuid({ message: MESSAGES.termsInvalid }),
});

/** Spec §7: "a list of {uuid}"; the wrapped form `{ terms: [...] }` is accepted too. */
export const ZAcceptTermsRequestSchema = z
  .union([z.array(ZAcceptTermsItemSchema), z.object({ terms: z.array(ZAcceptTermsItemSchema) })], {
    message: MESSAGES.termsInvalid,
  })
  // Checked on the chosen form, so the answer names the limit rather than "invalid terms".
  .superRefine((body, ctx) => {
    const items = Array.isArray(body) ? body : body.terms;
    if (items.length > MAX_IDS_PER_REQUEST) {
      ctx.addIssue({
        code: 'custom',
        path: Array.isArray(body) ? [] : ['terms'],
        message: MESSAGES.idsMax,
      });
    }
  });
export type TAcceptTermsRequest = z.infer<typeof ZAcceptTermsRequestSchema>;

export const ZAcceptTermsResponseSchema = dataEnvelope(
  z.object({ accepted: z.array(ZUuidSchema) }),
);
export type TAcceptTermsResponse = z.infer<typeof ZAcceptTermsResponseSchema>;

/** The accepted uuids of either body form, in order, without duplicates. */
export const acceptedTermUuids = (body: TAcceptTermsRequest): string[] => {
  const items = Array.isArray(body) ? body : body.terms;
  return [...new Set(items.map((item) => item.uuid))];
};

/**
 * Spec §5: every term the user can accept must be ticked. Answers the acceptable terms missing
 * from `acceptedUuids`; when any is missing, nothing may be sent ("You must accept mandatory…").
 */
export const missingMandatoryTerms = <T extends Pick<TTermsItem, 'uuid' | 'can_accept'>>(
  terms: readonly T[],
  acceptedUuids: readonly string[],
): T[] => {
  const accepted = new Set(acceptedUuids);
  return terms.filter((term) => term.can_accept && !accepted.has(term.uuid));
};
