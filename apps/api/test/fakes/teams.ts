import { randomBytes, randomUUID } from 'node:crypto';

import { SignJWT, exportJWK, generateKeyPair } from 'jose';

import { adaptiveCardProblems } from './adaptive-cards.ts';
import { listen, sendJson } from './http.ts';

// A fake Bot Framework on 127.0.0.1, written from Microsoft's documentation:
// - the token endpoint (client credentials for the app id and password, per tenant);
// - the Bot Connector's OpenID metadata and JWKS, each key with its `endorsements`
//   (https://learn.microsoft.com/en-us/azure/bot-service/rest-api/bot-framework-rest-connector-authentication,
//   "Step 3: Get the list of valid signing keys"): one key endorsed for msteams, one only for
//   webchat/directline, so a bot that skips the endorsement check is caught;
// - a Teams service URL (Bot Connector REST,
//   https://learn.microsoft.com/en-us/azure/bot-service/rest-api/bot-framework-rest-connector-api-reference):
//   POST /v3/conversations/{id}/activities into a known conversation (Adaptive Cards parsed at
//   1.5 with at most six actions, as Teams shows), GET /v3/conversations/{id}/members/{id} of
//   a member of that conversation (with e-mail, UPN and AAD object id, as Teams answers);
// - what Teams posts to the bot, signed as the Bot Connector signs it (RS256, issuer
//   https://api.botframework.com, audience the app id, `serviceurl` claim, kid of the key):
//   conversationUpdate (personal install, or a member added to a team whose channel has the
//   app), installationUpdate (add / remove), a personal message, a card submit, a read receipt
//   (conversation-messages, "Read receipts") — shaped as the
//   JSON examples of
//   https://learn.microsoft.com/en-us/microsoftteams/platform/bots/how-to/conversations/subscribe-to-conversation-events;
// - throttling and failures as
//   https://learn.microsoft.com/en-us/microsoftteams/platform/bots/how-to/rate-limit describes
//   (429 with Retry-After; 412, 502, 504 to be retried), and the 403 a removed app gets
//   (send-proactive-messages, "Understand who blocked, muted, or uninstalled a bot").

type CardAction = { type: string; data?: Record<string, unknown> };

/** A card's Action.Submit buttons: its actions, then those of action sets in its body. */
const submitsOf = (card: Record<string, any> | undefined): CardAction[] => {
  const inBody = (elements: Record<string, any>[]): CardAction[] =>
    elements.flatMap((element) => [
      ...(element.type === 'ActionSet' ? (element.actions as CardAction[]) : []),
      ...inBody((element.items ?? []) as Record<string, any>[]),
    ]);
  return [...((card?.actions ?? []) as CardAction[]), ...inBody(card?.body ?? [])].filter(
    (action) => action.type === 'Action.Submit',
  );
};

export type TeamsActivitySent = {
  id: string;
  conversationId: string;
  attachments: { contentType: string; content: Record<string, any> }[];
};

type ConversationType = 'personal' | 'channel' | 'groupChat';
type User = { id: string; aadObjectId: string; email: string; personalConversationId: string };
type Conversation = { type: ConversationType; members: Set<string>; removed: boolean };

export type TeamsMember = { id: string; conversationId: string };

export const startFakeTeams = async ({
  appId = '8a1c4f1e-1f7e-4c1b-9d35-5f2f4b7f6a10',
  appPassword = 'teams-app-password',
  tenantId = '72f988bf-86f1-41af-91ab-2d7cd011db47',
}: { appId?: string; appPassword?: string; tenantId?: string } = {}) => {
  const signingKey = async (kid: string, endorsements: string[]) => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    // Published as Microsoft publishes them: no `alg`, plus the Bot Framework's `endorsements`.
    const jwk = { ...(await exportJWK(publicKey)), kid, use: 'sig', endorsements };
    return { kid, privateKey, jwk };
  };
  const teamsKey = await signingKey('fake-bot-connector-key', ['msteams', 'skype']);
  const webChatKey = await signingKey('fake-webchat-key', ['webchat', 'directline']);
  const accessToken = `teams-token-${randomUUID()}`;
  const botId = `28:${appId}`;
  const users = new Map<string, User>();
  const conversations = new Map<string, Conversation>();
  const activities: TeamsActivitySent[] = [];
  const updates: TeamsActivitySent[] = [];
  let failingUpdates = 0;
  let lastMessageId = 0;
  const refused: string[][] = [];
  /** The tenant of each token request (the path's first segment). */
  const tokenTenants: string[] = [];
  let base = '';
  let failing: { status: number; remaining: number; retryAfter: number | null } | null = null;

  const listening = await listen((request, response, body) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const path = url.pathname;
    const tokenPath = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(path);
    if (request.method === 'POST' && tokenPath) {
      // A single-tenant app exists only in its own tenant (Microsoft's AADSTS700016 otherwise).
      tokenTenants.push(decodeURIComponent(tokenPath[1] ?? ''));
      if (decodeURIComponent(tokenPath[1] ?? '') !== tenantId) {
        return sendJson(response, 400, {
          error: 'unauthorized_client',
          error_description: `AADSTS700016: Application with identifier '${appId}' was not found in the directory '${tokenPath[1]}'.`,
        });
      }
      const form = new URLSearchParams(body);
      if (
        form.get('grant_type') !== 'client_credentials' ||
        form.get('client_id') !== appId ||
        form.get('client_secret') !== appPassword ||
        form.get('scope') !== 'https://api.botframework.com/.default'
      ) {
        return sendJson(response, 401, {
          error: 'invalid_client',
          error_description: 'AADSTS7000215: Invalid client secret provided.',
        });
      }
      return sendJson(response, 200, {
        token_type: 'Bearer',
        expires_in: 3599,
        access_token: accessToken,
      });
    }
    if (request.method === 'GET' && path === '/v1/.well-known/openidconfiguration') {
      return sendJson(response, 200, {
        issuer: 'https://api.botframework.com',
        jwks_uri: `${base}/v1/.well-known/keys`,
        id_token_signing_alg_values_supported: ['RS256'],
        token_endpoint_auth_methods_supported: ['private_key_jwt'],
      });
    }
    if (request.method === 'GET' && path === '/v1/.well-known/keys') {
      return sendJson(response, 200, { keys: [teamsKey.jwk, webChatKey.jwk] });
    }
    if (request.headers.authorization !== `Bearer ${accessToken}`) {
      return sendJson(response, 401, {
        error: { code: 'Unauthorized', message: 'Authorization has been denied.' },
      });
    }
    const activity = path.match(/^\/teams\/v3\/conversations\/([^/]+)\/activities$/);
    if (request.method === 'POST' && activity && failing && failing.remaining > 0) {
      failing.remaining -= 1;
      return sendJson(
        response,
        failing.status,
        {
          error: {
            code: failing.status === 429 ? 'TooManyRequests' : 'ServiceError',
            message: 'Try again.',
          },
        },
        failing.retryAfter === null ? {} : { 'retry-after': String(failing.retryAfter) },
      );
    }
    if (request.method === 'POST' && activity) {
      const conversationId = decodeURIComponent(activity[1]!);
      const conversation = conversations.get(conversationId);
      if (conversation?.removed) {
        // The app was removed or blocked: posting there answers 403 MessageWritesBlocked.
        return sendJson(response, 403, {
          errorCode: 209,
          message: JSON.stringify({
            subCode: 'MessageWritesBlocked',
            details: 'Thread is blocked from message writes.',
          }),
        });
      }
      const json = JSON.parse(body) as Record<string, any>;
      const problems: string[] = [];
      if (!conversation) problems.push('unknown conversation');
      if (json.type !== 'message') problems.push(`type ${json.type}`);
      for (const attachment of (json.attachments ?? []) as {
        contentType: string;
        content: Record<string, any>;
      }[]) {
        if (attachment.contentType !== 'application/vnd.microsoft.card.adaptive')
          problems.push('attachment type');
        problems.push(
          ...adaptiveCardProblems(attachment.content, { version: '1.5', maxActions: 6 }),
        );
      }
      if (problems.length > 0) {
        refused.push(problems);
        return sendJson(response, 400, {
          error: { code: 'BadSyntax', message: problems.join('; ') },
        });
      }
      // A Teams message id is the epoch milliseconds of the message, a number in a string (read
      // receipts compare them as numbers: ReadReceiptInfo.IsMessageRead).
      lastMessageId = Math.max(lastMessageId + 1, Date.now());
      const sent = {
        id: String(lastMessageId),
        conversationId,
        attachments: json.attachments ?? [],
      };
      activities.push(sent);
      return sendJson(response, 201, { id: sent.id });
    }
    // Update activity (Bot Connector REST API reference, "Update activity":
    // https://learn.microsoft.com/en-us/azure/bot-service/rest-api/bot-framework-rest-connector-api-reference#update-activity):
    // PUT /v3/conversations/{conversationId}/activities/{activityId}, the activity id in the path
    // (a PUT without one is no route: 405), the replacement activity as the body; an activity
    // the conversation does not hold is 404. Cards are checked as on a post.
    const updating = path.match(/^\/teams\/v3\/conversations\/([^/]+)\/activities\/?([^/]*)$/);
    if (request.method === 'PUT' && updating) {
      if (!updating[2]) {
        return sendJson(response, 405, { error: { code: 'MethodNotAllowed', message: 'no id' } });
      }
      if (failingUpdates > 0) {
        failingUpdates -= 1;
        return sendJson(response, 502, { error: { code: 'ServiceError', message: 'Try again.' } });
      }
      const conversationId = decodeURIComponent(updating[1]!);
      const activityId = decodeURIComponent(updating[2]);
      const at = activities.findIndex(
        (sent) => sent.conversationId === conversationId && sent.id === activityId,
      );
      if (at < 0) {
        return sendJson(response, 404, {
          error: { code: 'ActivityNotFound', message: 'Activity not found.' },
        });
      }
      const json = JSON.parse(body) as Record<string, any>;
      const problems = ((json.attachments ?? []) as { content: Record<string, any> }[]).flatMap(
        (attachment) => adaptiveCardProblems(attachment.content, { version: '1.5', maxActions: 6 }),
      );
      if (json.type !== 'message') problems.push(`type ${json.type}`);
      if (problems.length > 0) {
        refused.push(problems);
        return sendJson(response, 400, {
          error: { code: 'BadSyntax', message: problems.join('; ') },
        });
      }
      const updated = { id: activityId, conversationId, attachments: json.attachments ?? [] };
      // A new object: an activity a test kept is what a learner's stale client still shows.
      activities[at] = updated;
      updates.push(updated);
      return sendJson(response, 200, { id: activityId });
    }
    const member = path.match(/^\/teams\/v3\/conversations\/([^/]+)\/members\/([^/]+)$/);
    if (request.method === 'GET' && member) {
      const conversation = conversations.get(decodeURIComponent(member[1]!));
      const memberId = decodeURIComponent(member[2]!);
      const found = conversation?.members.has(memberId) ? users.get(memberId) : undefined;
      return found
        ? sendJson(response, 200, {
            id: found.id,
            name: found.email.split('@')[0],
            aadObjectId: found.aadObjectId,
            email: found.email,
            userPrincipalName: found.email,
            tenantId,
            userRole: 'user',
          })
        : sendJson(response, 404, {
            error: { code: 'MemberNotFoundInConversation', message: 'no' },
          });
    }
    return sendJson(response, 404, {
      error: { code: 'NotFound', message: `${request.method} ${path}` },
    });
  });
  base = listening.baseUrl;
  const serviceUrl = `${base}/teams/`;

  type SignOptions = {
    now: Date;
    audience?: string;
    claimServiceUrl?: string;
    /** A key not in the JWKS (forged). */
    foreignKey?: boolean;
    /** Signed with the JWKS key endorsed only for Web Chat. */
    webChatKey?: boolean;
  };

  const sign = async ({
    now,
    audience = appId,
    claimServiceUrl = serviceUrl,
    foreignKey,
    webChatKey: byWebChat,
  }: SignOptions) => {
    const signer = byWebChat ? webChatKey : teamsKey;
    const key = foreignKey ? (await generateKeyPair('RS256')).privateKey : signer.privateKey;
    return new SignJWT({ serviceurl: claimServiceUrl })
      .setProtectedHeader({ alg: 'RS256', kid: signer.kid, typ: 'JWT' })
      .setIssuer('https://api.botframework.com')
      .setAudience(audience)
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setNotBefore(Math.floor(now.getTime() / 1000) - 300)
      .setExpirationTime(Math.floor(now.getTime() / 1000) + 3600)
      .sign(key);
  };

  const signed = async (activity: Record<string, unknown>, options: SignOptions) => ({
    body: JSON.stringify(activity),
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${await sign(options)}`,
    },
  });

  /** The user of `email` (created on first use, with their personal conversation with the bot). */
  const userOf = (email: string): User => {
    const existing = [...users.values()].find((user) => user.email === email);
    if (existing) return existing;
    const user = {
      id: `29:${randomBytes(24).toString('base64url')}`,
      aadObjectId: randomUUID(),
      email,
      personalConversationId: `a:${randomBytes(24).toString('base64url')}`,
    };
    users.set(user.id, user);
    conversations.set(user.personalConversationId, {
      type: 'personal',
      members: new Set([user.id]),
      removed: false,
    });
    return user;
  };

  const conversationOf = (id: string) => {
    const conversation = conversations.get(id);
    if (!conversation) throw new Error(`no conversation ${id}`);
    return {
      id,
      conversationType: conversation.type,
      tenantId,
      ...(conversation.type === 'personal' ? {} : { isGroup: true }),
    };
  };

  const envelope = (type: string, user: User, conversationId: string) => ({
    type,
    id: `f:${randomUUID()}`,
    timestamp: new Date().toISOString(),
    channelId: 'msteams',
    serviceUrl,
    from: { id: user.id, aadObjectId: user.aadObjectId },
    recipient: { id: botId, name: 'CCP' },
    conversation: conversationOf(conversationId),
    channelData: { tenant: { id: tenantId } },
  });

  const personal = (email: string): TeamsMember => {
    const user = userOf(email);
    return { id: user.id, conversationId: user.personalConversationId };
  };

  return {
    tokenUrl: `${base}/{tenant}/oauth2/v2.0/token`,
    tenantId,
    tokenTenants,
    openIdMetadataUrl: `${base}/v1/.well-known/openidconfiguration`,
    serviceUrl,
    appId,
    appPassword,
    activities,
    refused,
    close: listening.close,
    /** The activities posted into a conversation. */
    sentTo: (conversationId: string) =>
      activities.filter((sent) => sent.conversationId === conversationId),
    /** The activities replaced by updateActivity, in order. */
    updates,
    /** The next `count` updates answer 502. */
    failUpdates: (count: number) => {
      failingUpdates = count;
    },
    /** The next `count` activities answer HTTP 429 with Retry-After (the Bot Connector's throttle). */
    rateLimit: (count: number, retryAfterSeconds: number) => {
      failing = { status: 429, remaining: count, retryAfter: retryAfterSeconds };
    },
    /** The next `count` activities answer `status` (412, 502, 504…), with Retry-After if given. */
    failNext: (status: number, count: number, retryAfterSeconds: number | null = null) => {
      failing = { status, remaining: count, retryAfter: retryAfterSeconds };
    },
    /** `email`'s personal conversation with the bot, with no event sent (an event Teams lost). */
    personal,
    /** `email` installs the app for themselves: the conversationUpdate the Bot Connector posts. */
    install: (email: string, now: Date) => {
      const user = userOf(email);
      const member = { id: user.id, conversationId: user.personalConversationId };
      return {
        member,
        request: signed(
          {
            ...envelope('conversationUpdate', user, user.personalConversationId),
            membersAdded: [{ id: user.id, aadObjectId: user.aadObjectId }, { id: botId }],
          },
          { now },
        ),
      };
    },
    /**
     * `email` joins a team whose General channel has the app: the conversationUpdate
     * (teamMemberAdded) names the team's channel conversation, 19:…@thread.tacv2.
     */
    joinTeam: (email: string, now: Date) => {
      const user = userOf(email);
      const channelId = `19:${randomBytes(16).toString('hex')}@thread.tacv2`;
      conversations.set(channelId, {
        type: 'channel',
        members: new Set([user.id]),
        removed: false,
      });
      return {
        member: { id: user.id, conversationId: channelId },
        request: signed(
          {
            ...envelope('conversationUpdate', user, channelId),
            membersAdded: [{ id: user.id, aadObjectId: user.aadObjectId }],
            channelData: {
              team: { id: channelId, name: 'Sales' },
              eventType: 'teamMemberAdded',
              tenant: { id: tenantId },
            },
          },
          { now },
        ),
      };
    },
    /** The installationUpdate of `member`'s personal scope (add, remove, add-upgrade…). */
    installationUpdate: (member: TeamsMember, action: string, now: Date) => {
      const user = users.get(member.id)!;
      const conversation = conversations.get(member.conversationId)!;
      // After a removal Teams answers 403 to the bot's posts there; a new install opens it again.
      conversation.removed = action.startsWith('remove');
      return signed(
        { ...envelope('installationUpdate', user, member.conversationId), action },
        { now },
      );
    },
    /**
     * `member` has read the bot's messages up to `sent` in their personal chat: the read receipt
     * event Teams posts to an app with the RSC permission ChatMessageReadReceipt.Read.Chat
     * (https://learn.microsoft.com/en-us/microsoftteams/platform/bots/how-to/conversations/conversation-messages,
     * "Read receipts"; only in personal chats).
     */
    readReceipt: (member: TeamsMember, sent: TeamsActivitySent, options: SignOptions) => {
      const conversation = conversations.get(member.conversationId);
      if (conversation?.type !== 'personal') throw new Error('read receipts: personal chats only');
      return signed(
        {
          ...envelope('event', users.get(member.id)!, member.conversationId),
          name: 'application/vnd.microsoft.readReceipt',
          value: { lastReadMessageId: sent.id },
        },
        options,
      );
    },
    /** `member` writes `text` to the bot in their personal chat. */
    message: (member: TeamsMember, text: string, options: SignOptions) =>
      signed(
        {
          ...envelope('message', users.get(member.id)!, member.conversationId),
          text,
          textFormat: 'plain',
        },
        options,
      ),
    /**
     * `from` submits the card of `sent` with `inputs` (its `submit`-th Action.Submit, in the card's
     * actions then in its body's action sets): the message activity with its value.
     */
    submit: (
      sent: TeamsActivitySent,
      inputs: Record<string, unknown>,
      options: SignOptions & { from: string; id?: string; submit?: number },
    ) => {
      const card = sent.attachments[0]?.content;
      const submitAction = submitsOf(card)[options.submit ?? 0];
      const user = users.get(options.from) ?? {
        id: options.from,
        aadObjectId: randomUUID(),
        email: '',
        personalConversationId: sent.conversationId,
      };
      return signed(
        {
          ...envelope('message', user, sent.conversationId),
          ...(options.id ? { id: options.id } : {}),
          value: { ...submitAction?.data, ...inputs },
        },
        options,
      );
    },
  };
};
