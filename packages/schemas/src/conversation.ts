import { z } from 'zod';

import { dataEnvelope, ZUuidSchema } from './common.ts';
import { DELIVERY_TIME_ZONE } from './constants.ts';
import { ZChannelKeySchema, ZDeliveryFailureSchema } from './delivery.ts';
import { ZTimeZoneSchema } from './delivery-hours.ts';
import { MESSAGES } from './messages.ts';

// The learner's conversation on chat, course by course and day by day (issue 28): what was sent,
// what the channel reported back, what the learner answered and was told, reminders, repeats,
// and who paused, resumed or stopped the learner and why. docs/decisions.md ("The learner's
// conversation") says how a day is counted.

/**
 * Every step of a conversation, in the words the learner page translates
 * (`learners.conversation.events`), in the order steps of the same instant happen in a chat: the
 * lesson before its receipts, the answer before its feedback, the feedback before the question
 * is closed.
 */
export const CONVERSATION_EVENT_TYPES = [
  'invitation_sent',
  'invitation_failed',
  'opted_in',
  'declined',
  'resumed',
  'lesson_sent',
  'lesson_failed',
  'repeat_sent',
  'delivered',
  'read',
  'reminder_sent',
  'answered',
  'repeat_answered',
  'feedback_sent',
  'feedback_failed',
  'already_answered',
  'completion_sent',
  'question_closed',
  'question_not_closed',
  'missed',
  'repeat_missed',
  'paused',
  'stopped',
  'notice_sent',
] as const;
export type TConversationEventType = (typeof CONVERSATION_EVENT_TYPES)[number];

/** Who changed the enrolment: the learner (RESUME, STOP), a trainer, or the scheduler (auto-pause). */
export const CONVERSATION_ACTORS = ['learner', 'trainer', 'scheduler'] as const;
export type TConversationActor = (typeof CONVERSATION_ACTORS)[number];

/** Days of conversation one page holds by default, and at most. */
export const CONVERSATION_PAGE_DAYS = 7;
export const CONVERSATION_MAX_PAGE_DAYS = 31;

/**
 * A day is a calendar day in this time zone unless the caller names its own (the learner page
 * sends the reader's): the delivery time zone, as every other day of the product (spec §9).
 */
export const CONVERSATION_DEFAULT_TIME_ZONE = DELIVERY_TIME_ZONE;

export const ZConversationEventSchema = z.object({
  type: z.enum(CONVERSATION_EVENT_TYPES),
  at: z.string(),
  /** The lesson day the event is about; null: the enrolment's (invitation, pause, STOP). */
  day: z.number().int().min(1).nullable(),
  channel: ZChannelKeySchema,
  /** Why a lesson, an invitation or a feedback did not go (lesson_failed, invitation_failed). */
  failure: ZDeliveryFailureSchema.optional(),
  /**
   * The learner's answer (answered, repeat_answered): its text as they chose or wrote it, and
   * whether it was right (null: an open answer, nobody's call).
   */
  answer: z.object({ text: z.string().nullable(), correct: z.boolean().nullable() }).optional(),
  /** paused, resumed, stopped: who did it (CONVERSATION_ACTORS) and, for a trainer, their name. */
  by: z.string().optional(),
  by_name: z.string().nullable().optional(),
  /** paused: why (PAUSE_REASONS); notice_sent: which confirmation (paused, resumed, stopped). */
  reason: z.string().optional(),
  /** completion_sent: the learner's answers over the course, and how many were right. */
  completion: z.object({ answered: z.number().int(), right: z.number().int() }).optional(),
  /** repeat_sent: which repeat of the day's question this was (1, 2, …). */
  repeat: z.number().int().min(1).optional(),
});
export type TConversationEvent = z.infer<typeof ZConversationEventSchema>;

export const ZConversationDaySchema = z.object({
  /** YYYY-MM-DD in the page's time zone. */
  date: z.string(),
  events: z.array(ZConversationEventSchema),
});
export type TConversationDay = z.infer<typeof ZConversationDaySchema>;

/** `GET /api/v1/learners/{uuid}/conversation`: a page of days, latest last; `before` pages back. */
export const ZConversationQuerySchema = z.object({
  /** The course; absent: the learner's course with the latest activity. */
  course: ZUuidSchema.optional(),
  /** Only days before this date (YYYY-MM-DD): the previous page's `earlier`. */
  before: z
    .string({ error: MESSAGES.analyticsDateInvalid })
    .refine(
      (value) =>
        /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)),
      { message: MESSAGES.analyticsDateInvalid },
    )
    .optional(),
  days: z.coerce
    .number({ error: MESSAGES.conversationDaysRange })
    .int({ message: MESSAGES.conversationDaysRange })
    .min(1, { message: MESSAGES.conversationDaysRange })
    .max(CONVERSATION_MAX_PAGE_DAYS, { message: MESSAGES.conversationDaysRange })
    .default(CONVERSATION_PAGE_DAYS),
  /** The time zone days are counted in (IANA); default CONVERSATION_DEFAULT_TIME_ZONE. */
  tz: ZTimeZoneSchema.optional(),
});
export type TConversationQuery = z.input<typeof ZConversationQuerySchema>;

export const ZLearnerConversationSchema = z.object({
  /** The learner's courses, for the page's course selector. */
  courses: z.array(z.object({ uuid: ZUuidSchema, name: z.string(), channel: ZChannelKeySchema })),
  /** The course shown; null when the learner is in no course. */
  course: z.object({ uuid: ZUuidSchema, name: z.string() }).nullable(),
  time_zone: z.string(),
  /** Days with something in them, oldest first. */
  days: z.array(ZConversationDaySchema),
  /** Pass as `before` for the days before these; null: nothing earlier. */
  earlier: z.string().nullable(),
});
export type TLearnerConversation = z.infer<typeof ZLearnerConversationSchema>;
export const ZLearnerConversationResponseSchema = dataEnvelope(ZLearnerConversationSchema);
