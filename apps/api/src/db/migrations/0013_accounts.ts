import type { Kysely } from 'kysely';

// Accounts and team (issue 17): deactivated creators and their last sign-in, sessions with the
// device and address they came from, single-use e-mail links (password reset), invitations,
// 2FA recovery codes and the audit log. Every secret is stored as a SHA-256 hash.
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('users').addColumn('deactivated_at', 'text').execute();
  await db.schema.alterTable('users').addColumn('last_sign_in_at', 'text').execute();

  // One row per sign-in (a token family of full stage).
  await db.schema
    .createTable('auth_sessions')
    .addColumn('family_uuid', 'text', (c) => c.primaryKey())
    .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
    .addColumn('user_agent', 'text')
    .addColumn('ip', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text')
    .execute();
  await db.schema
    .createIndex('auth_sessions_user_idx')
    .on('auth_sessions')
    .columns(['user_uuid', 'ended_at'])
    .execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
    .addColumn('ip', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema
    .createIndex('password_resets_user_idx')
    .on('password_resets')
    .column('user_uuid')
    .execute();

  await db.schema
    .createTable('invitations')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'text', (c) => c.references('users.uuid').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('user_uuid', 'text', (c) => c.references('users.uuid').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('invitations_company_idx')
    .on('invitations')
    .columns(['company_uuid', 'email'])
    .execute();

  await db.schema
    .createTable('recovery_codes')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema
    .createIndex('recovery_codes_user_idx')
    .on('recovery_codes')
    .columns(['user_uuid', 'code_hash'])
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    // Who did it: a user (kept when the user is gone, by e-mail), or nobody (a reset request).
    .addColumn('actor_uuid', 'text')
    .addColumn('actor_email', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    // JSON object of plain values.
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('audit_log_company_idx')
    .on('audit_log')
    .columns(['company_uuid', 'created_at'])
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  for (const table of ['audit_log', 'recovery_codes', 'invitations', 'password_resets']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema.dropTable('auth_sessions').ifExists().execute();
  await db.schema.alterTable('users').dropColumn('last_sign_in_at').execute();
  await db.schema.alterTable('users').dropColumn('deactivated_at').execute();
};
