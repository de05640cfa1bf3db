import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// Durable background jobs (issue 6). One row per job of any kind (the bulk learner import first).
// A job is claimed by bumping `attempts`, which then fences every batch the claimer commits: a
// runner that lost its lease (crash, stall, another runner reclaimed it) cannot commit again.
// `checkpoint` is saved in the same transaction as the batch it covers, so a resumed job skips
// exactly the rows already applied.
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('jobs')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    .addColumn('user_uuid', 'text', (c) => c.references('users.uuid').onDelete('set null'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('total_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('processed_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('checkpoint', 'text')
    .addColumn('input_path', 'text')
    .addColumn('options', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('error_summary', 'text')
    .addColumn('error_report_path', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('worker', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('heartbeat_at', 'text')
    .addColumn('notified_at', 'text')
    .execute();
  await db.schema
    .createIndex('jobs_status_idx')
    .on('jobs')
    .columns(['status', 'created_at'])
    .execute();
  await db.schema
    .createIndex('jobs_company_idx')
    .on('jobs')
    .columns(['company_uuid', 'kind', 'created_at'])
    .execute();
  // The runner's sweep for finished jobs whose requester was not yet e-mailed.
  await db.schema
    .createIndex('jobs_unnotified_idx')
    .on('jobs')
    .column('created_at')
    .where(sql<boolean>`notified_at is null and status in ('completed', 'failed', 'canceled')`)
    .execute();
  // GET /users/me/outbox reads a user's mails among every lesson message.
  await db.schema
    .createIndex('outbox_messages_email_recipient_idx')
    .on('outbox_messages')
    .columns(['recipient', 'created_at'])
    .where(sql<boolean>`channel = 'email'`)
    .execute();
  // The import matches learners without an e-mail by phone; without this index each batch would
  // scan every learner of the company.
  await db.schema
    .createIndex('learners_company_phone_idx')
    .on('learners')
    .columns(['company_uuid', 'phone'])
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropIndex('learners_company_phone_idx').ifExists().execute();
  await db.schema.dropIndex('outbox_messages_email_recipient_idx').ifExists().execute();
  await db.schema.dropIndex('jobs_unnotified_idx').ifExists().execute();
  await db.schema.dropTable('jobs').ifExists().execute();
};
