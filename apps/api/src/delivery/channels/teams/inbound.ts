import { decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import type { JWK } from 'jose';

import type { ChannelSettings } from '../../channel-settings.ts';
import type { DeliveryDeps } from '../../enrolment.ts';
import { learnerOfProviderUser } from '../../identities.ts';
import { applyChannelEvents } from '../../events.ts';
import { applyInbound, applyReply, parseAction } from '../../inbound.ts';
import type { InboundResult } from '../../inbound.ts';
import { callJson } from '../http.ts';
import { fetchTeamsMember } from './client.ts';
import { forgetTeamsUser, keepTeamsUser, knownTeamsUser } from './references.ts';
import type { ConversationReference, TeamsUser } from './references.ts';
import type { Connection } from '../../message.ts';

// Teams activities, verified as the Bot Connector signs them
// (https://learn.microsoft.com/en-us/azure/bot-service/rest-api/bot-framework-rest-connector-authentication,
// "Connector to Bot"): an RS256 JWT in the Authorization header, issued by
// https://api.botframework.com for the app's id (audience), signed by a key of the JWKS named in
// the OpenID metadata (CCP_TEAMS_OPENID_URL) whose `endorsements` include the activity's
// channelId, with a `serviceurl` claim equal to the activity's serviceUrl.
//
// Only personal (1:1) conversations are ever kept: an install in a team or a group chat would
// otherwise send a learner's lessons where the whole team reads them. A personal conversation
// is kept from the install (conversationUpdate), from installationUpdate (add) and from any
// message the user writes, so a lost install event is mended by the learner's first message.
// A card submit (message with value) or a typed reply answers the lesson.

export const BOT_FRAMEWORK_ISSUER = 'https://api.botframework.com';
/** The channel id of Teams activities, which the signing key must endorse. */
export const TEAMS_CHANNEL_ID = 'msteams';

type SigningKey = { key: Awaited<ReturnType<typeof importJWK>>; endorsements: string[] };
type KeySet = { keys: Map<string, SigningKey>; fetchedAt: number };

// The keys change rarely (the Bot Framework SDK caches them for 5 days); a token naming a key
// not in the cached set fetches it again, at most once a minute, to follow a key roll-over.
const KEYS_MAX_AGE_MS = 24 * 60 * 60 * 1000;
const KEYS_MIN_REFETCH_MS = 60 * 1000;
const keySets = new Map<string, Promise<KeySet>>();

const fetchKeySet = async (metadataUrl: string): Promise<KeySet> => {
  const metadata = await callJson<{ jwks_uri: string }>({ url: metadataUrl });
  const jwks = await callJson<{ keys?: (JWK & { endorsements?: unknown })[] }>({
    url: metadata.jwks_uri,
  });
  const keys = new Map<string, SigningKey>();
  for (const jwk of jwks.keys ?? []) {
    if (!jwk.kid || jwk.kty !== 'RSA') continue;
    const { endorsements, ...rest } = jwk;
    keys.set(jwk.kid, {
      key: await importJWK(rest, 'RS256'),
      endorsements: Array.isArray(endorsements)
        ? endorsements.filter((value): value is string => typeof value === 'string')
        : [],
    });
  }
  return { keys, fetchedAt: performance.now() };
};

/** The signing key a token names, from the cached JWKS, fetched again when it is old or lacks it. */
const signingKeyOf = async (
  settings: ChannelSettings['teams'],
  kid: string,
): Promise<SigningKey | null> => {
  const url = settings.openIdMetadataUrl;
  const cached = keySets.get(url);
  let set = cached ? await cached.catch(() => null) : null;
  const age = set ? performance.now() - set.fetchedAt : Infinity;
  if (!set || age > KEYS_MAX_AGE_MS || (!set.keys.has(kid) && age > KEYS_MIN_REFETCH_MS)) {
    const fetching = fetchKeySet(url);
    keySets.set(url, fetching);
    set = await fetching.catch((error: unknown) => {
      keySets.delete(url);
      throw error;
    });
  }
  return set.keys.get(kid) ?? null;
};

export type TeamsAccount = { id: string; aadObjectId?: string };

export type TeamsActivity = {
  type: string;
  id: string;
  /** An event activity's name (application/vnd.microsoft.readReceipt). */
  name?: string;
  timestamp?: string;
  channelId?: string;
  serviceUrl: string;
  from: TeamsAccount;
  recipient?: { id: string };
  conversation: { id: string; conversationType?: string; tenantId?: string };
  channelData?: { tenant?: { id?: string } };
  membersAdded?: TeamsAccount[];
  /** installationUpdate: add, remove, add-upgrade, remove-upgrade. */
  action?: string;
  text?: string;
  value?: unknown;
};

export const parseTeamsActivity = (rawBody: string): TeamsActivity | null => {
  try {
    const data = JSON.parse(rawBody) as Partial<TeamsActivity>;
    if (!data.type || !data.id || !data.serviceUrl || !data.from?.id || !data.conversation?.id)
      return null;
    return data as TeamsActivity;
  } catch {
    return null;
  }
};

/**
 * True when the token is the Bot Connector's, for this app, about this activity's service, and
 * signed by a key endorsed for Teams: a key endorsed only for another channel (Web Chat, Direct
 * Line…) cannot speak for a Teams user.
 */
export const verifyTeamsRequest = async (
  settings: ChannelSettings['teams'],
  appId: string,
  authorization: string | undefined,
  activity: TeamsActivity,
  now: Date,
): Promise<boolean> => {
  const token = authorization?.match(/^Bearer (.+)$/)?.[1];
  if (!token || activity.channelId !== TEAMS_CHANNEL_ID) return false;
  try {
    const { kid } = decodeProtectedHeader(token);
    const signing = kid ? await signingKeyOf(settings, kid) : null;
    if (!signing || !signing.endorsements.includes(activity.channelId)) return false;
    const { payload } = await jwtVerify(token, signing.key, {
      issuer: BOT_FRAMEWORK_ISSUER,
      audience: appId,
      algorithms: ['RS256'],
      currentDate: now,
      clockTolerance: 300,
    });
    return payload.serviceurl === activity.serviceUrl;
  } catch {
    return false;
  }
};

type Deps = DeliveryDeps;

type TokenOf = (connection: Connection) => Promise<string>;

const isPersonal = (activity: TeamsActivity) =>
  activity.conversation.conversationType === 'personal';

const referenceOf = (activity: TeamsActivity): TeamsUser['reference'] => ({
  serviceUrl: activity.serviceUrl,
  conversationId: activity.conversation.id,
  tenantId: activity.conversation.tenantId ?? activity.channelData?.tenant?.id ?? null,
});

/** A member of this personal conversation with the e-mail Teams knows them by. */
const teamsUserOf = async (
  tokenOf: TokenOf,
  connection: Connection,
  activity: TeamsActivity,
  account: TeamsAccount,
): Promise<TeamsUser> => {
  const reference = referenceOf(activity);
  const member = await fetchTeamsMember(
    tokenOf,
    connection,
    reference satisfies ConversationReference,
    account.id,
  );
  const email = (member.email ?? member.userPrincipalName ?? '').trim().toLowerCase();
  return {
    providerUserId: account.id,
    aadObjectId: account.aadObjectId ?? member.aadObjectId ?? null,
    email: email === '' ? null : email,
    reference,
  };
};

/** The app was installed in a personal scope: the user's conversation is kept. */
const keepInstall = async (
  deps: Deps,
  tokenOf: TokenOf,
  connection: Connection,
  activity: TeamsActivity,
  accounts: TeamsAccount[],
): Promise<'installed' | 'ignored'> => {
  let kept = false;
  for (const account of accounts) {
    if (account.id === activity.recipient?.id) continue;
    const user = await teamsUserOf(tokenOf, connection, activity, account);
    await keepTeamsUser(deps, connection.companyUuid, user);
    kept = true;
  }
  return kept ? 'installed' : 'ignored';
};

/**
 * A personal message: its conversation is the writer's, kept unless already known (for a learner
 * already matched, nothing is fetched). Best effort: an answer is applied even when Teams cannot
 * say who the writer is just now.
 */
const keepWriter = async (
  deps: Deps,
  tokenOf: TokenOf,
  connection: Connection,
  activity: TeamsActivity,
) => {
  const { companyUuid } = connection;
  const known = await knownTeamsUser(deps.db, companyUuid, activity.from.id);
  const same =
    known !== null &&
    known.conversation_id === activity.conversation.id &&
    known.service_url === activity.serviceUrl;
  if (same && (await learnerOfProviderUser(deps, companyUuid, 'ms-teams', activity.from.id)))
    return;
  try {
    const user =
      same && known.email
        ? {
            providerUserId: activity.from.id,
            aadObjectId: activity.from.aadObjectId ?? null,
            email: known.email,
            reference: referenceOf(activity),
          }
        : await teamsUserOf(tokenOf, connection, activity, activity.from);
    await keepTeamsUser(deps, companyUuid, user);
  } catch {
    // The member lookup failed (throttled, unreachable): the next message tries again.
  }
};

/** The event Teams posts when a user read the bot's messages in their personal chat. */
export const TEAMS_READ_RECEIPT = 'application/vnd.microsoft.readReceipt';

/** A Teams message id (the epoch milliseconds of the message) as a number; null if it is none. */
const messageNumber = (id: string | null | undefined) =>
  id && /^\d{1,19}$/.test(id) ? BigInt(id) : null;

/**
 * A read receipt: the user read every message of the bot up to `lastReadMessageId` in their
 * personal chat (Teams sends it there only, to an app whose manifest asks for the RSC permission
 * ChatMessageReadReceipt.Read.Chat, and only while the user's read receipts are on:
 * https://learn.microsoft.com/en-us/microsoftteams/platform/bots/how-to/conversations/conversation-messages,
 * "Read receipts"). A message was read when its id is at most that one, compared as numbers
 * (ReadReceiptInfo.IsMessageRead,
 * https://learn.microsoft.com/en-us/dotnet/api/microsoft.bot.schema.teams.readreceiptinfo.ismessageread).
 * Each of the learner's sent lessons not yet read becomes read (and delivered) at the receipt.
 */
const recordReadReceipt = async (
  deps: Deps,
  connection: Connection,
  activity: TeamsActivity,
): Promise<InboundResult> => {
  const lastRead = messageNumber(
    (activity.value as { lastReadMessageId?: string } | undefined)?.lastReadMessageId,
  );
  const { companyUuid } = connection;
  const learner = await learnerOfProviderUser(deps, companyUuid, 'ms-teams', activity.from.id);
  if (lastRead === null || !learner) return 'ignored';
  const unread = await deps.db
    .selectFrom('lesson_deliveries')
    .select(['uuid', 'provider_message_id'])
    .where('company_uuid', '=', companyUuid)
    .where('learner_uuid', '=', learner)
    .where('channel', '=', 'ms-teams')
    .where('status', '=', 'sent')
    .where('read_at', 'is', null)
    .execute();
  const read = unread.filter((row) => {
    const sent = messageNumber(row.provider_message_id);
    return sent !== null && sent <= lastRead;
  });
  if (read.length === 0) return 'duplicate';
  // When Teams says the receipt happened; never later than now (events.ts keeps times in order).
  const at = deps.clock.now().getTime();
  const stamped = Date.parse(activity.timestamp ?? '');
  const occurredAt = new Date(Number.isFinite(stamped) ? Math.min(stamped, at) : at).toISOString();
  const results = await applyChannelEvents(
    deps,
    { companyUuid, channel: 'ms-teams' },
    read.map((row) => ({
      type: 'read' as const,
      delivery_uuid: row.uuid,
      occurred_at: occurredAt,
    })),
  );
  return results.some((result) => result.status === 'recorded') ? 'recorded' : 'duplicate';
};

export const handleTeamsActivity = async (
  deps: Deps,
  tokenOf: TokenOf,
  connection: Connection,
  activity: TeamsActivity,
): Promise<InboundResult | 'installed' | 'uninstalled'> => {
  // A team channel or a group chat is never where a learner's lessons go.
  if (!isPersonal(activity)) return 'ignored';
  if (activity.type === 'conversationUpdate')
    return keepInstall(deps, tokenOf, connection, activity, activity.membersAdded ?? []);
  if (activity.type === 'installationUpdate') {
    // https://learn.microsoft.com/en-us/microsoftteams/platform/bots/how-to/conversations/subscribe-to-conversation-events
    // ("Installation update event"): add / add-upgrade on install, remove / remove-upgrade after.
    if (activity.action === 'add' || activity.action === 'add-upgrade')
      return keepInstall(deps, tokenOf, connection, activity, [activity.from]);
    if (activity.action === 'remove' || activity.action === 'remove-upgrade') {
      await forgetTeamsUser(deps, connection.companyUuid, activity.from.id);
      return 'uninstalled';
    }
    return 'ignored';
  }
  if (activity.type === 'event' && activity.name === TEAMS_READ_RECEIPT)
    return recordReadReceipt(deps, connection, activity);
  if (activity.type !== 'message') return 'ignored';
  await keepWriter(deps, tokenOf, connection, activity);
  const inbound = {
    channel: 'ms-teams' as const,
    companyUuid: connection.companyUuid,
    providerUserId: activity.from.id,
    providerMessageId: activity.id,
  };
  // Typed in the chat rather than in the card: an answer to the waiting question.
  if (activity.value === undefined) {
    return typeof activity.text === 'string'
      ? applyReply(deps, { ...inbound, text: activity.text })
      : 'ignored';
  }
  const action = parseAction(activity.value);
  if (!action) return 'ignored';
  return applyInbound(deps, { ...inbound, action });
};
