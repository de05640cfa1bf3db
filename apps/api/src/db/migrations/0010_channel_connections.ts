import type { Kysely } from 'kysely';

// Real delivery connectors (issue 16): a company's connection to each chat provider (provider
// ids in clear, secrets encrypted with AES-256-GCM under CCP_SECRETS_KEY), the learner's id on a
// provider once resolved (a Slack user and DM conversation, a WhatsApp number's last inbound
// message...), and the provider message ids of answers already applied (webhooks are retried).
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('channel_connections')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    .addColumn('channel', 'text', (c) => c.notNull())
    // connected | error | disconnected
    .addColumn('status', 'text', (c) => c.notNull())
    // JSON object of ids the provider gave (Slack team id, WhatsApp phone number id...).
    .addColumn('provider_ids', 'text', (c) => c.notNull())
    // The lookup key of inbound webhooks (Slack team id, Teams app id, phone number id...).
    .addColumn('provider_key', 'text')
    // v1:<iv>:<tag>:<ciphertext>, base64url, of a JSON object.
    .addColumn('secrets', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('last_tested_at', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('channel_connections_company_channel_uq', ['company_uuid', 'channel'])
    .execute();
  await db.schema
    .createIndex('channel_connections_provider_idx')
    .on('channel_connections')
    .columns(['channel', 'provider_key'])
    .execute();

  await db.schema
    .createTable('learner_channel_identities')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    .addColumn('learner_uuid', 'text', (c) =>
      c.notNull().references('learners.uuid').onDelete('cascade'),
    )
    .addColumn('channel', 'text', (c) => c.notNull())
    // The contact it was resolved from: a changed e-mail or phone resolves again.
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('provider_user_id', 'text', (c) => c.notNull())
    .addColumn('conversation_id', 'text')
    .addColumn('last_inbound_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('learner_channel_identities_uq', ['learner_uuid', 'channel'])
    .execute();
  await db.schema
    .createIndex('learner_channel_identities_provider_idx')
    .on('learner_channel_identities')
    .columns(['company_uuid', 'channel', 'provider_user_id'])
    .execute();

  await db.schema
    .createTable('channel_inbound_messages')
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('provider_message_id', 'text', (c) => c.notNull())
    .addColumn('company_uuid', 'text', (c) =>
      c.notNull().references('companies.uuid').onDelete('cascade'),
    )
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('channel_inbound_messages_pk', ['channel', 'provider_message_id'])
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropTable('channel_inbound_messages').ifExists().execute();
  await db.schema.dropTable('learner_channel_identities').ifExists().execute();
  await db.schema.dropTable('channel_connections').ifExists().execute();
};
