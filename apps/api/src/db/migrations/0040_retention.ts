import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Issue 28, the "retention" insight (docs/metrics.md, "Retention"): of the questions a learner
// tried, how many were right on the first try, right only after repetition, or not right yet.
// - `lesson_deliveries.repeat_right_at`: when a repeat of the send's question ("Repeat questions
//   until they stick", 0037) was first answered right;
// - `analytics_enrollment_stats.repeat_right`: per enrolment, the questions right only after
//   repetition (tried and right on the first try are 0006's `answers` + `answers_missed` and
//   `answers_correct`);
// - `analytics_question_stats`: per course and lesson day (one question each), the three counts,
//   so a course's retention and its per-question view read at most 30 rows.
// Triggers on lesson_deliveries keep both in step, as 0006's do for the other counters; each
// count is a function of one send's row, so a rebuild from the sends gives the same numbers.

type Row = 'NEW' | 'OLD' | 'd';

const rightFirst = (r: Row) =>
  `(${r}.answered_at IS NOT NULL AND coalesce(${r}.answer_correct, 1) <> 0)`;

/**
 * The one definition of what retention counts per lesson send (docs/metrics.md, "Retention"):
 * - tried: its question was answered, or it was stamped missed after 72 hours;
 * - right on the first try: the lesson's own answer is right (not wrong: an open answer counts,
 *   as in the success rate), whenever it came;
 * - right after repetition: not right on the first try, and a repeat of it was answered right.
 * A question never repeated (repeats off, or not due yet) is right on the first try or not right.
 */
export const retentionIndicators = (r: Row) => ({
  tried: `(CASE WHEN ${r}.answered_at IS NOT NULL OR ${r}.missed_at IS NOT NULL THEN 1 ELSE 0 END)`,
  first_try_right: `(CASE WHEN ${rightFirst(r)} THEN 1 ELSE 0 END)`,
  repeat_right: `(CASE WHEN ${r}.repeat_right_at IS NOT NULL AND NOT ${rightFirst(r)} THEN 1 ELSE 0 END)`,
});
type Counter = keyof ReturnType<typeof retentionIndicators>;
const COUNTERS = Object.keys(retentionIndicators('d')) as Counter[];

const subtractQuestion = (minus: Row) => {
  const old = retentionIndicators(minus);
  return `UPDATE analytics_question_stats SET ${COUNTERS.map((name) => `${name} = ${name} - ${old[name]}`).join(', ')}
    WHERE course_uuid = ${minus}.course_uuid AND day = ${minus}.day;`;
};

const addQuestion = (plus: Row) => {
  const added = retentionIndicators(plus);
  return `INSERT INTO analytics_question_stats (course_uuid, day, company_uuid, ${COUNTERS.join(', ')})
    VALUES (${plus}.course_uuid, ${plus}.day, ${plus}.company_uuid, ${COUNTERS.map((name) => added[name]).join(', ')})
    ON CONFLICT (course_uuid, day) DO UPDATE SET ${COUNTERS.map((name) => `${name} = analytics_question_stats.${name} + excluded.${name}`).join(', ')};`;
};

const moveEnrolment = (plus: Row | null, minus: Row | null) => {
  const key = plus ?? minus;
  const delta = `(${plus ? retentionIndicators(plus).repeat_right : '0'} - ${minus ? retentionIndicators(minus).repeat_right : '0'})`;
  return `UPDATE analytics_enrollment_stats SET repeat_right = repeat_right + ${delta}
    WHERE enrollment_uuid = ${key}.enrollment_uuid AND ${delta} <> 0;`;
};

// Only these columns move a count: other writes to a send (read, reminders…) fire nothing.
const WATCHED = ['answered_at', 'missed_at', 'answer_correct', 'repeat_right_at', 'day'];
const changed = COUNTERS.map(
  (name) => `${retentionIndicators('NEW')[name]} <> ${retentionIndicators('OLD')[name]}`,
)
  .concat('NEW.day <> OLD.day')
  .join(' OR ');

const SQLITE_TRIGGERS: Record<string, string> = {
  retention_deliveries_ai: `AFTER INSERT ON lesson_deliveries WHEN ${retentionIndicators('NEW').tried} = 1
    BEGIN ${addQuestion('NEW')} ${moveEnrolment('NEW', null)} END`,
  retention_deliveries_au: `AFTER UPDATE OF ${WATCHED.join(', ')} ON lesson_deliveries WHEN ${changed}
    BEGIN ${subtractQuestion('OLD')} ${addQuestion('NEW')} ${moveEnrolment('NEW', 'OLD')} END`,
  retention_deliveries_ad: `AFTER DELETE ON lesson_deliveries WHEN ${retentionIndicators('OLD').tried} = 1
    BEGIN ${subtractQuestion('OLD')} ${moveEnrolment(null, 'OLD')} END`,
};

const POSTGRES_FUNCTION = 'retention_deliveries_fn';
const POSTGRES_TRIGGER = 'retention_deliveries_trg';
const POSTGRES_BODY = `IF TG_OP = 'INSERT' THEN
    IF ${retentionIndicators('NEW').tried} = 1 THEN ${addQuestion('NEW')} ${moveEnrolment('NEW', null)} END IF;
  ELSIF TG_OP = 'UPDATE' THEN
    IF ${changed} THEN ${subtractQuestion('OLD')} ${addQuestion('NEW')} ${moveEnrolment('NEW', 'OLD')} END IF;
  ELSE
    IF ${retentionIndicators('OLD').tried} = 1 THEN ${subtractQuestion('OLD')} ${moveEnrolment(null, 'OLD')} END IF;
  END IF; RETURN NULL;`;

const isPostgres = <DB>(db: Kysely<DB>) => db.getExecutor().adapter instanceof PostgresAdapter;

export const createRetentionTriggers = async <DB>(db: Kysely<DB>): Promise<void> => {
  if (isPostgres(db)) {
    await sql
      .raw(
        `CREATE OR REPLACE FUNCTION ${POSTGRES_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $fn$ BEGIN ${POSTGRES_BODY} END $fn$`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER ${POSTGRES_TRIGGER} AFTER INSERT OR UPDATE OF ${WATCHED.join(', ')} OR DELETE
          ON lesson_deliveries FOR EACH ROW EXECUTE FUNCTION ${POSTGRES_FUNCTION}()`,
      )
      .execute(db);
    return;
  }
  for (const [name, body] of Object.entries(SQLITE_TRIGGERS)) {
    await sql.raw(`CREATE TRIGGER ${name} ${body}`).execute(db);
  }
};

export const dropRetentionTriggers = async <DB>(db: Kysely<DB>): Promise<void> => {
  if (isPostgres(db)) {
    await sql.raw(`DROP TRIGGER IF EXISTS ${POSTGRES_TRIGGER} ON lesson_deliveries`).execute(db);
    await sql.raw(`DROP FUNCTION IF EXISTS ${POSTGRES_FUNCTION}()`).execute(db);
    return;
  }
  for (const name of Object.keys(SQLITE_TRIGGERS)) {
    await sql.raw(`DROP TRIGGER IF EXISTS ${name}`).execute(db);
  }
};

/**
 * Recomputes the retention counts from the sends (backfill, after a bulk load, and after 0006's
 * `rebuildAnalyticsAggregates`, which writes the enrolment rows afresh), triggers off meanwhile.
 */
export const rebuildRetentionAggregates = async <DB>(db: Kysely<DB>): Promise<void> => {
  const d = retentionIndicators('d');
  await dropRetentionTriggers(db);
  await sql`DELETE FROM analytics_question_stats`.execute(db);
  await sql
    .raw(
      `INSERT INTO analytics_question_stats (course_uuid, day, company_uuid, ${COUNTERS.join(', ')})
      SELECT d.course_uuid, d.day, min(d.company_uuid), ${COUNTERS.map((name) => `sum(${d[name]})`).join(', ')}
      FROM lesson_deliveries d
      WHERE d.answered_at IS NOT NULL OR d.missed_at IS NOT NULL
      GROUP BY d.course_uuid, d.day`,
    )
    .execute(db);
  await sql`UPDATE analytics_enrollment_stats SET repeat_right = 0 WHERE repeat_right <> 0`.execute(
    db,
  );
  await sql
    .raw(
      `UPDATE analytics_enrollment_stats SET repeat_right = (SELECT count(*) FROM lesson_deliveries d
        WHERE d.enrollment_uuid = analytics_enrollment_stats.enrollment_uuid AND ${d.repeat_right} = 1)
      WHERE enrollment_uuid IN (SELECT d.enrollment_uuid FROM lesson_deliveries d WHERE d.repeat_right_at IS NOT NULL)`,
    )
    .execute(db);
  await createRetentionTriggers(db);
};

export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('lesson_deliveries').addColumn('repeat_right_at', 'text').execute();
  await db.schema
    .alterTable('analytics_enrollment_stats')
    .addColumn('repeat_right', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('analytics_question_stats')
    .addColumn('course_uuid', 'text', (c) =>
      c.notNull().references('courses.uuid').onDelete('cascade'),
    )
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('company_uuid', 'text', (c) => c.notNull())
    .addColumn('tried', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('first_try_right', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('repeat_right', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('analytics_question_stats_pk', ['course_uuid', 'day'])
    .execute();
  // Repeats answered right before this migration: their history (0037) says so; the row's last
  // change is the closest time we have.
  await sql`UPDATE lesson_deliveries SET repeat_right_at = (SELECT r.updated_at
      FROM question_repeats r WHERE r.delivery_uuid = lesson_deliveries.uuid)
    WHERE uuid IN (SELECT r.delivery_uuid FROM question_repeats r
      WHERE r.history LIKE ${'%"right":true%'})`.execute(db);
  await rebuildRetentionAggregates(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await dropRetentionTriggers(db);
  await db.schema.dropTable('analytics_question_stats').ifExists().execute();
  await db.schema.alterTable('analytics_enrollment_stats').dropColumn('repeat_right').execute();
  await db.schema.alterTable('lesson_deliveries').dropColumn('repeat_right_at').execute();
};
