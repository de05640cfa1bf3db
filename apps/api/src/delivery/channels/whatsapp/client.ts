import type { TDeliveryFailureReason } from '@ccp/schemas';

import type { ChannelSettings } from '../../channel-settings.ts';
import type { Clock } from '../../../lib/clock.ts';
import type { Connector } from '../../connector.ts';
import { retryAfterMs } from '../../connector.ts';
import { asOnePayload } from '../../render-common.ts';
import { ProviderHttpError, callJson, classifyHttpError } from '../http.ts';
import {
  WHATSAPP_WINDOW_MS,
  renderWhatsAppInvitationTemplate,
  renderWhatsAppSession,
  renderWhatsAppTemplate,
} from './render.ts';
import type { ChannelMessage, Connection, ErrorVerdict, RenderedPayload } from '../../message.ts';

// The WhatsApp Cloud API connector: plain fetch against the configured Graph base (with its
// version, CCP_WHATSAPP_API_URL), the system user's access token as a Bearer, messages posted to
// /{phone-number-id}/messages. Learners are their E.164 number (the wa_id is its digits). Inside
// the 24-hour window (the learner's last message, `last_inbound_at`) the lesson is sent; outside
// it only an approved template goes, and the lesson waits (`pending`) for the learner's "Start";
// an invitation goes with the invitation template (Join / Decline quick replies) when one is set.
// A lesson is several messages (text parts, then the question), sent one by one: a retry goes on
// from the part that failed, and each wamid is kept (channel_messages) for Meta's statuses.

// Cloud API throughput is 80 messages a second per business phone number by default.
export const WHATSAPP_MESSAGES_PER_SECOND = 80;

/**
 * What each Graph error code means for a send, as Meta's error-code reference describes it
 * (https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes): the verdict's
 * kind and the stable word a trainer is told. 131047 is the closed 24-hour window (the send then
 * falls back to the template); 130429 the number's throughput and 131056 the pair rate to one
 * recipient ("wait and retry"); 131000 "something went wrong, try again"; the rest fail again.
 */
const GRAPH_ERRORS: Record<string, { kind: ErrorVerdict['kind']; code: string }> = {
  '131047': { kind: 'window_closed', code: 'window_closed' },
  '130429': { kind: 'rate_limited', code: 'rate_limited' },
  '80007': { kind: 'rate_limited', code: 'rate_limited' },
  '131056': { kind: 'rate_limited', code: 'pair_rate_limited' },
  '131000': { kind: 'retry', code: 'provider_error' },
  '1': { kind: 'retry', code: 'provider_error' },
  '2': { kind: 'retry', code: 'provider_unavailable' },
  '131026': { kind: 'permanent', code: 'message_undeliverable' },
  '131030': { kind: 'permanent', code: 'recipient_not_allowed' },
  '131031': { kind: 'permanent', code: 'account_locked' },
  '131042': { kind: 'permanent', code: 'payment_problem' },
  '131048': { kind: 'permanent', code: 'spam_rate_limited' },
  '131049': { kind: 'permanent', code: 'marketing_limit' },
  '133010': { kind: 'permanent', code: 'phone_number_not_registered' },
  '190': { kind: 'permanent', code: 'access_token_invalid' },
  '10': { kind: 'permanent', code: 'permission_denied' },
  '100': { kind: 'permanent', code: 'invalid_request' },
  '131008': { kind: 'permanent', code: 'invalid_request' },
  '131009': { kind: 'permanent', code: 'invalid_request' },
  '131051': { kind: 'permanent', code: 'invalid_request' },
  '132000': { kind: 'permanent', code: 'template_invalid' },
  '132001': { kind: 'permanent', code: 'template_invalid' },
  '132005': { kind: 'permanent', code: 'template_invalid' },
  '132007': { kind: 'permanent', code: 'template_invalid' },
  '132012': { kind: 'permanent', code: 'template_invalid' },
};

/**
 * The words above as the reason a trainer is told (failure-reasons.ts); here rather than in the
 * module (index.ts) because a `failed` status webhook (inbound.ts) records its reason too.
 */
export const WHATSAPP_FAILURE_CODES: Readonly<Record<string, TDeliveryFailureReason>> = {
  message_undeliverable: 'undeliverable',
  recipient_not_allowed: 'learner_not_found',
  template_invalid: 'message_rejected',
  invalid_request: 'message_rejected',
  access_token_invalid: 'auth_failed',
  permission_denied: 'auth_failed',
  account_locked: 'auth_failed',
  phone_number_not_registered: 'auth_failed',
  whatsapp_error: 'provider_error',
  pair_rate_limited: 'rate_limited',
};

/** The word for a Graph error code (a send's, or a `failed` status's), `whatsapp_error` when unknown. */
export const whatsappErrorCode = (code: string | number | undefined): string =>
  GRAPH_ERRORS[String(code ?? '')]?.code ?? 'whatsapp_error';

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

/** Posts one message object; answers its wamid. */
export const sendWhatsAppMessage = async (
  settings: ChannelSettings['whatsapp'],
  connection: Connection,
  payload: RenderedPayload,
): Promise<string> => {
  const sent = await callJson<{ messages: { id: string }[] }>({
    method: 'POST',
    url: api(settings, `/${connection.providerIds.phone_number_id}/messages`),
    token: token(connection),
    body: payload,
    codeOf,
  });
  return sent.messages[0]?.id ?? '';
};

export const classifyWhatsAppError = (error: unknown): ErrorVerdict => {
  if (error instanceof ProviderHttpError) {
    const known = GRAPH_ERRORS[error.providerCode];
    if (known?.kind === 'rate_limited') {
      return { ...known, retryAfterMs: retryAfterMs(error.retryAfter) };
    }
    if (known) return known;
    // Meta: a 5xx is the platform's own trouble, to be tried again (error codes page, 131000, 2).
    if (error.status >= 500) return { kind: 'retry', code: 'provider_unavailable' };
    if (error.status === 429) {
      return {
        kind: 'rate_limited',
        code: 'rate_limited',
        retryAfterMs: retryAfterMs(error.retryAfter),
      };
    }
    if (error.status >= 400) return { kind: 'permanent', code: 'whatsapp_error' };
  }
  return classifyHttpError(error);
};

/** A send under way: what goes in order, what went, and what waits for the learner's window. */
type SendState = {
  parts: RenderedPayload[];
  ids: string[];
  pending?: RenderedPayload[];
};

const isTemplate = (payload: RenderedPayload | undefined) => payload?.type === 'template';

export const createWhatsAppConnector = (
  settings: ChannelSettings['whatsapp'],
  clock: Clock,
): Connector => {
  const inFlight = new WeakMap<ChannelMessage, SendState>();
  /**
   * Outside the window only an approved template may go: an invitation's own (Join / Decline
   * quick replies) when the connection names one, else the lesson template ("Start"), with the
   * session messages waiting for the learner's reply.
   */
  const outsideWindow = (
    message: ChannelMessage,
    connection: Connection,
  ): Pick<SendState, 'parts' | 'pending'> => {
    const invitationTemplate = connection.providerIds.invitation_template_name ?? '';
    if (message.kind === 'invitation' && invitationTemplate !== '') {
      return { parts: [renderWhatsAppInvitationTemplate(message, invitationTemplate)] };
    }
    const template = renderWhatsAppTemplate(
      message,
      connection.providerIds.template_name ?? 'ccp_new_lesson',
    );
    return { parts: [template], pending: renderWhatsAppSession(message) };
  };
  return {
    channel: 'whatsapp',
    ratePerSecond: WHATSAPP_MESSAGES_PER_SECOND,
    // The Cloud API has no look-up: the learner's number is their address.
    resolveIdentity: async (_connection, learner) => ({
      providerUserId: waIdOf(learner.address),
      conversationId: null,
      lastInboundAt: null,
    }),
    send: async (connection, identity, message) => {
      // A retry of the same message (sendWithRetries) resumes where the failed part stopped, so a
      // part that went (the lesson's text) is never sent twice.
      let state = inFlight.get(message);
      if (!state) {
        state = windowOpen(identity.lastInboundAt, clock.now())
          ? { parts: renderWhatsAppSession(message), ids: [] }
          : { ids: [], ...outsideWindow(message, connection) };
        inFlight.set(message, state);
      }
      while (state.ids.length < state.parts.length) {
        const index = state.ids.length;
        const part = state.parts[index]!;
        try {
          state.ids.push(await sendWhatsAppMessage(settings, connection, part));
        } catch (error) {
          // 131047: our record of the learner's last message was wrong (or the window closed
          // meanwhile). The rest waits for their reply and the template goes instead.
          if (isTemplate(part) || classifyWhatsAppError(error).kind !== 'window_closed')
            throw error;
          const notice = outsideWindow(message, connection);
          state.pending = notice.pending ? state.parts.slice(index) : undefined;
          state.parts = [...state.parts.slice(0, index), ...notice.parts];
        }
      }
      inFlight.delete(message);
      const { ids, parts, pending } = state;
      return {
        providerMessageId: ids.join(','),
        payload: asOnePayload(parts),
        ...(pending && pending.length > 0 ? { pending } : {}),
        accepted: ids.map((id, index) => ({
          providerMessageId: id,
          template: isTemplate(parts[index]),
        })),
      };
    },
    test: async (connection) => {
      const phone = await callJson<{ id: string; display_phone_number?: string }>({
        url: api(settings, `/${encodeURIComponent(connection.providerIds.phone_number_id ?? '')}`),
        token: token(connection),
        codeOf,
      });
      // Each template the connection names must be approved, or every send outside the window fails.
      const approved = async (name: string) => {
        const templates = await callJson<{ data: { name: string; status: string }[] }>({
          url: api(
            settings,
            `/${encodeURIComponent(connection.providerIds.business_account_id ?? '')}/message_templates?name=${encodeURIComponent(name)}`,
          ),
          token: token(connection),
          codeOf,
        });
        const template = templates.data.find((item) => item.name === name);
        if (template?.status !== 'APPROVED') {
          throw new ProviderHttpError(
            404,
            'template_not_approved',
            `template ${name} is ${template?.status ?? 'missing'}, not APPROVED`,
            null,
            null,
          );
        }
        return template.status;
      };
      const templateStatus = await approved(connection.providerIds.template_name ?? '');
      const invitationTemplate = connection.providerIds.invitation_template_name ?? '';
      const invitationStatus =
        invitationTemplate !== '' ? await approved(invitationTemplate) : null;
      return {
        providerKey: phone.id,
        providerIds: {
          display_phone_number: phone.display_phone_number ?? '',
          template_status: templateStatus,
          ...(invitationStatus ? { invitation_template_status: invitationStatus } : {}),
        },
      };
    },
    classifyError: classifyWhatsAppError,
  };
};
