import { CONVERSATION_EVENT_TYPES } from '@ccp/schemas';
import type {
  TAssessment,
  TConversationDay,
  TConversationEvent,
  TDeliveryFailure,
} from '@ccp/schemas';

import type { ConversationSources } from './conversation-repository.ts';

// The learner's conversation in one course (issue 28), made of what the delivery code recorded:
// a lesson send's own columns (sent or failed, delivered, read, answered), the learner events
// (reminders, feedback, repeats, questions closed or missed, pause, resume, STOP) and the
// enrolment (invitation). Sorted in the order things happened and grouped by calendar day in the
// reader's time zone; the route pages the days.

type Sources = ConversationSources;
type Send = Sources['sends'][number];
type Logged = Sources['events'][number];
type Failure = (code: string, detail: string | null) => TConversationEvent['failure'];

/** A failed lesson kept before reasons were (0025): the provider's refusal, unnamed. */
const LEGACY_FAILURE = 'provider_error';

// Steps of the same instant in the order the schema lists them (a chat's order).
const rank = new Map(CONVERSATION_EVENT_TYPES.map((type, index) => [type, index]));

const payloadOf = (event: Logged): Record<string, unknown> => {
  try {
    const value: unknown = JSON.parse(event.payload ?? '{}');
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

const textOf = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The question a send asked, in its language. */
const assessmentOf = (sources: Sources, send: Send): TAssessment | null => {
  const row = sources.assessments.find(
    (lesson) => lesson.day === send.day && lesson.language === send.language,
  );
  return row?.assessment ? (JSON.parse(row.assessment) as TAssessment) : null;
};

/** The lesson send's own steps: sent (or failed), delivered, read, answered. */
const sendSteps = (
  sources: Sources,
  send: Send,
  answerText: string | null,
  failure: Failure,
): TConversationEvent[] => {
  const base = { day: send.day, channel: send.channel };
  if (send.status === 'failed') {
    const why = failure(send.failure_code ?? LEGACY_FAILURE, send.failure_detail);
    return [{ ...base, type: 'lesson_failed', at: send.updated_at, failure: why }];
  }
  if (send.status !== 'sent' || !send.sent_at) return [];
  const steps: TConversationEvent[] = [{ ...base, type: 'lesson_sent', at: send.sent_at }];
  if (send.delivered_at) steps.push({ ...base, type: 'delivered', at: send.delivered_at });
  if (send.read_at) steps.push({ ...base, type: 'read', at: send.read_at });
  if (send.answered_at) {
    const assessment = assessmentOf(sources, send);
    const open = !assessment || assessment.type === 'open_answer';
    const chosen =
      assessment && !open && send.answer_index !== null
        ? assessment.answers[send.answer_index]?.text
        : undefined;
    steps.push({
      ...base,
      type: 'answered',
      at: send.answered_at,
      answer: {
        text: answerText ?? chosen ?? null,
        correct: open || send.answer_correct === null ? null : send.answer_correct === 1,
      },
    });
  }
  return steps;
};

/** A feedback logged by the scheduler: what was told, or that it did not go. */
const feedbackSteps = (
  base: Omit<TConversationEvent, 'type'>,
  payload: Record<string, unknown>,
) => {
  if (payload.sent !== true) return [{ ...base, type: 'feedback_failed' as const }];
  if (payload.kind === 'already_answered') return [{ ...base, type: 'already_answered' as const }];
  const steps: TConversationEvent[] = [{ ...base, type: 'feedback_sent' }];
  const completion = payload.completion as { answered?: unknown; right?: unknown } | undefined;
  if (completion) {
    steps.push({
      ...base,
      type: 'completion_sent',
      completion: { answered: Number(completion.answered), right: Number(completion.right) },
    });
  }
  return steps;
};

/** What the scheduler and the channels logged about one lesson send, as conversation steps. */
const loggedSteps = (send: Send, events: Logged[]): TConversationEvent[] => {
  const steps: TConversationEvent[] = [];
  let repeats = 0;
  for (const event of events) {
    const base = { at: event.occurred_at, day: send.day, channel: send.channel };
    const payload = payloadOf(event);
    switch (event.type) {
      case 'reminder':
        steps.push({ ...base, type: 'reminder_sent' });
        break;
      case 'missed':
      case 'question_closed':
      case 'question_not_closed':
      case 'repeat_missed':
        steps.push({ ...base, type: event.type });
        break;
      case 'feedback':
        steps.push(...feedbackSteps(base, payload));
        break;
      case 'repeat_sent':
        repeats += 1;
        steps.push({ ...base, type: 'repeat_sent', repeat: repeats });
        break;
      case 'repeat_answered':
        steps.push({
          ...base,
          type: 'repeat_answered',
          answer: {
            text: textOf(payload.text),
            correct: event.correct === null ? null : event.correct === 1,
          },
        });
        break;
      case 'notice':
        steps.push({ ...base, type: 'notice_sent', reason: textOf(payload.notice) ?? '' });
        break;
      default:
        // delivered, read and answered are read from the send's columns (sendSteps).
        break;
    }
  }
  // A feedback sent before the conversation was logged: its columns keep when it last went.
  if (!events.some((event) => event.type === 'feedback') && send.feedback_at) {
    const base = { at: send.feedback_at, day: send.day, channel: send.channel };
    if (send.feedback_status === 'sent') steps.push({ ...base, type: 'feedback_sent' });
    if (send.feedback_status === 'failed') steps.push({ ...base, type: 'feedback_failed' });
  }
  return steps;
};

/** The first answer's text as the channel reported it (the one that counts). */
const answerTextOf = (events: Logged[]): string | null => {
  for (const event of events) {
    if (event.type !== 'answered') continue;
    const text = textOf(payloadOf(event).text);
    if (text !== null) return text;
  }
  return null;
};

/** Who changed the enrolment, as logged. */
const actorOf = (payload: Record<string, unknown>) => ({
  ...(typeof payload.by === 'string' ? { by: payload.by } : {}),
  ...(typeof payload.user_name === 'string' ? { by_name: payload.user_name } : {}),
});

/** The enrolment's own steps: the invitation and its answer, pauses, resumes, STOP. */
const enrolmentSteps = (
  sources: Sources,
  events: Logged[],
  failure: Failure,
): TConversationEvent[] => {
  const { enrolment } = sources;
  const base = { day: null, channel: enrolment.channel };
  const steps: TConversationEvent[] = [];
  if (enrolment.invitation_sent_at) {
    steps.push({ ...base, type: 'invitation_sent', at: enrolment.invitation_sent_at });
  }
  if (enrolment.invitation_failure_code && enrolment.invitation_failed_at) {
    steps.push({
      ...base,
      type: 'invitation_failed',
      at: enrolment.invitation_failed_at,
      failure: failure(enrolment.invitation_failure_code, enrolment.invitation_failure_detail),
    });
  }
  for (const event of events) {
    const at = event.occurred_at;
    const payload = payloadOf(event);
    if (event.type === 'opted_in' || event.type === 'declined') {
      steps.push({ ...base, type: event.type, at });
    } else if (event.type === 'paused') {
      steps.push({
        ...base,
        type: 'paused',
        at,
        reason: textOf(payload.reason) ?? '',
        ...actorOf(payload),
      });
    } else if (event.type === 'resumed' || event.type === 'stopped') {
      steps.push({ ...base, type: event.type, at, ...actorOf(payload) });
    }
  }
  return [...steps, ...unloggedPause(sources, events)];
};

/**
 * A pause, STOP or resume from before they were logged: the enrolment's columns keep the last
 * one (who did it follows from why, except for a trainer's name).
 */
const unloggedPause = (sources: Sources, events: Logged[]): TConversationEvent[] => {
  const { enrolment } = sources;
  const base = { day: null, channel: enrolment.channel };
  const logged = new Set(events.map((event) => event.type));
  const steps: TConversationEvent[] = [];
  if (enrolment.resumed_at && !logged.has('resumed')) {
    steps.push({ ...base, type: 'resumed', at: enrolment.resumed_at });
  }
  if (!enrolment.paused_at || logged.has('paused') || logged.has('stopped')) return steps;
  const reason = enrolment.pause_reason ?? '';
  if (reason === 'stop') {
    steps.push({ ...base, type: 'stopped', at: enrolment.paused_at, by: 'learner' });
  } else {
    const by = reason === 'unanswered' ? 'scheduler' : 'trainer';
    steps.push({ ...base, type: 'paused', at: enrolment.paused_at, reason, by });
  }
  return steps;
};

/** Every step of the enrolment's conversation, in the order they happened. */
export const conversationEvents = (
  sources: Sources,
  failure: (code: string, detail: string | null) => TDeliveryFailure,
): TConversationEvent[] => {
  const bySend = new Map<string | null, Logged[]>();
  for (const event of sources.events) {
    const list = bySend.get(event.delivery_uuid);
    if (list) list.push(event);
    else bySend.set(event.delivery_uuid, [event]);
  }
  const steps = enrolmentSteps(sources, bySend.get(null) ?? [], failure);
  for (const send of sources.sends) {
    const events = bySend.get(send.uuid) ?? [];
    steps.push(...sendSteps(sources, send, answerTextOf(events), failure));
    steps.push(...loggedSteps(send, events));
  }
  return steps.sort(
    (a, b) =>
      a.at.localeCompare(b.at) ||
      (rank.get(a.type) ?? 0) - (rank.get(b.type) ?? 0) ||
      (a.day ?? 0) - (b.day ?? 0),
  );
};

/** The calendar date (YYYY-MM-DD) of an instant in a time zone. */
export const dateIn = (timeZone: string) => {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  return (iso: string): string => {
    const parts = format.formatToParts(new Date(iso));
    const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? '';
    return `${part('year')}-${part('month')}-${part('day')}`;
  };
};

/**
 * The days with something in them, oldest first: the last `days` of them before `before` (all
 * when absent), and the date to ask for the ones before (null: none).
 */
export const pageOfDays = (
  events: TConversationEvent[],
  page: { timeZone: string; before?: string; days: number },
): { days: TConversationDay[]; earlier: string | null } => {
  const dateOf = dateIn(page.timeZone);
  const days: TConversationDay[] = [];
  for (const event of events) {
    const date = dateOf(event.at);
    if (page.before && date >= page.before) continue;
    const last = days.at(-1);
    if (last?.date === date) last.events.push(event);
    else days.push({ date, events: [event] });
  }
  const shown = days.slice(-page.days);
  return { days: shown, earlier: days.length > shown.length ? (shown[0]?.date ?? null) : null };
};
