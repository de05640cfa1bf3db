import { describe, expect, it } from 'vitest';

import { decideTermsAcceptance, termsView } from './terms.ts';

const privacy = { uuid: '11111111-1111-4111-8111-111111111111', can_accept: true };
const usage = { uuid: '22222222-2222-4222-8222-222222222222', can_accept: true };
const company = { uuid: '33333333-3333-4333-8333-333333333333', can_accept: false };

describe('decideTermsAcceptance (spec §5 terms rule)', () => {
  it('sends every acceptable term as [{uuid}] when all of them are ticked', () => {
    expect(decideTermsAcceptance([privacy, usage], new Set([privacy.uuid, usage.uuid]))).toEqual({
      ok: true,
      payload: [{ uuid: privacy.uuid }, { uuid: usage.uuid }],
    });
  });

  it('sends nothing while an acceptable term is unticked', () => {
    expect(decideTermsAcceptance([privacy, usage], new Set([privacy.uuid]))).toEqual({
      ok: false,
      missing: [usage.uuid],
    });
    expect(decideTermsAcceptance([privacy], new Set())).toEqual({
      ok: false,
      missing: [privacy.uuid],
    });
  });

  it('never requires nor sends a term the user cannot accept', () => {
    expect(
      decideTermsAcceptance([privacy, company], new Set([privacy.uuid, company.uuid])),
    ).toEqual({ ok: true, payload: [{ uuid: privacy.uuid }] });
  });
});

describe('termsView', () => {
  it('hides the modal when nothing is left and shows the administrator variant when needed', () => {
    expect(termsView([])).toBe('none');
    expect(termsView([privacy, company])).toBe('accept');
    expect(termsView([company])).toBe('contactAdministrator');
  });
});
