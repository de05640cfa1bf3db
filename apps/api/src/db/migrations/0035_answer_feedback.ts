import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// Issue 28: a learner who answers gets the chosen answer's response (or the thank-you message)
// at once, as one more message of the same lesson send. The send keeps which answer was chosen
// (`answer_index`, a choice question's) and its feedback's state: `pending` once an answer is
// recorded, `repeat` when a later answer must be told it no longer counts, `sending` while the
// scheduler holds it, then `sent` or `failed`. Pending feedback is found by a partial index, so
// the search costs nothing while there is none.
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('lesson_deliveries').addColumn('answer_index', 'integer').execute();
  await db.schema.alterTable('lesson_deliveries').addColumn('feedback_status', 'text').execute();
  await db.schema.alterTable('lesson_deliveries').addColumn('feedback_at', 'text').execute();
  await db.schema
    .createIndex('lesson_deliveries_feedback_idx')
    .on('lesson_deliveries')
    .column('feedback_status')
    .where(sql.ref('feedback_status'), 'in', [sql.lit('pending'), sql.lit('repeat')])
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropIndex('lesson_deliveries_feedback_idx').ifExists().execute();
  for (const column of ['feedback_at', 'feedback_status', 'answer_index']) {
    await db.schema.alterTable('lesson_deliveries').dropColumn(column).execute();
  }
};
