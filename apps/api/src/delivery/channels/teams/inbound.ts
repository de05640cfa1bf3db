import { createRemoteJWKSet, jwtVerify } from 'jose';

import type { ChannelSettings } from '../../channel-settings.ts';
import type { Connection } from '../../connector.ts';
import type { DeliveryDeps } from '../../enrolment.ts';
import { saveIdentity } from '../../identities.ts';
import { applyInbound, applyReply, parseAction } from '../../inbound.ts';
import type { InboundResult } from '../../inbound.ts';
import { callJson } from '../http.ts';
import { fetchTeamsMember } from './client.ts';
import type { ConversationReference } from './client.ts';

// Teams activities, verified as the Bot Connector signs them: an RS256 JWT in the Authorization
// header, issued by https://api.botframework.com for the app's id (audience), signed by a key
// of the JWKS named in the OpenID metadata (CCP_TEAMS_OPENID_URL), whose `serviceurl` claim is
// the activity's serviceUrl. An installation (conversationUpdate) saves the learner's
// conversation reference; a card submit (message with value) answers the lesson.

export const BOT_FRAMEWORK_ISSUER = 'https://api.botframework.com';

const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

const keysOf = async (settings: ChannelSettings['teams']) => {
  let keys = keySets.get(settings.openIdMetadataUrl);
  if (!keys) {
    const metadata = await callJson<{ jwks_uri: string }>({ url: settings.openIdMetadataUrl });
    keys = createRemoteJWKSet(new URL(metadata.jwks_uri));
    keySets.set(settings.openIdMetadataUrl, keys);
  }
  return keys;
};

export type TeamsActivity = {
  type: string;
  id: string;
  serviceUrl: string;
  from: { id: string };
  recipient?: { id: string };
  conversation: { id: string };
  membersAdded?: { id: string }[];
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

/** True when the token is the Bot Connector's, for this app, about this activity's service. */
export const verifyTeamsRequest = async (
  settings: ChannelSettings['teams'],
  appId: string,
  authorization: string | undefined,
  activity: TeamsActivity,
  now: Date,
): Promise<boolean> => {
  const token = authorization?.match(/^Bearer (.+)$/)?.[1];
  if (!token) return false;
  try {
    const { payload } = await jwtVerify(token, await keysOf(settings), {
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

/** The app was installed: each learner added gets their conversation reference saved. */
const saveInstall = async (
  deps: Deps,
  tokenOf: (connection: Connection) => Promise<string>,
  connection: Connection,
  activity: TeamsActivity,
): Promise<'installed' | 'ignored'> => {
  const reference: ConversationReference = {
    serviceUrl: activity.serviceUrl,
    conversationId: activity.conversation.id,
  };
  let saved = false;
  for (const member of activity.membersAdded ?? []) {
    if (member.id === activity.recipient?.id) continue;
    const found = await fetchTeamsMember(tokenOf, connection, reference, member.id);
    const email = (found.email ?? found.userPrincipalName ?? '').toLowerCase();
    const learner = await deps.db
      .selectFrom('learners')
      .select('uuid')
      .where('company_uuid', '=', connection.companyUuid)
      .where('email', '=', email)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!learner) continue;
    await saveIdentity(
      deps,
      {
        companyUuid: connection.companyUuid,
        learnerUuid: learner.uuid,
        channel: 'ms-teams',
        address: email,
      },
      { providerUserId: member.id, conversationId: JSON.stringify(reference), lastInboundAt: null },
    );
    saved = true;
  }
  return saved ? 'installed' : 'ignored';
};

export const handleTeamsActivity = async (
  deps: Deps,
  tokenOf: (connection: Connection) => Promise<string>,
  connection: Connection,
  activity: TeamsActivity,
): Promise<InboundResult | 'installed'> => {
  if (activity.type === 'conversationUpdate')
    return saveInstall(deps, tokenOf, connection, activity);
  if (activity.type !== 'message') return 'ignored';
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
