import type { ChannelSettings } from '../../channel-settings.ts';
import type { Connection, Connector } from '../../connector.ts';
import { ProviderHttpError, callJson, classifyHttpError } from '../http.ts';
import { renderTeamsActivity } from './render.ts';

// The Teams connector (Bot Framework REST, plain fetch): an app token by client credentials from
// the token endpoint of the bot's tenant (CCP_TEAMS_TOKEN_URL with `{tenant}`), cached until
// shortly before it expires;
// a learner is the conversation reference saved when they installed the app (serviceUrl and
// conversation id); a lesson is one activity POSTed to that conversation.

// Bot Framework allows about 7 messages a second per conversation; one DM per learner, so the
// connection is paced at a modest total.
export const TEAMS_MESSAGES_PER_SECOND = 15;

export const BOT_FRAMEWORK_SCOPE = 'https://api.botframework.com/.default';

/**
 * The tenant whose endpoint issues a multi-tenant bot's tokens. Azure Bot Service creates only
 * single-tenant bots since 31 July 2025: their tokens come from their own tenant (the
 * connection's tenant id); an older multi-tenant bot enters this as its tenant id.
 */
export const TEAMS_LEGACY_TENANT = 'botframework.com';

/** The token endpoint for the connection's tenant (a URL without `{tenant}` is used as it is). */
export const teamsTokenUrl = (template: string, tenantId: string | undefined) =>
  template.replaceAll('{tenant}', encodeURIComponent(tenantId?.trim() || TEAMS_LEGACY_TENANT));

type TokenAnswer = { access_token: string; expires_in: number };
type BotError = {
  error?: { code?: string; message?: string } | string;
  error_description?: string;
};
const codeOf = (body: BotError | null) =>
  typeof body?.error === 'string' ? body.error : body?.error?.code;

/** The saved conversation reference of a learner (identity.conversationId). */
export type ConversationReference = { serviceUrl: string; conversationId: string };

export const createTokenSource = (settings: ChannelSettings['teams']) => {
  const tokens = new Map<string, { token: string; until: number }>();
  return async (connection: Connection): Promise<string> => {
    const url = teamsTokenUrl(settings.tokenUrl, connection.providerIds.tenant_id);
    const key = `${url}:${connection.providerIds.app_id}:${connection.secrets.app_password}`;
    const cached = tokens.get(key);
    if (cached && cached.until > Date.now()) return cached.token;
    const answer = await callJson<TokenAnswer>({
      method: 'POST',
      url,
      form: {
        grant_type: 'client_credentials',
        client_id: connection.providerIds.app_id ?? '',
        client_secret: connection.secrets.app_password ?? '',
        scope: BOT_FRAMEWORK_SCOPE,
      },
      codeOf,
    });
    tokens.set(key, {
      token: answer.access_token,
      until: Date.now() + Math.max(0, answer.expires_in - 300) * 1000,
    });
    return answer.access_token;
  };
};

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export const createTeamsConnector = (
  settings: ChannelSettings['teams'],
  tokenOf = createTokenSource(settings),
): Connector => ({
  channel: 'ms-teams',
  ratePerSecond: TEAMS_MESSAGES_PER_SECOND,
  // Reached only when no conversation reference was saved: the learner has not installed the app.
  resolveIdentity: async (_connection, learner) => {
    throw new ProviderHttpError(
      404,
      'app_not_installed',
      `${learner.address} has not installed the Teams app`,
      null,
      null,
    );
  },
  send: async (connection, identity, message) => {
    const reference = JSON.parse(identity.conversationId ?? '{}') as ConversationReference;
    const payload = renderTeamsActivity(message);
    const sent = await callJson<{ id: string }>({
      method: 'POST',
      url: `${trimSlash(reference.serviceUrl)}/v3/conversations/${encodeURIComponent(reference.conversationId)}/activities`,
      token: await tokenOf(connection),
      body: payload,
      codeOf,
    });
    return { providerMessageId: sent.id, payload };
  },
  test: async (connection) => {
    await tokenOf(connection);
    const appId = connection.providerIds.app_id ?? '';
    return { providerKey: appId, providerIds: {} };
  },
  classifyError: classifyHttpError,
});

/** A member of a conversation as Teams describes them (e-mail included). */
export const fetchTeamsMember = async (
  tokenOf: (connection: Connection) => Promise<string>,
  connection: Connection,
  reference: ConversationReference,
  memberId: string,
) =>
  callJson<{ id: string; email?: string; userPrincipalName?: string }>({
    url: `${trimSlash(reference.serviceUrl)}/v3/conversations/${encodeURIComponent(reference.conversationId)}/members/${encodeURIComponent(memberId)}`,
    token: await tokenOf(connection),
    codeOf,
  });
