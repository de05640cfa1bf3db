import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// The learners list's order on Postgres too (issue 14, docs/decisions.md "Learners list at scale").
//
// learners_live_order_idx and learners_archived_order_idx replace 0019's learners_company_idx
// (company, deleted_at, created_at, uuid): the list's order is (created_at desc, uuid desc), and
// Postgres does not take `deleted_at IS NULL` as fixing that column, so with it in the key it
// sorted the company's learners for every page. Partial on deleted_at instead: each row is in
// exactly one of the two, so the import pays as for one index (measured: +2 % on the insert of
// 100,000 rows, against +14 % for one more index). A page, a count and a keyset seek are each a
// range of one of them, on SQLite and Postgres alike.

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
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  for (const [name] of ORDER_INDEXES) await db.schema.dropIndex(name).execute();
  await db.schema
    .createIndex('learners_company_idx')
    .on('learners')
    .columns(['company_uuid', 'deleted_at', 'created_at', 'uuid'])
    .execute();
};
