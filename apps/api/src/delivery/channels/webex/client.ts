import type { ChannelSettings } from '../../channel-settings.ts';
import type { Connector } from '../../connector.ts';
import { asOnePayload } from '../../render-common.ts';
import { ProviderHttpError, callJson, classifyHttpError } from '../http.ts';
import { renderWebexMessages } from './render.ts';
import type { Connection } from '../../message.ts';

// The Webex connector: plain fetch against the configured base URL (CCP_WEBEX_API_URL), the
// bot's token as a Bearer. People are found by e-mail (GET /v1/people?email=), messages posted
// to them by person id, and the connection test registers the `attachmentActions` webhook with
// the connection's secret so card submits come back signed.

// Webex answers 429 with Retry-After past its per-token limit (about 300 calls a minute for
// messages); the connection is paced under it.
export const WEBEX_MESSAGES_PER_SECOND = 4;

type WebexError = { message?: string; errors?: { description?: string }[] };
const codeOf = (body: WebexError | null) => body?.message ?? body?.errors?.[0]?.description;

const api = (settings: ChannelSettings['webex'], path: string) => `${settings.apiUrl}${path}`;

export const WEBHOOK_NAME = 'ccp-answers';

const token = (connection: Connection) => connection.secrets.bot_token ?? '';

export const createWebexConnector = (settings: ChannelSettings['webex']): Connector => {
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
      if (!person) {
        throw new ProviderHttpError(
          404,
          'person_not_found',
          `no Webex person with ${learner.address}`,
          null,
          null,
        );
      }
      return { providerUserId: person.id, conversationId: null, lastInboundAt: null };
    },
    send: async (connection, identity, message) => {
      const ids: string[] = [];
      const messages = renderWebexMessages(message);
      for (const payload of messages) {
        const { toPersonEmail: _email, text: _text, ...body } = payload as Record<string, unknown>;
        const sent = await callJson<{ id: string }>({
          method: 'POST',
          url: api(settings, '/v1/messages'),
          token: token(connection),
          body: { ...body, toPersonId: identity.providerUserId },
          codeOf,
        });
        ids.push(sent.id);
      }
      return { providerMessageId: ids.join(','), payload: asOnePayload(messages) };
    },
    test: async (connection) => {
      const me = await callJson<{ id: string; displayName?: string }>({
        url: api(settings, '/v1/people/me'),
        token: token(connection),
        codeOf,
      });
      if (settings.publicUrl) {
        const targetUrl = `${settings.publicUrl.replace(/\/$/, '')}/api/v1/webhooks/webex`;
        const hooks = await callJson<{ items: { id: string; name: string }[] }>({
          url: api(settings, '/v1/webhooks'),
          token: token(connection),
          codeOf,
        });
        for (const hook of hooks.items.filter((item) => item.name === WEBHOOK_NAME)) {
          await callJson({
            method: 'DELETE',
            url: api(settings, `/v1/webhooks/${hook.id}`),
            token: token(connection),
            codeOf,
          });
        }
        await callJson({
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
      }
      return { providerKey: me.id, providerIds: { bot_id: me.id, bot_name: me.displayName ?? '' } };
    },
    classifyError: classifyHttpError,
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
