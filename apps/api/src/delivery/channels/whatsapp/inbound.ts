import { createHmac, timingSafeEqual } from 'node:crypto';

import { MESSAGES } from '@ccp/schemas';

import { AppError } from '../../../lib/app-error.ts';
import type { ChannelSettings } from '../../channel-settings.ts';
import type { Connection } from '../../connector.ts';
import type { DeliveryDeps } from '../../enrolment.ts';
import { learnerOfProviderUser, touchInbound } from '../../identities.ts';
import { applyInbound, applyReply, claimInbound, parseAction } from '../../inbound.ts';
import type { InboundResult } from '../../inbound.ts';
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

/** The learner's lesson still waiting for their window to open (its outbox row keeps `pending`). */
const pendingLesson = async (deps: Deps, companyUuid: string, learnerUuid: string) => {
  const row = await deps.db
    .selectFrom('outbox_messages as o')
    .innerJoin('lesson_deliveries as d', 'd.uuid', 'o.delivery_uuid')
    .select('d.uuid')
    .where('d.company_uuid', '=', companyUuid)
    .where('d.learner_uuid', '=', learnerUuid)
    .where('d.channel', '=', 'whatsapp')
    .where('d.status', '=', 'sent')
    .where('o.channel', '=', 'whatsapp')
    .where('o.body', 'like', '%"pending":[%')
    .orderBy('o.created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.uuid ?? null;
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

/**
 * One learner message of a verified webhook: "Start" sends the lesson that waited; a button or
 * list row answers; typed text answers the learner's waiting question (an open one in their
 * words, a choice by its number). Any message opens the window, so a lesson still waiting
 * for it follows (the text is not taken as that unseen lesson's answer).
 */
export const handleWhatsAppMessage = async (
  deps: Deps,
  connection: Connection,
  message: WhatsAppInbound,
): Promise<InboundResult> => {
  const inbound = {
    channel: 'whatsapp' as const,
    companyUuid: connection.companyUuid,
    providerUserId: message.from,
    providerMessageId: message.id,
  };
  if (message.payload !== null) {
    const start = parseStart(message.payload);
    if (start) return startLesson(deps, connection, message, start);
    const action = parseAction(message.payload);
    if (action) return applyInbound(deps, { ...inbound, action });
  }
  const learner = await learnerOfProviderUser(
    deps,
    connection.companyUuid,
    'whatsapp',
    message.from,
  );
  if (!learner) return 'ignored';
  const pending = await pendingLesson(deps, connection.companyUuid, learner);
  const answered =
    message.text === null
      ? null
      : await applyReply(deps, {
          ...inbound,
          text: message.text,
          exclude: pending ? [pending] : [],
        });
  if (answered === null) {
    await touchInbound(deps, learner, 'whatsapp', deps.clock.now().toISOString());
  }
  if (!pending) return answered ?? 'ignored';
  // The window is open now: the waiting lesson goes (its own claim, apart from the answer's).
  const started = await startLesson(
    deps,
    connection,
    { ...message, id: `${message.id}:start` },
    pending,
  );
  return answered === 'recorded' ? answered : started;
};
