import { describe, expect, it } from 'vitest';

import {
  ZImportColumnOverridesSchema,
  fillMessage,
  matchImportHeader,
  parseImportColumnOverrides,
} from './import-columns.ts';
import { MESSAGES } from './messages.ts';

const GOOGLE_CONTACTS = [
  'Name',
  'Given Name',
  'Additional Name',
  'Family Name',
  'Yomi Name',
  'Given Name Yomi',
  'Additional Name Yomi',
  'Family Name Yomi',
  'Nickname',
  'Language',
  'Group Membership',
  'E-mail 1 - Type',
  'E-mail 1 - Value',
  'E-mail 2 - Type',
  'E-mail 2 - Value',
  'Phone 1 - Type',
  'Phone 1 - Value',
  'Channels',
];

const OUTLOOK = [
  'First Name',
  'Middle Name',
  'Last Name',
  'Given Yomi',
  'Surname Yomi',
  'E-mail Address',
  'E-mail 2 Address',
  'Home Phone',
  'Business Phone',
  'Mobile Phone',
  'Primary Phone',
  'Language',
  'Channel',
];

const headerOf = (cells: string[], overrides = {}) => {
  const { columns, problems } = matchImportHeader(cells, overrides);
  return { columns, problems };
};

describe('matchImportHeader', () => {
  it('reads Google Contacts: Given Name (not Name, not Given Name Yomi), E-mail 1 - Value', () => {
    expect(headerOf(GOOGLE_CONTACTS)).toEqual({
      columns: { first_name: 1, last_name: 3, email: 12, phone: 16, channels: 17, locale: 9 },
      problems: [],
    });
  });

  it('reads Outlook: Mobile Phone over Primary, Business and Home Phone; not the Yomi names', () => {
    // The other phones are candidates for rows without a mobile, strongest first.
    expect(headerOf(OUTLOOK)).toEqual({
      columns: {
        first_name: 0,
        last_name: 2,
        email: 5,
        phone: 9,
        channels: 12,
        locale: 11,
        alternatives: { phone: [10, 7, 8] },
      },
      problems: [],
    });
    // Issue 26: a second phone-like column is a candidate, not "appears more than once".
    expect(headerOf(['First Name', 'Last Name', 'Business Phone', 'Home Phone', 'Kanal'])).toEqual({
      columns: { first_name: 0, last_name: 1, phone: 2, channels: 4, alternatives: { phone: [3] } },
      problems: [],
    });
  });

  it('reads Italian and German headers, with accents, case and punctuation ignored', () => {
    expect(
      headerOf(['Nome', 'Cognome', 'E-mail', 'Cellulare', 'Canali', 'Lingua']).columns,
    ).toEqual({ first_name: 0, last_name: 1, email: 2, phone: 3, channels: 4, locale: 5 });
    expect(
      headerOf(['Vorname', 'Nachname', 'E-Mail-Adresse', 'Handy', 'Kanäle', 'Sprache']).columns,
    ).toEqual({ first_name: 0, last_name: 1, email: 2, phone: 3, channels: 4, locale: 5 });
    expect(headerOf(['E-mail Address ', ' FIRST_NAME', 'last-name', 'channels']).columns).toEqual({
      email: 0,
      first_name: 1,
      last_name: 2,
      channels: 3,
    });
  });

  it('takes overrides by header name over the aliases, and says which were used', () => {
    const header = ['Nome', 'Cognome', 'Recapito', 'Telefono', 'Canali', 'Note'];
    const matched = matchImportHeader(header, { recapito: 'phone', Note: 'ignore', Foo: 'email' });
    expect(matched.columns).toEqual({ first_name: 0, last_name: 1, phone: 2, channels: 4 });
    expect(matched.problems).toEqual([]);
    expect(matched.unusedOverrides).toEqual(['Foo']);
    expect(matched.matches).toEqual([
      { index: 0, header: 'Nome', column: 'first_name', by: 'alias' },
      { index: 1, header: 'Cognome', column: 'last_name', by: 'alias' },
      { index: 2, header: 'Recapito', column: 'phone', by: 'override' },
      { index: 4, header: 'Canali', column: 'channels', by: 'alias' },
    ]);
    // An override can also take a header out of the matching.
    expect(
      matchImportHeader(['first_name', 'last_name', 'email', 'channels'], { email: 'ignore' })
        .problems,
    ).toEqual([MESSAGES.importContactColumnMissing]);
  });

  it('still refuses two headers of the same strength for one column', () => {
    expect(headerOf(['first_name', 'Vorname', 'last_name', 'email', 'channels']).problems).toEqual([
      'The column Vorname appears more than once in the first row.',
    ]);
  });
});

describe('column overrides', () => {
  it('parses HEADER=COLUMN lists, last one winning', () => {
    expect(
      parseImportColumnOverrides(['Cellulare=phone', 'E-Mail privat = EMAIL,Note=ignore']),
    ).toEqual({ Cellulare: 'phone', 'E-Mail privat': 'email', Note: 'ignore' });
    expect(parseImportColumnOverrides('a=b=phone')).toEqual({ 'a=b': 'phone' });
    expect(() => parseImportColumnOverrides('Cellulare')).toThrow(/HEADER=COLUMN/);
    expect(() => parseImportColumnOverrides('Cellulare=mobile')).toThrow(/first_name, last_name/);
  });

  it('validates the upload field', () => {
    expect(ZImportColumnOverridesSchema.safeParse({ Cellulare: 'phone' }).success).toBe(true);
    const bad = ZImportColumnOverridesSchema.safeParse({ Cellulare: 'mobile' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe(MESSAGES.importColumnMapInvalid);
  });
});

describe('files without a channels column (address books, HR systems)', () => {
  const noChannels = (cells: string[]) => cells.filter((cell) => !/^channels?$/i.test(cell));

  it('are refused without a default channel, accepted with one', () => {
    expect(headerOf(noChannels(GOOGLE_CONTACTS)).problems).toEqual([
      MESSAGES.importChannelsColumnMissing,
    ]);
    expect(matchImportHeader(noChannels(GOOGLE_CONTACTS), {}, ['channels']).problems).toEqual([]);
    expect(matchImportHeader(noChannels(OUTLOOK), {}, ['channels']).problems).toEqual([]);
    // A default never excuses the names.
    expect(matchImportHeader(['email'], {}, ['channels']).problems).toEqual([
      fillMessage(MESSAGES.importColumnsMissing, { columns: 'first_name, last_name' }),
    ]);
  });
});

describe('headers of the tools trainers export from (issue 26)', () => {
  it.each([
    [
      'HubSpot',
      'Record ID,First Name,Last Name,Email,Phone Number,Mobile Phone Number,Country/Region,Preferred language',
      {
        first_name: 1,
        last_name: 2,
        email: 3,
        phone: 5,
        locale: 7,
        country: 6,
        alternatives: { phone: [4] },
      },
    ],
    [
      'Salesforce',
      'First Name,Last Name,Title,Account Name,Email,Phone,Mobile,Mailing Country,Contact ID',
      { first_name: 0, last_name: 1, email: 4, phone: 6, country: 7, alternatives: { phone: [5] } },
    ],
    [
      'Workday',
      'Worker,Employee ID,Legal Name - First Name,Legal Name - Last Name,Primary Work Email,Primary Work Phone,Location,Country,Preferred Language',
      { first_name: 2, last_name: 3, email: 4, phone: 5, locale: 8, country: 7 },
    ],
    [
      'BambooHR',
      'Employee #,First Name,Last Name,Preferred Name,Work Email,Home Email,Mobile Phone,Work Phone,Home Phone,Country',
      {
        first_name: 1,
        last_name: 2,
        email: 4,
        phone: 6,
        country: 9,
        alternatives: { phone: [7, 8] },
      },
    ],
    [
      'Personio',
      'ID,Vorname,Nachname,E-Mail,Position,Abteilung,Telefon (geschäftlich),Mobiltelefon,Sprache',
      { first_name: 1, last_name: 2, email: 3, phone: 7, locale: 8, alternatives: { phone: [6] } },
    ],
    [
      'Active Directory',
      'GivenName,Surname,mail,MobilePhone,OfficePhone,c,preferredLanguage,UserPrincipalName',
      {
        first_name: 0,
        last_name: 1,
        email: 2,
        phone: 3,
        locale: 6,
        country: 5,
        alternatives: { phone: [4] },
      },
    ],
    [
      'SAP SuccessFactors',
      'STATUS,USERID,USERNAME,FIRSTNAME,LASTNAME,MI,GENDER,EMAIL,MANAGER,DEPARTMENT,LOCATION,TIMEZONE,BIZ_PHONE,COUNTRY,DEFAULT_LOCALE',
      { first_name: 3, last_name: 4, email: 7, phone: 12, locale: 14, country: 13, time_zone: 11 },
    ],
    [
      'Google Contacts (current layout)',
      'First Name,Middle Name,Last Name,E-mail 1 - Label,E-mail 1 - Value,Phone 1 - Label,Phone 1 - Value,Phone 2 - Label,Phone 2 - Value,Address 1 - Country',
      { first_name: 0, last_name: 2, email: 4, phone: 6, country: 9, alternatives: { phone: [8] } },
    ],
  ])('reads %s', (_tool, header, columns) => {
    expect(headerOf(header.split(','))).toEqual({
      columns,
      problems: [MESSAGES.importChannelsColumnMissing],
    });
  });
});
