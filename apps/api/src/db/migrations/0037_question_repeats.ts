import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// Issue 28, "Repeat questions until they stick": one row per lesson send whose question came back
// (answered wrong, or missed), keyed by that send (`delivery_uuid`: its buttons, and the answers
// they carry, stay the lesson's). `history`: the learner's answers to the question as JSON
// ([{ at, right }], the lesson's first), from which FSRS schedules the next repeat. `status`:
// `waiting` until `send_at`, `sending` while the scheduler holds it, `sent` until answered or
// missed, then `waiting` again, `stuck` (right twice in a row) or `ended` (no day left within 30
// days after the last lesson). An answer's feedback goes as the lesson's does (0035).
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('question_repeats')
    .addColumn('delivery_uuid', 'text', (c) =>
      c.primaryKey().references('lesson_deliveries.uuid').onDelete('cascade'),
    )
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    .addColumn('course_uuid', 'text', (c) =>
      c.notNull().references('courses.uuid').onDelete('cascade'),
    )
    .addColumn('learner_uuid', 'text', (c) =>
      c.notNull().references('learners.uuid').onDelete('cascade'),
    )
    .addColumn('enrollment_uuid', 'text', (c) =>
      c.notNull().references('enrollments.uuid').onDelete('cascade'),
    )
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('send_at', 'text')
    .addColumn('history', 'text', (c) => c.notNull())
    .addColumn('sends', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sent_at', 'text')
    .addColumn('answer_index', 'integer')
    .addColumn('answer_correct', 'integer')
    .addColumn('feedback_status', 'text')
    .addColumn('feedback_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('question_repeats_due_idx')
    .on('question_repeats')
    .columns(['status', 'send_at'])
    .execute();
  await db.schema
    .createIndex('question_repeats_enrollment_idx')
    .on('question_repeats')
    .columns(['enrollment_uuid', 'send_at'])
    .execute();
  await db.schema
    .createIndex('question_repeats_feedback_idx')
    .on('question_repeats')
    .column('feedback_status')
    .where(sql.ref('feedback_status'), '=', sql.lit('pending'))
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropTable('question_repeats').ifExists().execute();
};
