import { z } from 'zod';

import { dataEnvelope } from './common.ts';
import { CHANNEL_CONTACT, CHANNEL_KEYS, LOCALES } from './constants.ts';
import type { TChannelKey } from './constants.ts';
import { DELIVERY_FAILURE_REASONS } from './delivery.ts';
import { MESSAGES } from './messages.ts';
import { isValidPhone, normalizePhoneForCreate } from './phone.ts';

// "Send me a test lesson" (issue 29): an administrator sends the fixed one-question sample to
// their own account on a connected channel and sees when their answer came back. Kept apart from
// learners and lesson sends (docs/decisions.md "Test lessons").

/**
 * - `sending`: the provider is being called;
 * - `sent`: the provider took the lesson (its message id kept);
 * - `waiting`: WhatsApp outside the 24-hour window: the approved template went, the question
 *   follows once the administrator taps its Start;
 * - `failed`: not sent, with the reason;
 * - `answered`: the administrator's answer came back through the channel's webhook.
 */
export const TEST_LESSON_STATUSES = ['sending', 'sent', 'waiting', 'failed', 'answered'] as const;
export type TTestLessonStatus = (typeof TEST_LESSON_STATUSES)[number];

/** How long the Channels page keeps asking whether the answer came back (then a "Check again"). */
export const TEST_LESSON_POLL_MS = 5 * 60 * 1000;
/** How often it asks meanwhile. */
export const TEST_LESSON_POLL_INTERVAL_MS = 3000;

const ADDRESS_MAX = 320;

/**
 * Whether `address` is a contact the channel reaches (CHANNEL_CONTACT): an e-mail, or a phone
 * in international form; answers the message of what is wrong, or null. The Channels page's
 * form and the API ask the same question.
 */
export const testLessonAddressIssue = (channel: TChannelKey, address: string): string | null => {
  const phoneChannel = CHANNEL_CONTACT[channel] === 'phone';
  if (address.length > ADDRESS_MAX)
    return phoneChannel ? MESSAGES.phoneInvalid : MESSAGES.emailInvalid;
  if (phoneChannel) {
    const phone = normalizePhoneForCreate(address);
    return phone && isValidPhone(phone) ? null : MESSAGES.phoneInvalid;
  }
  return z.email().safeParse(address.trim()).success ? null : MESSAGES.emailInvalid;
};

/** The contact as it is kept and sent to: an e-mail trimmed, a phone without separators. */
export const normalizeTestLessonAddress = (channel: TChannelKey, address: string): string =>
  CHANNEL_CONTACT[channel] === 'phone'
    ? (normalizePhoneForCreate(address) ?? '')
    : address.trim().toLowerCase();

export const ZTestLessonRequestSchema = z.object({
  /** The administrator's own e-mail (Slack, Teams, Webex, Google Chat) or phone (WhatsApp). */
  address: z.string({ error: MESSAGES.required }).trim().min(1, { message: MESSAGES.required }),
});
export type TTestLessonRequest = z.infer<typeof ZTestLessonRequestSchema>;

export const ZTestLessonSchema = z.object({
  uuid: z.string(),
  channel: z.enum(CHANNEL_KEYS),
  address: z.string(),
  language: z.enum(LOCALES),
  status: z.enum(TEST_LESSON_STATUSES),
  /** The provider's id of the message it took (several, comma-separated, for a lesson in parts). */
  provider_message_id: z.string().nullable(),
  /** Why it was not sent: the reason (locales `enum.testLessonFailure.<reason>`) and the provider's words. */
  failure: z.object({ reason: z.enum(DELIVERY_FAILURE_REASONS), detail: z.string() }).nullable(),
  /** The answer that came back: which of the two, and whether it was the right one. */
  answer: z.object({ index: z.number().int(), correct: z.boolean() }).nullable(),
  /** Whether the answer's feedback reached the administrator (null: no answer yet). */
  feedback_sent: z.boolean().nullable(),
  sent_at: z.string(),
  answered_at: z.string().nullable(),
});
export type TTestLesson = z.infer<typeof ZTestLessonSchema>;

export const ZTestLessonResponseSchema = dataEnvelope(ZTestLessonSchema);

/** What the Channels page shows before a send: the last test lesson, and the contact to prefill. */
export const ZTestLessonStateSchema = z.object({
  /** The administrator's e-mail, or the phone their last WhatsApp test lesson went to. */
  default_address: z.string(),
  last: ZTestLessonSchema.nullable(),
});
export type TTestLessonState = z.infer<typeof ZTestLessonStateSchema>;
export const ZTestLessonStateResponseSchema = dataEnvelope(ZTestLessonStateSchema);
