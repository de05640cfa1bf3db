import { z } from 'zod';

import {
  ASSESSMENT_TYPES,
  CHANNEL_KEYS,
  MAX_LESSONS_PER_COURSE,
  SUBSCRIPTION_FUNCTION_KEYS,
} from './constants.ts';
import { CONNECTION_STATUSES } from './channel-connections.ts';
import { ZUuidSchema, dataEnvelope } from './common.ts';
import {
  EXCLUSION_DAYS,
  ZDistributionSchema,
  validateDeliveryDate,
} from './course-distribution.ts';
import { LESSON_MEDIA_TYPES } from './course-lesson.ts';
import { MESSAGES } from './messages.ts';

// What the course wizard asks the API besides saving (spec §2 "Course wizard", our paths): the
// calendar of every lesson send, the channels and lists a course can go out on, and each lesson
// as the five channels would deliver it.

// --- Calendar preview -------------------------------------------------------------------------

/**
 * `POST /api/v1/courses/helpers/delivery-calendar`: a Distribution and the number of days, and
 * optionally the learner whose hours (time zone, quiet hours, holidays) the sends follow.
 */
export const ZDeliveryCalendarRequestSchema = z.object({
  distribution: ZDistributionSchema,
  learner_uuid: ZUuidSchema.optional(),
  days: z
    .number({ error: MESSAGES.lessonDayRange })
    .int({ message: MESSAGES.lessonDayRange })
    .min(1, { message: MESSAGES.lessonDayRange })
    .max(MAX_LESSONS_PER_COURSE, { message: MESSAGES.lessonDayRange }),
});
export type TDeliveryCalendarRequest = z.input<typeof ZDeliveryCalendarRequestSchema>;

/** What delays a send past the Distribution's time (issue 28, the learner's hours). */
export const SLOT_DELAYS = ['quiet_hours', 'holiday'] as const;

export const ZCalendarSlotSchema = z.object({
  /** The lesson day this send carries (1-based). */
  day: z.number().int(),
  /** The calendar date of the send (YYYY-MM-DD) in `time_zone`. */
  date: z.string(),
  /** The instant of the send, ISO UTC: the creator's own time zone formats it. */
  at: z.string(),
  /** Wall-clock time in `time_zone` (HH:mm). */
  time: z.string(),
  /** The offset of `time_zone` at that instant: +01:00 (CET) or +02:00 (CEST) in Rome. */
  offset: z.string(),
  /** True when the offset differs from the previous send's: a daylight-saving change between. */
  offset_changed: z.boolean(),
  /** Why the send is later than the Distribution's time: quiet hours or a public holiday. */
  delayed: z.enum(SLOT_DELAYS).nullable(),
  /** The holiday's name when a holiday delayed it. */
  holiday: z.string().nullable(),
});
export type TCalendarSlot = z.infer<typeof ZCalendarSlotSchema>;

export const ZDeliveryCalendarSchema = z.object({
  /** Europe/Rome, or the chosen learner's zone. */
  time_zone: z.string(),
  slots: z.array(ZCalendarSlotSchema),
  /** Dates a send would have fallen on without the skipped days, before the last send. */
  skipped: z.array(z.object({ date: z.string(), weekday: z.enum(EXCLUSION_DAYS) })),
});
export type TDeliveryCalendar = z.infer<typeof ZDeliveryCalendarSchema>;
export const ZDeliveryCalendarResponseSchema = dataEnvelope(ZDeliveryCalendarSchema);

// --- Delivery options -------------------------------------------------------------------------

/** `GET …/courses/{courseUuid}/delivery-options?channel=&lists=a,b`. */
export const ZDeliveryOptionsQuerySchema = z.object({
  channel: z.enum(CHANNEL_KEYS, { error: MESSAGES.channelUnknown }).optional(),
  /** Comma-separated list uuids whose distinct reachable learners are counted as `reached`. */
  lists: z.string().optional(),
});
export type TDeliveryOptionsQuery = z.infer<typeof ZDeliveryOptionsQuerySchema>;

const channelCounts = z.record(z.enum(CHANNEL_KEYS), z.number().int());

export const ZDeliveryOptionsSchema = z.object({
  channels: z.array(
    z.object({
      key: z.enum(CHANNEL_KEYS),
      name: z.string(),
      contact: z.enum(['email', 'phone']),
      /** The plan allows it for this course (its distinct channels across courses). */
      allowed: z.boolean(),
      /** The company's connection to the provider, as the Channels page shows it. */
      connection: z.enum(CONNECTION_STATUSES),
      /** Lessons on it really go out: only a `connected` provider sends (a demo records nothing). */
      sends: z.boolean(),
    }),
  ),
  /** The plan's `distribution-channels`: channels in use by the company's other courses. */
  channel_limit: z.object({
    feature: z.enum(SUBSCRIPTION_FUNCTION_KEYS),
    used: z.number().int(),
    limit: z.number().int(),
  }),
  lists: z.array(
    z.object({
      uuid: ZUuidSchema,
      name: z.string(),
      learners_count: z.number().int(),
      /** Members reachable on each channel (the channel and its contact). */
      reachable: channelCounts,
    }),
  ),
  /** Distinct learners of `lists` reachable on `channel`; null without both. */
  reached: z.number().int().nullable(),
});
export type TDeliveryOptions = z.infer<typeof ZDeliveryOptionsSchema>;
export const ZDeliveryOptionsResponseSchema = dataEnvelope(ZDeliveryOptionsSchema);

// --- Channel preview --------------------------------------------------------------------------

// The lesson as the wizard holds it, unsaved and maybe incomplete: shapes only, no §5 rules, so a
// half-written lesson previews too. Missing texts are empty.
const text = z
  .string()
  .nullish()
  .transform((value) => value ?? '');
const ZPreviewAnswerSchema = z.object({
  text,
  correct: z.boolean().nullish().transform(Boolean),
  response: text,
});
export const ZPreviewLessonSchema = z.object({
  title: text,
  topic_intro: text,
  topic_content: text,
  learning_minutes: z
    .number()
    .nullish()
    .transform((value) => Math.max(1, Math.round(value ?? 1))),
  media: z
    .object({ type: z.enum(LESSON_MEDIA_TYPES), url: z.string() })
    .nullish()
    .catch(null),
  assessment: z
    .object({
      question: text,
      type: z.enum(ASSESSMENT_TYPES).catch('multiple_choice'),
      mandatory: z
        .boolean()
        .nullish()
        .transform((value) => value ?? true),
      answers: z.array(ZPreviewAnswerSchema).catch([]),
      thank_you_message: z
        .string()
        .nullish()
        .transform((value) => value ?? null),
    })
    .nullish()
    .catch(null),
});
export type TPreviewLesson = z.output<typeof ZPreviewLessonSchema>;

/** `POST …/courses/{courseUuid}/channel-preview`: a day in a language, stored or as edited. */
export const ZChannelPreviewRequestSchema = z.object({
  day: z
    .number({ error: MESSAGES.lessonDayRange })
    .int({ message: MESSAGES.lessonDayRange })
    .min(1, { message: MESSAGES.lessonDayRange })
    .max(MAX_LESSONS_PER_COURSE, { message: MESSAGES.lessonDayRange }),
  language: z.string().min(1, { message: MESSAGES.languageUnknown }),
  /** The lesson as edited; without it the stored lesson of that day and language. */
  lesson: ZPreviewLessonSchema.optional(),
});
export type TChannelPreviewRequest = z.input<typeof ZChannelPreviewRequestSchema>;

/** What a channel cannot carry as written, said before scheduling. */
export const CHANNEL_PREVIEW_ISSUES = [
  'tooManyButtons',
  'answersInList',
  'buttonTextCut',
  'textTooLong',
] as const;
export type TChannelPreviewIssue = (typeof CHANNEL_PREVIEW_ISSUES)[number];

export const ZChannelPreviewSchema = z.object({
  channel: z.enum(CHANNEL_KEYS),
  /** The body the scheduler would hand to the channel, rendered by the same renderer. */
  payload: z.record(z.string(), z.unknown()),
  issues: z.array(z.object({ code: z.enum(CHANNEL_PREVIEW_ISSUES), message: z.string() })),
});
export type TChannelPreview = z.infer<typeof ZChannelPreviewSchema>;
export const ZChannelPreviewsResponseSchema = dataEnvelope(
  z.object({
    day: z.number().int(),
    language: z.string(),
    previews: z.array(ZChannelPreviewSchema),
  }),
);
export type TChannelPreviews = z.infer<typeof ZChannelPreviewsResponseSchema>['data'];

// --- The Delivery step's rules ----------------------------------------------------------------

/**
 * The Delivery step of the wizard (spec §5): a channel, a delivery date from tomorrow to three
 * months ahead, at least one learners list (and one to exist at all), on top of the Distribution's
 * own rules. The same checks publishing runs (publishCheck), for a form.
 */
export const deliveryStepSchema = (now: Date, { hasLearnersLists = true } = {}) =>
  z.object({
    distribution: ZDistributionSchema.superRefine((distribution, ctx) => {
      const date = validateDeliveryDate(distribution.start_date, now);
      if (date) ctx.addIssue({ code: 'custom', path: ['start_date'], message: date });
      if (distribution.channels.length === 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['channels'],
          message: MESSAGES.deliveryChannelRequired,
        });
      }
    }),
    learners_lists: z
      .array(z.string(), { error: MESSAGES.learnersRequired })
      .default([])
      .superRefine((lists, ctx) => {
        if (!hasLearnersLists) {
          ctx.addIssue({ code: 'custom', message: MESSAGES.learnersListRequired });
        } else if (lists.length === 0) {
          ctx.addIssue({ code: 'custom', message: MESSAGES.learnersRequired });
        }
      }),
  });
