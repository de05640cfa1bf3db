import { UNLIMITED } from '@ccp/schemas';
import type { TLearnerInput } from '@ccp/schemas';

import type { Db } from '../db/index.ts';
import type { LearnersTable } from '../db/types.ts';
import { planFunctionsOf } from '../lib/plan-limits.ts';

// Which learners of the company the rows of an import match, and what the import does to each:
// a row updates the learner with its e-mail, or (without an e-mail) the oldest learner that has
// its phone and no e-mail; otherwise it creates one.

export type ExistingLearner = Pick<
  LearnersTable,
  'uuid' | 'email' | 'phone' | 'first_name' | 'last_name' | 'locale' | 'channels' | 'deleted_at'
>;

/** create; restore (archived: brought back, counted as updated); update; skip (identical). */
export type RowAction = 'create' | 'restore' | 'update' | 'skip';

const COLUMNS = [
  'uuid',
  'email',
  'phone',
  'first_name',
  'last_name',
  'locale',
  'channels',
  'deleted_at',
] as const;

// Well below SQLite's 32,766 bound parameters and Postgres' 65,535.
const LOOKUP_CHUNK = 1000;

const chunks = <T>(items: T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let index = 0; index < items.length; index += size) {
    out.push(items.slice(index, index + size));
  }
  return out;
};

/** The company's learners matching the keys (`e:<email>` / `p:<phone>`), by key. */
export const findExisting = async (
  db: Db,
  companyUuid: string,
  keys: readonly string[],
): Promise<Map<string, ExistingLearner>> => {
  const found = new Map<string, ExistingLearner>();
  const emails = keys.filter((key) => key.startsWith('e:')).map((key) => key.slice(2));
  const phones = keys.filter((key) => key.startsWith('p:')).map((key) => key.slice(2));
  for (const part of chunks(emails, LOOKUP_CHUNK)) {
    const rows = await db
      .selectFrom('learners')
      .select(COLUMNS)
      .where('company_uuid', '=', companyUuid)
      .where('email', 'in', part)
      .execute();
    for (const row of rows) found.set(`e:${row.email}`, row);
  }
  for (const part of chunks(phones, LOOKUP_CHUNK)) {
    const rows = await db
      .selectFrom('learners')
      .select(COLUMNS)
      .where('company_uuid', '=', companyUuid)
      .where('phone', 'in', part)
      .orderBy('created_at')
      .orderBy('uuid')
      .execute();
    // `email is null` is checked here: in SQL it steers SQLite to the (company, email) index,
    // which would scan every e-mail-less learner instead of looking the phones up.
    for (const row of rows) {
      if (row.email !== null) continue;
      const key = `p:${row.phone}`;
      if (!found.has(key)) found.set(key, row);
    }
  }
  return found;
};

/** What importing `learner` does to the matched learner (or to none). */
export const actionFor = (
  existing: ExistingLearner | undefined,
  learner: TLearnerInput,
): RowAction => {
  if (!existing) return 'create';
  if (existing.deleted_at !== null) return 'restore';
  const identical =
    existing.first_name === learner.first_name &&
    existing.last_name === learner.last_name &&
    (existing.phone ?? null) === (learner.phone ?? null) &&
    existing.locale === learner.locale &&
    existing.channels === JSON.stringify(learner.channels);
  return identical ? 'skip' : 'update';
};

/**
 * Every key of the company's learners with whether it is archived: what the upload's plan check
 * compares the file against. An e-mail-less phone keeps its oldest learner, as findExisting does.
 */
export const companyKeys = async (
  db: Db,
  companyUuid: string,
): Promise<Map<string, 'active' | 'archived'>> => {
  const rows = await db
    .selectFrom('learners')
    .select(['email', 'phone', 'deleted_at'])
    .where('company_uuid', '=', companyUuid)
    .orderBy('created_at')
    .orderBy('uuid')
    .execute();
  const keys = new Map<string, 'active' | 'archived'>();
  for (const row of rows) {
    const key = row.email ? `e:${row.email}` : row.phone ? `p:${row.phone}` : null;
    if (key && !keys.has(key)) keys.set(key, row.deleted_at === null ? 'active' : 'archived');
  }
  return keys;
};

/** The company's learners limit, or null when its plan has none. */
export const learnersLimitOf = async (db: Db, companyUuid: string): Promise<number | null> => {
  const found = (await planFunctionsOf(db, companyUuid)).find(
    (entry) => entry.function.key === 'learners',
  );
  if (!found) return 0;
  return found.limit === UNLIMITED ? null : found.limit;
};
