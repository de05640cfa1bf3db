import { randomUUID } from 'node:crypto';

import { SignJWT, exportJWK, generateKeyPair } from 'jose';

import { adaptiveCardProblems } from './adaptive-cards.ts';
import { listen, sendJson } from './http.ts';

// A fake Bot Framework on 127.0.0.1: the token endpoint (client credentials for the app id and
// password), the Bot Connector's OpenID metadata and JWKS, and a Teams service URL taking
// activities (Adaptive Cards parsed at 1.5 with at most six actions, as Teams shows) and
// answering members with their e-mail. Activities to the bot come signed as the Bot Connector
// signs them: RS256 JWT, issuer https://api.botframework.com, audience the app id, serviceurl.

export type TeamsActivitySent = {
  id: string;
  conversationId: string;
  attachments: { contentType: string; content: Record<string, any> }[];
};

export const startFakeTeams = async ({
  appId = '8a1c4f1e-1f7e-4c1b-9d35-5f2f4b7f6a10',
  appPassword = 'teams-app-password',
  tenantId = '72f988bf-86f1-41af-91ab-2d7cd011db47',
}: { appId?: string; appPassword?: string; tenantId?: string } = {}) => {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const kid = 'fake-bot-connector-key';
  const jwk = { ...(await exportJWK(publicKey)), kid, use: 'sig', alg: 'RS256' };
  const accessToken = `teams-token-${randomUUID()}`;
  const botId = `28:${appId}`;
  const members = new Map<string, { id: string; email: string; conversationId: string }>();
  const activities: TeamsActivitySent[] = [];
  const refused: string[][] = [];
  /** The tenant of each token request (the path's first segment). */
  const tokenTenants: string[] = [];
  let base = '';
  let rateLimited: { remaining: number; retryAfter: number } | null = null;

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
      });
    }
    if (request.method === 'GET' && path === '/v1/.well-known/keys') {
      return sendJson(response, 200, { keys: [jwk] });
    }
    if (request.headers.authorization !== `Bearer ${accessToken}`) {
      return sendJson(response, 401, {
        error: { code: 'Unauthorized', message: 'Authorization has been denied.' },
      });
    }
    const activity = path.match(/^\/teams\/v3\/conversations\/([^/]+)\/activities$/);
    if (request.method === 'POST' && activity && rateLimited && rateLimited.remaining > 0) {
      rateLimited.remaining -= 1;
      return sendJson(
        response,
        429,
        { error: { code: 'TooManyRequests', message: 'Too many requests.' } },
        { 'retry-after': String(rateLimited.retryAfter) },
      );
    }
    if (request.method === 'POST' && activity) {
      const conversationId = decodeURIComponent(activity[1]!);
      const json = JSON.parse(body) as Record<string, any>;
      const problems: string[] = [];
      if (![...members.values()].some((member) => member.conversationId === conversationId))
        problems.push('unknown conversation');
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
      const sent = { id: randomUUID(), conversationId, attachments: json.attachments ?? [] };
      activities.push(sent);
      return sendJson(response, 201, { id: sent.id });
    }
    const member = path.match(/^\/teams\/v3\/conversations\/([^/]+)\/members\/([^/]+)$/);
    if (request.method === 'GET' && member) {
      const found = members.get(decodeURIComponent(member[2]!));
      return found
        ? sendJson(response, 200, {
            id: found.id,
            email: found.email,
            userPrincipalName: found.email,
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

  const sign = async (
    {
      now,
      audience = appId,
      claimServiceUrl = serviceUrl,
    }: { now: Date; audience?: string; claimServiceUrl?: string },
    key = privateKey,
  ) =>
    new SignJWT({ serviceurl: claimServiceUrl })
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .setIssuer('https://api.botframework.com')
      .setAudience(audience)
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setNotBefore(Math.floor(now.getTime() / 1000) - 300)
      .setExpirationTime(Math.floor(now.getTime() / 1000) + 3600)
      .sign(key);

  const signed = async (
    activity: Record<string, unknown>,
    options: { now: Date; audience?: string; claimServiceUrl?: string; foreignKey?: boolean },
  ) => {
    const key = options.foreignKey ? (await generateKeyPair('RS256')).privateKey : privateKey;
    return {
      body: JSON.stringify(activity),
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${await sign(options, key)}`,
      },
    };
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
    /** The next `count` activities answer HTTP 429 with Retry-After (the Bot Connector's throttle). */
    rateLimit: (count: number, retryAfterSeconds: number) => {
      rateLimited = { remaining: count, retryAfter: retryAfterSeconds };
    },
    /** `email` installs the app: the conversationUpdate the Bot Connector posts. */
    install: (email: string, now: Date) => {
      const id = `29:${randomUUID()}`;
      const conversationId = `a:${randomUUID()}`;
      members.set(id, { id, email, conversationId });
      return {
        member: { id, conversationId },
        request: signed(
          {
            type: 'conversationUpdate',
            id: randomUUID(),
            serviceUrl,
            channelId: 'msteams',
            from: { id },
            recipient: { id: botId },
            conversation: { id: conversationId, conversationType: 'personal' },
            membersAdded: [{ id }, { id: botId }],
          },
          { now },
        ),
      };
    },
    /** `from` submits the card of `sent` with `inputs`: the message activity with its value. */
    submit: (
      sent: TeamsActivitySent,
      inputs: Record<string, unknown>,
      options: {
        from: string;
        now: Date;
        audience?: string;
        claimServiceUrl?: string;
        foreignKey?: boolean;
        id?: string;
      },
    ) => {
      const card = sent.attachments[0]?.content;
      const submitAction = (
        card?.actions as { type: string; data?: Record<string, unknown> }[]
      ).find((action) => action.type === 'Action.Submit');
      return signed(
        {
          type: 'message',
          id: options.id ?? randomUUID(),
          serviceUrl,
          channelId: 'msteams',
          from: { id: options.from },
          recipient: { id: botId },
          conversation: { id: sent.conversationId },
          value: { ...submitAction?.data, ...inputs },
        },
        options,
      );
    },
  };
};
