import { z } from 'zod';

import { MESSAGES } from './messages.ts';

// Which column of an import file holds which learner field: the header matcher shared by the API
// (the upload's pre-scan and the job), the CLI (`ccp learners import`, its dry run) and the web's
// learners upload page. It knows the template's names, what spreadsheets, address books and CRMs
// export (Google Contacts, Outlook), and the Italian and German words; a caller's overrides win.

/** The columns of an import file: the template's, then the row's country of national phones. */
export const IMPORT_COLUMNS = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'channels',
  'locale',
  'country',
  'time_zone',
] as const;
export type TImportColumn = (typeof IMPORT_COLUMNS)[number];

/** The template's columns (the country column is optional and not in it). */
export const IMPORT_TEMPLATE_COLUMNS: readonly TImportColumn[] = [
  ...IMPORT_COLUMNS.slice(0, 6),
  // A learner's field; `country` is not: it only says how to read the row's national numbers.
  'time_zone',
];

/** Columns a file must have; it also needs `email` or `phone`. */
export const IMPORT_REQUIRED_COLUMNS: readonly TImportColumn[] = [
  'first_name',
  'last_name',
  'channels',
];

/**
 * Columns of which a file may have several (Outlook's four phones, HubSpot's "Phone Number" and
 * "Mobile Phone Number", Outlook's business and home country): the strongest is read first and
 * the others are candidates for a row whose first is empty (or, for phones, not a mobile), never
 * a "column appears more than once" error.
 */
export const IMPORT_MULTI_COLUMNS: readonly TImportColumn[] = ['phone', 'country'];

/** The template's first line. */
export const IMPORT_TEMPLATE_HEADER = IMPORT_TEMPLATE_COLUMNS.join(',');

/** Google Contacts writes several values of one field in one cell, separated by this. */
export const IMPORT_MULTI_VALUE_SEPARATOR = ' ::: ';

/**
 * Header names by column, after normalizeHeaderName (lowercase, no accents, only letters and
 * digits), in tiers: when several headers of a file name the same column, the one of the
 * strongest tier is used and weaker ones are ignored (a mobile beats a landline, Google's "Given
 * Name" beats its "Name"). Two headers of the same tier are a problem ("appears more than once"),
 * except for IMPORT_MULTI_COLUMNS. Names are matched whole: "Given Name Yomi" is not "Given
 * Name", "E-mail 2 Address" is not "E-mail Address". The exports each name comes from are
 * listed in docs/imports.md; packages/schemas/src/import-columns.test.ts has one header per tool.
 */
export const IMPORT_COLUMN_ALIAS_TIERS: Record<TImportColumn, readonly (readonly string[])[]> = {
  first_name: [
    [
      'firstname',
      'first',
      'givenname',
      'forename',
      'nome',
      'vorname',
      'nomedibattesimo',
      // Workday: "Preferred Name - First Name" (the name a person goes by) beats the legal one.
      'preferrednamefirstname',
    ],
    // Workday "Legal Name - First Name"; SuccessFactors "Legal First Name".
    ['legalnamefirstname', 'legalfirstname'],
    ['name'],
  ],
  last_name: [
    [
      'lastname',
      'last',
      'surname',
      'familyname',
      'cognome',
      'nachname',
      'familienname',
      'preferrednamelastname',
      // Active Directory's attribute.
      'sn',
    ],
    ['legalnamelastname', 'legallastname'],
  ],
  email: [
    [
      'email',
      'emailaddress',
      'mail',
      'emailadresse',
      'indirizzoemail',
      'postaelettronica',
      'indirizzopostaelettronica',
      // Google Contacts: "E-mail 1 - Value".
      'email1value',
      'email1',
      // BambooHR, Workday, SuccessFactors, Personio: the work address.
      'workemail',
      'primaryworkemail',
      'businessemail',
      'emailgeschaftlich',
      'emaillavoro',
      'emailaziendale',
    ],
    ['homeemail', 'personalemail', 'privateemail', 'emailprivat', 'emailpersonale'],
    // Active Directory: the sign-in name, usually but not always the address.
    ['userprincipalname'],
  ],
  phone: [
    [
      'mobile',
      'mobilephone',
      'mobilenumber',
      'mobilephonenumber',
      'cellphone',
      'cell',
      'cellular',
      'whatsapp',
      'whatsappnumber',
      'whatsappphonenumber',
      'cellulare',
      'numerodicellulare',
      'telefonocellulare',
      'handy',
      'handynummer',
      'mobilnummer',
      'mobiltelefon',
      'mobiltelefonnummer',
      'primaryworkmobile',
      'primaryworkmobilephone',
      'workmobile',
      'workmobilephone',
      'businessmobile',
      'privatemobile',
      'personalmobile',
      'mobilegeschaftlich',
    ],
    [
      'phone',
      'phonenumber',
      'telephone',
      'telephonenumber',
      'tel',
      'telefono',
      'numeroditelefono',
      'telefon',
      'telefonnummer',
      // Google Contacts: "Phone 1 - Value"; Outlook: "Primary Phone".
      'phone1value',
      'primaryphone',
    ],
    [
      'businessphone',
      'workphone',
      'officephone',
      'primaryworkphone',
      'homephone',
      'primaryhomephone',
      'telefonoufficio',
      'telefonoabitazione',
      'telefongeschaftlich',
      'telefonprivat',
      'bizphone',
      'phone2value',
      'phone3value',
      'phone4value',
      'businessphone2',
      'homephone2',
      'otherphone',
    ],
  ],
  channels: [['channels', 'channel', 'canali', 'canale', 'kanale', 'kanal', 'preferredchannel']],
  locale: [
    [
      'locale',
      'language',
      'lang',
      'preferredlanguage',
      'lingua',
      'linguapreferita',
      'sprache',
      'bevorzugtesprache',
      // SAP SuccessFactors' user data file.
      'defaultlocale',
      'korrespondenzsprache',
    ],
  ],
  country: [
    [
      'country',
      'countryregion',
      'countrycode',
      'land',
      'paese',
      'nazione',
      // Salesforce, Active Directory ("co" is the name, "c" the code).
      'mailingcountry',
      'co',
      'c',
    ],
    [
      'businesscountryregion',
      'workcountry',
      'locationcountry',
      'homecountryregion',
      'address1country',
      'otheraddresscountry',
    ],
  ],
  time_zone: [['timezone', 'tz', 'fusoorario', 'zeitzone']],
};

/** Every name a column is recognised by, strongest first (the tiers flattened). */
export const IMPORT_COLUMN_ALIASES: Record<TImportColumn, readonly string[]> = Object.fromEntries(
  IMPORT_COLUMNS.map((column) => [column, IMPORT_COLUMN_ALIAS_TIERS[column].flat()]),
) as unknown as Record<TImportColumn, readonly string[]>;

/** `"E-mail "` → `email`, `First Name` → `firstname`, `Kanäle` → `kanale`. */
export const normalizeHeaderName = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

const aliasIndex = new Map<string, { column: TImportColumn; tier: number }>(
  IMPORT_COLUMNS.flatMap((column) =>
    IMPORT_COLUMN_ALIAS_TIERS[column].flatMap((names, tier) =>
      names.map((name) => [name, { column, tier }] as const),
    ),
  ),
);

/** What an override maps a header to: a column, or `ignore` to leave the header out. */
export const IMPORT_COLUMN_TARGETS = [...IMPORT_COLUMNS, 'ignore'] as const;
export type TImportColumnTarget = (typeof IMPORT_COLUMN_TARGETS)[number];

/**
 * Overrides of the automatic matching, by header name as the file writes it (matched like the
 * aliases: case, accents, spaces and punctuation do not matter): `{ "Cellulare": "phone" }`.
 * Sent by the CLI's `--map` and the upload page as the upload's `columns` field (JSON).
 */
export const ZImportColumnOverridesSchema = z.record(
  z.string().trim().min(1).max(255),
  z.enum(IMPORT_COLUMN_TARGETS, { error: MESSAGES.importColumnMapInvalid }),
  { error: MESSAGES.importColumnMapInvalid },
);
export type TImportColumnOverrides = z.infer<typeof ZImportColumnOverridesSchema>;

/**
 * `Cellulare=phone,E-Mail privat=email` (or several such texts, e.g. repeated `--map` flags) as
 * overrides. Throws an Error naming the bad part and the columns it may name.
 */
export const parseImportColumnOverrides = (
  texts: string | readonly string[],
): TImportColumnOverrides => {
  const overrides: TImportColumnOverrides = {};
  for (const text of typeof texts === 'string' ? [texts] : texts) {
    for (const part of text.split(',')) {
      if (part.trim() === '') continue;
      const at = part.lastIndexOf('=');
      const header = at === -1 ? '' : part.slice(0, at).trim();
      const target =
        at === -1
          ? ''
          : part
              .slice(at + 1)
              .trim()
              .toLowerCase();
      if (header === '' || !(IMPORT_COLUMN_TARGETS as readonly string[]).includes(target)) {
        throw new Error(
          `"${part.trim()}" is not HEADER=COLUMN; COLUMN is one of ${IMPORT_COLUMN_TARGETS.join(', ')}.`,
        );
      }
      overrides[header] = target as TImportColumnTarget;
    }
  }
  return overrides;
};

/** How one header of the file was read. */
export type TImportHeaderMatch = {
  /** Position in the row. */
  index: number;
  /** The header as the file writes it. */
  header: string;
  column: TImportColumn;
  /** `override`: the caller said so; `alias`: recognised by name. */
  by: 'override' | 'alias';
};

/** Index of each recognised column in the row, and the other candidates of multi columns. */
export type TImportColumnIndexes = Partial<Record<TImportColumn, number>> & {
  /** More columns of IMPORT_MULTI_COLUMNS, strongest first (after the one above). */
  alternatives?: Partial<Record<TImportColumn, number[]>>;
  /**
   * The country of national numbers chosen for a phone column, by position (the upload's
   * `phone_countries`, see applyImportPhoneCountries); other phone columns use the row's or the
   * file's country (IMPORT_PHONE_COUNTRY_PRECEDENCE).
   */
  phoneCountries?: Record<number, string>;
};

export type TImportHeader = {
  columns: TImportColumnIndexes;
  /** The headers used, in file order. */
  matches: TImportHeaderMatch[];
  /** Problems that make the file unusable; empty when it can be imported. */
  problems: string[];
  /** Override keys that name no header of the file (a typo in `--map`). */
  unusedOverrides: string[];
};

/** Fills `{{name}}` placeholders of a message. */
export const fillMessage = (text: string, values: Record<string, string | number>): string =>
  text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );

/**
 * Matches a file's first row to the import columns: the overrides first (by header name), then
 * the aliases, case- and accent-insensitively; other columns are ignored. A column an override
 * assigns is not also taken by an alias. Problems: a column two headers claim with the same
 * strength, a required column missing (unless `defaulted`), neither e-mail nor phone.
 */
export const matchImportHeader = (
  cells: readonly string[],
  overrides: TImportColumnOverrides = {},
  /** Columns given a default for every row (the upload's default channels): not required. */
  defaulted: readonly TImportColumn[] = [],
): TImportHeader => {
  const byName = new Map<string, { key: string; target: TImportColumnTarget }>();
  for (const [key, target] of Object.entries(overrides)) {
    byName.set(normalizeHeaderName(key), { key, target });
  }
  const usedOverrides = new Set<string>();
  const problems: string[] = [];
  const matches: TImportHeaderMatch[] = [];
  // Per column, every header that names it with its tier (-1: an override, which beats any alias).
  const named = new Map<TImportColumn, { tier: number; index: number }[]>();
  const name = (column: TImportColumn, tier: number, index: number) => {
    const list = named.get(column) ?? [];
    list.push({ tier, index });
    named.set(column, list);
  };

  cells.forEach((cell, index) => {
    const normalized = normalizeHeaderName(cell);
    const override = byName.get(normalized);
    if (override) {
      usedOverrides.add(override.key);
      if (override.target !== 'ignore') name(override.target, -1, index);
      return;
    }
    const alias = aliasIndex.get(normalized);
    if (alias) name(alias.column, alias.tier, index);
  });

  const columns: TImportColumnIndexes = {};
  const used = new Map<number, TImportColumn>();
  for (const column of IMPORT_COLUMNS) {
    const list = (named.get(column) ?? []).sort((a, b) => a.tier - b.tier || a.index - b.index);
    const [first, ...others] = list;
    if (!first) continue;
    // A column an override gives is not also read from the aliases' headers.
    const candidates = first.tier === -1 ? others.filter((other) => other.tier === -1) : others;
    columns[column] = first.index;
    used.set(first.index, column);
    if (IMPORT_MULTI_COLUMNS.includes(column)) {
      if (candidates.length > 0) {
        (columns.alternatives ??= {})[column] = candidates.map((other) => other.index);
        for (const other of candidates) used.set(other.index, column);
      }
      continue;
    }
    for (const other of candidates.filter((candidate) => candidate.tier === first.tier)) {
      problems.push(
        fillMessage(MESSAGES.importColumnDuplicate, { column: (cells[other.index] ?? '').trim() }),
      );
    }
  }
  for (const [index, cell] of cells.entries()) {
    const column = used.get(index);
    if (!column) continue;
    const by = byName.get(normalizeHeaderName(cell)) ? 'override' : 'alias';
    matches.push({ index, header: cell, column, by });
  }

  const missing = IMPORT_REQUIRED_COLUMNS.filter(
    (column) => columns[column] === undefined && !defaulted.includes(column),
  );
  const others = missing.filter((column) => column !== 'channels');
  if (others.length > 0) {
    problems.push(fillMessage(MESSAGES.importColumnsMissing, { columns: others.join(', ') }));
  }
  // Address books and HR systems have no channels: the fix is the file's default channel.
  if (missing.includes('channels')) problems.push(MESSAGES.importChannelsColumnMissing);
  if (columns.email === undefined && columns.phone === undefined) {
    problems.push(MESSAGES.importContactColumnMissing);
  }
  const unusedOverrides = Object.keys(overrides).filter((key) => !usedOverrides.has(key));
  return { columns, matches, problems, unusedOverrides };
};
