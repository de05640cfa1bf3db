import { createRemoteJWKSet, jwtVerify } from 'jose';

import type { ChannelSettings } from '../../channel-settings.ts';
import type { Connection } from '../../connector.ts';
import type { DeliveryDeps } from '../../enrolment.ts';
import { applyInbound, applyReply, parseAction } from '../../inbound.ts';
import type { InboundResult } from '../../inbound.ts';
import { chatUserOf } from './client.ts';

// Google Chat interaction events, verified as Chat signs them: a bearer JWT (RS256) issued by
// chat@system.gserviceaccount.com for the project number (audience), signed by a key of Chat's
// JWKS (CCP_GOOGLE_CHAT_JWKS_URL). A CARD_CLICKED event carries the button's function and
// parameters; a MESSAGE event the learner's words (an open answer); the user is named by e-mail.

export const CHAT_ISSUER = 'chat@system.gserviceaccount.com';

const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
const keysOf = (url: string) => {
  let keys = keySets.get(url);
  if (!keys) keySets.set(url, (keys = createRemoteJWKSet(new URL(url))));
  return keys;
};

export type ChatEvent = {
  type: string;
  eventTime: string;
  user: { name: string; email?: string };
  space: { name: string };
  message?: { name: string; text?: string; argumentText?: string };
  common?: { invokedFunction?: string; parameters?: Record<string, string> };
};

export const parseChatEvent = (rawBody: string): ChatEvent | null => {
  try {
    const data = JSON.parse(rawBody) as Partial<ChatEvent>;
    if (!data.type || !data.eventTime || !data.user?.name || !data.space?.name) return null;
    return data as ChatEvent;
  } catch {
    return null;
  }
};

export const verifyChatRequest = async (
  settings: ChannelSettings['googleChat'],
  projectNumber: string,
  authorization: string | undefined,
  now: Date,
): Promise<boolean> => {
  const token = authorization?.match(/^Bearer (.+)$/)?.[1];
  if (!token || !projectNumber) return false;
  try {
    await jwtVerify(token, keysOf(settings.jwksUrl), {
      issuer: CHAT_ISSUER,
      audience: projectNumber,
      algorithms: ['RS256'],
      currentDate: now,
      clockTolerance: 300,
    });
    return true;
  } catch {
    return false;
  }
};

export const handleChatEvent = async (
  deps: DeliveryDeps,
  connection: Connection,
  event: ChatEvent,
): Promise<InboundResult> => {
  if (!event.user.email) return 'ignored';
  // A message the learner wrote to the app (its DM): their answer to an open question.
  if (event.type === 'MESSAGE' && event.message) {
    return applyReply(deps, {
      channel: 'google-chat',
      companyUuid: connection.companyUuid,
      providerUserId: chatUserOf(event.user.email),
      providerMessageId: event.message.name,
      text: event.message.argumentText ?? event.message.text ?? '',
    });
  }
  if (event.type !== 'CARD_CLICKED') return 'ignored';
  const action = parseAction({
    type: event.common?.invokedFunction,
    ...event.common?.parameters,
  });
  if (!action) return 'ignored';
  return applyInbound(deps, {
    channel: 'google-chat',
    companyUuid: connection.companyUuid,
    providerUserId: chatUserOf(event.user.email),
    // Chat events carry no id of their own: the clicked message, the user and the time are one.
    providerMessageId: `${event.message?.name ?? event.space.name}|${event.user.name}|${event.eventTime}`,
    action,
  });
};
