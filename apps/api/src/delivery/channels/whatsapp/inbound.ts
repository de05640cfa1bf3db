import { createHmac, timingSafeEqual } from 'node:crypto';

import { MESSAGES } from '@ccp/schemas';

import { AppError } from '../../../lib/app-error.ts';
import type { ChannelSettings } from '../../channel-settings.ts';
import type { Connection } from '../../connector.ts';
import type { DeliveryDeps } from '../../enrolment.ts';
import { learnerOfProviderUser, touchInbound } from '../../identities.ts';
import { applyInbound, claimInbound, parseAction } from '../../inbound.ts';
import type { InboundAction, InboundResult } from '../../inbound.ts';
import type { RenderedPayload } from '../../render-common.ts';
import { sendWhatsAppMessages } from './client.ts';

// WhatsApp webhooks, verified as Meta signs them: X-Hub-Signature-256 is "sha256=" and the
// HMAC-SHA256 (hex) of the raw body with the app secret. The body names the business phone
// number (metadata.phone_number_id), which picks the connection and so the secret. A learner's
// message opens the 24-hour window; the template's "Start" sends the lesson that waited; a reply
// button, a list row or a number typed back answers the lesson's question.

export const whatsappSignature = (appSecret: string, rawBody: string) =>
  `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;

export const verifyWhatsAppRequest = (
  appSecret: string,
  signature: string | undefined,
  rawBody: string,
) => {
  if (!signature) return false;
  const expected = Buffer.from(whatsappSignature(appSecret, rawBody));
  const given = Buffer.from(signature.toLowerCase());
  return expected.length === given.length && timingSafeEqual(expected, given);
};

export type WhatsAppInbound = {
  id: string;
  from: string;
  /** A button's payload or id (template quick reply, reply button, list row), or typed text. */
  payload: string | null;
  text: string | null;
};

type RawMessage = {
  id?: string;
  from?: string;
  type?: string;
  text?: { body?: string };
  button?: { payload?: string };
  interactive?: { button_reply?: { id?: string }; list_reply?: { id?: string } };
};

/** The phone number the webhook is for and the learners' messages in it; null when malformed. */
export const parseWhatsAppWebhook = (
  rawBody: string,
): { phoneNumberId: string; messages: WhatsAppInbound[] } | null => {
  try {
    const data = JSON.parse(rawBody) as {
      object?: string;
      entry?: {
        changes?: {
          field?: string;
          value?: { metadata?: { phone_number_id?: string }; messages?: RawMessage[] };
        }[];
      }[];
    };
    if (data.object !== 'whatsapp_business_account') return null;
    const values = (data.entry ?? []).flatMap((entry) =>
      (entry.changes ?? []).filter((change) => change.field === 'messages').map((c) => c.value),
    );
    const phoneNumberId = values.find((value) => value?.metadata?.phone_number_id)?.metadata
      ?.phone_number_id;
    if (!phoneNumberId) return null;
    const messages = values
      .flatMap((value) => value?.messages ?? [])
      .filter((message) => message.id && message.from)
      .map((message) => ({
        id: message.id!,
        from: message.from!,
        payload:
          message.button?.payload ??
          message.interactive?.button_reply?.id ??
          message.interactive?.list_reply?.id ??
          null,
        text: message.type === 'text' ? (message.text?.body ?? '') : null,
      }));
    return { phoneNumberId, messages };
  } catch {
    return null;
  }
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const parseStart = (payload: string): string | null => {
  try {
    const data = JSON.parse(payload) as { type?: string; delivery_uuid?: string };
    return data.type === 'start' &&
      typeof data.delivery_uuid === 'string' &&
      UUID.test(data.delivery_uuid)
      ? data.delivery_uuid
      : null;
  } catch {
    return null;
  }
};

type Deps = DeliveryDeps & { channelSettings: ChannelSettings };

/** The learner's latest lesson on WhatsApp, which a typed number answers. */
const latestLesson = async (deps: Deps, companyUuid: string, waId: string) => {
  const row = await deps.db
    .selectFrom('outbox_messages')
    .select('delivery_uuid')
    .where('company_uuid', '=', companyUuid)
    .where('channel', '=', 'whatsapp')
    .where('kind', '=', 'lesson')
    .where('recipient', '=', waId)
    .where('delivery_uuid', 'is not', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.delivery_uuid ?? null;
};

/** "Start" on the template: the window opens and the lesson that waited goes out. */
const startLesson = async (
  deps: Deps,
  connection: Connection,
  message: WhatsAppInbound,
  deliveryUuid: string,
): Promise<InboundResult> => {
  const actor = await learnerOfProviderUser(deps, connection.companyUuid, 'whatsapp', message.from);
  const delivery = await deps.db
    .selectFrom('lesson_deliveries')
    .select('learner_uuid')
    .where('uuid', '=', deliveryUuid)
    .where('company_uuid', '=', connection.companyUuid)
    .executeTakeFirst();
  if (!actor || !delivery || delivery.learner_uuid !== actor) {
    throw new AppError('FORBIDDEN', MESSAGES.webhookWrongLearner);
  }
  const nowIso = deps.clock.now().toISOString();
  const claimed = await claimInbound(
    deps,
    { channel: 'whatsapp', companyUuid: connection.companyUuid, providerMessageId: message.id },
    nowIso,
  );
  if (!claimed) return 'duplicate';
  await touchInbound(deps, actor, 'whatsapp', nowIso);
  const sent = await deps.db
    .selectFrom('outbox_messages')
    .select(['uuid', 'body'])
    .where('delivery_uuid', '=', deliveryUuid)
    .where('channel', '=', 'whatsapp')
    .orderBy('created_at', 'desc')
    .execute();
  for (const row of sent) {
    const body = JSON.parse(row.body) as { pending?: RenderedPayload[] } & Record<string, unknown>;
    if (!body.pending) continue;
    const { pending, ...rest } = body;
    // Taken off before sending: a failure part-way must not send the same parts twice.
    await deps.db
      .updateTable('outbox_messages')
      .set({ body: JSON.stringify(rest) })
      .where('uuid', '=', row.uuid)
      .execute();
    const ids = await sendWhatsAppMessages(deps.channelSettings.whatsapp, connection, pending);
    await deps.db
      .updateTable('outbox_messages')
      .set({ body: JSON.stringify({ ...rest, session_message_ids: ids }) })
      .where('uuid', '=', row.uuid)
      .execute();
  }
  return 'recorded';
};

/** One learner message of a verified webhook. */
export const handleWhatsAppMessage = async (
  deps: Deps,
  connection: Connection,
  message: WhatsAppInbound,
): Promise<InboundResult | 'ignored'> => {
  let action: InboundAction | null = null;
  if (message.payload !== null) {
    const start = parseStart(message.payload);
    if (start) return startLesson(deps, connection, message, start);
    action = parseAction(message.payload);
  } else if (message.text !== null && /^\s*[1-9]\d?\s*$/.test(message.text)) {
    const delivery = await latestLesson(deps, connection.companyUuid, message.from);
    if (delivery) {
      action = { type: 'answered', delivery_uuid: delivery, answer: Number(message.text) - 1 };
    }
  }
  if (!action) {
    // Any message opens the window, even one that answers nothing.
    const learner = await learnerOfProviderUser(
      deps,
      connection.companyUuid,
      'whatsapp',
      message.from,
    );
    if (learner) await touchInbound(deps, learner, 'whatsapp', deps.clock.now().toISOString());
    return 'ignored';
  }
  return applyInbound(deps, {
    channel: 'whatsapp',
    companyUuid: connection.companyUuid,
    providerUserId: message.from,
    providerMessageId: message.id,
    action,
  });
};
