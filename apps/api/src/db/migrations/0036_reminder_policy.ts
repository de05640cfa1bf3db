import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// Issue 28, reminders, pause and resume. The course's reminder policy lives in its distribution
// (JSON); what it needs in rows: when a lesson's last reminder went (the next one waits the
// course's hours after it), and an enrolment's pause: since when, why (`unanswered`, `trainer`,
// `stop`), and when it was last resumed (unanswered lessons sent before it no longer count
// towards the next auto-pause). A lesson reminded already leaves the 0005 partial index on
// `reminders_sent = 0`, so the sweep for further reminders has its own. The learner's one-line
// confirmation of a pause, a resume or a STOP goes as one more message of their latest lesson
// send (`notice`, queued until the scheduler claims it), found by a partial index.
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('lesson_deliveries').addColumn('last_reminder_at', 'text').execute();
  await db.schema.alterTable('lesson_deliveries').addColumn('notice', 'text').execute();
  await db.schema.alterTable('enrollments').addColumn('paused_at', 'text').execute();
  await db.schema.alterTable('enrollments').addColumn('pause_reason', 'text').execute();
  await db.schema.alterTable('enrollments').addColumn('resumed_at', 'text').execute();
  await db.schema
    .createIndex('lesson_deliveries_reminded_unread_idx')
    .on('lesson_deliveries')
    .column('sent_at')
    .where(sql<boolean>`status = 'sent' and read_at is null and reminders_sent > 0`)
    .execute();
  await db.schema
    .createIndex('lesson_deliveries_notice_idx')
    .on('lesson_deliveries')
    .column('notice')
    .where(sql.ref('notice'), 'is not', null)
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropIndex('lesson_deliveries_notice_idx').ifExists().execute();
  await db.schema.dropIndex('lesson_deliveries_reminded_unread_idx').ifExists().execute();
  for (const column of ['resumed_at', 'pause_reason', 'paused_at']) {
    await db.schema.alterTable('enrollments').dropColumn(column).execute();
  }
  for (const column of ['notice', 'last_reminder_at']) {
    await db.schema.alterTable('lesson_deliveries').dropColumn(column).execute();
  }
};
