import type { TConnectionProof, TDeliveryFailureReason } from '@ccp/schemas';

import type { Db } from '../../../db/index.ts';
import { acceptedParts, keepAcceptedPart } from '../../channel-messages.ts';
import type { ChannelSettings } from '../../channel-settings.ts';
import type { Clock } from '../../../lib/clock.ts';
import type { Connector } from '../../connector.ts';
import { retryAfterMs } from '../../connector.ts';
import { asOnePayload } from '../../render-common.ts';
import { ProviderHttpError, callJson, classifyHttpError } from '../http.ts';
import {
  INVITATION_TEMPLATE,
  LESSON_TEMPLATE,
  checkTemplate,
  templateProofs,
  templateRefusal,
} from './templates.ts';
import type { TemplateShape } from './templates.ts';
import { ConnectionTestFailure, LEARNER_REACH, proof, step } from '../proofs.ts';
import {
  WHATSAPP_WINDOW_MS,
  renderWhatsAppInvitationTemplate,
  renderWhatsAppSession,
  renderWhatsAppTemplate,
} from './render.ts';
import type {
  ChannelMessage,
  Connection,
  ErrorVerdict,
  Identity,
  RenderedPayload,
} from '../../message.ts';

// The WhatsApp Cloud API connector: plain fetch against the configured Graph base (with its
// version, CCP_WHATSAPP_API_URL), the system user's access token as a Bearer, messages posted to
// /{phone-number-id}/messages. Learners are their E.164 number (the wa_id is its digits). Inside
// the 24-hour window (the learner's last message, `last_inbound_at`) the lesson is sent; outside
// it only an approved template goes, and the lesson waits (`pending`) for the learner's "Start";
// an invitation goes with the invitation template (Join / Decline quick replies) when one is set.
// A lesson is several messages (text parts, then the question), sent one by one: each wamid is
// kept (channel_messages, by the part's index) the moment Meta takes it, so no later attempt of
// the same send (a retry, a deferral, a Resend, a restart) repeats a part that went; Meta's
// statuses find their lesson by it too.

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
      const asked = retryAfterMs(error.retryAfter);
      // No Retry-After on a pair rate: the wait Meta documents for that one user, not a stall.
      if (asked === undefined && error.providerCode === '131056')
        return { ...known, retryAfterMs: PAIR_RATE_RETRY_MS };
      return { ...known, retryAfterMs: asked };
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

/** One message of a send: its payload, its index among the lesson's parts, its wamid once taken. */
type Part = { payload: RenderedPayload; part: number | null; id?: string };

/** A send under way: what goes in order, and what waits for the learner's window. */
type SendState = { parts: Part[]; pending?: RenderedPayload[] };

const isTemplate = (payload: RenderedPayload | undefined) => payload?.type === 'template';

/**
 * Meta's pair rate is one message every 6 seconds to the same user, a burst (a lesson's parts)
 * borrowing from the time after it; on 131056 it says to wait before writing to that user again,
 * while other users can be written to at once, and to back off 4^X seconds
 * (https://developers.facebook.com/docs/whatsapp/throughput, "Pair rate limits";
 * https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes, 131056). A minute
 * is 4^3 s rounded to the scheduler's tick, and pays back a ten-part burst: the one lesson waits
 * (deferred, next_attempt_at) while everyone else's go on.
 */
export const PAIR_RATE_RETRY_MS = 60_000;

/**
 * A lesson or its reminder may be attempted again (a deferral, a Resend), so its parts are kept
 * as they go; a feedback is attempted once, and each of a send's feedbacks is a message of its own.
 */
const resumable = (message: ChannelMessage) =>
  message.deliveryUuid !== null && (message.kind === 'lesson' || message.kind === 'reminder');

export const createWhatsAppConnector = (
  settings: ChannelSettings['whatsapp'],
  clock: Clock,
  db?: Db,
): Connector => {
  const inFlight = new WeakMap<ChannelMessage, SendState>();
  /**
   * Outside the window only an approved template may go: an invitation's own (Join / Decline
   * quick replies) when the connection names one, else the lesson template ("Start"), with the
   * session messages not yet taken waiting for the learner's reply.
   */
  const outsideWindow = (
    message: ChannelMessage,
    connection: Connection,
    waiting: Part[],
  ): SendState => {
    const invitationTemplate = connection.providerIds.invitation_template_name ?? '';
    if (message.kind === 'invitation' && invitationTemplate !== '') {
      const payload = renderWhatsAppInvitationTemplate(message, invitationTemplate);
      return { parts: [{ payload, part: null }] };
    }
    const template = renderWhatsAppTemplate(
      message,
      connection.providerIds.template_name ?? 'ccp_new_lesson',
    );
    return {
      parts: [{ payload: template, part: null }],
      pending: waiting.map((item) => item.payload),
    };
  };
  /**
   * What this attempt sends: the lesson's parts, less those an earlier attempt of the same send
   * had taken (kept in channel_messages as they went), inside the window or after the template.
   */
  const plan = async (
    connection: Connection,
    identity: Identity,
    message: ChannelMessage,
  ): Promise<SendState> => {
    const taken =
      db && resumable(message)
        ? await acceptedParts(db, 'whatsapp', message.deliveryUuid!, message.kind)
        : new Map<number, string>();
    const session: Part[] = renderWhatsAppSession(message).map((payload, part) => ({
      payload,
      part,
      ...(taken.has(part) ? { id: taken.get(part) } : {}),
    }));
    const waiting = session.filter((item) => item.id === undefined);
    if (waiting.length === 0 || windowOpen(identity.lastInboundAt, clock.now())) {
      return { parts: session };
    }
    const notice = outsideWindow(message, connection, waiting);
    return {
      ...notice,
      parts: [...session.filter((item) => item.id !== undefined), ...notice.parts],
    };
  };
  /** Keeps a part the moment Meta took it: a later attempt of its send skips it. */
  const keep = async (message: ChannelMessage, item: Part) => {
    if (!db || item.part === null || !item.id || !resumable(message)) return;
    try {
      await keepAcceptedPart({ db, clock }, message, {
        providerMessageId: item.id,
        template: false,
        part: item.part,
      });
    } catch {
      // The part went: losing its note costs only its repetition if this send fails later, and
      // the send's own finish writes it again.
    }
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
      // A retry of the same message (sendWithRetries) resumes where the failed part stopped; a
      // later attempt (a deferral, a Resend, a restart) reads what went from channel_messages.
      let state = inFlight.get(message);
      if (!state) {
        state = await plan(connection, identity, message);
        inFlight.set(message, state);
      }
      for (let index = 0; index < state.parts.length; index += 1) {
        const item = state.parts[index]!;
        if (item.id !== undefined) continue;
        try {
          item.id = await sendWhatsAppMessage(settings, connection, item.payload);
          // The last part is kept by the send's finish, in the scheduler's transaction.
          if (index < state.parts.length - 1) await keep(message, item);
        } catch (error) {
          // 131047: our record of the learner's last message was wrong (or the window closed
          // meanwhile). The rest waits for their reply and the template goes instead.
          if (isTemplate(item.payload) || classifyWhatsAppError(error).kind !== 'window_closed')
            throw error;
          const waiting = state.parts.slice(index).filter((rest) => rest.id === undefined);
          const notice = outsideWindow(message, connection, waiting);
          state.pending = notice.pending;
          state.parts = [...state.parts.slice(0, index), ...notice.parts];
          index -= 1;
        }
      }
      inFlight.delete(message);
      const { parts, pending } = state;
      const ids = parts.map((item) => item.id ?? '');
      return {
        providerMessageId: ids.join(','),
        payload: asOnePayload(parts.map((item) => item.payload)),
        ...(pending && pending.length > 0 ? { pending } : {}),
        accepted: parts.map((item) => ({
          providerMessageId: item.id ?? '',
          template: isTemplate(item.payload),
          ...(item.part !== null ? { part: item.part } : {}),
        })),
      };
    },
    test: async (connection) => {
      const proved: TConnectionProof[] = [];
      const phone = await step(proved, 'credentials', () =>
        callJson<{ id: string; display_phone_number?: string }>({
          url: api(
            settings,
            `/${encodeURIComponent(connection.providerIds.phone_number_id ?? '')}`,
          ),
          token: token(connection),
          codeOf,
        }),
      );
      proved.push(
        proof('credentials', 'proved'),
        proof('bot_identity', 'proved', phone.display_phone_number),
      );
      // Each template the connection names must be approved in the learners' languages, with
      // the variables and quick replies the product fills, or sends outside the window fail.
      const checked = async (
        key: 'lesson_template' | 'invitation_template',
        name: string,
        shape: TemplateShape,
      ) => {
        const check = await step(proved, key, () =>
          checkTemplate(settings, connection, { name, shape, db }, codeOf),
        );
        proved.push(...templateProofs(key, check));
        if (check.languages === '') {
          throw new ConnectionTestFailure(templateRefusal(name, check), [...proved, LEARNER_REACH]);
        }
        return check;
      };
      const lesson = await checked(
        'lesson_template',
        connection.providerIds.template_name ?? '',
        LESSON_TEMPLATE,
      );
      const invitationTemplate = connection.providerIds.invitation_template_name ?? '';
      const invitation =
        invitationTemplate !== ''
          ? await checked('invitation_template', invitationTemplate, INVITATION_TEMPLATE)
          : null;
      return {
        providerKey: phone.id,
        providerIds: {
          display_phone_number: phone.display_phone_number ?? '',
          template_status: 'APPROVED',
          template_languages: lesson.languages,
          ...(lesson.gaps.length > 0 ? { template_gaps: lesson.gaps.join('; ') } : {}),
          ...(lesson.problems.length > 0 ? { template_problems: lesson.problems.join('; ') } : {}),
          ...(invitation
            ? {
                invitation_template_status: 'APPROVED',
                invitation_template_languages: invitation.languages,
                ...(invitation.gaps.length > 0
                  ? { invitation_template_gaps: invitation.gaps.join('; ') }
                  : {}),
              }
            : {}),
        },
        // Meta calls the callback URL only with a learner's message or a status of ours: the
        // verify-token check happened once, when the administrator saved it at Meta.
        proofs: [...proved, proof('webhook_reachability', 'not_provable'), LEARNER_REACH],
      };
    },
    classifyError: classifyWhatsAppError,
  };
};
