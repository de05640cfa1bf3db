import type { Kysely } from 'kysely';

// The learners list at scale (issue 14, docs/decisions.md "Learners list at scale").
//
// - learners_company_idx gains the uuid: the list's order is (created_at desc, uuid desc), and
//   an import gives a whole batch one created_at, so without the uuid in the index every page
//   sorted all the learners of that instant (100,000 in the bench). With it a page, a count and
//   a keyset seek are a range of this one index, which every learner row was already paying
//   for (measured: +2 % on the insert of 100,000 rows, against +14 % for one more index).
// - learners_versions: per company, a number that every write to its learners or to its lists'
//   members moves (in the writing transaction, once per statement or import batch: never per
//   row). The learners list caches its totals and page positions per version
//   (learners/learner-page-cache.ts), so an unchanged list is never counted twice.

export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropIndex('learners_company_idx').execute();
  await db.schema
    .createIndex('learners_company_idx')
    .on('learners')
    .columns(['company_uuid', 'deleted_at', 'created_at', 'uuid'])
    .execute();
  await db.schema
    .createTable('learners_versions')
    .addColumn('company_uuid', 'text', (c) =>
      c.primaryKey().references('companies.uuid').onDelete('cascade'),
    )
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropTable('learners_versions').ifExists().execute();
  await db.schema.dropIndex('learners_company_idx').execute();
  await db.schema
    .createIndex('learners_company_idx')
    .on('learners')
    .columns(['company_uuid', 'deleted_at', 'created_at'])
    .execute();
};
