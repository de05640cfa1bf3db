import { MESSAGES } from '@ccp/schemas';
import type { TChannelEvent, TChannelKey } from '@ccp/schemas';

import { AppError } from '../lib/app-error.ts';
import type { DeliveryDeps } from './enrolment.ts';
import { applyChannelEvents } from './events.ts';
import { learnerOfProviderUser, touchInbound } from './identities.ts';

// A learner's tap or reply, once a webhook verified it came from the provider: who tapped is
// checked against the lesson's learner, the answer's index is judged against the lesson's own
// answers (buttons carry an index, never "correct"), a provider message id seen before changes
// nothing, and the event goes through the same handling as the events endpoint (events.ts).

/** What a button carried back (render-common.ts answerAction / enrolmentAction). */
export type InboundAction =
  | { type: 'answered'; delivery_uuid: string; answer?: number; text?: string }
  | { type: 'opted_in' | 'declined'; course_uuid: string; learner_uuid: string };

export type Inbound = {
  channel: TChannelKey;
  companyUuid: string;
  /** The provider's id of the person who acted. */
  providerUserId: string;
  /** The provider's id of this event (idempotency). */
  providerMessageId: string;
  action: InboundAction;
};

export type InboundResult = 'recorded' | 'duplicate';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A button's value read back; null when it is not one of ours. */
export const parseAction = (value: unknown): InboundAction | null => {
  let data = value;
  if (typeof value === 'string') {
    try {
      data = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (typeof data !== 'object' || data === null) return null;
  const record = data as Record<string, unknown>;
  if (
    record.type === 'answered' &&
    typeof record.delivery_uuid === 'string' &&
    UUID.test(record.delivery_uuid)
  ) {
    const answer = Number(record.answer);
    return {
      type: 'answered',
      delivery_uuid: record.delivery_uuid,
      ...(Number.isInteger(answer) && answer >= 0 ? { answer } : {}),
      ...(typeof record.text === 'string' ? { text: record.text } : {}),
    };
  }
  if (
    (record.type === 'opted_in' || record.type === 'declined') &&
    typeof record.course_uuid === 'string' &&
    UUID.test(record.course_uuid) &&
    typeof record.learner_uuid === 'string' &&
    UUID.test(record.learner_uuid)
  ) {
    return {
      type: record.type,
      course_uuid: record.course_uuid,
      learner_uuid: record.learner_uuid,
    };
  }
  return null;
};

const wrongLearner = () => new AppError('FORBIDDEN', MESSAGES.webhookWrongLearner);

/** The learner the action is about: the delivery's learner, or the enrolment's. */
const targetLearner = async (deps: DeliveryDeps, inbound: Inbound): Promise<string | null> => {
  if (inbound.action.type !== 'answered') return inbound.action.learner_uuid;
  const row = await deps.db
    .selectFrom('lesson_deliveries')
    .select('learner_uuid')
    .where('uuid', '=', inbound.action.delivery_uuid)
    .where('company_uuid', '=', inbound.companyUuid)
    .executeTakeFirst();
  return row?.learner_uuid ?? null;
};

/** Whether the answer given is right, judged on the lesson the delivery sent. */
const judge = async (
  deps: DeliveryDeps,
  deliveryUuid: string,
  action: Extract<InboundAction, { type: 'answered' }>,
): Promise<{ correct: boolean; text?: string }> => {
  const row = await deps.db
    .selectFrom('lesson_deliveries as d')
    .innerJoin('lessons', (join) =>
      join.onRef('lessons.course_uuid', '=', 'd.course_uuid').onRef('lessons.day', '=', 'd.day'),
    )
    .innerJoin('languages', (join) =>
      join
        .onRef('languages.uuid', '=', 'lessons.language_uuid')
        .onRef('languages.short_name', '=', 'd.language'),
    )
    .select('lessons.assessment')
    .where('d.uuid', '=', deliveryUuid)
    .executeTakeFirst();
  const assessment = row?.assessment
    ? (JSON.parse(row.assessment) as {
        type: string;
        answers?: { text: string; correct: boolean }[];
      })
    : null;
  if (assessment && assessment.type !== 'open_answer' && action.answer !== undefined) {
    const chosen = assessment.answers?.[action.answer];
    return { correct: chosen?.correct === true, text: chosen?.text };
  }
  // An open answer counts as answered; whether it is right is the trainer's call (spec §9).
  return { correct: true, ...(action.text !== undefined ? { text: action.text } : {}) };
};

/** Keeps the provider's message id; false when it was seen before (a retried webhook). */
export const claimInbound = async (
  deps: Pick<DeliveryDeps, 'db'>,
  inbound: Pick<Inbound, 'channel' | 'companyUuid' | 'providerMessageId'>,
  nowIso: string,
): Promise<boolean> => {
  const seen = await deps.db
    .insertInto('channel_inbound_messages')
    .values({
      channel: inbound.channel,
      provider_message_id: inbound.providerMessageId,
      company_uuid: inbound.companyUuid,
      received_at: nowIso,
    })
    .onConflict((oc) => oc.columns(['channel', 'provider_message_id']).doNothing())
    .executeTakeFirst();
  return Number(seen.numInsertedOrUpdatedRows ?? 0) === 1;
};

/** Applies a verified inbound action; throws 403 when someone else than the learner acted. */
export const applyInbound = async (
  deps: DeliveryDeps,
  inbound: Inbound,
): Promise<InboundResult> => {
  const actor = await learnerOfProviderUser(
    deps,
    inbound.companyUuid,
    inbound.channel,
    inbound.providerUserId,
  );
  const target = await targetLearner(deps, inbound);
  if (!actor || !target || actor !== target) throw wrongLearner();
  const nowIso = deps.clock.now().toISOString();
  if (!(await claimInbound(deps, inbound, nowIso))) return 'duplicate';
  await touchInbound(deps, actor, inbound.channel, nowIso);
  const { action } = inbound;
  const event: TChannelEvent =
    action.type === 'answered'
      ? {
          type: 'answered',
          delivery_uuid: action.delivery_uuid,
          answer: await judge(deps, action.delivery_uuid, action),
          occurred_at: nowIso,
        }
      : {
          type: action.type,
          course_uuid: action.course_uuid,
          learner_uuid: action.learner_uuid,
          occurred_at: nowIso,
        };
  try {
    const [result] = await applyChannelEvents(
      deps,
      { companyUuid: inbound.companyUuid, channel: inbound.channel },
      [event],
    );
    return result?.status ?? 'duplicate';
  } catch (error) {
    // Not applied: forget the id, so the provider's retry is not taken for a duplicate.
    await deps.db
      .deleteFrom('channel_inbound_messages')
      .where('channel', '=', inbound.channel)
      .where('provider_message_id', '=', inbound.providerMessageId)
      .execute();
    throw error;
  }
};
