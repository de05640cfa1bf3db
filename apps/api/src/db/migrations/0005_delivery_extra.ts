import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// The delivery model, second step: when the GDPR opt-in invitation went out (so a restarted
// scheduler does not invite twice), and two partial indexes for the scheduler's sweeps over sent
// lessons still waiting for an answer (72 h missed) or a read (the unread reminder).
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('enrollments').addColumn('invitation_sent_at', 'text').execute();
  await db.schema
    .createIndex('lesson_deliveries_unanswered_idx')
    .on('lesson_deliveries')
    .column('sent_at')
    .where(sql<boolean>`status = 'sent' and answered_at is null and missed_at is null`)
    .execute();
  await db.schema
    .createIndex('lesson_deliveries_unread_idx')
    .on('lesson_deliveries')
    .column('sent_at')
    .where(sql<boolean>`status = 'sent' and read_at is null and reminders_sent = 0`)
    .execute();
  await db.schema
    .createIndex('enrollments_pending_invitation_idx')
    .on('enrollments')
    .column('course_uuid')
    .where(sql<boolean>`status = 'invited' and invitation_sent_at is null`)
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropIndex('enrollments_pending_invitation_idx').ifExists().execute();
  await db.schema.dropIndex('lesson_deliveries_unread_idx').ifExists().execute();
  await db.schema.dropIndex('lesson_deliveries_unanswered_idx').ifExists().execute();
  await db.schema.alterTable('enrollments').dropColumn('invitation_sent_at').execute();
};
