import { randomUUID } from 'node:crypto';

import { webexSignature } from '../../src/delivery/channels/webex/inbound.ts';
import { adaptiveCardProblems } from './adaptive-cards.ts';
import { listen, sendJson } from './http.ts';

// A fake Webex REST API on 127.0.0.1, as Webex's developer documentation describes it: the bot's
// token as a Bearer, GET /v1/people/me and /v1/people?email=, POST /v1/messages, the webhooks the
// app registers, and /v1/attachment/actions/{id}. A card submit comes back as Webex sends it: a
// notification signed HMAC-SHA1 with the webhook's secret. Each rule names its page.

export type WebexMessage = {
  id: string;
  toPersonId: string;
  markdown: string;
  text: string;
  attachments: { contentType: string; content: Record<string, any> }[];
};

// https://developer.webex.com/docs/api/v1/messages/create-a-message: text and markdown, "The
// maximum message length is 7439 bytes."
const MESSAGE_BYTES = 7439;

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/** What one POST /v1/messages breaks of Webex's documented rules (empty: Webex takes it). */
const messageProblems = (json: Record<string, any>, isPerson: (id: string) => boolean) => {
  const problems: string[] = [];
  // create-a-message: a message goes to a room (roomId) or to one person, 1:1 (toPersonId or
  // toPersonEmail).
  const targets = ['roomId', 'toPersonId', 'toPersonEmail'].filter((key) => json[key]);
  if (targets.length !== 1)
    problems.push(`one of roomId, toPersonId, toPersonEmail, not ${targets.join(', ')}`);
  if (json.toPersonId && !isPerson(json.toPersonId)) problems.push('unknown toPersonId');
  for (const key of ['text', 'markdown']) {
    const bytes = Buffer.byteLength(String(json[key] ?? ''));
    if (bytes > MESSAGE_BYTES) problems.push(`${key} ${bytes} bytes`);
  }
  const attachments = (json.attachments ?? []) as {
    contentType: string;
    content: Record<string, any>;
  }[];
  // create-a-message, `attachments`: "Only one card per message is supported."
  if (attachments.length > 1) problems.push(`${attachments.length} cards in one message`);
  // https://developer.webex.com/docs/api/guides/cards: a message with a card carries `text` or
  // `markdown` too, the fallback shown by clients that cannot render cards (and hidden by those
  // that do: they show the card alone).
  if (attachments.length > 0 && !json.text && !json.markdown)
    problems.push('card without fallback text');
  if (attachments.length === 0 && !json.text && !json.markdown && !json.files)
    problems.push('empty message');
  for (const attachment of attachments) {
    // cards guide: the card is an Adaptive Card, at the version Webex renders (1.3).
    if (attachment.contentType !== 'application/vnd.microsoft.card.adaptive')
      problems.push('attachment type');
    problems.push(...adaptiveCardProblems(attachment.content, { version: '1.3' }));
  }
  return problems;
};

export type FakeWebex = Awaited<ReturnType<typeof startFakeWebex>>;

export const startFakeWebex = async ({ token = 'webex-bot-token' }: { token?: string } = {}) => {
  const botId = 'Y2lzY29zcGFyazovL3VzL1BFT1BMRS9ib3Q';
  const people: { id: string; email: string }[] = [];
  const messages: WebexMessage[] = [];
  /** Messages the bot deleted (an answered question's card). */
  const deleted: WebexMessage[] = [];
  let failingDeletes = 0;
  let newHookStatus: 'active' | 'inactive' = 'active';
  const refused: { path: string; problems: string[] }[] = [];
  const hooks: {
    id: string;
    name: string;
    targetUrl: string;
    secret: string;
    resource: string;
    event: string;
    status: 'active' | 'inactive';
  }[] = [];
  const actions = new Map<
    string,
    { id: string; personId: string; messageId: string; inputs: Record<string, unknown> }
  >();
  /** Answers to come for POST /v1/messages that match, in order (a status, its Retry-After). */
  const faults: {
    status: number;
    retryAfter?: string;
    match: (json: Record<string, any>) => boolean;
  }[] = [];

  const listening = await listen((request, response, body) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const path = url.pathname;
    // https://developer.webex.com/docs/basics: every call carries the bot's access token as a
    // Bearer; 401 "Authentication credentials were missing or incorrect".
    if (request.headers.authorization !== `Bearer ${token}`) {
      return sendJson(response, 401, {
        message:
          'The request requires a valid access token set in the Authorization request header.',
      });
    }
    const json = body ? (JSON.parse(body) as Record<string, any>) : {};
    if (request.method === 'GET' && path === '/v1/people/me') {
      return sendJson(response, 200, {
        id: botId,
        displayName: 'CCP Bot',
        emails: ['ccp@webex.bot'],
      });
    }
    // https://developer.webex.com/docs/api/v1/people/list-people: a bot (not an admin) lists
    // people by `email` (or displayName); no match is 200 with no `items`, not a 404.
    if (request.method === 'GET' && path === '/v1/people') {
      const email = url.searchParams.get('email') ?? '';
      if (!email && !url.searchParams.get('displayName'))
        return sendJson(response, 400, { message: 'email or displayName is required' });
      return sendJson(response, 200, { items: people.filter((person) => person.email === email) });
    }
    if (request.method === 'POST' && path === '/v1/messages') {
      const fault = faults.findIndex((item) => item.match(json));
      if (fault >= 0) {
        const [{ status, retryAfter }] = faults.splice(fault, 1) as [(typeof faults)[number]];
        // Response codes of every API page: 429 "rate limited" and 423 "temporarily unavailable"
        // with a Retry-After in seconds; 502/503 "try again later". Nothing was posted.
        return sendJson(
          response,
          status,
          { message: `Fault ${status}`, errors: [{ description: `Fault ${status}` }] },
          retryAfter !== undefined ? { 'retry-after': retryAfter } : {},
        );
      }
      const problems = messageProblems(json, (id) => people.some((person) => person.id === id));
      if (problems.length > 0) {
        refused.push({ path, problems });
        return sendJson(response, 400, { message: problems.join('; ') });
      }
      const message = {
        id: randomUUID(),
        toPersonId: json.toPersonId,
        markdown: String(json.markdown ?? ''),
        text: String(json.text ?? ''),
        attachments: json.attachments ?? [],
      };
      messages.push(message);
      return sendJson(response, 200, { id: message.id, personId: json.toPersonId });
    }
    // https://developer.webex.com/docs/api/v1/messages/delete-a-message: DELETE
    // /v1/messages/{messageId} answers 204 No Content; a message that is not there, 404.
    const deleting = path.match(/^\/v1\/messages\/([^/]+)$/);
    if (request.method === 'DELETE' && deleting) {
      if (failingDeletes > 0) {
        failingDeletes -= 1;
        return sendJson(response, 503, { message: 'Service Unavailable' });
      }
      const id = decodeURIComponent(deleting[1]!);
      const message = messages.find((candidate) => candidate.id === id);
      if (!message || deleted.includes(message))
        return sendJson(response, 404, { message: 'The requested resource could not be found.' });
      // Kept in `messages` (a test's indexes stay put), listed as deleted.
      deleted.push(message);
      response.writeHead(204);
      response.end();
      return;
    }
    if (path === '/v1/webhooks' && request.method === 'GET')
      return sendJson(response, 200, { items: hooks });
    if (path === '/v1/webhooks' && request.method === 'POST') {
      // https://developer.webex.com/docs/register-and-manage-webhooks: the receiver is "a publicly
      // reachable HTTPS receiver". (The fake also takes http on 127.0.0.1, where tests listen.)
      const target = URL.canParse(json.targetUrl) ? new URL(json.targetUrl) : null;
      if (!target || (target.protocol !== 'https:' && !LOOPBACK.test(target.hostname))) {
        refused.push({ path, problems: [`targetUrl ${json.targetUrl}`] });
        return sendJson(response, 400, { message: 'targetUrl must be an https URL' });
      }
      const hook = {
        id: randomUUID(),
        name: json.name,
        targetUrl: json.targetUrl,
        secret: json.secret,
        resource: json.resource,
        event: json.event,
        // get-webhook-details: `status` active or inactive ("Use active to reactivate a disabled
        // webhook", https://developer.webex.com/docs/api/v1/webhooks/get-webhook-details).
        status: newHookStatus,
      };
      hooks.push(hook);
      return sendJson(response, 200, hook);
    }
    if (path.startsWith('/v1/webhooks/') && request.method === 'DELETE') {
      const index = hooks.findIndex((hook) => hook.id === path.split('/').pop());
      if (index >= 0) hooks.splice(index, 1);
      response.writeHead(204).end();
      return;
    }
    if (path.startsWith('/v1/attachment/actions/') && request.method === 'GET') {
      const action = actions.get(decodeURIComponent(path.split('/').pop() ?? ''));
      return action
        ? sendJson(response, 200, action)
        : sendJson(response, 404, { message: 'Not found' });
    }
    return sendJson(response, 404, { message: `no ${request.method} ${path}` });
  });

  return {
    apiUrl: listening.baseUrl,
    token,
    botId,
    messages,
    refused,
    hooks,
    close: listening.close,
    addPerson: (email: string) => {
      const person = { id: `person-${people.length + 1}`, email };
      people.push(person);
      return person;
    },
    deleted,
    /**
     * Webex holds the webhooks registered from now on as `status` (`inactive`: as it holds one it
     * disabled after failed deliveries, https://developer.webex.com/docs/webhooks).
     */
    holdNewHooksAs: (status: 'active' | 'inactive') => {
      newHookStatus = status;
    },
    /** The next `count` deletions answer 503. */
    failDeletes: (count: number) => {
      failingDeletes = count;
    },
    /** Webex's 429 (rate limited) with Retry-After `seconds` on the next `count` messages. */
    rateLimit: (count: number, seconds = 2) => {
      for (let index = 0; index < count; index += 1)
        faults.push({ status: 429, retryAfter: String(seconds), match: () => true });
    },
    /** The next message that `match`es is answered `status` (a Retry-After in seconds, if given). */
    failNext: (
      status: number,
      match: (json: Record<string, any>) => boolean = () => true,
      retryAfter?: number,
    ) => {
      faults.push({
        status,
        match,
        ...(retryAfter !== undefined ? { retryAfter: String(retryAfter) } : {}),
      });
    },
    /**
     * https://developer.webex.com/docs/api/v1/webhooks: an `attachmentActions` `created`
     * notification names the submit (its inputs are read with GET /v1/attachment/actions/{id}),
     * signed in X-Spark-Signature: the HMAC-SHA1 (hex) of the body with the webhook's secret.
     * `personId` submits the card of `message` with `inputs` merged over its Action.Submit data:
     * the signed notification Webex posts to the registered webhook.
     */
    submitRequest: (
      message: WebexMessage,
      inputs: Record<string, unknown>,
      { personId = message.toPersonId, secret }: { personId?: string; secret?: string } = {},
    ) => {
      const hook = hooks.find((item) => item.resource === 'attachmentActions');
      if (!hook) throw new Error('no attachmentActions webhook registered');
      if (message.attachments.length === 0) throw new Error('the message has no card to submit');
      const card = message.attachments[0]?.content;
      const data = (card?.actions?.[0]?.data ?? {}) as Record<string, unknown>;
      const action = {
        id: randomUUID(),
        personId,
        messageId: message.id,
        inputs: { ...data, ...inputs },
      };
      actions.set(action.id, action);
      const body = JSON.stringify({
        id: hook.id,
        name: hook.name,
        targetUrl: hook.targetUrl,
        resource: 'attachmentActions',
        event: 'created',
        createdBy: botId,
        actorId: personId,
        data: { id: action.id, type: 'submit', messageId: message.id, personId },
      });
      return {
        body,
        headers: {
          'content-type': 'application/json',
          'x-spark-signature': webexSignature(secret ?? hook.secret, body),
        },
      };
    },
  };
};
