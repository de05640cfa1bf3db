import { z } from 'zod';

import { MESSAGES } from './messages.ts';

// Which column of an import file holds which learner field: the header matcher shared by the API
// (the upload's pre-scan and the job), the CLI (`ccp learners import`, its dry run) and the web's
// learners upload page. It knows the template's names, what spreadsheets, address books and CRMs
// export (Google Contacts, Outlook), and the Italian and German words; a caller's overrides win.

/** The columns of an import file, in the template's order. */
export const IMPORT_COLUMNS = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'channels',
  'locale',
  'time_zone',
] as const;
export type TImportColumn = (typeof IMPORT_COLUMNS)[number];

/** Columns a file must have; it also needs `email` or `phone`. */
export const IMPORT_REQUIRED_COLUMNS: readonly TImportColumn[] = [
  'first_name',
  'last_name',
  'channels',
];

/** The template's first line. */
export const IMPORT_TEMPLATE_HEADER = IMPORT_COLUMNS.join(',');

/**
 * Header names by column, after normalizeHeaderName (lowercase, no accents, only letters and
 * digits), in tiers: when several headers of a file name the same column, the one of the
 * strongest tier is used and weaker ones are ignored (Outlook's "Mobile Phone" beats its
 * "Business Phone", Google's "Given Name" beats its "Name"). Two headers of the same tier are a
 * problem ("appears more than once"). Names are matched whole: "Given Name Yomi" is not "Given
 * Name", "E-mail 2 Address" is not "E-mail Address".
 */
export const IMPORT_COLUMN_ALIAS_TIERS: Record<TImportColumn, readonly (readonly string[])[]> = {
  first_name: [
    ['firstname', 'first', 'givenname', 'forename', 'nome', 'vorname', 'nomedibattesimo'],
    ['name'],
  ],
  last_name: [['lastname', 'last', 'surname', 'familyname', 'cognome', 'nachname', 'familienname']],
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
    ],
  ],
  phone: [
    [
      'phone',
      'phonenumber',
      'mobile',
      'mobilephone',
      'mobilenumber',
      'cellphone',
      'whatsapp',
      'whatsappnumber',
      'cellulare',
      'numerodicellulare',
      'handy',
      'handynummer',
      'mobilnummer',
      'mobiltelefon',
    ],
    [
      'telephone',
      'tel',
      'telefono',
      'numeroditelefono',
      'telefon',
      'telefonnummer',
      // Google Contacts: "Phone 1 - Value"; Outlook: "Primary Phone".
      'phone1value',
      'primaryphone',
    ],
    ['businessphone', 'homephone', 'telefonoufficio', 'telefonoabitazione'],
  ],
  channels: [['channels', 'channel', 'canali', 'canale', 'kanale', 'kanal']],
  locale: [['locale', 'language', 'lang', 'preferredlanguage', 'lingua', 'sprache']],
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

export type TImportHeader = {
  /** Index of each recognised column in the row. */
  columns: Partial<Record<TImportColumn, number>>;
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
  // Per column: the override's header, or the alias headers of the best tier seen so far.
  const chosen = new Map<TImportColumn, { tier: number; indexes: number[] }>();

  cells.forEach((cell, index) => {
    const name = normalizeHeaderName(cell);
    const override = byName.get(name);
    if (override) {
      usedOverrides.add(override.key);
      if (override.target === 'ignore') return;
      const current = chosen.get(override.target);
      // Tier -1: an override beats any alias; two headers overridden to one column clash.
      if (current && current.tier === -1) current.indexes.push(index);
      else chosen.set(override.target, { tier: -1, indexes: [index] });
      return;
    }
    const alias = aliasIndex.get(name);
    if (!alias) return;
    const current = chosen.get(alias.column);
    if (!current || alias.tier < current.tier) {
      chosen.set(alias.column, { tier: alias.tier, indexes: [index] });
    } else if (alias.tier === current.tier) current.indexes.push(index);
  });

  const columns: Partial<Record<TImportColumn, number>> = {};
  for (const column of IMPORT_COLUMNS) {
    const pick = chosen.get(column);
    if (!pick) continue;
    const [first, ...others] = pick.indexes;
    if (first === undefined) continue;
    columns[column] = first;
    for (const other of others) {
      problems.push(
        fillMessage(MESSAGES.importColumnDuplicate, { column: (cells[other] ?? '').trim() }),
      );
    }
  }
  for (const [index, cell] of cells.entries()) {
    const column = IMPORT_COLUMNS.find((candidate) => columns[candidate] === index);
    if (!column) continue;
    const by = byName.get(normalizeHeaderName(cell)) ? 'override' : 'alias';
    matches.push({ index, header: cell, column, by });
  }

  const missing = IMPORT_REQUIRED_COLUMNS.filter(
    (column) => columns[column] === undefined && !defaulted.includes(column),
  );
  if (missing.length > 0) {
    problems.push(fillMessage(MESSAGES.importColumnsMissing, { columns: missing.join(', ') }));
  }
  if (columns.email === undefined && columns.phone === undefined) {
    problems.push(MESSAGES.importContactColumnMissing);
  }
  const unusedOverrides = Object.keys(overrides).filter((key) => !usedOverrides.has(key));
  return { columns, matches, problems, unusedOverrides };
};
