import { randomUUID } from 'node:crypto';

import { webexSignature } from '../../src/delivery/channels/webex/inbound.ts';
import { adaptiveCardProblems } from './adaptive-cards.ts';
import { listen, sendJson } from './http.ts';

// A fake Webex REST API on 127.0.0.1: the bot's token as a Bearer, GET /v1/people/me and
// /v1/people?email=, POST /v1/messages (markdown at most 7 439 bytes, Adaptive Cards parsed at
// Webex's 1.3), the webhooks the app registers, and /v1/attachment/actions/{id}. A card submit
// comes back as Webex sends it: a notification signed HMAC-SHA1 with the webhook's secret.

export type WebexMessage = {
  id: string;
  toPersonId: string;
  markdown: string;
  attachments: { contentType: string; content: Record<string, any> }[];
};

const MARKDOWN_BYTES = 7439;

export type FakeWebex = Awaited<ReturnType<typeof startFakeWebex>>;

export const startFakeWebex = async ({ token = 'webex-bot-token' }: { token?: string } = {}) => {
  const botId = 'Y2lzY29zcGFyazovL3VzL1BFT1BMRS9ib3Q';
  const people: { id: string; email: string }[] = [];
  const messages: WebexMessage[] = [];
  const refused: { path: string; problems: string[] }[] = [];
  const hooks: {
    id: string;
    name: string;
    targetUrl: string;
    secret: string;
    resource: string;
    event: string;
  }[] = [];
  const actions = new Map<
    string,
    { id: string; personId: string; messageId: string; inputs: Record<string, unknown> }
  >();
  let rateLimited = 0;

  const listening = await listen((request, response, body) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const path = url.pathname;
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
    if (request.method === 'GET' && path === '/v1/people') {
      const email = url.searchParams.get('email') ?? '';
      return sendJson(response, 200, { items: people.filter((person) => person.email === email) });
    }
    if (request.method === 'POST' && path === '/v1/messages') {
      if (rateLimited > 0) {
        rateLimited -= 1;
        return sendJson(response, 429, { message: 'Too Many Requests' }, { 'retry-after': '2' });
      }
      const problems: string[] = [];
      if (!people.some((person) => person.id === json.toPersonId))
        problems.push('unknown toPersonId');
      const markdown = String(json.markdown ?? '');
      if (Buffer.byteLength(markdown) > MARKDOWN_BYTES)
        problems.push(`markdown ${Buffer.byteLength(markdown)} bytes`);
      for (const attachment of (json.attachments ?? []) as {
        contentType: string;
        content: Record<string, any>;
      }[]) {
        if (attachment.contentType !== 'application/vnd.microsoft.card.adaptive')
          problems.push('attachment type');
        problems.push(...adaptiveCardProblems(attachment.content, { version: '1.3' }));
      }
      if (problems.length > 0) {
        refused.push({ path, problems });
        return sendJson(response, 400, { message: problems.join('; ') });
      }
      const message = {
        id: randomUUID(),
        toPersonId: json.toPersonId,
        markdown,
        attachments: json.attachments ?? [],
      };
      messages.push(message);
      return sendJson(response, 200, { id: message.id, personId: json.toPersonId });
    }
    if (path === '/v1/webhooks' && request.method === 'GET')
      return sendJson(response, 200, { items: hooks });
    if (path === '/v1/webhooks' && request.method === 'POST') {
      const hook = {
        id: randomUUID(),
        name: json.name,
        targetUrl: json.targetUrl,
        secret: json.secret,
        resource: json.resource,
        event: json.event,
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
    rateLimit: (count: number) => {
      rateLimited = count;
    },
    /**
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
