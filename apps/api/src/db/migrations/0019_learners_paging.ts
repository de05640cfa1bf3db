import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// The learners list at scale (issue 14, docs/decisions.md "Learners list at scale").
//
// - learners_live_order_idx and learners_archived_order_idx replace learners_company_idx
//   (company, deleted_at, created_at): the list's order is (created_at desc, uuid desc), and an
//   import gives a whole batch one created_at, so without the uuid in the index every page sorted
//   all the learners of that instant (100,000 in the bench). Partial on deleted_at because
//   Postgres does not take `deleted_at IS NULL` as fixing that column: with it in the key, it
//   sorted the company's learners for every page. Each row is in exactly one of the two, so the
//   import pays as for one index (measured: +2 % on the insert of 100,000 rows, against +14 %
//   for one more index). A page, a count and a keyset seek are each a range of one of them.
// - learners_versions: per company, a number that every write to its learners or to its lists'
//   members moves (in the writing transaction, once per statement or import batch: never per
//   row). The learners list caches its totals and page positions per version
//   (learners/learner-page-cache.ts), so an unchanged list is never counted twice.

const ORDER_INDEXES = [
  ['learners_live_order_idx', 'is'],
  ['learners_archived_order_idx', 'is not'],
] as const;

export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropIndex('learners_company_idx').execute();
  for (const [name, archived] of ORDER_INDEXES) {
    await db.schema
      .createIndex(name)
      .on('learners')
      .columns(['company_uuid', 'created_at', 'uuid'])
      .where(sql.ref('deleted_at'), archived, null)
      .execute();
  }
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
  for (const [name] of ORDER_INDEXES) await db.schema.dropIndex(name).execute();
  await db.schema
    .createIndex('learners_company_idx')
    .on('learners')
    .columns(['company_uuid', 'deleted_at', 'created_at'])
    .execute();
};
