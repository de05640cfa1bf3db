import { describe, expect, it } from 'vitest';

import { matchImportHeader } from './import-columns.ts';
import {
  IMPORT_PHONE_COUNTRY_PRECEDENCE,
  applyImportPhoneCountries,
  importPhoneCountryOf,
  parseImportPhoneCountries,
  readImportPhone,
} from './import-phone.ts';
import { checkImportRow } from './import-rows.ts';
import { ZImportUploadFieldsSchema } from './imports.ts';

// Issue 26: the country of national numbers chosen per phone column, and which choice wins.

const IRISH_MOBILE = '087 555 0199'; // an Irish mobile, and an Italian landline
const ROME_OFFICE = '06 1234 5678'; // an Italian landline, no Irish number

describe('the country of a national number: column, then row, then file', () => {
  it('is one ordered rule', () => {
    expect(IMPORT_PHONE_COUNTRY_PRECEDENCE).toEqual(['column', 'row', 'file']);
    expect(
      importPhoneCountryOf({ defaultCountry: 'IT', rowCountry: 'Germany', columnCountry: 'ie' }),
    ).toEqual({ country: 'IE', source: 'column' });
    expect(importPhoneCountryOf({ defaultCountry: 'IT', rowCountry: 'Deutschland' })).toEqual({
      country: 'DE',
      source: 'row',
    });
    // A row country the cell does not name (a typo) falls back to the file's.
    expect(importPhoneCountryOf({ defaultCountry: 'IE', rowCountry: 'Atlantis' })).toEqual({
      country: 'IE',
      source: 'file',
    });
  });

  const read = (options: Parameters<typeof readImportPhone>[1]) => {
    const reading = readImportPhone(IRISH_MOBILE, options);
    return reading.ok ? reading.phone?.e164 : 'reported';
  };

  it("reads a number in its column's country over the row's and the file's", () => {
    // The file's country alone cannot decide between the two readings: reported.
    expect(read({ defaultCountry: 'IT' })).toBe('reported');
    expect(read({ defaultCountry: 'IT', columnCountry: 'IE' })).toBe('+353875550199');
    // A learner living in Italy with an Irish mobile: the column says Irish.
    expect(read({ defaultCountry: 'IT', rowCountry: 'Italy', columnCountry: 'IE' })).toBe(
      '+353875550199',
    );
    // Without a column choice the row's country decides, and beats the file's.
    expect(read({ defaultCountry: 'IT', rowCountry: 'Ireland' })).toBe('+353875550199');
    expect(read({ defaultCountry: 'IE', rowCountry: 'IT' })).toBe('+390875550199');
    // An Italian column: the landline, whatever the row says.
    expect(read({ defaultCountry: 'IE', rowCountry: 'IE', columnCountry: 'IT' })).toBe(
      '+390875550199',
    );
  });

  it("reports a number that is not valid in its column's country, with its readings", () => {
    const reading = readImportPhone(ROME_OFFICE, { defaultCountry: 'IT', columnCountry: 'IE' });
    expect(reading).toMatchObject({
      ok: false,
      reason:
        'The phone 06 1234 5678 is not a valid number of IE; it is valid as +39 06 1234 5678 (IT). Choose that country for national numbers (or map a country column), or write the number with its international prefix.',
    });
  });
});

describe('phone countries of a file with "Mobile (Ireland)" and "Office phone"', () => {
  const header = [
    'First name',
    'Last name',
    'Email',
    'Mobile (Ireland)',
    'Office phone',
    'Channel',
  ];
  const matched = matchImportHeader(header, {
    'Mobile (Ireland)': 'phone',
    'Office phone': 'phone',
  });
  const row = (mobile: string, office: string) => [
    'Siobhan',
    'Kelly',
    'sk@x.ie',
    mobile,
    office,
    'whatsapp',
  ];

  it('reads each column in its own country', () => {
    const { columns, problems } = applyImportPhoneCountries(matched, {
      ' mobile (IRELAND) ': 'ie',
    });
    expect(problems).toEqual([]);
    expect(columns.phoneCountries).toEqual({ 3: 'IE' });
    const check = (cells: string[]) => checkImportRow(cells, columns, 6, undefined, {});
    expect(check(row(IRISH_MOBILE, ROME_OFFICE))).toMatchObject({
      ok: true,
      phone: { e164: '+353875550199', country: 'IE', type: 'mobile' },
    });
    // No mobile: the office phone, read in the file's country (IT).
    expect(check(row('', ROME_OFFICE))).toMatchObject({
      ok: true,
      phone: { e164: '+390612345678', country: 'IT', type: 'landline' },
      warnings: [expect.stringContaining('is a landline')],
    });
    // The same digits in the office column, which has no country of its own: reported.
    expect(check(row('', IRISH_MOBILE))).toMatchObject({
      ok: false,
      reasons: [expect.stringContaining('can be read as +39 0875 550199 (IT) · +353 87 555 0199')],
    });
    // Without the choice the mobile column is read as Italian: reported, never rewritten.
    expect(checkImportRow(row(IRISH_MOBILE, ''), matched.columns, 6, undefined)).toMatchObject({
      ok: false,
    });
  });

  it('names a chosen header that is no phone column of the file', () => {
    expect(
      applyImportPhoneCountries(matched, { Email: 'IE', 'Home phone': 'DE' }).problems,
    ).toEqual([
      'The column Email is not a phone column of the file: choose a country only for the columns mapped to the phone.',
      'The column Home phone is not a phone column of the file: choose a country only for the columns mapped to the phone.',
    ]);
    expect(applyImportPhoneCountries(matched, undefined)).toEqual({
      columns: matched.columns,
      problems: [],
    });
  });

  it('is an upload field (JSON) and a CLI flag (HEADER=COUNTRY), known countries only', () => {
    expect(
      ZImportUploadFieldsSchema.parse({ phone_countries: '{"Mobile (Ireland)":" ie "}' })
        .phone_countries,
    ).toEqual({ 'Mobile (Ireland)': 'IE' });
    const issues = (value: string) =>
      ZImportUploadFieldsSchema.safeParse({ phone_countries: value }).error?.issues.map(
        (issue) => issue.message,
      );
    expect(issues('{"Mobile":"XX"}')).toEqual([
      'The country of a phone column must be a two-letter country code such as IE.',
    ]);
    expect(issues('{nope')).toEqual([
      'The countries of phone columns must be a JSON object of column names and country codes, such as {"Mobile (Ireland)": "IE"}.',
    ]);
    expect(issues('["IE"]')).toHaveLength(1);
    expect(parseImportPhoneCountries(['Mobile (Ireland)=ie', 'Tel=a=DE'])).toEqual({
      'Mobile (Ireland)': 'IE',
      'Tel=a': 'DE',
    });
    expect(() => parseImportPhoneCountries('Mobile')).toThrow(/HEADER=COUNTRY/);
    expect(() => parseImportPhoneCountries('Mobile=Ireland')).toThrow(/two-letter/);
  });
});
