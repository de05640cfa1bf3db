import { createHmac, timingSafeEqual } from 'node:crypto';

import { MESSAGES } from '@ccp/schemas';

import { writeRecords } from '../../../db/prepared.ts';
import { AppError } from '../../../lib/app-error.ts';
import type { ChannelSettings } from '../../channel-settings.ts';
import {
  channelMessageRecords,
  findChannelMessage,
  forgetUndeliveredPart,
} from '../../channel-messages.ts';
import type { DeliveryDeps } from '../../enrolment.ts';
import { applyChannelEvents } from '../../events.ts';
import { failureReasonOf } from '../../failure-reasons.ts';
import { learnerOfProviderUser, touchInbound } from '../../identities.ts';
import { enrolmentKeyword, normalizeWord, wordsOf } from '../../keywords.ts';
import { applyInbound, applyReply, claimInbound, parseAction } from '../../inbound.ts';
import type { InboundAction, InboundResult } from '../../inbound.ts';
import { startTestLesson } from '../../test-lesson.ts';
import {
  WHATSAPP_FAILURE_CODES,
  classifyWhatsAppError,
  sendWhatsAppMessage,
  whatsappErrorCode,
} from './client.ts';
import type { Connection, ErrorVerdict, MessageKind, RenderedPayload } from '../../message.ts';

// WhatsApp webhooks, verified as Meta signs them: X-Hub-Signature-256 is "sha256=" and the
// HMAC-SHA256 (hex) of the raw body with the app secret. The body names the business phone
// number (metadata.phone_number_id), which picks the connection and so the secret. A learner's
// message opens the 24-hour window; the template's "Start" sends what waited; a reply button, a
// list row or a number typed back answers the lesson's question; Join / Decline (the invitation
// template's quick replies, the invitation's reply buttons) or a typed yes / no answer the
// learner's invitation. `statuses` report what became of the messages sent: delivered and read
// are the lesson's receipts, failed its failure.

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
  /** The wamid of our message the learner's tap or reply answers (`context.id`). */
  contextId: string | null;
};

/** What became of a message we sent (`statuses[]`), with the first error's Graph code. */
export type WhatsAppStatus = {
  id: string;
  status: string;
  /** Unix seconds, as Meta sends them. */
  timestamp: string | null;
  errorCode: string | null;
};

type RawMessage = {
  id?: string;
  from?: string;
  type?: string;
  text?: { body?: string };
  button?: { payload?: string };
  interactive?: { button_reply?: { id?: string }; list_reply?: { id?: string } };
  context?: { id?: string };
};

type RawStatus = {
  id?: string;
  status?: string;
  timestamp?: string;
  errors?: { code?: number | string }[];
};

/**
 * The phone number the webhook is for, the learners' messages and the statuses of ours in it;
 * null when malformed. Both come in `entry[].changes[].value` of the `messages` field
 * (https://developers.facebook.com/docs/whatsapp/cloud-api/webhooks/components).
 */
export const parseWhatsAppWebhook = (
  rawBody: string,
): { phoneNumberId: string; messages: WhatsAppInbound[]; statuses: WhatsAppStatus[] } | null => {
  try {
    const data = JSON.parse(rawBody) as {
      object?: string;
      entry?: {
        changes?: {
          field?: string;
          value?: {
            metadata?: { phone_number_id?: string };
            messages?: RawMessage[];
            statuses?: RawStatus[];
          };
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
        contextId: message.context?.id ?? null,
      }));
    const statuses = values
      .flatMap((value) => value?.statuses ?? [])
      .filter((status) => status.id && status.status)
      .map((status) => ({
        id: status.id!,
        status: status.status!,
        timestamp: status.timestamp ?? null,
        errorCode: status.errors?.[0]?.code !== undefined ? String(status.errors[0].code) : null,
      }));
    return { phoneNumberId, messages, statuses };
  } catch {
    return null;
  }
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A "Start" quick reply: the lesson it names, or null for a notice that names none (an
 * invitation sent with the lesson template); undefined when the payload is no Start.
 */
const parseStart = (payload: string): { deliveryUuid: string | null } | undefined => {
  try {
    const data = JSON.parse(payload) as { type?: string; delivery_uuid?: unknown };
    if (data.type !== 'start') return undefined;
    return {
      deliveryUuid:
        typeof data.delivery_uuid === 'string' && UUID.test(data.delivery_uuid)
          ? data.delivery_uuid
          : null,
    };
  } catch {
    return undefined;
  }
};

// A typed answer to the invitation: the words of every language (a learner may answer in
// another than the course's), in locales/server (`channel.joinWords`, `channel.declineWords`).
const JOIN_WORDS = wordsOf('server.channel.joinWords');
const DECLINE_WORDS = wordsOf('server.channel.declineWords');

/** A typed yes / no: the invitation's answer it is, or null. */
export const optInAnswer = (text: string): 'opted_in' | 'declined' | null => {
  const word = normalizeWord(text);
  if (JOIN_WORDS.has(word)) return 'opted_in';
  if (DECLINE_WORDS.has(word)) return 'declined';
  return null;
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

/** A typed yes / no as the answer to the learner's latest invitation still open; else null. */
const invitationReply = async (
  deps: Deps,
  companyUuid: string,
  learnerUuid: string,
  text: string,
): Promise<InboundAction | null> => {
  const answer = optInAnswer(text);
  if (!answer) return null;
  const invitation = await deps.db
    .selectFrom('enrollments')
    .select('course_uuid')
    .where('company_uuid', '=', companyUuid)
    .where('learner_uuid', '=', learnerUuid)
    .where('channel', '=', 'whatsapp')
    .where('status', '=', 'invited')
    .where('invitation_sent_at', 'is not', null)
    .orderBy('invitation_sent_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return invitation
    ? { type: answer, course_uuid: invitation.course_uuid, learner_uuid: learnerUuid }
    : null;
};

/** Whom a send was for: what its messages are recorded under (channel_messages). */
type SendOwner = {
  companyUuid: string;
  kind: MessageKind;
  deliveryUuid: string | null;
  courseUuid: string;
  learnerUuid: string;
};

type OutboxBody = {
  pending?: RenderedPayload[];
  session_message_ids?: string[];
} & Record<string, unknown>;

/**
 * Sends what waited in one outbox row, part by part. Taken off the row first (only by whoever
 * finds it still there: of two webhooks at once only one sends); a part that fails goes back
 * with the rest, so it is sent later and never lost, and a part that went is never sent again.
 * A part whose outcome is unknown (a timeout) may have gone: it is not put back. A permanent
 * refusal is kept as the row's failure. Answers the failure's verdict, or null.
 */
const sendPending = async (
  deps: Deps,
  connection: Connection,
  row: { uuid: string; body: string },
  owner: SendOwner,
): Promise<ErrorVerdict | null> => {
  const body = JSON.parse(row.body) as OutboxBody;
  if (!body.pending) return null;
  const { pending, ...rest } = body;
  const taken = await deps.db
    .updateTable('outbox_messages')
    .set({ body: JSON.stringify(rest) })
    .where('uuid', '=', row.uuid)
    .where('body', '=', row.body)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) return null;
  const ids: string[] = [];
  let failure: { verdict: ErrorVerdict; left: RenderedPayload[] } | null = null;
  for (const [index, part] of pending.entries()) {
    try {
      ids.push(await sendWhatsAppMessage(deps.channelSettings.whatsapp, connection, part));
    } catch (error) {
      const verdict = classifyWhatsAppError(error);
      const left =
        verdict.kind === 'permanent'
          ? []
          : pending.slice(verdict.kind === 'unknown_outcome' ? index + 1 : index);
      failure = { verdict, left };
      break;
    }
  }
  const sentIds = [...(rest.session_message_ids ?? []), ...ids];
  await writeRecords(deps.db, [
    deps.db
      .updateTable('outbox_messages')
      .set({
        body: JSON.stringify({
          ...rest,
          session_message_ids: sentIds,
          ...(failure && failure.left.length > 0 ? { pending: failure.left } : {}),
        }),
        ...(failure?.verdict.kind === 'permanent'
          ? { status: 'failed', last_error: failure.verdict.code }
          : {}),
      })
      .where('uuid', '=', row.uuid)
      .compile(),
    ...channelMessageRecords(
      deps,
      { ...owner, channel: 'whatsapp', recipient: { learnerUuid: owner.learnerUuid } },
      row.uuid,
      ids.map((id) => ({ providerMessageId: id, template: false })),
    ),
  ]);
  return failure?.verdict ?? null;
};

/**
 * What waited goes now (the learner's message claimed as `claimId`). When a part could not go
 * for a passing reason (a rate limit, Meta's 131000 or 5xx), the claim is given back and the
 * webhook answers 503: Meta delivers it again later, and what is left goes then.
 */
const sendWaiting = async (
  deps: Deps,
  connection: Connection,
  claimId: string,
  rows: { uuid: string; body: string }[],
  owner: SendOwner,
): Promise<InboundResult> => {
  for (const row of rows) {
    const verdict = await sendPending(deps, connection, row, owner);
    if (verdict?.kind === 'retry' || verdict?.kind === 'rate_limited') {
      await deps.db
        .deleteFrom('channel_inbound_messages')
        .where('channel', '=', 'whatsapp')
        .where('provider_message_id', '=', claimId)
        .execute();
      throw new AppError('SERVICE_UNAVAILABLE', MESSAGES.webhookRetryLater);
    }
  }
  return 'recorded';
};

/** Claims the learner's message and opens their window; false when it was seen before. */
const claimAndTouch = async (
  deps: Deps,
  connection: Connection,
  claimId: string,
  learnerUuid: string,
) => {
  const nowIso = deps.clock.now().toISOString();
  const claimed = await claimInbound(
    deps,
    { channel: 'whatsapp', companyUuid: connection.companyUuid, providerMessageId: claimId },
    nowIso,
  );
  if (claimed) await touchInbound(deps, learnerUuid, 'whatsapp', nowIso);
  return claimed;
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
    .select(['learner_uuid', 'course_uuid'])
    .where('uuid', '=', deliveryUuid)
    .where('company_uuid', '=', connection.companyUuid)
    .executeTakeFirst();
  if (!actor || !delivery || delivery.learner_uuid !== actor) {
    throw new AppError('FORBIDDEN', MESSAGES.webhookWrongLearner);
  }
  if (!(await claimAndTouch(deps, connection, message.id, actor))) return 'duplicate';
  const rows = await deps.db
    .selectFrom('outbox_messages')
    .select(['uuid', 'body'])
    .where('delivery_uuid', '=', deliveryUuid)
    .where('channel', '=', 'whatsapp')
    .orderBy('created_at', 'desc')
    .execute();
  return sendWaiting(deps, connection, message.id, rows, {
    companyUuid: connection.companyUuid,
    kind: 'lesson',
    deliveryUuid,
    courseUuid: delivery.course_uuid,
    learnerUuid: actor,
  });
};

/**
 * "Start" on a notice that names no lesson (an invitation sent with the lesson template, no
 * invitation template being set): the message it was on (`context.id`) finds the send, whose
 * waiting invitation, with its Join / Decline buttons, goes now that the window is open.
 */
const startFromNotice = async (
  deps: Deps,
  connection: Connection,
  message: WhatsAppInbound,
): Promise<InboundResult> => {
  const sent = message.contextId
    ? await findChannelMessage(deps.db, 'whatsapp', connection.companyUuid, message.contextId)
    : undefined;
  if (!sent) return 'ignored';
  const actor = await learnerOfProviderUser(deps, connection.companyUuid, 'whatsapp', message.from);
  if (!actor || actor !== sent.learner_uuid) {
    throw new AppError('FORBIDDEN', MESSAGES.webhookWrongLearner);
  }
  if (!(await claimAndTouch(deps, connection, message.id, actor))) return 'duplicate';
  const rows = await deps.db
    .selectFrom('outbox_messages')
    .select(['uuid', 'body'])
    .where('uuid', '=', sent.outbox_uuid)
    .execute();
  return sendWaiting(deps, connection, message.id, rows, {
    companyUuid: connection.companyUuid,
    kind: sent.kind as MessageKind,
    deliveryUuid: sent.delivery_uuid,
    courseUuid: sent.course_uuid,
    learnerUuid: actor,
  });
};

/**
 * An answer the events refuse (an enrolment closed meanwhile, a lesson gone) is settled: Meta
 * would otherwise deliver the webhook again for days, to the same refusal.
 */
const settled = async (applying: Promise<InboundResult>): Promise<InboundResult> => {
  try {
    return await applying;
  } catch (error) {
    if (error instanceof AppError && (error.statusCode === 404 || error.statusCode === 422)) {
      return 'ignored';
    }
    throw error;
  }
};

/**
 * One learner message of a verified webhook: "Start" sends what waited; a button or list row
 * answers (a question, or the invitation); typed text answers the learner's open invitation
 * (yes / no) or their waiting question (an open one in their words, a choice by its number).
 * Any message opens the window, so a lesson still waiting for it follows (the text is not taken
 * as that unseen lesson's answer).
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
    if (start?.deliveryUuid) {
      // An administrator's test lesson (issue 29) that went as the template: its question follows.
      const tested = await startTestLesson(
        deps,
        { ...inbound, testLessonUuid: start.deliveryUuid },
        {
          send: (payload) =>
            sendWhatsAppMessage(deps.channelSettings.whatsapp, connection, payload),
          classifyError: classifyWhatsAppError,
        },
      );
      return tested ?? startLesson(deps, connection, message, start.deliveryUuid);
    }
    if (start) return startFromNotice(deps, connection, message);
    const action = parseAction(message.payload);
    if (action) return settled(applyInbound(deps, { ...inbound, action }));
  }
  const learner = await learnerOfProviderUser(
    deps,
    connection.companyUuid,
    'whatsapp',
    message.from,
  );
  // Not a learner: perhaps an administrator typing the answer to their test lesson (issue 29).
  if (!learner) {
    return message.text !== null
      ? settled(applyReply(deps, { ...inbound, text: message.text }))
      : 'ignored';
  }
  const pending = await pendingLesson(deps, connection.companyUuid, learner);
  let answered: InboundResult | null = null;
  if (message.text !== null) {
    const optIn = await invitationReply(deps, connection.companyUuid, learner, message.text);
    answered = await settled(
      optIn
        ? applyInbound(deps, { ...inbound, action: optIn })
        : applyReply(deps, { ...inbound, text: message.text, exclude: pending ? [pending] : [] }),
    );
  }
  if (answered === null) {
    await touchInbound(deps, learner, 'whatsapp', deps.clock.now().toISOString());
  }
  // A learner who wrote STOP gets nothing more, not even the lesson their message would open.
  const stopped = message.text !== null && enrolmentKeyword(message.text) === 'stop';
  if (!pending || stopped) return answered ?? 'ignored';
  // The window is open now: the waiting lesson goes (its own claim, apart from the answer's).
  const started = await startLesson(
    deps,
    connection,
    { ...message, id: `${message.id}:start` },
    pending,
  );
  return answered === 'recorded' ? answered : started;
};

/**
 * A status of a message we sent, found by its wamid (channel_messages). `delivered` and `read`
 * of the lesson's own messages are its receipts (the template's are not: the lesson was not in
 * it); `failed` (e.g. 131026, undeliverable) marks the send's outbox row failed with the error's
 * word, and a lesson that never reached the learner failed. `sent` changes nothing.
 */
export const handleWhatsAppStatus = async (
  deps: Deps,
  connection: Connection,
  status: WhatsAppStatus,
): Promise<InboundResult> => {
  const sent = await findChannelMessage(deps.db, 'whatsapp', connection.companyUuid, status.id);
  if (!sent) return 'ignored';
  const nowIso = deps.clock.now().toISOString();
  const seconds = Number(status.timestamp);
  const at =
    Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000).toISOString() : nowIso;
  if (status.status === 'failed') {
    // It never reached the learner: a Resend of its lesson sends that part again.
    await forgetUndeliveredPart(deps.db, 'whatsapp', status.id);
    return recordFailedStatus(deps, sent, whatsappErrorCode(status.errorCode ?? undefined), nowIso);
  }
  const receipt = status.status === 'delivered' || status.status === 'read';
  if (!receipt || sent.kind !== 'lesson' || sent.template === 1 || !sent.delivery_uuid) {
    return 'ignored';
  }
  try {
    const [result] = await applyChannelEvents(
      deps,
      { companyUuid: connection.companyUuid, channel: 'whatsapp' },
      [
        {
          type: status.status as 'delivered' | 'read',
          delivery_uuid: sent.delivery_uuid,
          occurred_at: at,
        },
      ],
    );
    return result?.status ?? 'duplicate';
  } catch (error) {
    // A lesson no longer sent (failed meanwhile): nothing to record on it.
    if (error instanceof AppError) return 'ignored';
    throw error;
  }
};

/**
 * A message that could not be delivered after it was accepted. Its outbox row keeps the failure
 * (status `failed`, `last_error` the error's word); a lesson not delivered, read or answered on
 * another message becomes `failed`. Invitations and reminders keep only the outbox's record.
 */
const recordFailedStatus = async (
  deps: Deps,
  sent: { outbox_uuid: string; kind: string; delivery_uuid: string | null },
  code: string,
  nowIso: string,
): Promise<InboundResult> => {
  const marked = await deps.db
    .updateTable('outbox_messages')
    .set({ status: 'failed', last_error: code })
    .where('uuid', '=', sent.outbox_uuid)
    .where('status', '!=', 'failed')
    .executeTakeFirst();
  if (sent.kind === 'lesson' && sent.delivery_uuid) {
    await deps.db
      .updateTable('lesson_deliveries')
      .set({
        status: 'failed',
        updated_at: nowIso,
        failure_code: failureReasonOf({ kind: 'permanent', code }, WHATSAPP_FAILURE_CODES),
        failure_detail: `${code}: reported by WhatsApp after it accepted the message`,
      })
      .where('uuid', '=', sent.delivery_uuid)
      .where('status', '=', 'sent')
      .where('delivered_at', 'is', null)
      .where('read_at', 'is', null)
      .where('answered_at', 'is', null)
      .execute();
  }
  return Number(marked.numUpdatedRows) === 1 ? 'recorded' : 'duplicate';
};
