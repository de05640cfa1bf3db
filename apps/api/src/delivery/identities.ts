import type { TChannelKey } from '@ccp/schemas';

import type { Db } from '../db/index.ts';
import type { Clock } from '../lib/clock.ts';
import { newUuid } from '../lib/ids.ts';
import type { Identity } from './connector.ts';

// learner_channel_identities: where a learner is on a provider, resolved once from their e-mail
// or phone and kept until that contact changes. Inbound answers find the learner by it.

type Deps = { db: Db; clock: Clock };

export const findIdentity = async (
  deps: Deps,
  learnerUuid: string,
  channel: TChannelKey,
): Promise<(Identity & { address: string }) | null> => {
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

/** Saves a resolved identity (replacing one resolved from an older contact). */
export const saveIdentity = async (
  deps: Deps,
  values: { companyUuid: string; learnerUuid: string; channel: TChannelKey; address: string },
  identity: Identity,
): Promise<void> => {
  const now = deps.clock.now().toISOString();
  await deps.db
    .insertInto('learner_channel_identities')
    .values({
      uuid: newUuid(),
      company_uuid: values.companyUuid,
      learner_uuid: values.learnerUuid,
      channel: values.channel,
      address: values.address,
      provider_user_id: identity.providerUserId,
      conversation_id: identity.conversationId,
      last_inbound_at: identity.lastInboundAt,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.columns(['learner_uuid', 'channel']).doUpdateSet({
        address: values.address,
        provider_user_id: identity.providerUserId,
        conversation_id: identity.conversationId,
        updated_at: now,
      }),
    )
    .execute();
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
