import { MESSAGES } from '@ccp/schemas';
import type { TAssessment, TChannelEvent, TChannelKey } from '@ccp/schemas';

import type { Db } from '../db/index.ts';
import { AppError } from '../lib/app-error.ts';
import type { DeliveryDeps } from './enrolment.ts';
import { applyChannelEvents } from './events.ts';
import { feedbackRepository } from './feedback-repository.ts';
import { learnerOfProviderUser, touchInbound } from './identities.ts';
import { enrolmentKeyword, typedChoice } from './keywords.ts';
import type { EnrolmentKeyword } from './keywords.ts';
import { pauseRepository } from './pause.ts';
import { OPEN_ANSWER_MAX, answerInputId, textInputId } from './render-common.ts';
import { answerRepeat } from './repeats.ts';
import { answerTestLesson, answerTestReply } from './test-lesson.ts';
import type { TestAnswerDeps } from './test-lesson.ts';
import type { DeliveryWake } from './wake.ts';

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

/**
 * What applying a learner's action needs; the wake, where a scheduler runs, sends feedback at
 * once. A webhook's deps (the app) also carry what a test lesson's feedback goes through.
 */
export type InboundDeps = DeliveryDeps & { deliveryWake?: DeliveryWake } & TestAnswerDeps;

/** `ignored`: nothing of ours to record (a choice without an answer, a message answering nothing). */
export type InboundResult = 'recorded' | 'duplicate' | 'ignored';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An open answer as kept: trimmed, at most OPEN_ANSWER_MAX characters; undefined when blank. */
const answerText = (value: unknown): string | undefined => {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return text === '' ? undefined : [...text].slice(0, OPEN_ANSWER_MAX).join('');
};

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
    // A card asking several questions names each one's input by its lesson send (repeatsCardBody).
    const uuid = record.delivery_uuid;
    const answer = Number(record.answer ?? record[answerInputId(uuid)]);
    const text = answerText(record.text ?? record[textInputId(uuid)]);
    return {
      type: 'answered',
      delivery_uuid: record.delivery_uuid,
      ...(Number.isInteger(answer) && answer >= 0 ? { answer } : {}),
      ...(text !== undefined ? { text } : {}),
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

/** Lesson sends (`d`) with the lesson each sent: its day, in the send's language. */
const withLesson = (db: Db) =>
  db
    .selectFrom('lesson_deliveries as d')
    .innerJoin('lessons', (join) =>
      join.onRef('lessons.course_uuid', '=', 'd.course_uuid').onRef('lessons.day', '=', 'd.day'),
    )
    .innerJoin('languages', (join) =>
      join
        .onRef('languages.uuid', '=', 'lessons.language_uuid')
        .onRef('languages.short_name', '=', 'd.language'),
    );

/**
 * Whether the answer given is right, judged on the lesson the delivery sent; null when it is no
 * answer to that question (a choice without a valid index, an open question without text).
 */
const judge = async (
  deps: DeliveryDeps,
  deliveryUuid: string,
  action: Extract<InboundAction, { type: 'answered' }>,
): Promise<{ correct: boolean; text?: string; index?: number } | null> => {
  const row = await withLesson(deps.db)
    .select('lessons.assessment')
    .where('d.uuid', '=', deliveryUuid)
    .executeTakeFirst();
  const assessment = row?.assessment ? (JSON.parse(row.assessment) as TAssessment) : null;
  // No question: the events handling refuses the answer in the user's words.
  if (!assessment) return { correct: true };
  if (assessment.type !== 'open_answer') {
    const chosen = action.answer === undefined ? undefined : assessment.answers[action.answer];
    return chosen ? { correct: chosen.correct, text: chosen.text, index: action.answer } : null;
  }
  // An open answer counts as answered; whether it is right is the trainer's call (spec §9).
  return action.text === undefined ? null : { correct: true, text: action.text };
};

type TypedReply = {
  companyUuid: string;
  channel: TChannelKey;
  learnerUuid: string;
  text: string;
  /** Lesson sends the learner has not seen yet (WhatsApp's, waiting for the window). */
  exclude?: string[];
};

/**
 * The learner's latest question on the channel still waiting for an answer: a lesson's (sent,
 * neither answered nor missed), or one asked again ("Repeat questions until they stick": the
 * repeat sent and unanswered, known by its lesson send). Of two asked at once (one message with
 * a day's repeats) the first in the message.
 */
const waitingQuestion = async (db: Db, reply: TypedReply) => {
  const exclude = reply.exclude ?? [];
  const ofLearner = () =>
    withLesson(db)
      .where('d.company_uuid', '=', reply.companyUuid)
      .where('d.learner_uuid', '=', reply.learnerUuid)
      .where('d.channel', '=', reply.channel)
      .where('lessons.assessment', 'is not', null)
      .$if(exclude.length > 0, (query) => query.where('d.uuid', 'not in', exclude));
  const [lesson, repeat] = await Promise.all([
    ofLearner()
      .select(['d.uuid', 'lessons.assessment', 'd.sent_at as asked_at'])
      .where('d.status', '=', 'sent')
      .where('d.answered_at', 'is', null)
      .where('d.missed_at', 'is', null)
      .orderBy('d.sent_at', 'desc')
      .limit(1)
      .executeTakeFirst(),
    ofLearner()
      .innerJoin('question_repeats as r', 'r.delivery_uuid', 'd.uuid')
      .select(['d.uuid', 'lessons.assessment', 'r.sent_at as asked_at'])
      .where('r.status', '=', 'sent')
      .orderBy('r.sent_at', 'desc')
      .orderBy('d.uuid')
      .limit(1)
      .executeTakeFirst(),
  ]);
  if (!lesson || !repeat) return lesson ?? repeat;
  return (repeat.asked_at ?? '') >= (lesson.asked_at ?? '') ? repeat : lesson;
};

/**
 * A message the learner typed in the chat (not a button) as an answer to their waiting question
 * (waitingQuestion): any text an open question; for a choice question the answer it names
 * (typedChoice: "2", "B", the answer's text, TRUE / vero / wahr). Null when it answers nothing.
 */
export const replyAction = async (
  deps: Pick<DeliveryDeps, 'db'>,
  reply: TypedReply,
): Promise<InboundAction | null> => {
  const text = answerText(reply.text);
  if (text === undefined) return null;
  const waiting = await waitingQuestion(deps.db, reply);
  if (!waiting?.assessment) return null;
  const assessment = JSON.parse(waiting.assessment) as TAssessment;
  if (assessment.type === 'open_answer') {
    return { type: 'answered', delivery_uuid: waiting.uuid, text };
  }
  const index = typedChoice(assessment, text);
  return index === null ? null : { type: 'answered', delivery_uuid: waiting.uuid, answer: index };
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
export const applyInbound = async (deps: InboundDeps, inbound: Inbound): Promise<InboundResult> => {
  // An administrator's answer to their own test lesson (issue 29) is no learner's.
  const tested = await answerTestLesson(deps, inbound);
  if (tested) return tested;
  const actor = await learnerOfProviderUser(
    deps,
    inbound.companyUuid,
    inbound.channel,
    inbound.providerUserId,
  );
  const target = await targetLearner(deps, inbound);
  if (!actor || !target || actor !== target) throw wrongLearner();
  const nowIso = deps.clock.now().toISOString();
  const { action } = inbound;
  let event: TChannelEvent;
  let chosen: number | undefined;
  let right = false;
  if (action.type === 'answered') {
    const answer = await judge(deps, action.delivery_uuid, action);
    if (!answer) return 'ignored';
    const { index, ...judged } = answer;
    chosen = index;
    right = judged.correct;
    event = {
      type: 'answered',
      delivery_uuid: action.delivery_uuid,
      answer: judged,
      occurred_at: nowIso,
    };
  } else {
    event = {
      type: action.type,
      course_uuid: action.course_uuid,
      learner_uuid: action.learner_uuid,
      occurred_at: nowIso,
    };
  }
  if (!(await claimInbound(deps, inbound, nowIso))) return 'duplicate';
  await touchInbound(deps, actor, inbound.channel, nowIso);
  try {
    // The question came back ("Repeat questions until they stick"): the answer is the repeat's.
    const answer = {
      correct: right,
      index: chosen ?? null,
      ...(event.type === 'answered' && event.answer?.text !== undefined
        ? { text: event.answer.text }
        : {}),
    };
    if (
      action.type === 'answered' &&
      (await answerRepeat(deps.db, action.delivery_uuid, answer, nowIso))
    ) {
      deps.deliveryWake?.notify();
      return 'recorded';
    }
    const [result] = await applyChannelEvents(
      deps,
      { companyUuid: inbound.companyUuid, channel: inbound.channel },
      [event],
    );
    const status = result?.status ?? 'duplicate';
    // The learner hears back: the answer's feedback, or that a second answer no longer counts.
    if (action.type === 'answered') {
      await feedbackRepository.queue(deps.db, action.delivery_uuid, {
        first: status === 'recorded',
        answerIndex: chosen ?? null,
        at: nowIso,
      });
      deps.deliveryWake?.notify();
    }
    return status;
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

/** RESUME resumes what is paused; with nothing paused, the learner hears their course goes on. */
const resumeOrConfirm = async (
  deps: InboundDeps,
  learner: { companyUuid: string; learnerUuid: string; channel: TChannelKey },
): Promise<number> => {
  const paused = await pauseRepository.pausedOnChannel(deps.db, learner);
  if (paused.length === 0) return pauseRepository.confirmRunning(deps, learner);
  return (await pauseRepository.resume(deps, paused)).length;
};

/**
 * A learner's STOP ends their enrolments on the channel; RESUME (RIPRENDI, WEITER) resumes their
 * paused ones there. The learner is told at once (the wake sends the notice). `ignored` when there
 * was nothing to stop or resume.
 */
const applyKeyword = async (
  deps: InboundDeps,
  inbound: Omit<Inbound, 'action'>,
  learnerUuid: string,
  keyword: EnrolmentKeyword,
): Promise<InboundResult> => {
  const nowIso = deps.clock.now().toISOString();
  if (!(await claimInbound(deps, inbound, nowIso))) return 'duplicate';
  await touchInbound(deps, learnerUuid, inbound.channel, nowIso);
  const learner = { companyUuid: inbound.companyUuid, learnerUuid, channel: inbound.channel };
  const changed =
    keyword === 'stop'
      ? await pauseRepository.stop(deps, learner)
      : await resumeOrConfirm(deps, learner);
  if (changed === 0) return 'ignored';
  deps.deliveryWake?.notify();
  return 'recorded';
};

/**
 * A message a provider user typed: STOP or RESUME changes their enrolments (applyKeyword); when
 * it answers their waiting question (replyAction) it is applied like a tap; otherwise it only
 * counts as the learner writing (WhatsApp's window).
 */
export const applyReply = async (
  deps: InboundDeps,
  reply: Omit<Inbound, 'action'> & { text: string; exclude?: string[] },
): Promise<InboundResult> => {
  const { text, exclude, ...inbound } = reply;
  // A provider's retry of a reply already taken: once it was applied nothing is waiting, so it
  // must be known by its id before asking what it answers.
  const seen = await deps.db
    .selectFrom('channel_inbound_messages')
    .select('provider_message_id')
    .where('channel', '=', inbound.channel)
    .where('provider_message_id', '=', inbound.providerMessageId)
    .executeTakeFirst();
  if (seen) return 'duplicate';
  // "2" typed back to the administrator's test lesson they were just sent (issue 29).
  const tested = await answerTestReply(deps, { ...inbound, text });
  if (tested) return tested;
  const learner = await learnerOfProviderUser(
    deps,
    inbound.companyUuid,
    inbound.channel,
    inbound.providerUserId,
  );
  if (!learner) return 'ignored';
  // Before any answer: STOP must always work (WhatsApp's opt-out policy), even as an open answer.
  const keyword = enrolmentKeyword(text);
  if (keyword) return applyKeyword(deps, inbound, learner, keyword);
  const action = await replyAction(deps, {
    companyUuid: inbound.companyUuid,
    channel: inbound.channel,
    learnerUuid: learner,
    text,
    exclude,
  });
  if (!action) {
    await touchInbound(deps, learner, inbound.channel, deps.clock.now().toISOString());
    return 'ignored';
  }
  return applyInbound(deps, { ...inbound, action });
};
