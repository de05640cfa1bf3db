import type { TChannelKey } from '@ccp/schemas';
import type { CompiledQuery } from 'kysely';

import type { Db } from '../db/index.ts';
import { preparedQuery } from '../db/prepared.ts';
import type { Clock } from '../lib/clock.ts';
import { newUuid } from '../lib/ids.ts';
import type { Identity, KnownIdentity } from './message.ts';

// learner_channel_identities: where a learner is on a provider, resolved once from their e-mail
// or phone and kept until that contact changes. Inbound answers find the learner by it.

type Deps = { db: Db; clock: Clock };

export const findIdentity = async (
  deps: Deps,
  learnerUuid: string,
  channel: TChannelKey,
): Promise<KnownIdentity | null> => {
  const row = await deps.db
    .selectFrom('learner_channel_identities')
    .select(['address', 'provider_user_id', 'conversation_id', 'last_inbound_at'])
    .where('learner_uuid', '=', learnerUuid)
    .where('channel', '=', channel)
    .executeTakeFirst();
  return row
    ? {
        address: row.address,
        providerUserId: row.provider_user_id,
        conversationId: row.conversation_id,
        lastInboundAt: row.last_inbound_at,
      }
    : null;
};

type IdentityValues = [
  uuid: string,
  companyUuid: string,
  learnerUuid: string,
  channel: TChannelKey,
  address: string,
  providerUserId: string,
  conversationId: string | null,
  lastInboundAt: string | null,
  at: string,
];

// Prepared once (db/prepared.ts): the scheduler saves one for each learner's first lesson.
const upsertIdentity = preparedQuery<IdentityValues>(
  9,
  (
    db,
    uuid,
    companyUuid,
    learnerUuid,
    channel,
    address,
    providerUserId,
    conversationId,
    lastInboundAt,
    at,
  ) =>
    db
      .insertInto('learner_channel_identities')
      .values({
        uuid,
        company_uuid: companyUuid,
        learner_uuid: learnerUuid,
        channel,
        address,
        provider_user_id: providerUserId,
        conversation_id: conversationId,
        last_inbound_at: lastInboundAt,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) =>
        oc.columns(['learner_uuid', 'channel']).doUpdateSet({
          address,
          provider_user_id: providerUserId,
          conversation_id: conversationId,
          updated_at: at,
        }),
      ),
);

type IdentityOf = {
  companyUuid: string;
  learnerUuid: string;
  channel: TChannelKey;
  address: string;
};

/** The row saving a resolved identity (replacing one resolved from an older contact), compiled. */
export const identityRecord = (deps: Deps, values: IdentityOf, identity: Identity): CompiledQuery =>
  upsertIdentity.bind(
    deps.db,
    newUuid(),
    values.companyUuid,
    values.learnerUuid,
    values.channel,
    values.address,
    identity.providerUserId,
    identity.conversationId,
    identity.lastInboundAt,
    deps.clock.now().toISOString(),
  );

/** Saves a resolved identity (replacing one resolved from an older contact). */
export const saveIdentity = async (deps: Deps, values: IdentityOf, identity: Identity) => {
  await deps.db.executeQuery(identityRecord(deps, values, identity));
};

/** The learner of a company a provider user id belongs to, or null. */
export const learnerOfProviderUser = async (
  deps: Pick<Deps, 'db'>,
  companyUuid: string,
  channel: TChannelKey,
  providerUserId: string,
): Promise<string | null> => {
  const row = await deps.db
    .selectFrom('learner_channel_identities')
    .select('learner_uuid')
    .where('company_uuid', '=', companyUuid)
    .where('channel', '=', channel)
    .where('provider_user_id', '=', providerUserId)
    .executeTakeFirst();
  return row?.learner_uuid ?? null;
};

/** A message from the learner arrived (WhatsApp's 24-hour window opens). */
export const touchInbound = async (
  deps: Deps,
  learnerUuid: string,
  channel: TChannelKey,
  at: string,
): Promise<void> => {
  await deps.db
    .updateTable('learner_channel_identities')
    .set({ last_inbound_at: at, updated_at: deps.clock.now().toISOString() })
    .where('learner_uuid', '=', learnerUuid)
    .where('channel', '=', channel)
    .execute();
};

/**
 * The provider says the learner's conversation is gone (Google Chat: the app removed from their
 * DM): sends stop going there, the learner's id stays to find a new one.
 */
export const forgetConversation = async (
  deps: Deps,
  values: {
    companyUuid: string;
    channel: TChannelKey;
    providerUserId: string;
    conversationId: string;
  },
): Promise<boolean> => {
  const result = await deps.db
    .updateTable('learner_channel_identities')
    .set({ conversation_id: null, updated_at: deps.clock.now().toISOString() })
    .where('company_uuid', '=', values.companyUuid)
    .where('channel', '=', values.channel)
    .where('provider_user_id', '=', values.providerUserId)
    .where('conversation_id', '=', values.conversationId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
};
