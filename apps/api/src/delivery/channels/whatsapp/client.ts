import type { ChannelSettings } from '../../channel-settings.ts';
import type { Clock } from '../../../lib/clock.ts';
import type { Connection, Connector, ErrorVerdict } from '../../connector.ts';
import { retryAfterMs } from '../../connector.ts';
import { asOnePayload } from '../../render-common.ts';
import type { RenderedPayload } from '../../render-common.ts';
import { ProviderHttpError, callJson, classifyHttpError } from '../http.ts';
import { WHATSAPP_WINDOW_MS, renderWhatsAppSession, renderWhatsAppTemplate } from './render.ts';

// The WhatsApp Cloud API connector: plain fetch against the configured Graph base (with its
// version, CCP_WHATSAPP_API_URL), the system user's access token as a Bearer, messages posted to
// /{phone-number-id}/messages. Learners are their E.164 number (the wa_id is its digits). Inside
// the 24-hour window (the learner's last message, `last_inbound_at`) the lesson is sent; outside
// it only the approved template goes, and the lesson waits (`pending`) for the learner's "Start".

// Cloud API throughput is 80 messages a second per business phone number by default.
export const WHATSAPP_MESSAGES_PER_SECOND = 80;

/** Graph error codes: outside the window (re-engagement), and the rate limits. */
const WINDOW_CLOSED_CODES = ['131047'];
const RATE_LIMIT_CODES = ['130429', '131056', '80007'];

type GraphError = { error?: { code?: number; message?: string } };
const codeOf = (body: GraphError | null) =>
  body?.error?.code !== undefined ? String(body.error.code) : undefined;

const api = (settings: ChannelSettings['whatsapp'], path: string) => `${settings.apiUrl}${path}`;
const token = (connection: Connection) => connection.secrets.access_token ?? '';

/** The wa_id of an E.164 number: its digits. */
export const waIdOf = (e164: string) => e164.replace(/\D/g, '');

/** Whether the learner wrote within the last 24 hours. */
export const windowOpen = (lastInboundAt: string | null, now: Date) =>
  lastInboundAt !== null && now.getTime() - Date.parse(lastInboundAt) < WHATSAPP_WINDOW_MS;

/** Posts message objects one after the other; answers their wamids. */
export const sendWhatsAppMessages = async (
  settings: ChannelSettings['whatsapp'],
  connection: Connection,
  payloads: RenderedPayload[],
): Promise<string[]> => {
  const ids: string[] = [];
  for (const payload of payloads) {
    const sent = await callJson<{ messages: { id: string }[] }>({
      method: 'POST',
      url: api(settings, `/${connection.providerIds.phone_number_id}/messages`),
      token: token(connection),
      body: payload,
      codeOf,
    });
    ids.push(sent.messages[0]?.id ?? '');
  }
  return ids;
};

export const classifyWhatsAppError = (error: unknown): ErrorVerdict => {
  if (error instanceof ProviderHttpError) {
    if (WINDOW_CLOSED_CODES.includes(error.providerCode))
      return { kind: 'window_closed', code: error.providerCode };
    if (RATE_LIMIT_CODES.includes(error.providerCode)) {
      return {
        kind: 'rate_limited',
        code: error.providerCode,
        retryAfterMs: retryAfterMs(error.retryAfter),
      };
    }
  }
  return classifyHttpError(error);
};

export const createWhatsAppConnector = (
  settings: ChannelSettings['whatsapp'],
  clock: Clock,
): Connector => ({
  channel: 'whatsapp',
  ratePerSecond: WHATSAPP_MESSAGES_PER_SECOND,
  // The Cloud API has no look-up: the learner's number is their address.
  resolveIdentity: async (_connection, learner) => ({
    providerUserId: waIdOf(learner.address),
    conversationId: null,
    lastInboundAt: null,
  }),
  send: async (connection, identity, message) => {
    const session = renderWhatsAppSession(message);
    if (windowOpen(identity.lastInboundAt, clock.now())) {
      const ids = await sendWhatsAppMessages(settings, connection, session);
      return { providerMessageId: ids.join(','), payload: asOnePayload(session) };
    }
    const template = renderWhatsAppTemplate(
      message,
      connection.providerIds.template_name ?? 'ccp_new_lesson',
    );
    const [id] = await sendWhatsAppMessages(settings, connection, [template]);
    // The outbox keeps what went (the template) and the lesson waiting for the learner's Start.
    return { providerMessageId: id ?? '', pending: session, payload: template };
  },
  test: async (connection) => {
    const phone = await callJson<{ id: string; display_phone_number?: string }>({
      url: api(settings, `/${encodeURIComponent(connection.providerIds.phone_number_id ?? '')}`),
      token: token(connection),
      codeOf,
    });
    const templates = await callJson<{ data: { name: string; status: string }[] }>({
      url: api(
        settings,
        `/${encodeURIComponent(connection.providerIds.business_account_id ?? '')}/message_templates?name=${encodeURIComponent(connection.providerIds.template_name ?? '')}`,
      ),
      token: token(connection),
      codeOf,
    });
    const template = templates.data.find(
      (item) => item.name === connection.providerIds.template_name,
    );
    if (template?.status !== 'APPROVED') {
      throw new ProviderHttpError(
        404,
        'template_not_approved',
        `template ${connection.providerIds.template_name ?? ''} is ${template?.status ?? 'missing'}, not APPROVED`,
        null,
        null,
      );
    }
    return {
      providerKey: phone.id,
      providerIds: {
        display_phone_number: phone.display_phone_number ?? '',
        template_status: template?.status ?? 'MISSING',
      },
    };
  },
  classifyError: classifyWhatsAppError,
});
