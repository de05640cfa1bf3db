import type { Kysely } from 'kysely';

// Issue 25: a send is "sent" only when the provider accepted it. A lesson keeps the provider's
// message id (receipts find their lesson through channel_messages, 0026) and, when it did not go, why: a stable reason
// code (the connector's verdict, e.g. `users_not_found`, `channel_not_connected`) and the
// provider's own words. A send refused for a while (a rate limit on a look-up, a learner who has
// not installed the app yet) waits until `next_attempt_at` instead of stalling the channel.
// An invitation that failed is no longer "sent": it keeps its reason and when it is tried again
// (none: it waits for a Resend).
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .alterTable('lesson_deliveries')
    .addColumn('provider_message_id', 'text')
    .execute();
  await db.schema.alterTable('lesson_deliveries').addColumn('failure_code', 'text').execute();
  await db.schema.alterTable('lesson_deliveries').addColumn('failure_detail', 'text').execute();
  await db.schema.alterTable('lesson_deliveries').addColumn('next_attempt_at', 'text').execute();
  for (const column of [
    'invitation_failure_code',
    'invitation_failure_detail',
    'invitation_failed_at',
    'invitation_retry_at',
  ]) {
    await db.schema.alterTable('enrollments').addColumn(column, 'text').execute();
  }
  await db.schema
    .alterTable('enrollments')
    .addColumn('invitation_attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  for (const column of [
    'invitation_attempts',
    'invitation_retry_at',
    'invitation_failed_at',
    'invitation_failure_detail',
    'invitation_failure_code',
  ]) {
    await db.schema.alterTable('enrollments').dropColumn(column).execute();
  }
  for (const column of [
    'next_attempt_at',
    'failure_detail',
    'failure_code',
    'provider_message_id',
  ]) {
    await db.schema.alterTable('lesson_deliveries').dropColumn(column).execute();
  }
};
