import type { TChannelKey } from '@ccp/schemas';

import { listen, sendJson } from '../../../apps/api/test/fakes/http.ts';
import type { FakeProviders } from '../../../apps/api/test/fakes/providers.ts';

// What the administrator does at each provider while following the Channels page's guide, and
// what the provider then does, for a spec that runs in another process than the fakes: a small
// JSON server on 127.0.0.1 (test-only; its address goes into the run's temporary directory).
// Every request to our server is built by the fakes' own builders (signed as each provider
// signs) and posted to the address the administrator gave the provider, read from the page.

/** The signed request a fake built: posted as it is to the address the provider was given. */
type SignedRequest = { body: string; headers: Record<string, string> };

/** What our server answered a request the provider posted. */
export type TDelivered = { status: number; body: unknown };

/** The administrator's own account at each provider, and where each provider posts. */
type Accounts = {
  slackUser?: ReturnType<FakeProviders['slack']['addUser']>;
  slackRequestUrl?: string;
  webexPerson?: ReturnType<FakeProviders['webex']['addPerson']>;
  whatsappCallbackUrl?: string;
  teams?: { member: { id: string; conversationId: string }; endpoint: string };
  chat?: { email: string; space: string; endpointUrl: string };
};

const post = async (url: string, signed: SignedRequest | Promise<SignedRequest>) => {
  const { body, headers } = await signed;
  const response = await fetch(url, { method: 'POST', headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: the text as it came.
  }
  return { status: response.status, body: parsed } satisfies TDelivered;
};

const required = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new Error(`${what} first`);
  return value;
};

/** The last message a fake holds that `match`es. */
const lastOf = <T>(messages: T[], match: (message: T) => boolean, what: string): T =>
  required(messages.filter(match).at(-1), `send ${what}`);

/**
 * The five providers as the walk needs them, one handler per step (`<channel>/<step>`); each
 * takes and answers JSON.
 */
const steps = (fakes: FakeProviders) => {
  const accounts: Accounts = {};
  const now = () => new Date();

  /** The learner side answers the last test lesson: what each app's user does, signed. */
  const answer = async (
    channel: TChannelKey,
    index: number,
    phone?: string,
  ): Promise<TDelivered> => {
    switch (channel) {
      case 'slack': {
        const user = required(accounts.slackUser, 'slack/users');
        const message = lastOf(fakes.slack.messages, (m) => m.userId === user.id, 'a lesson');
        const nowSeconds = Math.floor(Date.now() / 1000);
        const url = required(accounts.slackRequestUrl, 'slack/apps');
        return post(url, fakes.slack.tapRequest(message, index, { nowSeconds }));
      }
      case 'webex': {
        const person = required(accounts.webexPerson, 'webex/people');
        const card = lastOf(
          fakes.webex.messages,
          (m) => m.toPersonId === person.id && m.attachments.length > 0,
          'a card',
        );
        // Webex posts to the webhook our server registered, at the address it registered.
        const hook = required(
          fakes.webex.hooks.find((item) => item.resource === 'attachmentActions'),
          'connect Webex',
        );
        return post(hook.targetUrl, fakes.webex.submitRequest(card, { answer: String(index) }));
      }
      case 'whatsapp': {
        const url = required(accounts.whatsappCallbackUrl, 'whatsapp/webhook');
        // Meta's wa_id: the number without its +.
        const waId = required(phone, 'the phone number').replace(/^\+/, '');
        const to = (message: { to: string }) => message.to === waId;
        const last = lastOf(fakes.whatsapp.messages, to, 'a lesson');
        // Outside the 24-hour window the lesson went as the approved template: Start first.
        if (last.type === 'template') {
          const started = await post(url, fakes.whatsapp.tapTemplate(last));
          if (started.status !== 200) return started;
        }
        const question = lastOf(
          fakes.whatsapp.messages,
          (m) => to(m) && m.type === 'interactive',
          'the question',
        );
        return post(url, fakes.whatsapp.tapButton(question, index));
      }
      case 'ms-teams': {
        const { member, endpoint } = required(accounts.teams, 'ms-teams/install');
        const card = required(fakes.teams.sentTo(member.conversationId).at(-1), 'send a card');
        return post(
          endpoint,
          fakes.teams.submit(card, { answer: String(index) }, { from: member.id, now: now() }),
        );
      }
      case 'google-chat': {
        const { email, space, endpointUrl } = required(accounts.chat, 'google-chat/add');
        const card = lastOf(fakes.googleChat.messages, (m) => m.space === space, 'a card');
        return post(
          endpointUrl,
          fakes.googleChat.click(card, index, { email, now: now(), endpointUrl }),
        );
      }
    }
  };

  return {
    /** Slack: the pasted manifest makes the app; its credentials, as Slack shows them. */
    'slack/apps': ({ manifest }: { manifest: Record<string, unknown> }) => {
      const created = fakes.slack.createApp(manifest);
      accounts.slackRequestUrl = fakes.slack.appOf(created.credentials.client_id)?.requestUrl;
      return created;
    },
    /**
     * The administrator's own Slack account (the workspace's member with this e-mail): one per
     * e-mail, as in a workspace, so that a walk run again (a retry) finds the same member.
     */
    'slack/users': ({ email }: { email: string }) => {
      if (accounts.slackUser?.email !== email) accounts.slackUser = fakes.slack.addUser(email);
      return { id: accounts.slackUser.id };
    },
    /** The administrator's Webex account, one per e-mail like Slack's member. */
    'webex/people': ({ email }: { email: string }) => {
      if (accounts.webexPerson?.email !== email)
        accounts.webexPerson = fakes.webex.addPerson(email);
      return { id: accounts.webexPerson.id };
    },
    /** The webhooks our server registered at Webex. */
    'webex/hooks': () =>
      fakes.webex.hooks.map(({ targetUrl, resource }) => ({ targetUrl, resource })),
    /**
     * Meta's check of a callback URL when it is saved in the app's WhatsApp configuration
     * (https://developers.facebook.com/docs/graph-api/webhooks/getting-started, "Verification
     * Requests"): a GET with hub.mode, hub.challenge and hub.verify_token, to be answered with
     * the challenge; only then does Meta keep the URL.
     */
    'whatsapp/webhook': async ({
      callback_url: callbackUrl,
      verify_token: verifyToken,
    }: {
      callback_url: string;
      verify_token: string;
    }) => {
      const challenge = String(Date.now());
      const url = new URL(callbackUrl);
      url.searchParams.set('hub.mode', 'subscribe');
      url.searchParams.set('hub.challenge', challenge);
      url.searchParams.set('hub.verify_token', verifyToken);
      const response = await fetch(url);
      const verified = response.ok && (await response.text()) === challenge;
      if (verified) accounts.whatsappCallbackUrl = callbackUrl;
      return { verified };
    },
    /** The administrator adds the uploaded app for themselves in Teams. */
    'ms-teams/install': async ({
      email,
      messaging_endpoint: endpoint,
    }: {
      email: string;
      messaging_endpoint: string;
    }) => {
      const install = fakes.teams.install(email, now());
      accounts.teams = { member: install.member, endpoint };
      return post(endpoint, install.request);
    },
    /** The administrator starts a chat with the app: Chat's signed ADDED_TO_SPACE event. */
    'google-chat/add': async ({
      email,
      endpoint_url: endpointUrl,
    }: {
      email: string;
      endpoint_url: string;
    }) => {
      const space = fakes.googleChat.addApp(email);
      accounts.chat = { email, space, endpointUrl };
      return post(endpointUrl, fakes.googleChat.added(space, { email, now: now(), endpointUrl }));
    },
    /** The administrator taps answer `answer` (0-based) of their last test lesson on `channel`. */
    answer: (input: { channel: TChannelKey; answer: number; phone?: string }) =>
      answer(input.channel, input.answer, input.phone),
  } satisfies Record<string, (input: never) => unknown>;
};

export type TProviderStep = keyof ReturnType<typeof steps>;

type TStepInput = Record<string, unknown>;

/** Starts the control server on 127.0.0.1; POST /<step> with the step's JSON input. */
export const startProviderControl = async (fakes: FakeProviders) => {
  // Each step reads its own fields of the JSON it is posted.
  const handlers = steps(fakes) as unknown as Record<string, (input: TStepInput) => unknown>;
  // The fakes' own server plumbing: a step that throws answers 500 with its message.
  const { baseUrl } = await listen(async (request, response, body) => {
    const handler = handlers[(request.url ?? '/').slice(1)];
    if (request.method !== 'POST' || !handler) return sendJson(response, 404, { error: 'no step' });
    const input = body ? (JSON.parse(body) as TStepInput) : {};
    sendJson(response, 200, await handler(input));
  });
  return baseUrl;
};
