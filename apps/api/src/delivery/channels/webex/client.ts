import { MESSAGES } from '@ccp/schemas';
import type { TConnectionProof } from '@ccp/schemas';

import type { ChannelSettings } from '../../channel-settings.ts';
import type { Connector } from '../../connector.ts';
import { retryAfterMs } from '../../connector.ts';
import { asOnePayload } from '../../render-common.ts';
import { ProviderHttpError, callJson, classifyHttpError } from '../http.ts';
import { LEARNER_REACH, proof, step } from '../proofs.ts';
import { renderWebexClosed, renderWebexMessages } from './render.ts';
import type { ChannelMessage, Connection, ErrorVerdict, RenderedPayload } from '../../message.ts';

// The Webex connector: plain fetch against the configured base URL (CCP_WEBEX_API_URL), the
// bot's token as a Bearer. People are found by e-mail (GET /v1/people?email=), messages posted
// to them by person id, and the connection test registers the `attachmentActions` webhook with
// the connection's secret so card submits come back signed.

// Webex answers 429 with Retry-After past its per-token limit (about 300 calls a minute for
// messages); the connection is paced under it.
export const WEBEX_MESSAGES_PER_SECOND = 4;

/**
 * What a Webex answer means for a send, by HTTP status, as the response codes of every API page
 * describe them (e.g. https://developer.webex.com/docs/api/v1/messages/create-a-message): 423
 * "temporarily unavailable" and 429 "rate limited" wait their Retry-After; 502 and 503 "try again
 * later"; 500 and 504 may have done the work, so they are never resent; another 4xx fails again.
 * The word is what a trainer is told (failure-reasons.ts); Webex's own words stay in the detail.
 */
const WEBEX_STATUSES: Record<number, { kind: ErrorVerdict['kind']; code: string }> = {
  400: { kind: 'permanent', code: 'message_invalid' },
  401: { kind: 'permanent', code: 'token_invalid' },
  403: { kind: 'permanent', code: 'forbidden' },
  404: { kind: 'permanent', code: 'not_found' },
  409: { kind: 'permanent', code: 'conflict' },
  410: { kind: 'permanent', code: 'gone' },
  423: { kind: 'retry', code: 'locked' },
  429: { kind: 'rate_limited', code: 'rate_limited' },
  500: { kind: 'unknown_outcome', code: 'provider_error' },
  502: { kind: 'retry', code: 'provider_unavailable' },
  503: { kind: 'retry', code: 'provider_unavailable' },
  504: { kind: 'unknown_outcome', code: 'provider_timeout' },
};

/** GET /v1/people?email= answered no one: the learner's e-mail is not a Webex person. */
export class WebexPersonNotFoundError extends Error {}

export const classifyWebexError = (error: unknown): ErrorVerdict => {
  if (error instanceof WebexPersonNotFoundError) {
    return { kind: 'permanent', code: 'person_not_found', reason: 'learner_not_found' };
  }
  if (error instanceof ProviderHttpError) {
    const known = WEBEX_STATUSES[error.status] ?? {
      kind: error.status >= 500 ? 'unknown_outcome' : 'permanent',
      code: 'webex_error',
    };
    const wait = retryAfterMs(error.retryAfter);
    return { ...known, ...(wait !== undefined ? { retryAfterMs: wait } : {}) };
  }
  return classifyHttpError(error);
};

// Webex's error body ({ message, errors[].description, trackingId }) is kept whole in the
// failure's detail; the verdict's word comes from the status.
const codeOf = () => undefined;

const api = (settings: ChannelSettings['webex'], path: string) => `${settings.apiUrl}${path}`;

export const WEBHOOK_NAME = 'ccp-answers';

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * Where Webex posts card submits: this server's public address (CCP_PUBLIC_URL), which Webex
 * reaches only over https ("a publicly reachable HTTPS receiver",
 * https://developer.webex.com/docs/register-and-manage-webhooks); plain http only on this machine
 * (127.0.0.1, localhost), for tests and a local run. Without it no answer ever comes back, so the
 * connection is refused with the reason.
 */
export const webexWebhookUrl = (
  settings: ChannelSettings['webex'],
): string | { refused: string } => {
  if (!settings.publicUrl) return { refused: MESSAGES.webexPublicUrlMissing };
  const url = new URL(settings.publicUrl);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.test(url.hostname))) {
    return { refused: MESSAGES.webexPublicUrlNotHttps };
  }
  return `${settings.publicUrl.replace(/\/+$/, '')}/api/v1/webhooks/webex`;
};

const token = (connection: Connection) => connection.secrets.bot_token ?? '';

/** A send some of whose parts went: the parts in order and the ids of those Webex accepted. */
type SendState = { parts: RenderedPayload[]; ids: string[] };

// A send whose later part failed is kept this long for its retry (a Retry-After, a Resend), then
// forgotten: a retry after that starts again from the lesson's text.
const IN_FLIGHT_MS = 24 * 60 * 60 * 1000;

/** One lesson, reminder or invitation of one learner on one connection, the same at every try. */
const sendKey = (connection: Connection, message: ChannelMessage) =>
  [
    connection.uuid,
    message.kind,
    message.deliveryUuid ?? message.courseUuid,
    message.recipient.learnerUuid,
  ].join(':');

/** The sends under way, by key; monotonic time, since they are forgotten by age, not date. */
const createInFlight = (now: () => number = () => performance.now()) => {
  const states = new Map<string, { state: SendState; at: number }>();
  return {
    take: (key: string): SendState | undefined => {
      const kept = states.get(key);
      states.delete(key);
      for (const [other, { at }] of states) if (now() - at > IN_FLIGHT_MS) states.delete(other);
      return kept && now() - kept.at <= IN_FLIGHT_MS ? kept.state : undefined;
    },
    keep: (key: string, state: SendState) => void states.set(key, { state, at: now() }),
  };
};

type Webhook = {
  id: string;
  name: string;
  targetUrl: string;
  resource: string;
  event: string;
  status?: string;
};

const listWebhooks = async (settings: ChannelSettings['webex'], connection: Connection) =>
  (
    await callJson<{ items: Webhook[] }>({
      url: api(settings, '/v1/webhooks'),
      token: token(connection),
      codeOf,
    })
  ).items;

/**
 * Registers the `attachmentActions` webhook afresh (with the connection's secret), then reads the
 * bot's webhooks back (https://developer.webex.com/docs/api/v1/webhooks/list-webhooks) to see it
 * as Webex holds it: this server's address, `status` active ("Use active to reactivate a
 * disabled webhook", https://developer.webex.com/docs/api/v1/webhooks/get-webhook-details).
 * Answers the address it proved.
 */
const registerWebhook = async (
  settings: ChannelSettings['webex'],
  connection: Connection,
  targetUrl: string,
): Promise<string> => {
  for (const hook of (await listWebhooks(settings, connection)).filter(
    (item) => item.name === WEBHOOK_NAME,
  )) {
    await callJson({
      method: 'DELETE',
      url: api(settings, `/v1/webhooks/${hook.id}`),
      token: token(connection),
      codeOf,
    });
  }
  const created = await callJson<Webhook>({
    method: 'POST',
    url: api(settings, '/v1/webhooks'),
    token: token(connection),
    body: {
      name: WEBHOOK_NAME,
      targetUrl,
      resource: 'attachmentActions',
      event: 'created',
      secret: connection.secrets.webhook_secret,
    },
    codeOf,
  });
  const held = (await listWebhooks(settings, connection)).find((item) => item.id === created.id);
  if (!held) throw new Error(`Webex does not list the webhook ${created.id} it registered`);
  if (held.targetUrl !== targetUrl || held.resource !== 'attachmentActions') {
    throw new Error(`Webex holds the webhook for ${held.resource} at ${held.targetUrl}`);
  }
  if (held.status !== 'active') {
    throw new Error(`Webex holds the webhook as ${held.status}`);
  }
  return held.targetUrl;
};

export const createWebexConnector = (settings: ChannelSettings['webex']): Connector => {
  const inFlight = createInFlight();
  return {
    channel: 'webex',
    ratePerSecond: WEBEX_MESSAGES_PER_SECOND,
    resolveIdentity: async (connection, learner) => {
      const people = await callJson<{ items: { id: string }[] }>({
        url: api(settings, `/v1/people?email=${encodeURIComponent(learner.address)}`),
        token: token(connection),
        codeOf,
      });
      const person = people.items[0];
      // No one with that e-mail: permanent, so the lesson or invitation fails with the reason
      // (learner_not_found) instead of being tried again at every tick.
      if (!person) throw new WebexPersonNotFoundError(`no Webex person with ${learner.address}`);
      return { providerUserId: person.id, conversationId: null, lastInboundAt: null };
    },
    send: async (connection, identity, message) => {
      // A retry of the same send (now, or at a later tick after a long Retry-After) goes on from
      // the part that failed: a part Webex accepted (the lesson's text) is never posted twice.
      const key = sendKey(connection, message);
      const state = inFlight.take(key) ?? { parts: renderWebexMessages(message), ids: [] };
      while (state.ids.length < state.parts.length) {
        const { toPersonEmail: _email, ...body } = state.parts[state.ids.length]!;
        try {
          const sent = await callJson<{ id: string }>({
            method: 'POST',
            url: api(settings, '/v1/messages'),
            token: token(connection),
            body: { ...body, toPersonId: identity.providerUserId },
            codeOf,
          });
          state.ids.push(sent.id);
        } catch (error) {
          if (state.ids.length > 0) inFlight.keep(key, state);
          throw error;
        }
      }
      // The last message is the question card when there is one: the message answers refer to.
      return { providerMessageId: state.ids.at(-1) ?? '', payload: asOnePayload(state.parts) };
    },
    // A card cannot be edited (https://developer.webex.com/docs/api/v1/messages/edit-a-message
    // takes text and markdown only), so the answered card is deleted
    // (https://developer.webex.com/docs/api/v1/messages/delete-a-message) and the closed question
    // posted after it: the deletion first, so a failure never leaves two questions.
    closeQuestion: async (connection, identity, question) => {
      await callJson({
        method: 'DELETE',
        url: api(settings, `/v1/messages/${encodeURIComponent(question.providerMessageId)}`),
        token: token(connection),
        codeOf,
      });
      const { toPersonEmail: _email, ...body } = renderWebexClosed(question);
      await callJson({
        method: 'POST',
        url: api(settings, '/v1/messages'),
        token: token(connection),
        body: { ...body, toPersonId: identity.providerUserId },
        codeOf,
      });
    },
    test: async (connection) => {
      const targetUrl = webexWebhookUrl(settings);
      if (typeof targetUrl !== 'string') throw new Error(targetUrl.refused);
      const proved: TConnectionProof[] = [];
      const me = await step(proved, 'credentials', () =>
        callJson<{ id: string; displayName?: string }>({
          url: api(settings, '/v1/people/me'),
          token: token(connection),
          codeOf,
        }),
      );
      proved.push(
        proof('credentials', 'proved'),
        proof('bot_identity', 'proved', me.displayName || me.id),
      );
      const registered = await step(proved, 'webhook_registered', () =>
        registerWebhook(settings, connection, targetUrl),
      );
      proved.push(proof('webhook_registered', 'proved', registered));
      return {
        providerKey: me.id,
        providerIds: { bot_id: me.id, bot_name: me.displayName ?? '' },
        // Webex has no test event: only a person's card submit fires `attachmentActions`, so the
        // round trip is proved by the first answer that comes back signed (webhook.ts).
        proofs: [...proved, proof('webhook_round_trip', 'pending'), LEARNER_REACH],
      };
    },
    classifyError: classifyWebexError,
  };
};

/** GET /v1/attachment/actions/{id}: what the learner submitted on a card. */
export const fetchAttachmentAction = (
  settings: ChannelSettings['webex'],
  connection: Connection,
  id: string,
) =>
  callJson<{ id: string; personId: string; messageId: string; inputs: Record<string, unknown> }>({
    url: api(settings, `/v1/attachment/actions/${encodeURIComponent(id)}`),
    token: token(connection),
    codeOf,
  });
