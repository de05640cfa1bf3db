import { checkImportRow } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import {
  initialChoice,
  mappingOf,
  overridesOf,
  phoneCountriesOf,
} from './components/mapping-step.tsx';
import type { TMappingChoice } from './components/mapping-step.tsx';

// Issue 26: the country chosen beside a phone column on the mapping step reaches the preview and
// the upload, and the upload reads every column the page shows as a phone.

const HEADER = ['First name', 'Last name', 'Email', 'Mobile (Ireland)', 'Office phone', 'Channels'];
const ROW = ['Siobhan', 'Kelly', 'sk@example.ie', '087 555 0199', '030 1234567', 'whatsapp'];

describe('the mapping step’s phone countries', () => {
  const automatic = initialChoice(HEADER, 'en');
  // The user maps "Mobile (Ireland)" to the phone and chooses Ireland beside it.
  const choice: TMappingChoice = {
    ...automatic,
    targets: automatic.targets.map((target, index) => (index === 3 ? 'phone' : target)),
    phoneCountries: { 3: 'IE' },
  };

  it('sends the phone columns the page shows and only the countries chosen', () => {
    expect(automatic.targets[4]).toBe('phone');
    expect(overridesOf(HEADER, choice)).toEqual({
      'Mobile (Ireland)': 'phone',
      'Office phone': 'phone',
    });
    expect(phoneCountriesOf(HEADER, choice)).toEqual({ 'Mobile (Ireland)': 'IE' });
    // A country left beside a column no longer mapped to the phone is not sent.
    const unmapped = { ...choice, targets: choice.targets.map((t, i) => (i === 3 ? 'ignore' : t)) };
    expect(phoneCountriesOf(HEADER, unmapped)).toEqual({});
  });

  it('previews the row as the server will store it', () => {
    const check = (mapped: TMappingChoice) =>
      checkImportRow(ROW, mappingOf(HEADER, mapped).columns, HEADER.length, undefined, {
        defaultCountry: mapped.defaultCountry,
      });
    expect(check(choice)).toMatchObject({
      ok: true,
      phone: { e164: '+353875550199', country: 'IE', type: 'mobile' },
    });
    // Without the choice the Irish mobile reads as an Italian landline too: reported.
    expect(check({ ...choice, phoneCountries: {} })).toMatchObject({ ok: false });
  });
});
