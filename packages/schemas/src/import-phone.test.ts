import { describe, expect, it } from 'vitest';

import { checkImportRow } from './import-rows.ts';
import { countryOfCell, readImportPhone } from './import-phone.ts';
import { localeOfName } from './locale.ts';
import { toChannelKey } from './learner.ts';

// Issue 26: an import never stores a number the learner does not have.

const stored = (raw: string, defaultCountry = 'IT', rowCountry?: string) => {
  const reading = readImportPhone(raw, { defaultCountry, rowCountry });
  return reading.ok ? reading.phone : { reason: reading.reason };
};

describe('readImportPhone', () => {
  it.each([
    ['333 123 4567', 'IT', '+393331234567', 'mobile'],
    ['06 1234 5678', 'IT', '+390612345678', 'landline'],
    ['0151 23456789', 'DE', '+4915123456789', 'mobile'],
    ['087 555 0199', 'IE', '+353875550199', 'mobile'],
    ['0039 333 1234567', 'DE', '+393331234567', 'mobile'],
    // The trunk "(0)" of an international number is dropped (it was stored as +49015…).
    ['+49 (0)151 55506210', 'IT', '+4915155506210', 'mobile'],
    ['+353 (0)85 555 0661', 'IT', '+353855550661', 'mobile'],
    // Digits that lost their + are read by their country code when that is the one reading.
    ['353861234567', 'IT', '+353861234567', 'mobile'],
    ['393331234567', 'IT', '+393331234567', 'mobile'],
    ['1 212 555 0100', 'US', '+12125550100', 'mobile_or_landline'],
  ])('%j in %s is stored as %s (%s)', (raw, country, e164, type) => {
    expect(stored(raw, country)).toMatchObject({ e164, type });
  });

  it('reports an Irish mobile in an Italian file with both readings, never as Italian', () => {
    expect(stored('087 555 0199', 'IT')).toEqual({
      reason:
        'The phone 087 555 0199 can be read as +39 0875 550199 (IT) · +353 87 555 0199 (IE). Choose the country of national numbers (or map a country column), or write the number with its international prefix.',
    });
    // The row's country column decides.
    expect(stored('087 555 0199', 'IT', 'Ireland')).toMatchObject({ e164: '+353875550199' });
  });

  it('names the country a national number is valid in when it is not valid in the chosen one', () => {
    expect(stored('347 555 0101', 'IE')).toEqual({
      reason:
        'The phone 347 555 0101 is not a valid number of IE; it is valid as +39 347 555 0101 (IT). Choose that country for national numbers (or map a country column), or write the number with its international prefix.',
    });
    expect(stored('12345', 'IT')).toEqual({
      reason:
        'The phone 12345 is not a valid number of IT. Write it with its international prefix (+…), or choose the country of national numbers.',
    });
  });
});

describe('values of real exports', () => {
  it('reads countries by code or name in en/it/de', () => {
    expect(
      ['IE', 'ie', 'Ireland', 'Irlanda', 'Irland', 'Deutschland', 'Italia', 'nowhere'].map(
        countryOfCell,
      ),
    ).toEqual(['IE', 'IE', 'IE', 'IE', 'IE', 'DE', 'IT', undefined]);
  });

  it('reads languages by code, BCP 47 tag or name in en/it/de', () => {
    const cells = [
      'en-IE',
      'it-IT',
      'de_DE',
      'English',
      'Inglese',
      'Englisch',
      'Italiano',
      'Deutsch',
      'Tedesco',
      'fr',
      'Klingon',
    ];
    expect(cells.map(localeOfName)).toEqual([
      'en',
      'it',
      'de',
      'en',
      'en',
      'en',
      'it',
      'de',
      'de',
      null,
      null,
    ]);
  });

  it('reads channels by name in any case and spacing', () => {
    const names = [
      'MS Teams',
      'teams',
      'Microsoft Teams',
      'WhatsApp',
      'Google Chat',
      'googlechat',
      'Cisco Webex',
      'SLACK',
    ];
    expect(names.map(toChannelKey)).toEqual([
      'ms-teams',
      'ms-teams',
      'ms-teams',
      'whatsapp',
      'google-chat',
      'google-chat',
      'webex',
      'slack',
    ]);
  });

  it('takes the mobile of several phone columns and multi-values, and warns of a landline for WhatsApp', () => {
    const columns = {
      first_name: 0,
      last_name: 1,
      phone: 2,
      channels: 4,
      alternatives: { phone: [3] },
    };
    // Google Contacts: Phone 1 a work landline, Phone 2 a mobile (and " ::: " values).
    expect(
      checkImportRow(
        ['Anna', 'Verdi', '+39 02 1234 5678', '+39 347 555 0101 ::: +39 06 1234 5678', 'whatsapp'],
        columns,
        5,
        undefined,
      ),
    ).toMatchObject({ ok: true, learner: { phone: '+393475550101' }, warnings: [] });
    expect(
      checkImportRow(['Anna', 'Verdi', '+39 02 1234 5678', '', 'whatsapp'], columns, 5, undefined),
    ).toMatchObject({
      ok: true,
      learner: { phone: '+390212345678' },
      phone: { type: 'landline', country: 'IT' },
      warnings: [
        "phone: The phone +390212345678 is a landline: WhatsApp needs a mobile number. Add the learner's mobile, or choose other channels.",
      ],
    });
  });
});
