import { randomUUID } from 'node:crypto';

import { SignJWT, exportJWK, exportPKCS8, generateKeyPair, jwtVerify } from 'jose';

import { listen, sendJson } from './http.ts';

// A fake Google Chat on 127.0.0.1, written from Google's documentation (each rule cites its page):
// - the OAuth token endpoint taking a service account's RS256 assertion (issuer, audience,
//   chat.bot scope), one Google Cloud project per service account — several projects (companies)
//   may share the fake;
// - GET /v1/spaces (spaces.list), GET /v1/spaces/{space} (spaces.get),
//   GET /v1/spaces:findDirectMessage and POST /v1/{space}/messages (spaces.messages.create:
//   text ≤ 4 096 characters, cardsV2 structure, 32 000 bytes), all with app authentication;
// - the interaction events Chat posts (ADDED_TO_SPACE, MESSAGE, CARD_CLICKED,
//   REMOVED_FROM_SPACE), in the classic format or as an add-on posts them (a click only on a
//   button whose action function is the endpoint URL), signed for either
//   authentication audience: a JWT from chat@system.gserviceaccount.com for the project number
//   (keys at /jwks), or a Google OIDC ID token for the endpoint URL (keys at /oidc/certs).

export type ChatMessage = { name: string; space: string; text: string; cardsV2: any[] };

/** How an event is signed and shaped; `endpointUrl` signs an ID token for that URL. */
export type ChatEventOptions = {
  email: string;
  now: Date;
  /** The project-number JWT's audience (default: the project's number). */
  audience?: string;
  /** Sign an ID token for this HTTP endpoint URL instead of a project-number JWT. */
  endpointUrl?: string;
  /** The ID token's `email` (default: Chat's service account). */
  tokenEmail?: string;
  /** Signed with a key Google never published. */
  foreignKey?: boolean;
  /** `add-on`: a Chat app built as a Google Workspace add-on. */
  format?: 'classic' | 'add-on';
};

const CHAT_SCOPE = 'https://www.googleapis.com/auth/chat.bot';
const CHAT_ACCOUNT = 'chat@system.gserviceaccount.com';

type Project = {
  number: string;
  clientEmail: string;
  publicKey: Awaited<ReturnType<typeof generateKeyPair>>['publicKey'];
  serviceAccountJson: string;
  accessToken: string;
  /** Chat API configured (a Chat app exists for the project). */
  configured: boolean;
  /** The app's DM spaces by user resource name (users/{id}). */
  spaces: Map<string, string>;
};

/** Why Chat would refuse a message's text and cards (create and update alike). */
const messageProblems = (json: Record<string, any>, body: string): string[] => {
  const problems: string[] = [];
  // https://developers.google.com/workspace/chat/create-messages: a message is at most
  // 32 000 bytes, its text at most 4 096 characters.
  if (Buffer.byteLength(body) > 32_000) problems.push('message over 32 000 bytes');
  if (String(json.text ?? '').length > 4096) problems.push('text over 4 096');
  // https://developers.google.com/workspace/chat/api/reference/rest/v1/cards: each cardsV2
  // entry has a cardId and a card; a button has text and an onClick action or link.
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
  return problems;
};

export const startFakeGoogleChat = async ({
  projectNumber = '123456789012',
}: { projectNumber?: string } = {}) => {
  const chatKeys = await generateKeyPair('RS256');
  const oidcKeys = await generateKeyPair('RS256');
  const chatJwk = {
    ...(await exportJWK(chatKeys.publicKey)),
    kid: 'chat-key-1',
    use: 'sig',
    alg: 'RS256',
  };
  const oidcJwk = {
    ...(await exportJWK(oidcKeys.publicKey)),
    kid: 'oidc-key-1',
    use: 'sig',
    alg: 'RS256',
  };
  const projects = new Map<string, Project>();
  /** Workspace users: e-mail → numeric id (People API / Directory API id). */
  const users = new Map<string, string>();
  const messages: ChatMessage[] = [];
  const updates: ChatMessage[] = [];
  let failingUpdates = 0;
  const refused: string[][] = [];
  /** Every `name` findDirectMessage was asked for. */
  const lookups: string[] = [];
  let base = '';
  let rateLimited = 0;

  const userOf = (email: string) => {
    const key = email.toLowerCase();
    let id = users.get(key);
    if (!id) users.set(key, (id = `users/1${String(users.size + 1).padStart(20, '0')}`));
    return id;
  };

  const projectOfToken = (authorization: string | undefined) =>
    [...projects.values()].find((project) => authorization === `Bearer ${project.accessToken}`);

  const listening = await listen(async (request, response, body) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const path = url.pathname;
    const googleError = (status: number, code: string, message: string) =>
      sendJson(response, status, { error: { code: status, message, status: code } });
    if (request.method === 'POST' && path === '/token') {
      // https://developers.google.com/identity/protocols/oauth2/service-account#authorizingrequests:
      // the assertion is signed with the service account's key, iss its e-mail, aud the token URI.
      const form = new URLSearchParams(body);
      for (const project of projects.values()) {
        try {
          const { payload } = await jwtVerify(form.get('assertion') ?? '', project.publicKey, {
            issuer: project.clientEmail,
            audience: `${base}/token`,
          });
          if (payload.scope !== CHAT_SCOPE) break;
          return sendJson(response, 200, {
            access_token: project.accessToken,
            expires_in: 3599,
            token_type: 'Bearer',
          });
        } catch {
          // Not this project's key: try the next one.
        }
      }
      return sendJson(response, 400, {
        error: 'invalid_grant',
        error_description: 'Invalid JWT Signature.',
      });
    }
    if (request.method === 'GET' && path === '/jwks')
      return sendJson(response, 200, { keys: [chatJwk] });
    if (request.method === 'GET' && path === '/oidc/certs')
      return sendJson(response, 200, { keys: [oidcJwk] });
    const project = projectOfToken(request.headers.authorization);
    if (!project)
      return googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    if (!project.configured) {
      // A project without a configured Chat app: every Chat API call fails with 404.
      return googleError(
        404,
        'NOT_FOUND',
        'Google Chat app not found. To create a Chat app, you must turn on the Chat API and configure the app in the Google Cloud console.',
      );
    }
    const appSpaces = new Set(project.spaces.values());
    if (request.method === 'GET' && path === '/v1/spaces') {
      // https://developers.google.com/workspace/chat/list-spaces: with app authentication,
      // lists the spaces the Chat app has access to (pageSize at most 1 000).
      const pageSize = Number(url.searchParams.get('pageSize') ?? 100);
      if (!Number.isInteger(pageSize) || pageSize < 0 || pageSize > 1000)
        return googleError(400, 'INVALID_ARGUMENT', 'pageSize must be between 0 and 1000.');
      return sendJson(response, 200, {
        spaces: [...appSpaces]
          .slice(0, pageSize || 100)
          .map((name) => ({ name, spaceType: 'DIRECT_MESSAGE', singleUserBotDm: true })),
      });
    }
    if (request.method === 'GET' && path === '/v1/spaces:findDirectMessage') {
      // https://developers.google.com/workspace/chat/api/reference/rest/v1/spaces/findDirectMessage:
      // `name` is users/{user}, {user} the People API or Directory API id; the e-mail alias is
      // taken only "when authenticated as a user" — this fake has app authentication only.
      const name = url.searchParams.get('name') ?? '';
      lookups.push(name);
      if (!/^users\/\d+$/.test(name)) {
        return googleError(
          400,
          'INVALID_ARGUMENT',
          'Invalid user resource name: an email alias needs user authentication.',
        );
      }
      // With app authentication: the DM between the user and the calling app; 404 without one.
      const space = project.spaces.get(name);
      return space
        ? sendJson(response, 200, { name: space, spaceType: 'DIRECT_MESSAGE' })
        : googleError(404, 'NOT_FOUND', 'Direct message space not found.');
    }
    const get = path.match(/^\/v1\/(spaces\/[^/:]+)$/);
    if (request.method === 'GET' && get) {
      // https://developers.google.com/workspace/chat/get-spaces: app authentication gets the
      // spaces the Chat app has access to (is a member of).
      return appSpaces.has(get[1]!)
        ? sendJson(response, 200, { name: get[1], spaceType: 'DIRECT_MESSAGE' })
        : googleError(404, 'NOT_FOUND', 'Space not found or the app is not a member.');
    }
    const post = path.match(/^\/v1\/(spaces\/[^/]+)\/messages$/);
    if (request.method === 'POST' && post && rateLimited > 0) {
      rateLimited -= 1;
      // https://developers.google.com/workspace/chat/limits: over a per-space or per-project
      // quota the API answers 429 RESOURCE_EXHAUSTED (no Retry-After).
      return googleError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded for quota metric.');
    }
    if (request.method === 'POST' && post) {
      // https://developers.google.com/workspace/chat/api/reference/rest/v1/spaces.messages/create
      const space = post[1]!;
      if (!appSpaces.has(space))
        return googleError(404, 'NOT_FOUND', 'Space not found or the app is not a member.');
      const json = JSON.parse(body) as Record<string, any>;
      const problems = messageProblems(json, body);
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
    // spaces.messages.patch (https://developers.google.com/workspace/chat/api/reference/rest/v1/spaces.messages/patch):
    // `updateMask` is "Required. The field paths to update" (missing: 400 INVALID_ARGUMENT);
    // "When using app authentication, requests can only update messages created by the calling
    // Chat app" (another's, or an unknown name: 404 here); only the masked fields change.
    const patch = path.match(/^\/v1\/(spaces\/[^/]+\/messages\/[^/]+)$/);
    if (request.method === 'PATCH' && patch) {
      const mask = (url.searchParams.get('updateMask') ?? '').split(',').filter(Boolean);
      if (mask.length === 0) return googleError(400, 'INVALID_ARGUMENT', 'updateMask is required.');
      if (failingUpdates > 0) {
        failingUpdates -= 1;
        return googleError(503, 'UNAVAILABLE', 'The service is currently unavailable.');
      }
      const at = messages.findIndex((message) => message.name === patch[1]);
      const message = messages[at];
      if (!message || !appSpaces.has(message.space))
        return googleError(404, 'NOT_FOUND', 'Message not found.');
      const json = JSON.parse(body) as Record<string, any>;
      const problems = messageProblems(json, body);
      if (problems.length > 0) {
        refused.push(problems);
        return googleError(400, 'INVALID_ARGUMENT', problems.join('; '));
      }
      const all = mask.includes('*');
      const updated = {
        ...message,
        ...(all || mask.includes('text') ? { text: String(json.text ?? '') } : {}),
        ...(all || mask.includes('cardsV2') ? { cardsV2: json.cardsV2 ?? [] } : {}),
      };
      // A new object: a message a test kept is what a learner's stale client still shows.
      messages[at] = updated;
      updates.push(updated);
      return sendJson(response, 200, updated);
    }
    return googleError(404, 'NOT_FOUND', `${request.method} ${path}`);
  });
  base = listening.baseUrl;

  const addProject = async (number: string) => {
    const account = await generateKeyPair('RS256', { extractable: true });
    const clientEmail =
      projects.size === 0
        ? 'ccp-bot@ccp-project.iam.gserviceaccount.com'
        : `ccp-bot@ccp-project-${number}.iam.gserviceaccount.com`;
    const project: Project = {
      number,
      clientEmail,
      publicKey: account.publicKey,
      accessToken: `ya29.${randomUUID()}`,
      configured: true,
      spaces: new Map(),
      serviceAccountJson: JSON.stringify({
        type: 'service_account',
        project_id: `ccp-project-${number}`,
        private_key_id: `sa-key-${number}`,
        private_key: await exportPKCS8(account.privateKey),
        client_email: clientEmail,
        token_uri: `${base}/token`,
      }),
    };
    projects.set(number, project);
    return projectApi(project);
  };

  /** The bearer token Chat sends with an event of `project` (verify-requests-from-chat). */
  const bearerOf = async (project: Project, options: ChatEventOptions) => {
    const key = options.foreignKey ? (await generateKeyPair('RS256')).privateKey : undefined;
    const seconds = Math.floor(options.now.getTime() / 1000);
    if (options.endpointUrl) {
      // "HTTP endpoint URL" audience: a Google-signed OIDC ID token whose audience is the URL.
      return new SignJWT({ email: options.tokenEmail ?? CHAT_ACCOUNT, email_verified: true })
        .setProtectedHeader({ alg: 'RS256', kid: oidcJwk.kid, typ: 'JWT' })
        .setIssuer('https://accounts.google.com')
        .setSubject('113000000000000000001')
        .setAudience(options.endpointUrl)
        .setIssuedAt(seconds)
        .setExpirationTime(seconds + 3600)
        .sign(key ?? oidcKeys.privateKey);
    }
    // "Project Number" audience: a JWT issued by chat@system.gserviceaccount.com.
    return new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: chatJwk.kid })
      .setIssuer(CHAT_ACCOUNT)
      .setAudience(options.audience ?? project.number)
      .setIssuedAt(seconds)
      .setExpirationTime(seconds + 3600)
      .sign(key ?? chatKeys.privateKey);
  };

  type EventParts = {
    type: 'ADDED_TO_SPACE' | 'MESSAGE' | 'CARD_CLICKED' | 'REMOVED_FROM_SPACE';
    space: string;
    message?: Record<string, unknown>;
    action?: { function: string; parameters: { key: string; value: string }[] };
  };

  /**
   * The body Chat posts: the classic Event
   * (https://developers.google.com/workspace/chat/api/reference/rest/v1/Event) or, for an app
   * built as an add-on, the add-on event object with its `chat` payload
   * (https://developers.google.com/workspace/add-ons/chat/build).
   */
  const eventBody = (parts: EventParts, options: ChatEventOptions) => {
    const user = {
      name: userOf(options.email),
      email: options.email,
      displayName: 'Learner',
      type: 'HUMAN',
    };
    const space = {
      name: parts.space,
      type: 'DM',
      spaceType: 'DIRECT_MESSAGE',
      singleUserBotDm: true,
    };
    const eventTime = options.now.toISOString();
    if (options.format === 'add-on') {
      const parameters = Object.fromEntries(
        (parts.action?.parameters ?? []).map((item) => [item.key, item.value]),
      );
      const payload =
        parts.type === 'MESSAGE'
          ? { messagePayload: { message: { ...parts.message, space }, space } }
          : parts.type === 'CARD_CLICKED'
            ? { buttonClickedPayload: { message: { ...parts.message, space }, space } }
            : parts.type === 'ADDED_TO_SPACE'
              ? { addedToSpacePayload: { space, interactionAdd: false } }
              : { removedFromSpacePayload: { space } };
      return {
        commonEventObject: {
          hostApp: 'CHAT',
          userLocale: 'en',
          ...(parts.action ? { invokedFunction: parts.action.function, parameters } : {}),
        },
        chat: { user, space, eventTime, ...payload },
      };
    }
    return {
      type: parts.type,
      eventTime,
      user,
      space,
      ...(parts.message ? { message: { ...parts.message, sender: user } } : {}),
      ...(parts.action
        ? {
            common: {
              invokedFunction: parts.action.function,
              parameters: Object.fromEntries(
                parts.action.parameters.map((item) => [item.key, item.value]),
              ),
            },
            action: {
              actionMethodName: parts.action.function,
              parameters: parts.action.parameters,
            },
          }
        : {}),
    };
  };

  const projectApi = (project: Project) => {
    const signed = async (parts: EventParts, options: ChatEventOptions) => ({
      body: JSON.stringify(eventBody(parts, options)),
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${await bearerOf(project, options)}`,
      },
    });
    return {
      projectNumber: project.number,
      serviceAccountJson: project.serviceAccountJson,
      clientEmail: project.clientEmail,
      /** The project's Chat API is not configured: every Chat call answers 404. */
      unconfigure: () => {
        project.configured = false;
      },
      /** `email` adds the app in Chat: their DM space with it exists from now on. */
      addApp: (email: string) => {
        const space = `spaces/${randomUUID().replaceAll('-', '').slice(0, 11)}`;
        project.spaces.set(userOf(email), space);
        return space;
      },
      /** `email` removes the app: the DM is gone for it. */
      removeApp: (email: string) => {
        const space = project.spaces.get(userOf(email))!;
        project.spaces.delete(userOf(email));
        return space;
      },
      /** The ADDED_TO_SPACE event of `email` adding the app in DM `space`. */
      added: (space: string, options: ChatEventOptions) =>
        signed({ type: 'ADDED_TO_SPACE', space }, options),
      /** The REMOVED_FROM_SPACE event of `email` removing the app from DM `space`. */
      removed: (space: string, options: ChatEventOptions) =>
        signed({ type: 'REMOVED_FROM_SPACE', space }, options),
      /** `email` clicks answer `index` of `message`: the CARD_CLICKED event Chat posts. */
      click: (message: ChatMessage, index: number, options: ChatEventOptions) => {
        const sections = message.cardsV2[0].card.sections as any[];
        // The card's buttons: the last section's button list (a lesson card's only widget there;
        // an invitation's follows its text).
        const buttons = (sections.at(-1).widgets as any[]).find((widget) => widget.buttonList)
          .buttonList.buttons as any[];
        const action = buttons[index].onClick.action;
        // An app built as a Workspace add-on has no named functions: a card action's `function`
        // is the URL of the HTTP endpoint the click is posted to, and the action is told apart
        // by its parameters (https://developers.google.com/workspace/add-ons/chat/dialogs,
        // `function: FUNCTION_URL`); with anything else the click reaches nobody.
        if (options.format === 'add-on' && !/^https:\/\//.test(String(action.function))) {
          throw new Error(`add-on card action function is not an endpoint URL: ${action.function}`);
        }
        return signed(
          {
            type: 'CARD_CLICKED',
            space: message.space,
            message: { name: message.name },
            action: { function: action.function, parameters: action.parameters },
          },
          options,
        );
      },
      /** `email` writes `text` to the app in their DM `space`: the MESSAGE event Chat posts. */
      write: (space: string, text: string, options: ChatEventOptions) =>
        signed(
          {
            type: 'MESSAGE',
            space,
            message: { name: `${space}/messages/${randomUUID()}`, text, argumentText: text },
          },
          options,
        ),
    };
  };

  const main = await addProject(projectNumber);

  return {
    ...main,
    apiUrl: base,
    tokenUrl: `${base}/token`,
    jwksUrl: `${base}/jwks`,
    oidcJwksUrl: `${base}/oidc/certs`,
    /** The server's Google Chat settings pointing at this fake (without a public URL). */
    settings: {
      apiUrl: base,
      tokenUrl: `${base}/token`,
      jwksUrl: `${base}/jwks`,
      oidcJwksUrl: `${base}/oidc/certs`,
    },
    messages,
    refused,
    lookups,
    /** The Chat user resource name (users/{numeric id}) of an e-mail. */
    userOf,
    /** Another Google Cloud project with its own Chat app and service account (another company). */
    addProject,
    close: listening.close,
    /** The messages replaced by spaces.messages.patch, in order. */
    updates,
    /** The next `count` updates answer 503 UNAVAILABLE. */
    failUpdates: (count: number) => {
      failingUpdates = count;
    },
    /** The next `count` posts answer 429 RESOURCE_EXHAUSTED (a quota, without Retry-After). */
    rateLimit: (count: number) => {
      rateLimited = count;
    },
  };
};
