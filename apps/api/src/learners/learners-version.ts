import type { Kysely } from 'kysely';

import { preparedQuery } from '../db/prepared.ts';
import type { Database } from '../db/types.ts';

// Per company, a number that every write to its learners or to its lists' members moves, in the
// writing transaction (0019's learners_versions). The learners list and the lists' member counts
// are cached per version (learner-page-cache.ts): whatever a process remembered of an older
// version is never answered again. Every writer of those tables is in the two repositories of
// this folder, which call bumpLearnersVersion once per statement or import batch, never per row.

type Executor = Kysely<Database>;

// Read by every request of the learners list: compiled once (db/prepared.ts).
const versionQuery = preparedQuery<[companyUuid: string], { version: number }>(
  1,
  (db, companyUuid) =>
    db.selectFrom('learners_versions').select('version').where('company_uuid', '=', companyUuid),
);

/** The company's learners version: 0 before its first write. */
export const learnersVersion = async (db: Executor, companyUuid: string): Promise<number> => {
  const { rows } = await versionQuery.run(db, companyUuid);
  return Number(rows[0]?.version ?? 0);
};

/**
 * Moves the learners version of each company. Call it in the transaction of the write, after
 * the write: on Postgres it holds the company's version row until the commit.
 */
export const bumpLearnersVersion = async (
  db: Executor,
  companyUuids: Iterable<string>,
): Promise<void> => {
  for (const company_uuid of new Set(companyUuids)) {
    await db
      .insertInto('learners_versions')
      .values({ company_uuid, version: 1 })
      .onConflict((conflict) =>
        conflict
          .column('company_uuid')
          .doUpdateSet((eb) => ({ version: eb('learners_versions.version', '+', 1) })),
      )
      .execute();
  }
};
