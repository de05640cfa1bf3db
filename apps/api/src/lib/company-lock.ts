import { sql } from 'kysely';
import type { Transaction } from 'kysely';

import type { Db, Dialect } from '../db/index.ts';
import type { Database } from '../db/types.ts';

// Plan limits (learners, seats, lessons, AI uses) and the "one administrator at least" rule are
// a count followed by a write. Two requests that both count before either writes both pass: on
// Postgres 12 parallel creations took a free plan to 8 of 6 learners (issue 30). Each such
// check-and-write therefore runs in one transaction holding the company's lock, so the second
// request counts only after the first has committed.

/** The first key of Postgres' two-key advisory locks: this product's per-company lock. */
const COMPANY_LOCK_CLASS = 0x0c_c9_00_01;

/**
 * Takes the company's lock until the transaction ends. Postgres: a transaction-scoped advisory
 * lock (it blocks no reader and no other write of the company's rows; two companies whose uuids
 * hash alike merely wait for each other). SQLite: nothing to take, since Kysely runs one
 * transaction at a time on its one connection and a transaction already excludes every other
 * statement of this process.
 */
export const lockCompany = async (
  trx: Transaction<Database>,
  dialect: Dialect,
  companyUuid: string,
): Promise<void> => {
  if (dialect !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(${COMPANY_LOCK_CLASS}, hashtext(${companyUuid}))`.execute(
    trx,
  );
};

/** Runs `work` in one transaction that holds the company's lock (see above). */
export const withCompanyLock = <T>(
  app: { db: Db; dialect: Dialect },
  companyUuid: string,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> =>
  app.db.transaction().execute(async (trx) => {
    await lockCompany(trx, app.dialect, companyUuid);
    return work(trx);
  });
