import { MESSAGES } from '@ccp/schemas';
import type { TGoogleChatAudience } from '@ccp/schemas';
import { SignJWT, importPKCS8 } from 'jose';

import type { Db } from '../../../db/index.ts';
import type { ChannelSettings } from '../../channel-settings.ts';
import type { Connector } from '../../connector.ts';
import { renderGoogleChat } from './render.ts';
import { chatUserByEmail } from './users.ts';
import { ProviderHttpError, callJson, classifyHttpError } from '../http.ts';
import { LEARNER_REACH, proof, step } from '../proofs.ts';
import type { Connection, ErrorVerdict } from '../../message.ts';

// The Google Chat connector (REST v1, plain fetch): the app authenticates as its service account
// (an RS256 JWT assertion exchanged at the token endpoint, CCP_GOOGLE_TOKEN_URL, scope chat.bot)
// and posts the lesson as a message with its card (cardsV2) in the learner's direct-message
// space. That space and the learner's Chat user id are learned from the events Chat posts when
// the learner adds the app or writes to it (inbound.ts): with app authentication Chat finds no
// one by e-mail (spaces.findDirectMessage takes `users/{id}`; the e-mail alias is for user
// authentication only), so a learner who never added the app fails as `app_not_added`.

// Google Chat takes 60 messages a minute per space; one space per learner, so the connection is
// paced at a total under the project's per-minute quota.
export const GOOGLE_CHAT_MESSAGES_PER_SECOND = 5;

export const CHAT_BOT_SCOPE = 'https://www.googleapis.com/auth/chat.bot';

type ServiceAccount = { client_email: string; private_key: string; private_key_id?: string };
type GoogleError = { error?: { status?: string; message?: string } | string };
const codeOf = (body: GoogleError | null) =>
  typeof body?.error === 'string' ? body.error : body?.error?.status;

const serviceAccountOf = (connection: Connection): ServiceAccount => {
  try {
    return JSON.parse(connection.secrets.service_account_json ?? '') as ServiceAccount;
  } catch {
    throw new ProviderHttpError(400, 'service_account_invalid', 'service account JSON', null, null);
  }
};

export const createGoogleTokenSource = (settings: ChannelSettings['googleChat']) => {
  const tokens = new Map<string, { token: string; until: number }>();
  return async (connection: Connection): Promise<string> => {
    const account = serviceAccountOf(connection);
    const cached = tokens.get(account.client_email);
    if (cached && cached.until > Date.now()) return cached.token;
    const key = await importPKCS8(account.private_key, 'RS256');
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ scope: CHAT_BOT_SCOPE })
      .setProtectedHeader({
        alg: 'RS256',
        ...(account.private_key_id ? { kid: account.private_key_id } : {}),
      })
      .setIssuer(account.client_email)
      .setAudience(settings.tokenUrl)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(key);
    const answer = await callJson<{ access_token: string; expires_in: number }>({
      method: 'POST',
      url: settings.tokenUrl,
      form: { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion },
      codeOf,
    });
    tokens.set(account.client_email, {
      token: answer.access_token,
      until: Date.now() + Math.max(0, answer.expires_in - 300) * 1000,
    });
    return answer.access_token;
  };
};

/** A Chat user's resource name as app authentication takes it: `users/{numeric id}`. */
const USER_ID = /^users\/\d+$/;

/** The connection's authentication audience (verify-requests-from-chat); unset: project number. */
export const audienceOfConnection = (connection: Connection): TGoogleChatAudience =>
  connection.providerIds.audience === 'endpoint_url' ? 'endpoint_url' : 'project_number';

/** The connection's own HTTP endpoint URL, which the Chat app is configured to post to. */
export const chatEndpointUrl = (publicUrl: string, connectionUuid: string) =>
  `${publicUrl}/api/v1/webhooks/google-chat/${connectionUuid}`;

/**
 * Where the connection's Chat app posts its events, as a card button's action function names
 * it (render.ts): the connection's own URL for the endpoint URL audience, the URL every company
 * shares for the project number; null on a server without a public address.
 */
export const chatFunctionUrl = (publicUrl: string | null | undefined, connection: Connection) =>
  !publicUrl
    ? null
    : audienceOfConnection(connection) === 'endpoint_url'
      ? chatEndpointUrl(publicUrl, connection.uuid)
      : `${publicUrl}/api/v1/webhooks/google-chat`;

/** The learner never added the app (no DM space known or found): nothing to send to. */
export class ChatAppNotAddedError extends Error {
  constructor() {
    super('app_not_added: the learner has not added the Chat app (no direct message space)');
    this.name = 'ChatAppNotAddedError';
  }
}

/**
 * A Chat API failure as the scheduler and a trainer read it, in stable words: the learner never
 * added the app (a 404 from findDirectMessage or on their space), the credentials refused, the
 * message refused, a quota (429 RESOURCE_EXHAUSTED, no Retry-After: backoff).
 */
export const classifyChatError = (error: unknown): ErrorVerdict => {
  if (error instanceof ChatAppNotAddedError) return { kind: 'permanent', code: 'app_not_added' };
  if (!(error instanceof ProviderHttpError)) return classifyHttpError(error);
  if (error.providerCode === 'service_account_invalid')
    return { kind: 'permanent', code: 'service_account_invalid' };
  const verdict = classifyHttpError(error);
  if (verdict.kind === 'rate_limited') return { ...verdict, code: 'rate_limited' };
  if (verdict.kind !== 'permanent') return { ...verdict, code: `provider_${error.status}` };
  if (error.status === 404) return { kind: 'permanent', code: 'app_not_added' };
  if (error.status === 401 || error.providerCode === 'invalid_grant')
    return { kind: 'permanent', code: 'credentials_invalid' };
  if (error.status === 403) return { kind: 'permanent', code: 'permission_denied' };
  return { kind: 'permanent', code: 'message_invalid' };
};

/** The DM space between the app and a Chat user (`users/{id}`); null when there is none. */
const findDirectMessage = async (
  settings: ChannelSettings['googleChat'],
  token: string,
  user: string,
): Promise<string | null> => {
  try {
    const space = await callJson<{ name: string }>({
      url: `${settings.apiUrl}/v1/spaces:findDirectMessage?name=${encodeURIComponent(user)}`,
      token,
      codeOf,
    });
    return space.name;
  } catch (error) {
    if (error instanceof ProviderHttpError && error.status === 404) return null;
    throw error;
  }
};

/**
 * Whether the connection's app is in `space` (spaces.get with app authentication answers only
 * spaces the app is a member of): what proves an event was meant for this company's app.
 */
export const chatAppSeesSpace = async (
  settings: ChannelSettings['googleChat'],
  tokenOf: (connection: Connection) => Promise<string>,
  connection: Connection,
  space: string,
): Promise<boolean> => {
  if (!/^spaces\/[\w-]+$/.test(space)) return false;
  try {
    await callJson({
      url: `${settings.apiUrl}/v1/${space}`,
      token: await tokenOf(connection),
      codeOf,
    });
    return true;
  } catch (error) {
    if (error instanceof ProviderHttpError && [403, 404].includes(error.status)) return false;
    throw error;
  }
};

export const createGoogleChatConnector = (
  settings: ChannelSettings['googleChat'],
  tokenOf = createGoogleTokenSource(settings),
  db?: Db,
): Connector => ({
  channel: 'google-chat',
  ratePerSecond: GOOGLE_CHAT_MESSAGES_PER_SECOND,
  // Nothing to look up by e-mail with app authentication: a learner is known once an event of
  // theirs (the app added, a message) was kept, before or after they were imported.
  resolveIdentity: async (connection, learner) => {
    const known = db ? await chatUserByEmail(db, connection.companyUuid, learner.address) : null;
    if (!known) throw new ChatAppNotAddedError();
    return known;
  },
  send: async (connection, identity, message) => {
    const token = await tokenOf(connection);
    // The space the learner's events named; without one (the app was removed), their id finds it.
    const space =
      identity.conversationId ??
      (USER_ID.test(identity.providerUserId)
        ? await findDirectMessage(settings, token, identity.providerUserId)
        : null);
    if (!space) throw new ChatAppNotAddedError();
    const payload = renderGoogleChat(message, {
      functionUrl: chatFunctionUrl(settings.publicUrl, connection),
    });
    const sent = await callJson<{ name: string }>({
      method: 'POST',
      url: `${settings.apiUrl}/v1/${space}/messages`,
      token,
      body: payload,
      codeOf,
    });
    return { providerMessageId: sent.name, payload };
  },
  // spaces.messages.patch (https://developers.google.com/workspace/chat/api/reference/rest/v1/spaces.messages/patch):
  // PATCH /v1/{message.name} with the fields to replace named in `updateMask` (required); with
  // app authentication only the app's own messages can be updated, which the question is.
  closeQuestion: async (connection, _identity, question) => {
    const closed = renderGoogleChat(question.message, {
      functionUrl: chatFunctionUrl(settings.publicUrl, connection),
      closed: question,
    });
    await callJson({
      method: 'PATCH',
      url: `${settings.apiUrl}/v1/${question.providerMessageId}?updateMask=text,cardsV2`,
      token: await tokenOf(connection),
      body: { text: closed.text, cardsV2: closed.cardsV2 },
      codeOf,
    });
  },
  test: async (connection) => {
    const endpointUrl = settings.publicUrl
      ? chatEndpointUrl(settings.publicUrl, connection.uuid)
      : null;
    const audience = audienceOfConnection(connection);
    if (audience === 'endpoint_url' && !endpointUrl) {
      throw new Error(MESSAGES.googleChatPublicUrlMissing);
    }
    // A token alone proves only the key: spaces.list with app authentication answers only for a
    // service account of a project whose Chat app is configured.
    const clientEmail = serviceAccountOf(connection).client_email;
    await step([], 'credentials', async () =>
      callJson({
        url: `${settings.apiUrl}/v1/spaces?pageSize=1`,
        token: await tokenOf(connection),
        codeOf,
      }),
    );
    const projectNumber = connection.providerIds.project_number?.trim() || null;
    // Only Chat's signed event proves the audience the app was configured with reaches this
    // connection (webhook.ts): the number, once an event signed for it proved it; the endpoint
    // URL, once an ID token for exactly that URL arrived there.
    const verified =
      audience === 'project_number'
        ? projectNumber !== null && connection.providerKey === projectNumber
        : connection.providerIds.verified_endpoint === endpointUrl;
    return {
      providerIds: {
        client_email: clientEmail,
        ...(endpointUrl ? { endpoint_url: endpointUrl } : {}),
      },
      // The typed number routes events only once an event Chat signed for it proved it.
      providerKey:
        projectNumber !== null && connection.providerKey === projectNumber ? projectNumber : null,
      claimedKey: projectNumber,
      proofs: [
        proof('credentials', 'proved', clientEmail),
        proof(
          'signed_event',
          verified ? 'proved' : 'pending',
          (audience === 'project_number' ? projectNumber : endpointUrl) ?? undefined,
        ),
        LEARNER_REACH,
      ],
      awaitsVerification: !verified,
    };
  },
  classifyError: classifyChatError,
});
