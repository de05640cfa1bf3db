import { z } from 'zod';

import { dataEnvelope, ZUuidSchema } from './common.ts';
import { CHANNEL_KEYS } from './constants.ts';
import { MESSAGES } from './messages.ts';

// The delivery model (issue 5): enrolments, lesson sends and the events a channel reports back.
// docs/delivery.md describes the states and the endpoint; these are their wire shapes.

// Calendar arithmetic the scheduler shares with the delivery window rule.
export { addCalendarDays, addCalendarMonths } from './course-distribution.ts';

/**
 * invited: waiting for the GDPR opt-in; dropped: never opted in before enrolment closed, left the
 * lists, or wrote STOP (issue 28). A paused learner stays enrolled (`paused_at`, `pause_reason`):
 * still one of the course's enrolled learners in every figure, with their lessons held.
 */
export const ENROLLMENT_STATUSES = [
  'invited',
  'enrolled',
  'declined',
  'completed',
  'dropped',
] as const;
export type TEnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];

/**
 * Why a learner gets no more lessons (issue 28): paused after the course's number of unanswered
 * lessons, by a trainer, or ended because they wrote STOP (status dropped).
 */
export const PAUSE_REASONS = ['unanswered', 'trainer', 'stop'] as const;
export type TPauseReason = (typeof PAUSE_REASONS)[number];

/** `sending` only while the scheduler holds the row between claiming it and the channel's answer. */
export const DELIVERY_STATUSES = ['scheduled', 'sending', 'sent', 'failed', 'canceled'] as const;
export type TDeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * Why a lesson or an invitation did not go (issue 25): one word a trainer is told in their
 * language (locales `enum.delivery_failure.<reason>`), whatever the provider called it; the
 * provider's own code and words are kept beside it as the detail.
 */
export const DELIVERY_FAILURE_REASONS = [
  /** No working connection to the provider: none, disconnected, or the demo sample. */
  'channel_not_connected',
  /** The connection's last test failed (a revoked token, a wrong secret). */
  'channel_connection_error',
  /** The learner has no e-mail or phone number for the channel. */
  'no_contact',
  /** The provider knows no user with the learner's e-mail or number. */
  'learner_not_found',
  /** The learner has not installed or added the app yet (Teams, Google Chat, Webex). */
  'app_not_installed',
  /** The provider refused the connection's credentials or scopes. */
  'auth_failed',
  /** The provider refused the message itself (its format, its size). */
  'message_rejected',
  /** WhatsApp: outside the 24-hour window and no template could go. */
  'window_closed',
  /** The provider asked to slow down; tried again later. */
  'rate_limited',
  /** The provider did not answer or failed on its side, after retries. */
  'provider_unavailable',
  /** The provider took too long: the message may have arrived, so it is not sent twice. */
  'unknown_outcome',
  /** The server stopped while sending: it may have arrived, so it is not sent twice. */
  'interrupted',
  /** The provider reported it undeliverable after accepting it. */
  'undeliverable',
  /** Any other refusal; the detail says the provider's words. */
  'provider_error',
] as const;
export type TDeliveryFailureReason = (typeof DELIVERY_FAILURE_REASONS)[number];

/** A refusal that waits this long at most inside a tick; a longer one is tried at a later tick. */
export const INLINE_RATE_LIMIT_WAIT_MS = 5_000;

/** Every type in the learner event log. */
export const LEARNER_EVENT_TYPES = [
  'delivered',
  'read',
  'answered',
  'missed',
  'reminder',
  'opted_in',
  'declined',
  // The answered question's message could not be edited (issue 28); the feedback went anyway.
  'question_not_closed',
] as const;
export type TLearnerEventType = (typeof LEARNER_EVENT_TYPES)[number];

/** The types a channel may report; `missed` and `reminder` are the scheduler's own. */
export const CHANNEL_EVENT_TYPES = [
  'delivered',
  'read',
  'answered',
  'opted_in',
  'declined',
] as const;
export type TChannelEventType = (typeof CHANNEL_EVENT_TYPES)[number];

/** Events about one lesson send name it by `delivery_uuid`; the enrolment answers name the pair. */
export const DELIVERY_EVENT_TYPES: readonly TChannelEventType[] = ['delivered', 'read', 'answered'];

/** One unread reminder, this many hours after the lesson was delivered (spec: "reminder sent"). */
export const REMINDER_AFTER_HOURS = 24;
export const MAX_CHANNEL_EVENTS_PER_REQUEST = 500;

export const ZChannelKeySchema = z.enum(CHANNEL_KEYS);
export const ZChannelParamsSchema = z.object({ channel: ZChannelKeySchema });
export const ZChannelTokenParamsSchema = z.object({
  channel: ZChannelKeySchema,
  tokenUuid: ZUuidSchema,
});

export const ZChannelEventAnswerSchema = z.object(
  {
    correct: z.boolean({ error: MESSAGES.channelEventAnswerInvalid }),
    text: z.string({ error: MESSAGES.channelEventAnswerInvalid }).max(2000).optional(),
  },
  { error: MESSAGES.channelEventAnswerInvalid },
);
export type TChannelEventAnswer = z.infer<typeof ZChannelEventAnswerSchema>;

/**
 * One event a channel reports. `delivered`, `read` and `answered` name the lesson send by
 * `delivery_uuid` (`answered` also carries the `answer`); `opted_in` and `declined` name the
 * enrolment by `course_uuid` and `learner_uuid`.
 */
export const ZChannelEventSchema = z
  .object({
    type: z.enum(CHANNEL_EVENT_TYPES, { error: MESSAGES.channelEventTypeInvalid }),
    delivery_uuid: ZUuidSchema.optional(),
    course_uuid: ZUuidSchema.optional(),
    learner_uuid: ZUuidSchema.optional(),
    answer: ZChannelEventAnswerSchema.optional(),
    occurred_at: z.iso.datetime({ offset: true, error: MESSAGES.channelEventOccurredAtInvalid }),
  })
  .superRefine((event, ctx) => {
    if (DELIVERY_EVENT_TYPES.includes(event.type)) {
      if (!event.delivery_uuid) {
        ctx.addIssue({
          code: 'custom',
          path: ['delivery_uuid'],
          message: MESSAGES.channelEventDeliveryRequired,
        });
      }
    } else {
      for (const key of ['course_uuid', 'learner_uuid'] as const) {
        if (!event[key]) {
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: MESSAGES.channelEventLearnerRequired,
          });
        }
      }
    }
    if (event.type === 'answered' && !event.answer) {
      ctx.addIssue({
        code: 'custom',
        path: ['answer'],
        message: MESSAGES.channelEventAnswerRequired,
      });
    }
  });
export type TChannelEvent = z.infer<typeof ZChannelEventSchema>;

/** `POST /api/v1/channels/{channel}/events`. */
export const ZChannelEventsRequestSchema = z.object({
  events: z
    .array(ZChannelEventSchema, { error: MESSAGES.channelEventsCount })
    .min(1, { message: MESSAGES.channelEventsCount })
    .max(MAX_CHANNEL_EVENTS_PER_REQUEST, { message: MESSAGES.channelEventsCount }),
});
export type TChannelEventsRequest = z.infer<typeof ZChannelEventsRequestSchema>;

/** `recorded`: it changed the delivery or enrolment; `duplicate`: already known, nothing counted. */
export const ZChannelEventResultSchema = z.object({
  index: z.number().int(),
  type: z.enum(CHANNEL_EVENT_TYPES),
  status: z.enum(['recorded', 'duplicate']),
});
export type TChannelEventResult = z.infer<typeof ZChannelEventResultSchema>;

export const ZChannelEventsResponseSchema = dataEnvelope(
  z.object({
    received: z.number().int(),
    recorded: z.number().int(),
    duplicates: z.number().int(),
    results: z.array(ZChannelEventResultSchema),
  }),
);
export type TChannelEventsResponse = z.infer<typeof ZChannelEventsResponseSchema>;

/** A channel token as listed: the secret itself is shown only once, when created. */
export const ZChannelTokenSchema = z.object({
  uuid: ZUuidSchema,
  channel: ZChannelKeySchema,
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});
export type TChannelToken = z.infer<typeof ZChannelTokenSchema>;

export const ZCreatedChannelTokenSchema = ZChannelTokenSchema.extend({ token: z.string() });
export type TCreatedChannelToken = z.infer<typeof ZCreatedChannelTokenSchema>;

export const ZCreatedChannelTokenResponseSchema = dataEnvelope(ZCreatedChannelTokenSchema);
export const ZChannelTokenResponseSchema = dataEnvelope(ZChannelTokenSchema);
export const ZListChannelTokensResponseSchema = dataEnvelope(z.array(ZChannelTokenSchema));

// --- What was sent to a learner, what did not go and why, and resending it (issue 25) ---

/** Why a lesson or an invitation did not go: the reason word, its text, the provider's words. */
export const ZDeliveryFailureSchema = z.object({
  reason: z.enum(DELIVERY_FAILURE_REASONS),
  /** The reason in the caller's language (Accept-Language). */
  message: z.string(),
  /** The provider's own code and words, as it said them. */
  detail: z.string(),
});
export type TDeliveryFailure = z.infer<typeof ZDeliveryFailureSchema>;

/** One lesson day sent (or not) to the learner. */
export const ZLessonSendSchema = z.object({
  uuid: ZUuidSchema,
  day: z.number().int().min(1),
  channel: ZChannelKeySchema,
  status: z.enum(DELIVERY_STATUSES),
  scheduled_for: z.string(),
  sent_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  read_at: z.string().nullable(),
  answered_at: z.string().nullable(),
  /** The provider's id of the message that carried it. */
  provider_message_id: z.string().nullable(),
  /** Set while a provider asked to wait: when it is tried again. */
  next_attempt_at: z.string().nullable(),
  failure: ZDeliveryFailureSchema.nullable(),
  /** The caller may resend it (failed, and an administrator or the course's creator). */
  resendable: z.boolean(),
});
export type TLessonSend = z.infer<typeof ZLessonSendSchema>;

/** The learner's part in one course: the opt-in invitation and each lesson day. */
export const ZLearnerCourseDeliverySchema = z.object({
  course: z.object({
    uuid: ZUuidSchema,
    classroom_uuid: ZUuidSchema,
    name: z.string(),
    status: z.string(),
  }),
  enrollment: z.object({
    uuid: ZUuidSchema,
    status: z.enum(ENROLLMENT_STATUSES),
    channel: ZChannelKeySchema,
    /**
     * Why the learner gets no more lessons (one of PAUSE_REASONS: paused, or dropped after STOP);
     * null otherwise. A string in the schema: the OpenAPI of a nullable enum leaves out the null.
     */
    pause_reason: z.string().nullable(),
    paused_at: z.string().nullable(),
    /** Whether the caller may resume the learner (paused, and an administrator or the creator). */
    resumable: z.boolean(),
    /** Whether the caller may pause the learner (enrolled, not paused; admin or creator). */
    pausable: z.boolean(),
  }),
  invitation: z
    .object({
      sent_at: z.string().nullable(),
      failure: ZDeliveryFailureSchema.nullable(),
      /** When a failed invitation is tried again by itself; null: it waits for a resend. */
      retry_at: z.string().nullable(),
      resendable: z.boolean(),
    })
    .nullable(),
  lessons: z.array(ZLessonSendSchema),
});
export type TLearnerCourseDelivery = z.infer<typeof ZLearnerCourseDeliverySchema>;
export const ZLearnerDeliveriesResponseSchema = dataEnvelope(z.array(ZLearnerCourseDeliverySchema));

export const ZEnrolmentParamsSchema = z.object({ uuid: ZUuidSchema, enrollmentUuid: ZUuidSchema });
/** A paused learner resumed by a trainer: the enrolment again, with its next lesson. */
export const ZResumeResponseSchema = dataEnvelope(
  z.object({
    uuid: ZUuidSchema,
    status: z.enum(ENROLLMENT_STATUSES),
    /** Why the learner is paused (PAUSE_REASONS); null once resumed. */
    pause_reason: z.string().nullable(),
    next_lesson_at: z.string().nullable(),
  }),
);

/** A course's lessons and invitations that did not go (the course report). */
export const ZCourseDeliveryFailureSchema = z.object({
  kind: z.enum(['lesson', 'invitation']),
  /** The lesson send's uuid, or the enrolment's for an invitation. */
  uuid: ZUuidSchema,
  learner: z.object({ uuid: ZUuidSchema, first_name: z.string(), last_name: z.string() }),
  channel: ZChannelKeySchema,
  /** The lesson day; null for an invitation. */
  day: z.number().int().min(1).nullable(),
  at: z.string(),
  failure: ZDeliveryFailureSchema,
});
export type TCourseDeliveryFailure = z.infer<typeof ZCourseDeliveryFailureSchema>;
export const ZCourseDeliveryFailuresResponseSchema = dataEnvelope(
  z.object({
    items: z.array(ZCourseDeliveryFailureSchema),
    /** The caller may resend them (an administrator or the course's creator). */
    resendable: z.boolean(),
  }),
);

/** Resend failed lessons and invitations of a course: these ones, or all that failed. */
export const ZResendRequestSchema = z
  .object({
    lessons: z.array(ZUuidSchema).max(10_000).optional(),
    invitations: z.array(ZUuidSchema).max(10_000).optional(),
    all_failed: z.boolean().optional(),
  })
  .refine(
    (body) =>
      body.all_failed === true || (body.lessons?.length ?? 0) + (body.invitations?.length ?? 0) > 0,
    {
      message: MESSAGES.resendNothing,
    },
  );
export type TResendRequest = z.infer<typeof ZResendRequestSchema>;
export const ZResendResponseSchema = dataEnvelope(
  z.object({ lessons: z.number().int().min(0), invitations: z.number().int().min(0) }),
);
