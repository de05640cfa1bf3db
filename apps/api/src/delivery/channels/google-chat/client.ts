import { SignJWT, importPKCS8 } from 'jose';

import type { ChannelSettings } from '../../channel-settings.ts';
import type { Connection, Connector } from '../../connector.ts';
import { renderGoogleChat } from './render.ts';
import { ProviderHttpError, callJson, classifyHttpError } from '../http.ts';

// The Google Chat connector (REST v1, plain fetch): the app authenticates as its service account
// (an RS256 JWT assertion exchanged at the token endpoint, CCP_GOOGLE_TOKEN_URL, scope chat.bot),
// finds the learner's direct-message space with spaces.findDirectMessage (only there once they
// added the app), and posts the lesson there as a message with its card (cardsV2).

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

/** The provider user id of a learner: Chat names users by e-mail as `users/{email}`. */
export const chatUserOf = (email: string) => `users/${email.toLowerCase()}`;

export const createGoogleChatConnector = (
  settings: ChannelSettings['googleChat'],
  tokenOf = createGoogleTokenSource(settings),
): Connector => ({
  channel: 'google-chat',
  ratePerSecond: GOOGLE_CHAT_MESSAGES_PER_SECOND,
  resolveIdentity: async (connection, learner) => {
    const space = await callJson<{ name: string }>({
      url: `${settings.apiUrl}/v1/spaces:findDirectMessage?name=${encodeURIComponent(chatUserOf(learner.address))}`,
      token: await tokenOf(connection),
      codeOf,
    });
    return {
      providerUserId: chatUserOf(learner.address),
      conversationId: space.name,
      lastInboundAt: null,
    };
  },
  send: async (connection, identity, message) => {
    const payload = renderGoogleChat(message);
    const sent = await callJson<{ name: string }>({
      method: 'POST',
      url: `${settings.apiUrl}/v1/${identity.conversationId ?? ''}/messages`,
      token: await tokenOf(connection),
      body: payload,
      codeOf,
    });
    return { providerMessageId: sent.name, payload };
  },
  test: async (connection) => {
    await tokenOf(connection);
    return {
      providerKey: connection.providerIds.project_number ?? '',
      providerIds: { client_email: serviceAccountOf(connection).client_email },
    };
  },
  classifyError: classifyHttpError,
});
