import type { Db } from '../../../db/index.ts';
import type { DeliveryDeps } from '../../enrolment.ts';
import { saveIdentity } from '../../identities.ts';
import type { Identity } from '../../message.ts';

// The Google Chat users the app has seen in a direct message (their users/{id} and DM space),
// kept by e-mail for the company whether or not a learner with that e-mail exists yet. With app
// authentication Chat names a user to an app only in the events it posts (the app added, a
// message, a click): an event that came before the learner was imported is not lost, the
// learner's first send finds it here.
// https://developers.google.com/workspace/chat/api/reference/rest/v1/Event (user, space);
// https://developers.google.com/workspace/chat/api/reference/rest/v1/spaces/findDirectMessage
// (an e-mail alias only with user authentication).

/** A Chat user as a DM event names them. */
export type ChatUser = { companyUuid: string; userName: string; email: string; space: string };

const identityOf = (row: { provider_user_id: string; space_name: string | null }): Identity => ({
  providerUserId: row.provider_user_id,
  conversationId: row.space_name,
  lastInboundAt: null,
});

/** Where a Chat user with this e-mail was last seen by the company's app, or null. */
export const chatUserByEmail = async (
  db: Db,
  companyUuid: string,
  email: string,
): Promise<Identity | null> => {
  const row = await db
    .selectFrom('google_chat_users')
    .select(['provider_user_id', 'space_name'])
    .where('company_uuid', '=', companyUuid)
    .where('email', '=', email.trim().toLowerCase())
    .orderBy('updated_at', 'desc')
    .executeTakeFirst();
  return row ? identityOf(row) : null;
};

/**
 * Keeps the user and their DM space and, when a learner of the company has their e-mail, saves
 * it as that learner's identity. Answers whether a learner was matched.
 */
export const keepChatUser = async (deps: DeliveryDeps, user: ChatUser): Promise<boolean> => {
  const at = deps.clock.now().toISOString();
  const email = user.email.trim().toLowerCase();
  await deps.db
    .insertInto('google_chat_users')
    .values({
      company_uuid: user.companyUuid,
      provider_user_id: user.userName,
      email,
      space_name: user.space,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) =>
      oc
        .columns(['company_uuid', 'provider_user_id'])
        .doUpdateSet({ email, space_name: user.space, updated_at: at }),
    )
    .execute();
  const learner = await deps.db
    .selectFrom('learners')
    .select('uuid')
    .where('company_uuid', '=', user.companyUuid)
    .where('email', '=', email)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!learner) return false;
  await saveIdentity(
    deps,
    {
      companyUuid: user.companyUuid,
      learnerUuid: learner.uuid,
      channel: 'google-chat',
      address: email,
    },
    identityOf({ provider_user_id: user.userName, space_name: user.space }),
  );
  return true;
};

/** The app was taken out of the user's DM: no send goes to that space any more. */
export const forgetChatSpace = async (
  deps: DeliveryDeps,
  companyUuid: string,
  userName: string,
  space: string,
): Promise<void> => {
  await deps.db
    .updateTable('google_chat_users')
    .set({ space_name: null, updated_at: deps.clock.now().toISOString() })
    .where('company_uuid', '=', companyUuid)
    .where('provider_user_id', '=', userName)
    .where('space_name', '=', space)
    .execute();
};
