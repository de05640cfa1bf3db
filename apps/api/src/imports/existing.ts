import { UNLIMITED } from '@ccp/schemas';
import type { TLearnerInput } from '@ccp/schemas';

import { sql } from 'kysely';

import type { Db, Dialect } from '../db/index.ts';
import type { LearnersTable } from '../db/types.ts';
import { LEARNER_DETAIL_COLUMNS, learnerDetails } from '../learners/learners-repository.ts';
import { planFunctionsOf } from '../lib/plan-limits.ts';

// Which learners of the company the rows of an import match, and what the import does to each:
// a row updates the learner with its e-mail, or (without an e-mail) the oldest learner that has
// its phone and no e-mail; otherwise it creates one.

export type ExistingLearner = Pick<
  LearnersTable,
  'uuid' | 'deleted_at' | (typeof LEARNER_DETAIL_COLUMNS)[number]
>;

/** create; restore (archived: brought back, counted as updated); update; skip (identical). */
export type RowAction = 'create' | 'restore' | 'update' | 'skip';

// The repository's one list of detail columns: a new learner field is read and compared here too.
const COLUMNS = ['uuid', ...LEARNER_DETAIL_COLUMNS, 'deleted_at'] as const;

// Keys per lookup query: SQLite binds one parameter per key (at most 32,766); Postgres one array.
const LOOKUP_CHUNK: Record<Dialect, number> = { sqlite: 1000, postgres: 10_000 };

const chunks = <T>(items: T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let index = 0; index < items.length; index += size) {
    out.push(items.slice(index, index + size));
  }
  return out;
};

type Found = ExistingLearner & { email: string | null; phone: string | null };

/**
 * Postgres: one index probe per key, whatever the planner believes. During a big import the
 * statistics say the table is nearly empty, and a plain `IN`/`= any()` is then planned as a scan
 * of all the company's learners (measured: 2.3 s of a 100,000-row import, growing with the
 * square of the rows); a LATERAL subquery with LIMIT cannot be turned into such a join. The
 * phone probe takes the oldest learner with that phone and no e-mail, ordering instead of
 * filtering so the (company, phone) index is the one that matches.
 */
const postgresLookup = async (
  db: Db,
  companyUuid: string,
  column: 'email' | 'phone',
  values: string[],
): Promise<Found[]> => {
  const order = column === 'email' ? sql`` : sql`order by (email is not null), created_at, uuid`;
  const result = await sql<Found>`
    select l.* from unnest(${values}::text[]) as k(v)
    cross join lateral (
      select ${sql.join(COLUMNS.map((name) => sql.ref(name)))} from learners
      where company_uuid = ${companyUuid} and ${sql.ref(column)} = k.v ${order} limit 1
    ) l`.execute(db);
  return result.rows;
};

/** SQLite plans `IN (…)` on the matching index by itself. */
const sqliteLookup = (
  db: Db,
  companyUuid: string,
  column: 'email' | 'phone',
  values: string[],
): Promise<Found[]> => {
  let query = db
    .selectFrom('learners')
    .select(COLUMNS)
    .where('company_uuid', '=', companyUuid)
    .where(column, 'in', values);
  if (column === 'phone') query = query.orderBy('created_at').orderBy('uuid');
  return query.execute();
};

/** The company's learners matching the keys (`e:<email>` / `p:<phone>`), by key. */
export const findExisting = async (
  db: Db,
  dialect: Dialect,
  companyUuid: string,
  keys: readonly string[],
): Promise<Map<string, ExistingLearner>> => {
  const lookup = dialect === 'postgres' ? postgresLookup : sqliteLookup;
  const found = new Map<string, ExistingLearner>();
  const emails = keys.filter((key) => key.startsWith('e:')).map((key) => key.slice(2));
  const phones = keys.filter((key) => key.startsWith('p:')).map((key) => key.slice(2));
  for (const part of chunks(emails, LOOKUP_CHUNK[dialect])) {
    for (const row of await lookup(db, companyUuid, 'email', part))
      found.set(`e:${row.email}`, row);
  }
  for (const part of chunks(phones, LOOKUP_CHUNK[dialect])) {
    // `email is null` is checked here: in SQLite's SQL it would steer the planner to the
    // (company, email) index, which scans every e-mail-less learner instead of the phones.
    for (const row of await lookup(db, companyUuid, 'phone', part)) {
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
  // Compared as stored, so a default the row leaves to the server (the phone's time zone) too.
  const details = learnerDetails(learner);
  const identical = LEARNER_DETAIL_COLUMNS.every(
    (column) => (existing[column] ?? null) === details[column],
  );
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
