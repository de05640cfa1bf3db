import { createRemoteJWKSet, jwtVerify } from 'jose';

import type { ChannelSettings } from '../../channel-settings.ts';
import { connectionsOfChannel, findConnectionByKey, proveProviderKey } from '../../connections.ts';
import type { DeliveryDeps } from '../../enrolment.ts';
import { forgetConversation } from '../../identities.ts';
import { applyInbound, applyReply, parseAction } from '../../inbound.ts';
import type { InboundResult } from '../../inbound.ts';
import { audienceOfConnection, chatAppSeesSpace, chatEndpointUrl } from './client.ts';
import type { Connection } from '../../message.ts';
import { forgetChatSpace, keepChatUser } from './users.ts';

// Google Chat interaction events (https://developers.google.com/workspace/chat/api/reference/rest/v1/Event),
// in the classic format or as a Chat app built as a Google Workspace add-on posts them
// (https://developers.google.com/workspace/add-ons/chat/build: `chat.messagePayload`,
// `chat.buttonClickedPayload`..., parameters in `commonEventObject`), verified as Chat signs them
// (https://developers.google.com/workspace/chat/verify-requests-from-chat) for the audience the
// app was configured with:
// - "Project Number": a JWT issued by chat@system.gserviceaccount.com, audience the project
//   number, signed by a key of Chat's JWKS (CCP_GOOGLE_CHAT_JWKS_URL);
// - "HTTP endpoint URL": a Google OIDC ID token (issuer accounts.google.com, Google's OIDC keys,
//   CCP_GOOGLE_OIDC_JWKS_URL), audience the endpoint URL, `email` Chat's service account.
// An event in a user's DM (the app added, a message, a click) teaches their Chat user id and DM
// space, kept by the e-mail Chat gives within the company (users.ts), whether or not a learner
// has that e-mail yet; that is where lessons go.

export const CHAT_ISSUER = 'chat@system.gserviceaccount.com';
const GOOGLE_ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];

const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
const keysOf = (url: string) => {
  let keys = keySets.get(url);
  if (!keys) keySets.set(url, (keys = createRemoteJWKSet(new URL(url))));
  return keys;
};

/** An interaction event, the same whichever format Chat posted it in. */
export type ChatEvent = {
  type: string;
  eventTime: string;
  user: { name: string; email?: string };
  /** `dm`: a direct message between the user and the app. */
  space: { name: string; dm: boolean };
  message?: { name: string; text?: string; argumentText?: string };
  /** A clicked button's function and parameters. */
  action?: { function?: string; parameters: Record<string, string> };
};

type RawSpace = { name?: string; type?: string; spaceType?: string; singleUserBotDm?: boolean };
type RawMessage = { name?: string; text?: string; argumentText?: string; space?: RawSpace };
type RawUser = { name?: string; email?: string };
type RawParameters = Record<string, string> | { key: string; value: string }[] | undefined;

/** A DM with the app: `spaceType` DIRECT_MESSAGE (`type` DM in the deprecated field). */
const isDm = (space: RawSpace) =>
  space.spaceType === 'DIRECT_MESSAGE' || space.type === 'DM' || space.singleUserBotDm === true;

const parametersOf = (raw: RawParameters): Record<string, string> =>
  Array.isArray(raw)
    ? Object.fromEntries(raw.map((item) => [item.key, item.value]))
    : { ...(raw ?? {}) };

const normalized = (values: {
  type: string;
  eventTime?: string;
  user?: RawUser;
  space?: RawSpace;
  message?: RawMessage;
  action?: ChatEvent['action'];
}): ChatEvent | null => {
  const { user, space } = values;
  if (!values.eventTime || !user?.name || !space?.name) return null;
  return {
    type: values.type,
    eventTime: values.eventTime,
    user: { name: user.name, ...(user.email ? { email: user.email } : {}) },
    space: { name: space.name, dm: isDm(space) },
    ...(values.message?.name
      ? {
          message: {
            name: values.message.name,
            text: values.message.text,
            argumentText: values.message.argumentText,
          },
        }
      : {}),
    ...(values.action ? { action: values.action } : {}),
  };
};

type RawPayload = { space?: RawSpace; message?: RawMessage };
type RawCommon = { invokedFunction?: string; parameters?: RawParameters };

/** The add-on event object of a Chat app built as a Workspace add-on. */
type RawAddOnEvent = {
  commonEventObject?: RawCommon;
  chat: {
    user?: RawUser;
    space?: RawSpace;
    eventTime?: string;
    messagePayload?: RawPayload;
    buttonClickedPayload?: RawPayload;
    addedToSpacePayload?: RawPayload;
    removedFromSpacePayload?: RawPayload;
  };
};

/** The classic interaction event (Chat API Event). */
type RawClassicEvent = {
  type?: unknown;
  eventTime?: string;
  user?: RawUser;
  space?: RawSpace;
  message?: RawMessage;
  common?: RawCommon;
  action?: { actionMethodName?: string; parameters?: RawParameters };
};

/** A Chat app built as an add-on: which payload `chat` carries says what happened. */
const parseAddOnEvent = ({ chat, commonEventObject: common = {} }: RawAddOnEvent) => {
  const base = { eventTime: chat.eventTime, user: chat.user };
  const spaceOf = (payload: RawPayload) => payload.space ?? payload.message?.space ?? chat.space;
  if (chat.messagePayload) {
    const payload = chat.messagePayload;
    return normalized({
      ...base,
      type: 'MESSAGE',
      message: payload.message,
      space: spaceOf(payload),
    });
  }
  if (chat.buttonClickedPayload) {
    const payload = chat.buttonClickedPayload;
    return normalized({
      ...base,
      type: 'CARD_CLICKED',
      message: payload.message,
      space: spaceOf(payload),
      action: { function: common.invokedFunction, parameters: parametersOf(common.parameters) },
    });
  }
  if (chat.addedToSpacePayload) {
    return normalized({
      ...base,
      type: 'ADDED_TO_SPACE',
      space: spaceOf(chat.addedToSpacePayload),
    });
  }
  if (chat.removedFromSpacePayload) {
    return normalized({
      ...base,
      type: 'REMOVED_FROM_SPACE',
      space: spaceOf(chat.removedFromSpacePayload),
    });
  }
  return normalized({ ...base, type: 'OTHER', space: chat.space });
};

export const parseChatEvent = (rawBody: string): ChatEvent | null => {
  let data: unknown;
  try {
    data = JSON.parse(rawBody);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  if ('chat' in data && typeof data.chat === 'object' && data.chat !== null)
    return parseAddOnEvent(data as RawAddOnEvent);
  const event = data as RawClassicEvent;
  if (typeof event.type !== 'string') return null;
  const common = event.common ?? {};
  const action = event.action ?? {};
  return normalized({
    type: event.type,
    eventTime: event.eventTime,
    user: event.user,
    space: event.space,
    message: event.message,
    ...(event.type === 'CARD_CLICKED'
      ? {
          action: {
            function: common.invokedFunction ?? action.actionMethodName,
            parameters: parametersOf(common.parameters ?? action.parameters),
          },
        }
      : {}),
  });
};

/** What a bearer token must be for a connection (its audience and who signs it). */
export type ChatAudience =
  | { audience: 'project_number'; projectNumber: string }
  | { audience: 'endpoint_url'; endpointUrl: string; projectNumber: string | null };

/** The audience a connection's events are signed for at its own endpoint; null: unverifiable. */
export const expectedAudience = (
  settings: ChannelSettings['googleChat'],
  connection: Connection,
): ChatAudience | null => {
  const projectNumber = connection.providerIds.project_number?.trim() || null;
  if (audienceOfConnection(connection) === 'project_number') {
    return projectNumber ? { audience: 'project_number', projectNumber } : null;
  }
  return settings.publicUrl
    ? {
        audience: 'endpoint_url',
        endpointUrl: chatEndpointUrl(settings.publicUrl, connection.uuid),
        projectNumber,
      }
    : null;
};

export const verifyChatRequest = async (
  settings: ChannelSettings['googleChat'],
  expected: ChatAudience,
  authorization: string | undefined,
  now: Date,
): Promise<boolean> => {
  const token = authorization?.match(/^Bearer (.+)$/)?.[1];
  if (!token) return false;
  const options = { algorithms: ['RS256'], currentDate: now, clockTolerance: 300 };
  try {
    if (expected.audience === 'project_number') {
      await jwtVerify(token, keysOf(settings.jwksUrl), {
        ...options,
        issuer: CHAT_ISSUER,
        audience: expected.projectNumber,
      });
      return true;
    }
    const { payload } = await jwtVerify(token, keysOf(settings.oidcJwksUrl), {
      ...options,
      issuer: GOOGLE_ISSUERS,
      audience: expected.endpointUrl,
    });
    // Chat's own account; an app built as an add-on is signed for by its project's add-ons
    // service account (service-{number}@gcp-sa-gsuiteaddons.iam.gserviceaccount.com).
    const senders = [CHAT_ISSUER];
    if (expected.projectNumber) {
      senders.push(`service-${expected.projectNumber}@gcp-sa-gsuiteaddons.iam.gserviceaccount.com`);
    }
    return (
      payload.email_verified === true &&
      typeof payload.email === 'string' &&
      senders.includes(payload.email)
    );
  } catch {
    return false;
  }
};

/**
 * The company a project-number event posted to the shared URL is for, when no connection has
 * proven that number yet: of the companies that typed it, the one whose own app is in the
 * event's space (spaces.get with its service account), which then holds the number. Typing
 * another company's number proves nothing: that company's app is not in its learners' spaces.
 */
export const proveProjectNumber = async (
  deps: DeliveryDeps & Parameters<typeof connectionsOfChannel>[0],
  settings: ChannelSettings['googleChat'],
  tokenOf: (connection: Connection) => Promise<string>,
  projectNumber: string,
  event: ChatEvent,
): Promise<Connection | null> => {
  const claimants = (await connectionsOfChannel(deps, 'google-chat')).filter(
    (connection) =>
      !connection.providerKey &&
      audienceOfConnection(connection) === 'project_number' &&
      connection.providerIds.project_number?.trim() === projectNumber,
  );
  for (const claimant of claimants) {
    const sees = await chatAppSeesSpace(settings, tokenOf, claimant, event.space.name).catch(
      () => false,
    );
    if (!sees) continue;
    if (await proveProviderKey(deps, claimant, projectNumber)) {
      return { ...claimant, providerKey: projectNumber };
    }
    // Another request proved it first.
    return findConnectionByKey(deps, 'google-chat', projectNumber);
  }
  return null;
};

/** `installed`: the app was added to a learner's DM; `removed`: taken out of one. */
export type ChatEventResult = InboundResult | 'installed' | 'removed';

/**
 * A DM event's user and space, kept for the company (users.ts) and saved as the identity of the
 * learner with their e-mail, if there is one yet. Answers whether the user was kept.
 */
const learnIdentity = async (
  deps: DeliveryDeps,
  connection: Connection,
  event: ChatEvent,
): Promise<boolean> => {
  // With app authentication Chat names a user `users/{numeric id}`.
  if (!event.space.dm || !event.user.email || !/^users\/\d+$/.test(event.user.name)) return false;
  await keepChatUser(deps, {
    companyUuid: connection.companyUuid,
    userName: event.user.name,
    email: event.user.email,
    space: event.space.name,
  });
  return true;
};

export const handleChatEvent = async (
  deps: DeliveryDeps,
  connection: Connection,
  event: ChatEvent,
): Promise<ChatEventResult> => {
  if (event.type === 'REMOVED_FROM_SPACE') {
    await forgetChatSpace(deps, connection.companyUuid, event.user.name, event.space.name);
    const forgot = await forgetConversation(deps, {
      companyUuid: connection.companyUuid,
      channel: 'google-chat',
      providerUserId: event.user.name,
      conversationId: event.space.name,
    });
    return forgot ? 'removed' : 'ignored';
  }
  const learned = await learnIdentity(deps, connection, event);
  if (event.type === 'ADDED_TO_SPACE') return learned ? 'installed' : 'ignored';
  const inbound = {
    channel: 'google-chat' as const,
    companyUuid: connection.companyUuid,
    providerUserId: event.user.name,
  };
  // A message the learner wrote to the app (its DM): their answer to an open question.
  if (event.type === 'MESSAGE' && event.message) {
    return applyReply(deps, {
      ...inbound,
      providerMessageId: event.message.name,
      text: event.message.argumentText ?? event.message.text ?? '',
    });
  }
  if (event.type !== 'CARD_CLICKED' || !event.action) return 'ignored';
  const { parameters } = event.action;
  const action = parseAction({ type: parameters.type ?? event.action.function, ...parameters });
  if (!action) return 'ignored';
  return applyInbound(deps, {
    ...inbound,
    // Chat events carry no id of their own: the clicked message, the user and the time are one.
    providerMessageId: `${event.message?.name ?? event.space.name}|${event.user.name}|${event.eventTime}`,
    action,
  });
};
