import { randomUUID } from 'node:crypto';

import { SignJWT, exportJWK, exportPKCS8, generateKeyPair, jwtVerify } from 'jose';

import { listen, sendJson } from './http.ts';

// A fake Google Chat on 127.0.0.1: the OAuth token endpoint taking the service account's RS256
// assertion (checked against its public key: issuer, audience, chat.bot scope),
// GET /v1/spaces:findDirectMessage (404 until the user added the app), POST
// /v1/{space}/messages validating text (≤ 4 096 characters), cardsV2 structure and the 32 000-byte
// message limit, and Chat's JWKS; a card click comes back as Chat posts it, with a bearer JWT
// from chat@system.gserviceaccount.com for the project number.

export type ChatMessage = { name: string; space: string; text: string; cardsV2: any[] };

export const startFakeGoogleChat = async ({
  projectNumber = '123456789012',
}: { projectNumber?: string } = {}) => {
  const account = await generateKeyPair('RS256', { extractable: true });
  const chatKeys = await generateKeyPair('RS256');
  const kid = 'chat-key-1';
  const jwk = { ...(await exportJWK(chatKeys.publicKey)), kid, use: 'sig', alg: 'RS256' };
  const clientEmail = 'ccp-bot@ccp-project.iam.gserviceaccount.com';
  const accessToken = `ya29.${randomUUID()}`;
  const spaces = new Map<string, string>();
  const messages: ChatMessage[] = [];
  const refused: string[][] = [];
  let base = '';
  let rateLimited = 0;

  const listening = await listen(async (request, response, body) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const path = url.pathname;
    const googleError = (status: number, code: string, message: string) =>
      sendJson(response, status, { error: { code: status, message, status: code } });
    if (request.method === 'POST' && path === '/token') {
      const form = new URLSearchParams(body);
      try {
        const { payload } = await jwtVerify(form.get('assertion') ?? '', account.publicKey, {
          issuer: clientEmail,
          audience: `${base}/token`,
        });
        if (payload.scope !== 'https://www.googleapis.com/auth/chat.bot') throw new Error('scope');
      } catch {
        return sendJson(response, 400, {
          error: 'invalid_grant',
          error_description: 'Invalid JWT Signature.',
        });
      }
      return sendJson(response, 200, {
        access_token: accessToken,
        expires_in: 3599,
        token_type: 'Bearer',
      });
    }
    if (request.method === 'GET' && path === '/jwks')
      return sendJson(response, 200, { keys: [jwk] });
    if (request.headers.authorization !== `Bearer ${accessToken}`)
      return googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    if (request.method === 'GET' && path === '/v1/spaces:findDirectMessage') {
      const space = spaces.get(url.searchParams.get('name') ?? '');
      return space
        ? sendJson(response, 200, { name: space, spaceType: 'DIRECT_MESSAGE' })
        : googleError(404, 'NOT_FOUND', 'Direct message space not found.');
    }
    const post = path.match(/^\/v1\/(spaces\/[^/]+)\/messages$/);
    if (request.method === 'POST' && post && rateLimited > 0) {
      rateLimited -= 1;
      // Over the per-space or per-project quota: 429 RESOURCE_EXHAUSTED, no Retry-After.
      return googleError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded for quota metric.');
    }
    if (request.method === 'POST' && post) {
      const space = post[1]!;
      const json = JSON.parse(body) as Record<string, any>;
      const problems: string[] = [];
      if (![...spaces.values()].includes(space)) problems.push('unknown space');
      if (Buffer.byteLength(body) > 32_000) problems.push('message over 32 000 bytes');
      if (String(json.text ?? '').length > 4096) problems.push('text over 4 096');
      for (const entry of (json.cardsV2 ?? []) as any[]) {
        if (!entry.cardId || !entry.card) problems.push('cardsV2 entry');
        const sections = (entry.card?.sections ?? []) as any[];
        if (sections.length === 0 || sections.length > 100) problems.push('sections');
        for (const section of sections) {
          for (const widget of (section.widgets ?? []) as any[]) {
            for (const button of (widget.buttonList?.buttons ?? []) as any[]) {
              if (!button.text) problems.push('button text');
              if (!button.onClick?.action?.function && !button.onClick?.openLink?.url)
                problems.push('button onClick');
            }
          }
        }
      }
      if (problems.length > 0) {
        refused.push(problems);
        return googleError(400, 'INVALID_ARGUMENT', problems.join('; '));
      }
      const message = {
        name: `${space}/messages/${randomUUID()}`,
        space,
        text: String(json.text ?? ''),
        cardsV2: json.cardsV2 ?? [],
      };
      messages.push(message);
      return sendJson(response, 200, { name: message.name });
    }
    return googleError(404, 'NOT_FOUND', `${request.method} ${path}`);
  });
  base = listening.baseUrl;

  /** An event as Chat posts it: the user by e-mail, a bearer JWT for the project number. */
  const chatEvent = async (
    event: Record<string, unknown>,
    options: { email: string; now: Date; audience?: string; foreignKey?: boolean },
  ) => {
    const key = options.foreignKey
      ? (await generateKeyPair('RS256')).privateKey
      : chatKeys.privateKey;
    const seconds = Math.floor(options.now.getTime() / 1000);
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer('chat@system.gserviceaccount.com')
      .setAudience(options.audience ?? projectNumber)
      .setIssuedAt(seconds)
      .setExpirationTime(seconds + 3600)
      .sign(key);
    return {
      body: JSON.stringify({
        eventTime: options.now.toISOString(),
        user: { name: `users/${randomUUID()}`, email: options.email, displayName: 'Learner' },
        ...event,
      }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    };
  };

  const serviceAccountJson = JSON.stringify({
    type: 'service_account',
    project_id: 'ccp-project',
    private_key_id: 'sa-key-1',
    private_key: await exportPKCS8(account.privateKey),
    client_email: clientEmail,
    token_uri: `${base}/token`,
  });

  return {
    apiUrl: base,
    tokenUrl: `${base}/token`,
    jwksUrl: `${base}/jwks`,
    projectNumber,
    serviceAccountJson,
    messages,
    refused,
    close: listening.close,
    /** The next `count` posts answer 429 RESOURCE_EXHAUSTED (a quota, without Retry-After). */
    rateLimit: (count: number) => {
      rateLimited = count;
    },
    /** `email` adds the app: their DM space exists from now on. */
    addApp: (email: string) => {
      const space = `spaces/${randomUUID().slice(0, 11)}`;
      spaces.set(`users/${email.toLowerCase()}`, space);
      return space;
    },
    /** `email` clicks answer `index` of `message`: the CARD_CLICKED event Chat posts. */
    click: async (
      message: ChatMessage,
      index: number,
      options: { email: string; now: Date; audience?: string; foreignKey?: boolean },
    ) => {
      const sections = message.cardsV2[0].card.sections as any[];
      const buttons = sections.at(-1).widgets[0].buttonList.buttons as any[];
      const action = buttons[index].onClick.action;
      const parameters = Object.fromEntries(
        (action.parameters as { key: string; value: string }[]).map((item) => [
          item.key,
          item.value,
        ]),
      );
      return chatEvent(
        {
          type: 'CARD_CLICKED',
          space: { name: message.space, type: 'DM' },
          message: { name: message.name },
          common: { invokedFunction: action.function, parameters },
          action: { actionMethodName: action.function, parameters: action.parameters },
        },
        options,
      );
    },
    /** `email` writes `text` to the app in their DM `space`: the MESSAGE event Chat posts. */
    write: (space: string, text: string, options: { email: string; now: Date }) =>
      chatEvent(
        {
          type: 'MESSAGE',
          space: { name: space, type: 'DM' },
          message: {
            name: `${space}/messages/${randomUUID()}`,
            text,
            argumentText: text,
            sender: { email: options.email },
          },
        },
        options,
      ),
  };
};
