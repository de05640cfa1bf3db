import { missingMandatoryTerms } from '@ccp/schemas';
import type { TTermsItem } from '@ccp/schemas';

export type TTermsDecision =
  { ok: true; payload: { uuid: string }[] } | { ok: false; missing: string[] };

/**
 * Spec §5: every term the user can accept must be ticked; otherwise nothing is sent. The payload
 * holds the ticked terms the user may accept, as `[{uuid}]` (spec §7).
 */
export const decideTermsAcceptance = (
  terms: readonly Pick<TTermsItem, 'uuid' | 'can_accept'>[],
  ticked: ReadonlySet<string>,
): TTermsDecision => {
  const missing = missingMandatoryTerms(terms, [...ticked]);
  if (missing.length > 0) return { ok: false, missing: missing.map((term) => term.uuid) };
  return {
    ok: true,
    payload: terms.filter((term) => term.can_accept).map((term) => ({ uuid: term.uuid })),
  };
};

/** What the modal shows: nothing, the usual acceptance, or the variant for non-administrators. */
export type TTermsView = 'none' | 'accept' | 'contactAdministrator';

export const termsView = (terms: readonly Pick<TTermsItem, 'can_accept'>[]): TTermsView => {
  if (terms.length === 0) return 'none';
  return terms.some((term) => term.can_accept) ? 'accept' : 'contactAdministrator';
};
