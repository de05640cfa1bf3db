import { describe, expect, it } from 'vitest';

import { MESSAGES } from './messages.ts';
import {
  ZAcceptTermsRequestSchema,
  ZTermsItemSchema,
  acceptedTermUuids,
  missingMandatoryTerms,
} from './terms.ts';

const A = '0b9e8a52-2f7a-4e0c-9a53-3e2f1d8c7b61';
const B = '5f3c1d2e-8a4b-4c6d-9e0f-1a2b3c4d5e6f';
const C = '9d8c7b6a-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

describe('terms item', () => {
  it('accepts a term with its scope and whether the caller can accept it', () => {
    const term = {
      uuid: A,
      title: 'Terms',
      content: '<p>…</p>',
      can_accept: false,
      scope: 'company',
    };
    expect(ZTermsItemSchema.parse(term)).toEqual(term);
    expect(ZTermsItemSchema.safeParse({ ...term, scope: 'team' }).success).toBe(false);
    expect(ZTermsItemSchema.safeParse({ ...term, can_accept: 'yes' }).success).toBe(false);
  });
});

describe('accept terms request', () => {
  it('accepts a list of {uuid}, empty included', () => {
    expect(ZAcceptTermsRequestSchema.parse([{ uuid: A }, { uuid: B }])).toEqual([
      { uuid: A },
      { uuid: B },
    ]);
    expect(ZAcceptTermsRequestSchema.parse([])).toEqual([]);
  });

  it('accepts the wrapped form {terms: [...]}', () => {
    expect(ZAcceptTermsRequestSchema.parse({ terms: [{ uuid: A }] })).toEqual({
      terms: [{ uuid: A }],
    });
  });

  it('refuses a malformed uuid at its path', () => {
    const result = ZAcceptTermsRequestSchema.safeParse([{ uuid: A }, { uuid: 'nope' }]);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: [1, 'uuid'], message: MESSAGES.termsInvalid }),
    ]);
    const wrapped = ZAcceptTermsRequestSchema.safeParse({ terms: [{ uuid: 'nope' }] });
    expect(wrapped.error?.issues[0]?.path).toEqual(['terms', 0, 'uuid']);
  });

  it('refuses a body that is neither form', () => {
    for (const body of [{ uuid: A }, 'A', null]) {
      const result = ZAcceptTermsRequestSchema.safeParse(body);
      expect(result.error?.issues[0]?.message).toBe(MESSAGES.termsInvalid);
    }
  });

  it('reads the uuids of either form without duplicates', () => {
    expect(acceptedTermUuids([{ uuid: A }, { uuid: B }, { uuid: A }])).toEqual([A, B]);
    expect(acceptedTermUuids({ terms: [{ uuid: B }] })).toEqual([B]);
  });
});

describe('missingMandatoryTerms (spec §5)', () => {
  const pending = [
    { uuid: A, can_accept: true },
    { uuid: B, can_accept: false },
    { uuid: C, can_accept: true },
  ];

  it('answers the acceptable terms not ticked', () => {
    expect(missingMandatoryTerms(pending, [A])).toEqual([{ uuid: C, can_accept: true }]);
    expect(missingMandatoryTerms(pending, [])).toHaveLength(2);
  });

  it('does not require the terms the user cannot accept', () => {
    expect(missingMandatoryTerms(pending, [A, C])).toEqual([]);
  });

  it('has nothing missing when nothing is pending', () => {
    expect(missingMandatoryTerms([], [])).toEqual([]);
  });
});
