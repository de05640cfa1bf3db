import type { TConversationEvent } from '@ccp/schemas';

// How the learner page tells each step of a conversation (issue 28): which text
// (`learners.conversation.events.<key>`) with which values, who spoke (the course or the
// learner: the side of the chat it sits on) and its tone (the Timeline's colour).

export type ConversationTone = 'blue' | 'green' | 'red' | 'orange' | 'gray';
export type ConversationSide = 'course' | 'learner';

export type ConversationLine = {
  key: string;
  params: Record<string, string | number>;
  side: ConversationSide;
  tone: ConversationTone;
};

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** What the learner did themselves; everything else is the course (or a trainer) speaking. */
const LEARNER_STEPS = new Set<TConversationEvent['type']>([
  'opted_in',
  'declined',
  'delivered',
  'read',
  'answered',
  'repeat_answered',
  'stopped',
]);

/** The confirmations a learner is sent (the API's `reason` of notice_sent). */
const NOTICES = new Set(['paused', 'resumed', 'stopped']);

const toneOfAnswer = (event: TConversationEvent): ConversationTone =>
  event.answer?.correct === true ? 'green' : event.answer?.correct === false ? 'red' : 'blue';

/** The text key of an event, its values and tone; `t` names channels and the unknown trainer. */
export const conversationLine = (event: TConversationEvent, t: Translate): ConversationLine => {
  const params: Record<string, string | number> = {
    day: event.day ?? '',
    channel: t(`courses.wizard.channels.${event.channel}`),
    reason: event.failure?.message ?? '',
    answer: event.answer?.text ?? '—',
    name: event.by_name ?? t('learners.conversation.aTrainer'),
    repeat: event.repeat ?? 1,
    answered: event.completion?.answered ?? 0,
    right: event.completion?.right ?? 0,
  };
  const side: ConversationSide =
    LEARNER_STEPS.has(event.type) || (event.type === 'resumed' && event.by === 'learner')
      ? 'learner'
      : 'course';
  const line = (key: string, tone: ConversationTone): ConversationLine => ({
    key,
    params,
    side,
    tone,
  });
  switch (event.type) {
    case 'lesson_failed':
    case 'invitation_failed':
    case 'feedback_failed':
    case 'question_not_closed':
    case 'declined':
      return line(event.type, 'red');
    case 'answered':
    case 'repeat_answered':
      return line(event.type, toneOfAnswer(event));
    case 'missed':
    case 'repeat_missed':
      return line(event.type, 'orange');
    case 'paused':
      return line(event.reason === 'trainer' ? 'paused_trainer' : 'paused_unanswered', 'orange');
    case 'resumed':
      return line(
        event.by === 'learner'
          ? 'resumed_learner'
          : event.by === 'trainer'
            ? 'resumed_trainer'
            : 'resumed',
        'green',
      );
    case 'stopped':
      return line('stopped', 'red');
    case 'notice_sent':
      return line(
        NOTICES.has(event.reason ?? '') ? `notice_${event.reason}` : 'notice_sent',
        'gray',
      );
    case 'delivered':
    case 'read':
    case 'question_closed':
      return line(event.type, 'gray');
    case 'opted_in':
    case 'completion_sent':
      return line(event.type, 'green');
    default:
      return line(event.type, 'blue');
  }
};
