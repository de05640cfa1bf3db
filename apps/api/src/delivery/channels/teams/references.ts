import type { Db } from '../../../db/index.ts';
import type { DeliveryDeps } from '../../enrolment.ts';
import { saveIdentity } from '../../identities.ts';
import type { Identity } from '../../message.ts';

// Where each Teams user who installed the app can be written to: their personal conversation
// (the conversation reference a proactive message needs, kept from the install or from any
// personal message), by their Teams user id. Kept whether or not a learner with their e-mail
// exists yet: the install often comes first (the learner is imported later), and Teams sends it
// once. A learner is matched by e-mail when the reference arrives and again at send time.
// https://learn.microsoft.com/en-us/microsoftteams/platform/bots/how-to/conversations/send-proactive-messages
// ("Get the conversation ID": store it "from any activity sent to you from that context";
// "Teams doesn't support sending proactive messages using email or User Principal Name").

/** The saved conversation reference of a learner (identity.conversationId). */
export type ConversationReference = { serviceUrl: string; conversationId: string };

/** A Teams user as an activity and the conversation's member record describe them. */
export type TeamsUser = {
  providerUserId: string;
  aadObjectId: string | null;
  /** E-mail, else user principal name, lower-cased; null when Teams gave neither. */
  email: string | null;
  reference: ConversationReference & { tenantId: string | null };
};

type Deps = DeliveryDeps;

const identityOfRow = (row: {
  provider_user_id: string;
  service_url: string;
  conversation_id: string;
}): Identity => ({
  providerUserId: row.provider_user_id,
  conversationId: JSON.stringify({
    serviceUrl: row.service_url,
    conversationId: row.conversation_id,
  } satisfies ConversationReference),
  lastInboundAt: null,
});

/** The kept conversation of a Teams user, or null. */
export const knownTeamsUser = async (db: Db, companyUuid: string, providerUserId: string) =>
  (await db
    .selectFrom('teams_conversation_references')
    .select(['provider_user_id', 'email', 'service_url', 'conversation_id'])
    .where('company_uuid', '=', companyUuid)
    .where('provider_user_id', '=', providerUserId)
    .executeTakeFirst()) ?? null;

/** The identity a learner's e-mail finds among the kept conversations (newest first), or null. */
export const teamsIdentityByEmail = async (
  db: Db,
  companyUuid: string,
  email: string,
): Promise<Identity | null> => {
  const row = await db
    .selectFrom('teams_conversation_references')
    .select(['provider_user_id', 'service_url', 'conversation_id'])
    .where('company_uuid', '=', companyUuid)
    .where('email', '=', email.trim().toLowerCase())
    .orderBy('updated_at', 'desc')
    .executeTakeFirst();
  return row ? identityOfRow(row) : null;
};

/**
 * Keeps a user's personal conversation and, when a learner of the company has their e-mail,
 * saves it as that learner's identity and lets their waiting Teams invitations go at the next
 * tick. Answers whether a learner was matched.
 */
export const keepTeamsUser = async (
  deps: Deps,
  companyUuid: string,
  user: TeamsUser,
): Promise<boolean> => {
  const at = deps.clock.now().toISOString();
  const values = {
    aad_object_id: user.aadObjectId,
    email: user.email,
    service_url: user.reference.serviceUrl,
    conversation_id: user.reference.conversationId,
    tenant_id: user.reference.tenantId,
    updated_at: at,
  };
  await deps.db
    .insertInto('teams_conversation_references')
    .values({
      company_uuid: companyUuid,
      provider_user_id: user.providerUserId,
      created_at: at,
      ...values,
    })
    .onConflict((oc) => oc.columns(['company_uuid', 'provider_user_id']).doUpdateSet(values))
    .execute();
  if (!user.email) return false;
  const learner = await deps.db
    .selectFrom('learners')
    .select('uuid')
    .where('company_uuid', '=', companyUuid)
    .where('email', '=', user.email)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!learner) return false;
  await saveIdentity(
    deps,
    { companyUuid, learnerUuid: learner.uuid, channel: 'ms-teams', address: user.email },
    identityOfRow({
      provider_user_id: user.providerUserId,
      service_url: user.reference.serviceUrl,
      conversation_id: user.reference.conversationId,
    }),
  );
  // An invitation that found no conversation waits (for a resend): now there is one, so it goes
  // at the next tick.
  await deps.db
    .updateTable('enrollments')
    .set({ invitation_retry_at: at, updated_at: at })
    .where('learner_uuid', '=', learner.uuid)
    .where('channel', '=', 'ms-teams')
    .where('status', '=', 'invited')
    .where('invitation_sent_at', 'is', null)
    .where('invitation_failure_code', 'is not', null)
    .execute();
  return true;
};

/**
 * The app was removed from the user's personal scope: Teams answers 403 to anything posted there
 * afterwards (conversation events, "Uninstall behavior for personal app with bot"), so their
 * conversation is forgotten, and with it any learner's identity on it.
 */
export const forgetTeamsUser = async (deps: Deps, companyUuid: string, providerUserId: string) => {
  await deps.db
    .deleteFrom('teams_conversation_references')
    .where('company_uuid', '=', companyUuid)
    .where('provider_user_id', '=', providerUserId)
    .execute();
  await deps.db
    .deleteFrom('learner_channel_identities')
    .where('company_uuid', '=', companyUuid)
    .where('channel', '=', 'ms-teams')
    .where('provider_user_id', '=', providerUserId)
    .execute();
};
