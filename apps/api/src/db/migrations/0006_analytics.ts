import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Maintained aggregates for the analytics (docs/metrics.md), so that the insights read a few rows
// per course instead of one per lesson send:
// - analytics_enrollment_stats: one row per enrolment (created with it), the enrolment status and
//   the learner's reachability mirrored, and the counters of its lesson sends;
// - analytics_course_stats: those counters summed per course over its enrolled enrolments;
// - analytics_classroom_learners: per classroom and learner, how many counted-course enrolments
//   were sent / read a lesson, so distinct learners are one indexed count;
// - analytics_course_hours: the send counters per course, UTC hour of `scheduled_for` and channel,
//   summed into Europe/Rome days by the distribution chart.
// Triggers keep them in step with every write to enrollments, learners, courses and
// lesson_deliveries, so the scheduler, the events endpoint and the seed need no analytics code.
// They are the one place with per-dialect SQL (SQLite trigger bodies, PL/pgSQL functions on
// Postgres); the statements inside are the same portable SQL.

type Row = 'NEW' | 'OLD' | 'd';

// What one lesson send adds to the counters (docs/metrics.md, "Counted per lesson send"). A send
// counts as attempted once it is settled (sent or failed); one the scheduler holds (`sending`)
// counts once it settles, or fails as interrupted (migration 0046, issue 25).
const attempted = (r: Row) => `${r}.status IN ('sent', 'failed')`;

/**
 * The scheduler's claim of a send (scheduled → sending) moves no counter: the triggers skip it,
 * which spares a write to four aggregate tables per lesson (the delivery bench, issue 25).
 */
const CLAIM = `(OLD.status = 'scheduled' AND NEW.status = 'sending')`;

const indicators = (r: Row) => ({
  lessons_sent: `(CASE WHEN ${attempted(r)} THEN 1 ELSE 0 END)`,
  lessons_failed: `(CASE WHEN ${r}.status = 'failed' THEN 1 ELSE 0 END)`,
  lessons_delivered: `(CASE WHEN coalesce(${r}.delivered_at, ${r}.read_at, ${r}.answered_at) IS NOT NULL THEN 1 ELSE 0 END)`,
  lessons_read: `(CASE WHEN coalesce(${r}.read_at, ${r}.answered_at) IS NOT NULL THEN 1 ELSE 0 END)`,
  answers: `(CASE WHEN ${r}.answered_at IS NOT NULL THEN 1 ELSE 0 END)`,
  answers_correct: `(CASE WHEN ${r}.answered_at IS NOT NULL AND coalesce(${r}.answer_correct, 1) <> 0 THEN 1 ELSE 0 END)`,
  answers_missed: `(CASE WHEN ${r}.missed_at IS NOT NULL AND ${r}.answered_at IS NULL THEN 1 ELSE 0 END)`,
  reminders: `${r}.reminders_sent`,
  // The lesson's minutes in the language sent (any language of that day as a fallback), once read.
  learning_minutes: `(CASE WHEN coalesce(${r}.read_at, ${r}.answered_at) IS NULL THEN 0 ELSE coalesce(
      (SELECT ls.learning_minutes FROM lessons ls WHERE ls.course_uuid = ${r}.course_uuid AND ls.day = ${r}.day
         AND ls.language_uuid = (SELECT g.uuid FROM languages g WHERE g.short_name = ${r}.language)),
      (SELECT max(ls.learning_minutes) FROM lessons ls WHERE ls.course_uuid = ${r}.course_uuid AND ls.day = ${r}.day),
      0) END)`,
});
type Counter = keyof ReturnType<typeof indicators>;
const COUNTERS = Object.keys(indicators('NEW')) as Counter[];
const HOUR_COUNTERS = COUNTERS.filter((name) => name !== 'learning_minutes');

// The earlier and the later of read and answer of one send.
const firstActivityOf = (r: Row) =>
  `(CASE WHEN ${r}.read_at IS NOT NULL AND (${r}.answered_at IS NULL OR ${r}.read_at < ${r}.answered_at) THEN ${r}.read_at ELSE ${r}.answered_at END)`;
const activityOf = (r: Row) =>
  `(CASE WHEN ${r}.answered_at IS NOT NULL AND (${r}.read_at IS NULL OR ${r}.answered_at > ${r}.read_at) THEN ${r}.answered_at ELSE ${r}.read_at END)`;
const hourOf = (r: Row) => `substr(${r}.scheduled_for, 1, 13)`;

/** `+ NEW`, `- OLD` or `+ (NEW - OLD)` for each counter. */
const deltas = (plus: Row | null, minus: Row | null, names: Counter[]) =>
  names.map((name) => {
    const added = plus ? indicators(plus)[name] : '0';
    const removed = minus ? indicators(minus)[name] : '0';
    // Only a change of read state, day or language moves the minutes: skip the lesson look-ups.
    if (name === 'learning_minutes' && plus && minus) {
      const same = `(coalesce(${plus}.read_at, ${plus}.answered_at) IS NULL) = (coalesce(${minus}.read_at, ${minus}.answered_at) IS NULL) AND ${plus}.day = ${minus}.day AND ${plus}.language = ${minus}.language`;
      return { name, value: `(CASE WHEN ${same} THEN 0 ELSE ${added} - ${removed} END)` };
    }
    return { name, value: `(${added} - ${removed})` };
  });

/** The later of `column` and `value`, either possibly null. */
const latest = (column: string, value: string) =>
  `CASE WHEN ${value} IS NOT NULL AND (${column} IS NULL OR ${value} > ${column}) THEN ${value} ELSE ${column} END`;
/** The earlier of `column` and `value`, either possibly null. */
const earliest = (column: string, value: string) =>
  `CASE WHEN ${value} IS NOT NULL AND (${column} IS NULL OR ${value} < ${column}) THEN ${value} ELSE ${column} END`;

/** Did the update clear or change a timestamp the per-enrolment extremes may come from? */
const movedBack = (plus: Row, minus: Row) => {
  const changed = (column: string) =>
    `(${minus}.${column} IS NOT NULL AND (${plus}.${column} IS NULL OR ${plus}.${column} <> ${minus}.${column}))`;
  return `(${changed('sent_at')} OR ${changed('read_at')} OR ${changed('answered_at')} OR (${attempted(minus)} AND (NOT (${attempted(plus)}) OR ${plus}.scheduled_for <> ${minus}.scheduled_for)))`;
};

const updateEnrollmentStats = (plus: Row | null, minus: Row | null) => {
  const key = plus ?? minus;
  const sets = deltas(plus, minus, COUNTERS).map(
    ({ name, value }) => `${name} = ${name} + ${value}`,
  );
  // The first send, first and last activity and the run (first to last attempted send).
  const aggregates = {
    first_sent_at: 'min(d.sent_at)',
    first_activity_at: `min(${firstActivityOf('d')})`,
    last_activity_at: `max(${activityOf('d')})`,
    run_start: `min(CASE WHEN ${attempted('d')} THEN d.scheduled_for END)`,
    run_end: `max(CASE WHEN ${attempted('d')} THEN d.scheduled_for END)`,
  };
  const reread = (column: keyof typeof aggregates) =>
    `(SELECT ${aggregates[column]} FROM lesson_deliveries d WHERE d.enrollment_uuid = ${key}.enrollment_uuid)`;
  if (plus) {
    // A send that only gains timestamps widens them; one that loses or moves any makes them
    // read again from the enrolment's sends (at most 30 rows, on the enrollment_uuid + day index).
    const activity = activityOf(plus);
    const scheduled = `(CASE WHEN ${attempted(plus)} THEN ${plus}.scheduled_for END)`;
    const widened = {
      first_sent_at: earliest('first_sent_at', `${plus}.sent_at`),
      first_activity_at: earliest('first_activity_at', firstActivityOf(plus)),
      last_activity_at: latest('last_activity_at', activity),
      run_start: earliest('run_start', scheduled),
      run_end: latest('run_end', scheduled),
    };
    for (const column of Object.keys(aggregates) as (keyof typeof aggregates)[]) {
      sets.push(
        minus
          ? `${column} = CASE WHEN ${movedBack(plus, minus)} THEN ${reread(column)} ELSE ${widened[column]} END`
          : `${column} = ${widened[column]}`,
      );
    }
  } else {
    for (const column of Object.keys(aggregates) as (keyof typeof aggregates)[]) {
      sets.push(`${column} = ${reread(column)}`);
    }
  }
  return `UPDATE analytics_enrollment_stats SET ${sets.join(', ')} WHERE enrollment_uuid = ${key}.enrollment_uuid;`;
};

const upsertHour = (plus: Row, minus: Row | null) => {
  const values = deltas(plus, minus, HOUR_COUNTERS);
  return `INSERT INTO analytics_course_hours (course_uuid, hour, channel, company_uuid, ${HOUR_COUNTERS.join(', ')})
    VALUES (${plus}.course_uuid, ${hourOf(plus)}, ${plus}.channel, ${plus}.company_uuid, ${values.map((v) => v.value).join(', ')})
    ON CONFLICT (course_uuid, hour, channel) DO UPDATE SET ${HOUR_COUNTERS.map((name) => `${name} = analytics_course_hours.${name} + excluded.${name}`).join(', ')};`;
};

// Removing from a bucket never creates one (a cascade may be deleting the course).
const subtractHour = (minus: Row) =>
  `UPDATE analytics_course_hours SET ${HOUR_COUNTERS.map((name) => `${name} = ${name} - ${indicators(minus)[name]}`).join(', ')}
    WHERE course_uuid = ${minus}.course_uuid AND hour = ${hourOf(minus)} AND channel = ${minus}.channel;`;

const sameHour = `${hourOf('OLD')} = ${hourOf('NEW')} AND OLD.channel = NEW.channel AND OLD.course_uuid = NEW.course_uuid`;

const unreachableOf = (learner: string) =>
  `coalesce((SELECT CASE WHEN l.reachability = 'unreachable' THEN 1 ELSE 0 END FROM learners l WHERE l.uuid = ${learner}), 0)`;

// Enrolled: opted in (or no opt-in needed) and not declined; a learner dropped after enrolling
// (gone from the lists) keeps the lessons already sent. docs/metrics.md, "Enrolled learners".
const enrolledOf = (r: 'NEW' | 'e') =>
  `(CASE WHEN ${r}.enrolled_at IS NOT NULL AND ${r}.status IN ('enrolled', 'completed', 'dropped') THEN 1 ELSE 0 END)`;

const insertEnrollmentStats = `INSERT INTO analytics_enrollment_stats
    (enrollment_uuid, company_uuid, course_uuid, learner_uuid, status, enrolled, unreachable)
    VALUES (NEW.uuid, NEW.company_uuid, NEW.course_uuid, NEW.learner_uuid, NEW.status, ${enrolledOf('NEW')},
      ${unreachableOf('NEW.learner_uuid')});`;
const updateEnrollmentStatus = `UPDATE analytics_enrollment_stats SET status = NEW.status, enrolled = ${enrolledOf('NEW')}
    WHERE enrollment_uuid = NEW.uuid;`;
const updateReachability = `UPDATE analytics_enrollment_stats
    SET unreachable = CASE WHEN NEW.reachability = 'unreachable' THEN 1 ELSE 0 END WHERE learner_uuid = NEW.uuid;`;

// --- Course and classroom rollups, kept by triggers on analytics_enrollment_stats -------------

/** Per course, over its enrolled enrolments (`invited` counts every enrolment). */
const COURSE_SUMS = ['enrolled', 'reached', 'interacted', ...COUNTERS] as const;
type CourseSum = (typeof COURSE_SUMS)[number];

const contributionOf = (r: 'NEW' | 'OLD' | 'a', name: CourseSum) =>
  name === 'enrolled' || name === 'reached' || name === 'interacted'
    ? `${r}.${name}`
    : `(${r}.enrolled * ${r}.${name})`;

const insertCourseStats = `INSERT INTO analytics_course_stats (course_uuid, company_uuid, invited, ${COURSE_SUMS.join(', ')})
    VALUES (NEW.course_uuid, NEW.company_uuid, 1, ${COURSE_SUMS.map((name) => contributionOf('NEW', name)).join(', ')})
    ON CONFLICT (course_uuid) DO UPDATE SET invited = analytics_course_stats.invited + 1,
      ${COURSE_SUMS.map((name) => `${name} = analytics_course_stats.${name} + excluded.${name}`).join(', ')};`;
const updateCourseStats = `UPDATE analytics_course_stats SET
    ${COURSE_SUMS.map((name) => `${name} = ${name} + ${contributionOf('NEW', name)} - ${contributionOf('OLD', name)}`).join(', ')}
    WHERE course_uuid = NEW.course_uuid;`;
const deleteCourseStats = `UPDATE analytics_course_stats SET invited = invited - 1,
    ${COURSE_SUMS.map((name) => `${name} = ${name} - ${contributionOf('OLD', name)}`).join(', ')}
    WHERE course_uuid = OLD.course_uuid;`;

const COUNTED = `('active', 'delivered')`;
const isCounted = (r: 'NEW' | 'OLD' | 'c') =>
  `(${r}.status IN ${COUNTED} AND ${r}.deleted_at IS NULL)`;

// A learner's row in a classroom is recomputed from their enrolments in its counted courses
// (a handful of rows, on the learner index) whenever one of them changes, rather than adjusted:
// counts and spans stay exact whatever happens to courses and enrolments.
const CLASSROOM_LEARNER = {
  reached: 'coalesce(sum(a.reached), 0)',
  interacted: 'coalesce(sum(a.interacted), 0)',
  run_start: 'min(CASE WHEN a.enrolled = 1 THEN a.run_start END)',
  run_end: 'max(CASE WHEN a.enrolled = 1 THEN a.run_end END)',
  first_activity_at: 'min(CASE WHEN a.enrolled = 1 THEN a.first_activity_at END)',
  last_activity_at: 'max(CASE WHEN a.enrolled = 1 THEN a.last_activity_at END)',
};
const CLASSROOM_LEARNER_COLUMNS = Object.keys(CLASSROOM_LEARNER).join(', ');
const CLASSROOM_LEARNER_VALUES = Object.values(CLASSROOM_LEARNER).join(', ');

/**
 * Recomputes the rows of the learners `learners` (an SQL list or subquery) in `classroom`,
 * leaving out the course `except` (being deleted). Only learners still in the learners table
 * get a new row: a cascade deleting a learner must not bring theirs back.
 */
const refreshClassroomLearners = (classroom: string, learners: string, except = '') => {
  const without = except ? `AND c.uuid <> ${except}` : '';
  return `UPDATE analytics_classroom_learners SET (${CLASSROOM_LEARNER_COLUMNS}) = (SELECT ${CLASSROOM_LEARNER_VALUES}
      FROM analytics_enrollment_stats a JOIN courses c ON c.uuid = a.course_uuid
      WHERE a.learner_uuid = analytics_classroom_learners.learner_uuid
        AND c.classroom_uuid = analytics_classroom_learners.classroom_uuid AND ${isCounted('c')} ${without})
    WHERE classroom_uuid = ${classroom} AND learner_uuid IN (${learners});
    INSERT INTO analytics_classroom_learners (classroom_uuid, learner_uuid, company_uuid, ${CLASSROOM_LEARNER_COLUMNS})
    SELECT c.classroom_uuid, a.learner_uuid, min(a.company_uuid), ${CLASSROOM_LEARNER_VALUES}
    FROM analytics_enrollment_stats a JOIN courses c ON c.uuid = a.course_uuid
      JOIN learners l ON l.uuid = a.learner_uuid
    WHERE c.classroom_uuid = ${classroom} AND a.learner_uuid IN (${learners}) AND ${isCounted('c')} ${without}
    GROUP BY c.classroom_uuid, a.learner_uuid
    HAVING sum(a.reached) > 0 OR sum(a.interacted) > 0
    ON CONFLICT (classroom_uuid, learner_uuid) DO NOTHING;`;
};

/** The classroom of the enrolment's course when that course is counted (else NULL). */
const countedClassroomOf = (r: 'NEW' | 'OLD') =>
  `(SELECT c.classroom_uuid FROM courses c WHERE c.uuid = ${r}.course_uuid AND ${isCounted('c')})`;
const refreshLearner = (r: 'NEW' | 'OLD') =>
  refreshClassroomLearners(countedClassroomOf(r), `${r}.learner_uuid`);

/** An enrolment change that moves its learner's classroom row; `distinct` is the dialect's `IS NOT`. */
const classroomLearnerChanged = (distinct: string) =>
  [
    'enrolled',
    'reached',
    'interacted',
    'run_start',
    'run_end',
    'first_activity_at',
    'last_activity_at',
  ]
    .map((column) => `OLD.${column} ${distinct} NEW.${column}`)
    .join(' OR ');

// A course entering or leaving the counted ones (status, archive, classroom) refreshes all its
// learners' rows in the classroom it leaves or enters.
const learnersOfCourse = (r: 'NEW' | 'OLD') =>
  `SELECT e.learner_uuid FROM analytics_enrollment_stats e WHERE e.course_uuid = ${r}.uuid`;
const courseLeaves = refreshClassroomLearners('OLD.classroom_uuid', learnersOfCourse('OLD'));
const courseEnters = refreshClassroomLearners('NEW.classroom_uuid', learnersOfCourse('NEW'));
const courseDeleted = refreshClassroomLearners(
  'OLD.classroom_uuid',
  learnersOfCourse('OLD'),
  'OLD.uuid',
);
const sameClassroom = `NEW.classroom_uuid = OLD.classroom_uuid`;
const leaving = `${isCounted('OLD')} AND NOT (${isCounted('NEW')} AND ${sameClassroom})`;
const entering = `${isCounted('NEW')} AND NOT (${isCounted('OLD')} AND ${sameClassroom})`;

// --- The triggers, per dialect ------------------------------------------------------------

const SQLITE_TRIGGERS: Record<string, string> = {
  analytics_enrollments_ai: `AFTER INSERT ON enrollments BEGIN ${insertEnrollmentStats} END`,
  analytics_enrollments_au: `AFTER UPDATE OF status, enrolled_at ON enrollments BEGIN ${updateEnrollmentStatus} END`,
  analytics_learners_au: `AFTER UPDATE OF reachability ON learners BEGIN ${updateReachability} END`,
  analytics_deliveries_ai: `AFTER INSERT ON lesson_deliveries BEGIN ${updateEnrollmentStats('NEW', null)} ${upsertHour('NEW', null)} END`,
  analytics_deliveries_au: `AFTER UPDATE ON lesson_deliveries WHEN NOT ${CLAIM} BEGIN ${updateEnrollmentStats('NEW', 'OLD')} END`,
  analytics_deliveries_au_same_hour: `AFTER UPDATE ON lesson_deliveries WHEN NOT ${CLAIM} AND ${sameHour} BEGIN ${upsertHour('NEW', 'OLD')} END`,
  analytics_deliveries_au_moved: `AFTER UPDATE ON lesson_deliveries WHEN NOT (${sameHour}) BEGIN ${subtractHour('OLD')} ${upsertHour('NEW', null)} END`,
  analytics_deliveries_ad: `AFTER DELETE ON lesson_deliveries BEGIN ${updateEnrollmentStats(null, 'OLD')} ${subtractHour('OLD')} END`,
  analytics_stats_ai: `AFTER INSERT ON analytics_enrollment_stats BEGIN ${insertCourseStats} END`,
  analytics_stats_ai_classroom: `AFTER INSERT ON analytics_enrollment_stats WHEN NEW.reached = 1 OR NEW.interacted = 1 BEGIN ${refreshLearner('NEW')} END`,
  analytics_stats_au: `AFTER UPDATE ON analytics_enrollment_stats BEGIN ${updateCourseStats} END`,
  analytics_stats_au_classroom: `AFTER UPDATE ON analytics_enrollment_stats WHEN ${classroomLearnerChanged('IS NOT')} BEGIN ${refreshLearner('NEW')} END`,
  analytics_stats_ad: `AFTER DELETE ON analytics_enrollment_stats BEGIN ${deleteCourseStats} ${refreshLearner('OLD')} END`,
  analytics_courses_au_leave: `AFTER UPDATE OF status, deleted_at, classroom_uuid ON courses WHEN ${leaving} BEGIN ${courseLeaves} END`,
  analytics_courses_au_enter: `AFTER UPDATE OF status, deleted_at, classroom_uuid ON courses WHEN ${entering} BEGIN ${courseEnters} END`,
  analytics_courses_bd: `BEFORE DELETE ON courses WHEN ${isCounted('OLD')} BEGIN ${courseDeleted} END`,
};

const POSTGRES_FUNCTIONS: Record<string, { body: string; trigger: string }> = {
  analytics_enrollments_fn: {
    body: `IF TG_OP = 'INSERT' THEN ${insertEnrollmentStats}
      ELSE ${updateEnrollmentStatus} END IF; RETURN NULL;`,
    trigger: 'AFTER INSERT OR UPDATE OF status, enrolled_at ON enrollments',
  },
  analytics_learners_fn: {
    body: `IF NEW.reachability IS DISTINCT FROM OLD.reachability THEN ${updateReachability} END IF; RETURN NULL;`,
    trigger: 'AFTER UPDATE OF reachability ON learners',
  },
  analytics_deliveries_fn: {
    body: `IF TG_OP = 'INSERT' THEN ${updateEnrollmentStats('NEW', null)} ${upsertHour('NEW', null)}
      ELSIF TG_OP = 'UPDATE' AND ${CLAIM} THEN NULL;
      ELSIF TG_OP = 'UPDATE' THEN ${updateEnrollmentStats('NEW', 'OLD')}
        IF ${sameHour} THEN ${upsertHour('NEW', 'OLD')} ELSE ${subtractHour('OLD')} ${upsertHour('NEW', null)} END IF;
      ELSE ${updateEnrollmentStats(null, 'OLD')} ${subtractHour('OLD')} END IF; RETURN NULL;`,
    trigger: 'AFTER INSERT OR UPDATE OR DELETE ON lesson_deliveries',
  },
  analytics_stats_fn: {
    body: `IF TG_OP = 'INSERT' THEN ${insertCourseStats}
        IF NEW.reached = 1 OR NEW.interacted = 1 THEN ${refreshLearner('NEW')} END IF;
      ELSIF TG_OP = 'UPDATE' THEN ${updateCourseStats}
        IF ${classroomLearnerChanged('IS DISTINCT FROM')} THEN ${refreshLearner('NEW')} END IF;
      ELSE ${deleteCourseStats} ${refreshLearner('OLD')} END IF; RETURN NULL;`,
    trigger: 'AFTER INSERT OR UPDATE OR DELETE ON analytics_enrollment_stats',
  },
  analytics_courses_fn: {
    body: `IF ${leaving} THEN ${courseLeaves} END IF;
      IF ${entering} THEN ${courseEnters} END IF; RETURN NULL;`,
    trigger: 'AFTER UPDATE OF status, deleted_at, classroom_uuid ON courses',
  },
  // BEFORE, while the course's enrolments still exist; RETURN OLD lets the delete go on.
  analytics_courses_delete_fn: {
    body: `IF ${isCounted('OLD')} THEN ${courseDeleted} END IF; RETURN OLD;`,
    trigger: 'BEFORE DELETE ON courses',
  },
};

const isPostgres = <DB>(db: Kysely<DB>) => db.getExecutor().adapter instanceof PostgresAdapter;
const triggerOf = (fn: string) => fn.replace(/_fn$/, '_trg');

/** Creates the triggers that keep the aggregates in step (the bench drops them for bulk loads). */
export const createAnalyticsTriggers = async <DB>(db: Kysely<DB>): Promise<void> => {
  if (isPostgres(db)) {
    for (const [name, { body, trigger }] of Object.entries(POSTGRES_FUNCTIONS)) {
      await sql
        .raw(
          `CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $fn$ BEGIN ${body} END $fn$`,
        )
        .execute(db);
      await sql
        .raw(`CREATE TRIGGER ${triggerOf(name)} ${trigger} FOR EACH ROW EXECUTE FUNCTION ${name}()`)
        .execute(db);
    }
    return;
  }
  for (const [name, body] of Object.entries(SQLITE_TRIGGERS)) {
    await sql.raw(`CREATE TRIGGER ${name} ${body}`).execute(db);
  }
};

export const dropAnalyticsTriggers = async <DB>(db: Kysely<DB>): Promise<void> => {
  if (isPostgres(db)) {
    for (const [name, { trigger }] of Object.entries(POSTGRES_FUNCTIONS)) {
      const table = /ON (\w+)$/.exec(trigger)?.[1] ?? '';
      await sql.raw(`DROP TRIGGER IF EXISTS ${triggerOf(name)} ON ${table}`).execute(db);
      await sql.raw(`DROP FUNCTION IF EXISTS ${name}()`).execute(db);
    }
    return;
  }
  for (const name of Object.keys(SQLITE_TRIGGERS)) {
    await sql.raw(`DROP TRIGGER IF EXISTS ${name}`).execute(db);
  }
};

/**
 * Recomputes every aggregate from the source tables (backfill, repair, after a bulk load), with
 * the triggers off meanwhile; they are (re)created at the end. The enrolment rows are written
 * afresh: follow with 0040's `rebuildRetentionAggregates` once that migration ran.
 */
export const rebuildAnalyticsAggregates = async <DB>(db: Kysely<DB>): Promise<void> => {
  const d = indicators('d');
  await dropAnalyticsTriggers(db);
  for (const table of [
    'analytics_classroom_learners',
    'analytics_course_stats',
    'analytics_course_hours',
    'analytics_enrollment_stats',
  ]) {
    await sql`DELETE FROM ${sql.table(table)}`.execute(db);
  }
  await sql
    .raw(
      `INSERT INTO analytics_enrollment_stats
        (enrollment_uuid, company_uuid, course_uuid, learner_uuid, status, enrolled, unreachable, ${COUNTERS.join(', ')},
         first_sent_at, first_activity_at, last_activity_at, run_start, run_end)
      SELECT e.uuid, e.company_uuid, e.course_uuid, e.learner_uuid, e.status, ${enrolledOf('e')},
        CASE WHEN l.reachability = 'unreachable' THEN 1 ELSE 0 END,
        ${COUNTERS.map((name) => `coalesce(sum(${d[name]}), 0)`).join(', ')},
        min(d.sent_at), min(${firstActivityOf('d')}), max(${activityOf('d')}),
        min(CASE WHEN ${attempted('d')} THEN d.scheduled_for END),
        max(CASE WHEN ${attempted('d')} THEN d.scheduled_for END)
      FROM enrollments e
      JOIN learners l ON l.uuid = e.learner_uuid
      LEFT JOIN lesson_deliveries d ON d.enrollment_uuid = e.uuid
      GROUP BY e.uuid, e.company_uuid, e.course_uuid, e.learner_uuid, e.status, e.enrolled_at, l.reachability`,
    )
    .execute(db);
  await sql
    .raw(
      `INSERT INTO analytics_course_hours (course_uuid, hour, channel, company_uuid, ${HOUR_COUNTERS.join(', ')})
      SELECT d.course_uuid, ${hourOf('d')}, d.channel, min(d.company_uuid), ${HOUR_COUNTERS.map((name) => `sum(${d[name]})`).join(', ')}
      FROM lesson_deliveries d
      GROUP BY d.course_uuid, ${hourOf('d')}, d.channel`,
    )
    .execute(db);
  await sql
    .raw(
      `INSERT INTO analytics_course_stats (course_uuid, company_uuid, invited, ${COURSE_SUMS.join(', ')})
      SELECT a.course_uuid, min(a.company_uuid), count(*), ${COURSE_SUMS.map((name) => `sum(${contributionOf('a', name)})`).join(', ')}
      FROM analytics_enrollment_stats a GROUP BY a.course_uuid`,
    )
    .execute(db);
  await sql
    .raw(
      `INSERT INTO analytics_classroom_learners (classroom_uuid, learner_uuid, company_uuid, ${CLASSROOM_LEARNER_COLUMNS})
      SELECT c.classroom_uuid, a.learner_uuid, min(a.company_uuid), ${CLASSROOM_LEARNER_VALUES}
      FROM analytics_enrollment_stats a JOIN courses c ON c.uuid = a.course_uuid
      WHERE ${isCounted('c')}
      GROUP BY c.classroom_uuid, a.learner_uuid
      HAVING sum(a.reached) > 0 OR sum(a.interacted) > 0`,
    )
    .execute(db);
  await createAnalyticsTriggers(db);
};

const flag = (condition: string) => sql.raw(`CASE WHEN ${condition} THEN 1 ELSE 0 END`);

export const up = async (db: Kysely<unknown>): Promise<void> => {
  let stats = db.schema
    .createTable('analytics_enrollment_stats')
    .addColumn('enrollment_uuid', 'text', (c) =>
      c.primaryKey().references('enrollments.uuid').onDelete('cascade'),
    )
    .addColumn('company_uuid', 'text', (c) => c.notNull())
    .addColumn('course_uuid', 'text', (c) =>
      c.notNull().references('courses.uuid').onDelete('cascade'),
    )
    .addColumn('learner_uuid', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('enrolled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('unreachable', 'integer', (c) => c.notNull().defaultTo(0));
  for (const name of COUNTERS) {
    stats = stats.addColumn(name, 'integer', (c) => c.notNull().defaultTo(0));
  }
  await stats
    .addColumn('first_sent_at', 'text')
    // First and last read or answer.
    .addColumn('first_activity_at', 'text')
    .addColumn('last_activity_at', 'text')
    // The enrolment's run: scheduled time of its first and last attempted send.
    .addColumn('run_start', 'text')
    .addColumn('run_end', 'text')
    // Enrolled and sent a lesson; enrolled and read one; not reachable (docs/metrics.md).
    .addColumn('reached', 'integer', (c) =>
      c.generatedAlwaysAs(flag('enrolled = 1 AND lessons_sent > 0')).stored(),
    )
    .addColumn('interacted', 'integer', (c) =>
      c.generatedAlwaysAs(flag('enrolled = 1 AND lessons_read > 0')).stored(),
    )
    .addColumn('unreach', 'integer', (c) =>
      c
        .generatedAlwaysAs(
          flag('unreachable = 1 OR (lessons_failed > 0 AND lessons_delivered = 0)'),
        )
        .stored(),
    )
    .execute();
  await db.schema
    .createIndex('analytics_enrollment_stats_course_idx')
    .on('analytics_enrollment_stats')
    .columns(['course_uuid', 'learner_uuid'])
    .execute();
  await db.schema
    .createIndex('analytics_enrollment_stats_learner_idx')
    .on('analytics_enrollment_stats')
    .column('learner_uuid')
    .execute();
  // Covers the status counts and period figures of a course: one index-only pass, no rows.
  await db.schema
    .createIndex('analytics_enrollment_stats_status_idx')
    .on('analytics_enrollment_stats')
    .columns([
      'course_uuid',
      'enrolled',
      'unreach',
      'last_activity_at',
      'first_sent_at',
      'lessons_read',
      'reached',
      'run_start',
      'run_end',
      'first_activity_at',
      'learner_uuid',
    ])
    .execute();

  let hours = db.schema
    .createTable('analytics_course_hours')
    .addColumn('course_uuid', 'text', (c) =>
      c.notNull().references('courses.uuid').onDelete('cascade'),
    )
    // UTC hour of scheduled_for, 'YYYY-MM-DDTHH': Europe/Rome days start on a whole UTC hour.
    .addColumn('hour', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('company_uuid', 'text', (c) => c.notNull());
  for (const name of HOUR_COUNTERS) {
    hours = hours.addColumn(name, 'integer', (c) => c.notNull().defaultTo(0));
  }
  await hours
    .addPrimaryKeyConstraint('analytics_course_hours_pk', ['course_uuid', 'hour', 'channel'])
    .execute();

  let courseStats = db.schema
    .createTable('analytics_course_stats')
    .addColumn('course_uuid', 'text', (c) =>
      c.primaryKey().references('courses.uuid').onDelete('cascade'),
    )
    .addColumn('company_uuid', 'text', (c) => c.notNull())
    .addColumn('invited', 'integer', (c) => c.notNull().defaultTo(0));
  for (const name of COURSE_SUMS) {
    courseStats = courseStats.addColumn(name, 'integer', (c) => c.notNull().defaultTo(0));
  }
  await courseStats.execute();

  await db.schema
    .createTable('analytics_classroom_learners')
    .addColumn('classroom_uuid', 'text', (c) =>
      c.notNull().references('classrooms.uuid').onDelete('cascade'),
    )
    .addColumn('learner_uuid', 'text', (c) =>
      c.notNull().references('learners.uuid').onDelete('cascade'),
    )
    .addColumn('company_uuid', 'text', (c) => c.notNull())
    // The learner's enrolled enrolments in the classroom's counted courses: how many were sent a
    // lesson / read one, the span of their runs and of their activity.
    .addColumn('reached', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('interacted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_start', 'text')
    .addColumn('run_end', 'text')
    .addColumn('first_activity_at', 'text')
    .addColumn('last_activity_at', 'text')
    .addPrimaryKeyConstraint('analytics_classroom_learners_pk', ['classroom_uuid', 'learner_uuid'])
    .execute();
  await db.schema
    .createIndex('analytics_classroom_learners_counts_idx')
    .on('analytics_classroom_learners')
    .columns([
      'classroom_uuid',
      'reached',
      'interacted',
      'run_start',
      'run_end',
      'first_activity_at',
      'last_activity_at',
    ])
    .execute();

  // Exports list a company's learners by name, a page at a time.
  await db.schema
    .createIndex('learners_company_name_idx')
    .on('learners')
    .columns(['company_uuid', 'last_name', 'first_name', 'uuid'])
    .execute();

  await rebuildAnalyticsAggregates(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await dropAnalyticsTriggers(db);
  await db.schema.dropIndex('learners_company_name_idx').ifExists().execute();
  for (const table of [
    'analytics_classroom_learners',
    'analytics_course_stats',
    'analytics_course_hours',
    'analytics_enrollment_stats',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
};
