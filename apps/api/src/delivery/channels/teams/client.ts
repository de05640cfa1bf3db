import type { Db } from '../../../db/index.ts';
import type { ChannelSettings } from '../../channel-settings.ts';
import { retryAfterMs } from '../../connector.ts';
import type { Connector } from '../../connector.ts';
import { ProviderHttpError, ProviderUnreachableError, callJson } from '../http.ts';
import { teamsIdentityByEmail } from './references.ts';
import type { ConversationReference } from './references.ts';
import { renderTeamsActivity } from './render.ts';
import type { Connection, ErrorVerdict } from '../../message.ts';
import { LEARNER_REACH, proof, step } from '../proofs.ts';

// The Teams connector (Bot Framework REST, plain fetch): an app token by client credentials from
// the token endpoint of the bot's tenant (CCP_TEAMS_TOKEN_URL with `{tenant}`), cached until
// shortly before it expires;
// a learner is the personal conversation kept when they installed the app or wrote to it
// (references.ts), found by their e-mail; a lesson is one activity POSTed to that conversation.

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

/** The Bot Connector URL of a conversation, on the service URL Teams gave with it. */
const conversationUrl = (reference: ConversationReference) =>
  `${trimSlash(reference.serviceUrl)}/v3/conversations/${encodeURIComponent(reference.conversationId)}`;

/** No personal conversation with the learner is known: they have not installed the app. */
export class TeamsNotInstalledError extends Error {}

// https://learn.microsoft.com/en-us/microsoftteams/platform/bots/how-to/rate-limit: "In addition
// to retrying error code 429, you must also retry error codes 412, 502, and 504", with
// exponential backoff; other 5xx answers are the service failing, tried again the same way.
const TRANSIENT_STATUSES = new Set([412, 502, 504]);

/**
 * What a Teams failure means, with a reason a trainer can be told: `not_installed` (no personal
 * conversation, or Teams answers 403 because the app was removed or blocked: send-proactive-
 * messages, "Understand who blocked, muted, or uninstalled a bot"), `rate_limited` (429, its
 * Retry-After), `provider_unavailable` (412, 5xx: tried again with backoff), `unauthorized`
 * (the app's credentials), `conversation_not_found`, `rejected` (another 4xx).
 */
export const classifyTeamsError = (error: unknown): ErrorVerdict => {
  if (error instanceof TeamsNotInstalledError) return { kind: 'permanent', code: 'not_installed' };
  if (error instanceof ProviderUnreachableError) return { kind: 'retry', code: 'unreachable' };
  if (!(error instanceof ProviderHttpError)) return { kind: 'unknown_outcome', code: 'error' };
  const wait = retryAfterMs(error.retryAfter);
  const after = wait === undefined ? {} : { retryAfterMs: wait };
  if (error.status === 429) return { kind: 'rate_limited', code: 'rate_limited', ...after };
  if (TRANSIENT_STATUSES.has(error.status) || error.status >= 500)
    return { kind: 'retry', code: 'provider_unavailable', ...after };
  if (error.status === 403) return { kind: 'permanent', code: 'not_installed' };
  if (error.status === 401) return { kind: 'permanent', code: 'unauthorized' };
  if (error.status === 404) return { kind: 'permanent', code: 'conversation_not_found' };
  return { kind: 'permanent', code: 'rejected' };
};

export const createTeamsConnector = (
  settings: ChannelSettings['teams'],
  {
    tokenOf = createTokenSource(settings),
    db,
  }: { tokenOf?: (connection: Connection) => Promise<string>; db?: Db } = {},
): Connector => ({
  channel: 'ms-teams',
  ratePerSecond: TEAMS_MESSAGES_PER_SECOND,
  // Reached when the learner has no saved identity (or a changed e-mail): the conversation kept
  // from their install or message, by e-mail, even when it came before the learner existed.
  resolveIdentity: async (connection, learner) => {
    const found = db
      ? await teamsIdentityByEmail(db, connection.companyUuid, learner.address)
      : null;
    if (!found) {
      throw new TeamsNotInstalledError(`${learner.address} has not installed the Teams app`);
    }
    return found;
  },
  send: async (connection, identity, message) => {
    const reference = JSON.parse(identity.conversationId ?? '{}') as ConversationReference;
    const payload = renderTeamsActivity(message);
    const sent = await callJson<{ id: string }>({
      method: 'POST',
      url: `${conversationUrl(reference)}/activities`,
      token: await tokenOf(connection),
      body: payload,
      codeOf,
    });
    return { providerMessageId: sent.id, payload };
  },
  // Update activity (Bot Connector REST, https://learn.microsoft.com/en-us/azure/bot-service/rest-api/bot-framework-rest-connector-api-reference#update-activity):
  // PUT /v3/conversations/{conversationId}/activities/{activityId}, the replacement activity as
  // the body; the activity id is the one the send answered.
  closeQuestion: async (connection, identity, question) => {
    const reference = JSON.parse(identity.conversationId ?? '{}') as ConversationReference;
    await callJson<{ id?: string }>({
      method: 'PUT',
      url: `${conversationUrl(reference)}/activities/${encodeURIComponent(question.providerMessageId)}`,
      token: await tokenOf(connection),
      body: { ...renderTeamsActivity(question.message, question), id: question.providerMessageId },
      codeOf,
    });
  },
  test: async (connection) => {
    await step([], 'credentials', () => tokenOf(connection));
    const appId = connection.providerIds.app_id ?? '';
    // A token proves the app registration; the bot's messaging endpoint is called only from a
    // conversation, which needs a learner who installed the app.
    return {
      providerKey: appId,
      providerIds: {},
      proofs: [
        proof('credentials', 'proved', appId),
        proof('webhook_reachability', 'not_provable'),
        LEARNER_REACH,
      ],
    };
  },
  classifyError: classifyTeamsError,
});

/** A member of a conversation as Teams describes them (e-mail included). */
export const fetchTeamsMember = async (
  tokenOf: (connection: Connection) => Promise<string>,
  connection: Connection,
  reference: ConversationReference,
  memberId: string,
) =>
  callJson<{ id: string; email?: string; userPrincipalName?: string; aadObjectId?: string }>({
    url: `${conversationUrl(reference)}/members/${encodeURIComponent(memberId)}`,
    token: await tokenOf(connection),
    codeOf,
  });
