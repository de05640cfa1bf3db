import { z } from 'zod';

import {
  NAME_PATTERN,
  ZPageQuerySchema,
  ZBooleanishSchema,
  ZTimestampSchema,
  ZUuidSchema,
  dataEnvelope,
  paginatedEnvelope,
} from './common.ts';
import {
  CHANNEL_CONTACT,
  CHANNEL_KEYS,
  COURSE_STATUSES,
  DEFAULT_LOCALE,
  LOCALES,
  MAX_IDS_PER_REQUEST,
  REACHABILITY,
  TEXT_LIMITS,
} from './constants.ts';
import type { TChannelKey } from './constants.ts';
import type { TFieldErrors } from './errors.ts';
import { ZLearnerTimeZoneSchema } from './delivery-hours.ts';
import { MESSAGES } from './messages.ts';
import { toE164 } from './phone-number.ts';
import { isValidPhone, normalizePhoneForCreate, normalizePhoneForUpdate } from './phone.ts';

export * from './phone.ts';

// ---------------------------------------------------------------------------------------------
// The learner as the API returns it (spec §3).

export const LEARNER_STATUSES = ['active', 'archived'] as const;
export type TLearnerStatus = (typeof LEARNER_STATUSES)[number];

export const ZLearnerChannelSchema = z.object({ key: z.enum(CHANNEL_KEYS), name: z.string() });
export type TLearnerChannel = z.infer<typeof ZLearnerChannelSchema>;

/** A learners list as a learner (or a course) names it. */
export const ZLearnerListRefSchema = z.object({ uuid: ZUuidSchema, name: z.string() });
export type TLearnerListRef = z.infer<typeof ZLearnerListRefSchema>;

export const ZLearnerCourseSchema = z.object({
  uuid: ZUuidSchema,
  name: z.string(),
  status: z.enum(COURSE_STATUSES),
});
export type TLearnerCourse = z.infer<typeof ZLearnerCourseSchema>;

export const ZLearnerAnalyticsSchema = z.object({
  courses_activity: z.number(),
  courses_completion: z.number(),
  courses_progress: z.number(),
});
export type TLearnerAnalytics = z.infer<typeof ZLearnerAnalyticsSchema>;

export const ZLearnerSchema = z.object({
  uuid: ZUuidSchema,
  first_name: z.string(),
  last_name: z.string(),
  email: z.string().nullable(),
  /** Always with a leading plus (see normalizePhoneFromServer). */
  phone: z.string().nullable(),
  locale: z.enum(LOCALES),
  /** IANA zone: the learner's own, or their phone's country's; null: the company's. */
  time_zone: z.string().nullable(),
  channels: z.array(ZLearnerChannelSchema),
  learners_lists: z.array(ZLearnerListRefSchema),
  active: z.boolean(),
  reachability: z.enum(REACHABILITY),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: ZTimestampSchema,
  /** Minutes spent learning. */
  learning_time: z.number(),
  status: z.enum(LEARNER_STATUSES),
  courses: z.array(ZLearnerCourseSchema),
  analytics: ZLearnerAnalyticsSchema,
});
export type TLearner = z.infer<typeof ZLearnerSchema>;

export const ZLearnerResponseSchema = dataEnvelope(ZLearnerSchema);
export const ZListLearnersResponseSchema = paginatedEnvelope(ZLearnerSchema);

// ---------------------------------------------------------------------------------------------
// Field rules (spec §5), shared by create, update, the web form and the CLI import.

/**
 * A channel key from a key or a display name, case-insensitively: 'Whatsapp' → 'whatsapp',
 * 'MS Teams' → 'ms-teams', 'google_chat' → 'google-chat'. Undefined when unknown.
 */
export const toChannelKey = (value: string): TChannelKey | undefined => {
  const candidate = value
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  return (CHANNEL_KEYS as readonly string[]).includes(candidate)
    ? (candidate as TChannelKey)
    : CHANNEL_NAMES.get(candidate.replace(/[^a-z0-9]/g, ''));
};

// What exports and people call the channels, in any case and spacing ("Microsoft Teams",
// "teams", "WhatsApp Business", "Cisco Webex"), letters and digits only.
const CHANNEL_NAMES = new Map<string, TChannelKey>([
  ['msteams', 'ms-teams'],
  ['teams', 'ms-teams'],
  ['microsoftteams', 'ms-teams'],
  ['slack', 'slack'],
  ['whatsapp', 'whatsapp'],
  ['whatsappbusiness', 'whatsapp'],
  ['webex', 'webex'],
  ['ciscowebex', 'webex'],
  ['webexteams', 'webex'],
  ['googlechat', 'google-chat'],
  ['gchat', 'google-chat'],
  ['hangoutschat', 'google-chat'],
]);

/** First and last names: required, up to 255 characters, letters, spaces, apostrophes, dashes. */
export const ZLearnerNameSchema = z
  .string({
    error: (issue) => (issue.input == null ? MESSAGES.nameRequired : MESSAGES.nameInvalid),
  })
  .trim()
  .min(1, { error: MESSAGES.nameRequired })
  .max(TEXT_LIMITS.name, { error: MESSAGES.nameMax })
  // An empty name is only "required", not also "invalid".
  .refine((value) => value === '' || NAME_PATTERN.test(value), { error: MESSAGES.nameInvalid });

/** Optional e-mail: trimmed and lowercased; empty means none (null). */
export const ZLearnerEmailSchema = z
  .string({ error: MESSAGES.emailInvalid })
  .nullish()
  .transform((value) => value?.trim().toLowerCase() || null)
  .pipe(z.email({ error: MESSAGES.emailInvalid }).nullable());

/**
 * Channel keys or names (or `{key, name}` objects, as GET answers them), as an array or (for CSV
 * cells) one string separated by commas, semicolons or pipes; deduplicated, in the given order.
 */
export const ZLearnerChannelsSchema = z
  .union(
    [
      z.array(
        // A key or name, or a channel as GET answers it ({key, name}): a fetched learner can be
        // sent back as it is.
        z.union([z.string(), z.object({ key: z.string() }).transform((channel) => channel.key)], {
          error: MESSAGES.channelUnknown,
        }),
      ),
      z.string(),
    ],
    {
      error: (issue) => (issue.input == null ? MESSAGES.channelsRequired : MESSAGES.channelUnknown),
    },
  )
  .transform((value, ctx) => {
    const fromCell = typeof value === 'string';
    const entries = fromCell
      ? value
          .split(/[,;|]/)
          .map((entry) => entry.trim())
          .filter(Boolean)
      : value;
    const keys: TChannelKey[] = [];
    entries.forEach((entry, index) => {
      const key = toChannelKey(entry);
      if (!key) {
        // An array entry is named by its index; a CSV cell is one field.
        ctx.issues.push({
          code: 'custom',
          message: MESSAGES.channelUnknown,
          input: entry,
          path: fromCell ? [] : [index],
        });
      } else if (!keys.includes(key)) keys.push(key);
    });
    if (entries.length === 0) {
      ctx.issues.push({ code: 'custom', message: MESSAGES.channelsRequired, input: value });
    }
    return keys;
  });

/** One of the app languages, case-insensitively; absent or empty means 'en'. */
export const ZLearnerLocaleSchema = z
  .string({ error: MESSAGES.localeInvalid })
  .nullish()
  .transform((value) => value?.trim().toLowerCase() || DEFAULT_LOCALE)
  .pipe(z.enum(LOCALES, { error: MESSAGES.localeInvalid }));

const phoneSchema = (normalize: (raw: string | null | undefined) => string | null | undefined) =>
  z
    .string({ error: MESSAGES.phoneInvalid })
    .nullish()
    .transform((value) => normalize(value) ?? null)
    .refine((value) => value === null || isValidPhone(value), { error: MESSAGES.phoneInvalid })
    // Plus and digits, and a number that exists (libphonenumber: lengths per country).
    .refine((value) => value === null || !isValidPhone(value) || toE164(value) !== null, {
      error: MESSAGES.phoneNotPossible,
    });

export type TLearnerInputMode = 'create' | 'update';

// Unknown-typed view of the parsed object: the cross-field check also runs when a field failed
// (so a form shows every error at once), and then a field may still hold its raw input.
type TLooseLearnerInput = { channels?: unknown; email?: unknown; phone?: unknown };

/** The contact rules: an e-mail channel needs an e-mail, WhatsApp needs a phone. */
const checkChannelContacts = (value: unknown, ctx: z.RefinementCtx) => {
  if (typeof value !== 'object' || value === null) return;
  const { channels, email, phone } = value as TLooseLearnerInput;
  if (!Array.isArray(channels)) return;
  const contacts = new Set(
    channels
      .map((channel: unknown) =>
        typeof channel === 'string'
          ? toChannelKey(channel)
          : typeof channel === 'object' && channel !== null && 'key' in channel
            ? toChannelKey(String(channel.key))
            : undefined,
      )
      .filter((key) => key !== undefined)
      .map((key) => CHANNEL_CONTACT[key]),
  );
  const blank = (field: unknown) => field === null || field === undefined || field === '';
  if (contacts.has('email') && blank(email)) {
    ctx.addIssue({ code: 'custom', path: ['email'], message: MESSAGES.emailRequiredForChannel });
  }
  if (contacts.has('phone') && blank(phone)) {
    ctx.addIssue({ code: 'custom', path: ['phone'], message: MESSAGES.phoneRequiredForChannel });
  }
};

const learnerBodySchema = (mode: TLearnerInputMode) =>
  z
    .object(
      {
        first_name: ZLearnerNameSchema,
        last_name: ZLearnerNameSchema,
        email: ZLearnerEmailSchema,
        channels: ZLearnerChannelsSchema,
        locale: ZLearnerLocaleSchema,
        time_zone: ZLearnerTimeZoneSchema,
        // The spec's client sends it ("channel name on create is Whatsapp"); channels decide.
        channel_name: z.string().nullish(),
        phone: phoneSchema(mode === 'create' ? normalizePhoneForCreate : normalizePhoneForUpdate),
      },
      { error: MESSAGES.invalidDataNoInfo },
    )
    .superRefine(checkChannelContacts, { when: () => true });

/**
 * POST /learners body. Outputs trimmed names, a lowercased e-mail or null, channel keys, a
 * locale, and a phone without separators or null.
 */
export const ZCreateLearnerRequestSchema = learnerBodySchema('create');
export type TCreateLearnerRequest = z.input<typeof ZCreateLearnerRequestSchema>;
export type TLearnerInput = z.output<typeof ZCreateLearnerRequestSchema>;

/** PUT /learners/{uuid} body: a full replacement; a phone of one character or fewer clears it. */
export const ZUpdateLearnerRequestSchema = learnerBodySchema('update');
export type TUpdateLearnerRequest = z.input<typeof ZUpdateLearnerRequestSchema>;

export type TLearnerValidation =
  { success: true; data: TLearnerInput } | { success: false; errors: TFieldErrors };

/**
 * Validates one learner (a form, an API body or a CSV row as a plain object) with every rule of
 * spec §5, answering the cleaned learner or the messages by dotted field path.
 */
export const validateLearnerInput = (
  input: unknown,
  mode: TLearnerInputMode = 'create',
): TLearnerValidation => {
  const schema = mode === 'create' ? ZCreateLearnerRequestSchema : ZUpdateLearnerRequestSchema;
  const result = schema.safeParse(input);
  if (result.success) return { success: true, data: result.data };
  const errors: TFieldErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join('.') || 'body';
    (errors[key] ??= []).push(issue.message);
  }
  return { success: false, errors };
};

// ---------------------------------------------------------------------------------------------
// Queries and the other learner calls.

export const ZListLearnersQuerySchema = ZPageQuerySchema.extend({
  archived: ZBooleanishSchema.default(false),
  /** Found in "first last" or the e-mail, case-insensitively, or in the phone's digits. */
  search: z.string().trim().max(TEXT_LIMITS.name).optional(),
});
export type TListLearnersQuery = z.input<typeof ZListLearnersQuerySchema>;

export const ZSyncLearnerListsRequestSchema = z.object({
  lists: z
    .array(z.uuid({ error: MESSAGES.learnersListUnknown }), { error: MESSAGES.required })
    .max(MAX_IDS_PER_REQUEST, { error: MESSAGES.idsMax }),
});
export type TSyncLearnerListsRequest = z.infer<typeof ZSyncLearnerListsRequestSchema>;

export const ZSyncLearnerListsResultSchema = z.object({
  result: z.boolean(),
  learners_lists: z.array(ZLearnerListRefSchema),
});
export type TSyncLearnerListsResult = z.infer<typeof ZSyncLearnerListsResultSchema>;

/**
 * Per channel of the learner: reachable when the learner has the contact the channel needs and
 * the learner is known reachable; false when the contact is missing or the learner unreachable;
 * null while unknown.
 */
export const ZReachabilitySchema = z.object({
  uuid: ZUuidSchema,
  reachability: z.enum(REACHABILITY),
  channels: z.array(ZLearnerChannelSchema.extend({ reachable: z.boolean().nullable() })),
});
export type TLearnerReachability = z.infer<typeof ZReachabilitySchema>;

export const ZDeletedLearnerSchema = z.object({ deleted: ZUuidSchema });
export type TDeletedLearner = z.infer<typeof ZDeletedLearnerSchema>;
