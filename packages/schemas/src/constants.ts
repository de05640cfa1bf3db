// Business constants of spec §9 (and the limits of §5), each in one place.
// Where the spec gives two readings, the chosen one is named here and recorded in docs/decisions.md.

export const PLATFORM = 'content_creators_platform';

export const LOCALES = ['en', 'it', 'de'] as const;
export type TLocale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: TLocale = 'en';

export const MAX_LESSONS_PER_COURSE = 30;
export const ARCHIVE_RETENTION_DAYS = 30;
export const MISSED_ANSWER_HOURS = 72;

export const BULK_IMPORT_MAX_LEARNERS = 100_000;
/**
 * Days an import's error report is kept after the import ends; then the hourly purge deletes it.
 * Decision (the spec is silent): 30 days, as for archived items, so the link in the summary mail
 * outlives a holiday.
 */
export const IMPORT_ERROR_REPORT_RETENTION_DAYS = 30;
export const UPLOAD_MAX_BYTES = 700 * 1024 * 1024;

export const TEXT_LIMITS = {
  description: 200,
  lessonTitle: 140,
  topicIntro: 600,
  topicContent: 1200,
  // Spec §5/§9 give 300 (form) and 100 (one message and the publish check) for the question.
  // Decision: 300 everywhere, so a question the form accepts is never refused at publish time.
  question: 300,
  answer: 100,
  response: 300,
  name: 255,
  courseName: 255,
  listName: 100,
} as const;

export const LEARNING_MINUTES = { min: 1, max: 300 } as const;
export const MAX_ANSWERS = 11;

// Spec §5 lists jpg, jpeg, svg, png, bmp, gif, with one reading of only jpeg, gif, png.
// Decision: the wider list; the server checks the bytes, not the name.
export const COVER_IMAGE_TYPES = ['jpg', 'jpeg', 'svg', 'png', 'bmp', 'gif'] as const;
export const COVER_IMAGE_MAX = { width: 500, height: 500, bytes: 2 * 1024 * 1024 } as const;

// Spec §5: the message names .xls, .xlsx, .csv; the upload screen names only .csv.
// Decision: csv and xlsx are imported; .xls (binary Excel 97) is refused with a clear message.
export const LEARNER_IMPORT_TYPES = ['csv', 'xlsx'] as const;
export const COURSE_SOURCE_TYPES = ['txt', 'docx', 'pptx', 'pdf'] as const;
export const AI_IMPORT_TYPES = [
  'txt',
  'pdf',
  'pptx',
  'docx',
  'mp4',
  'mov',
  'avi',
  'wmv',
  'mkv',
  'webm',
  'mp3',
  'wav',
  'm4a',
  'aac',
  'ogg',
] as const;

export const COURSE_STATUSES = [
  'draft',
  'scheduled',
  'active',
  'delivered',
  'canceled',
  'paused',
] as const;
export type TCourseStatus = (typeof COURSE_STATUSES)[number];
/** Statuses counted for insights (spec §4). */
export const INSIGHT_COURSE_STATUSES: readonly TCourseStatus[] = ['active', 'delivered'];

export const CHANNEL_KEYS = ['ms-teams', 'slack', 'whatsapp', 'webex', 'google-chat'] as const;
export type TChannelKey = (typeof CHANNEL_KEYS)[number];
/** Which contact a channel reaches a learner by: WhatsApp by phone, the others by e-mail. */
export const CHANNEL_CONTACT: Record<TChannelKey, 'email' | 'phone'> = {
  'ms-teams': 'email',
  slack: 'email',
  whatsapp: 'phone',
  webex: 'email',
  'google-chat': 'email',
};

export const REACHABILITY = ['reachable', 'unreachable', 'unknown'] as const;
export type TReachability = (typeof REACHABILITY)[number];

export const ASSESSMENT_TYPES = ['multiple_choice', 'open_answer', 'true_false'] as const;
export type TAssessmentType = (typeof ASSESSMENT_TYPES)[number];

export const REPEAT_PERIODS = ['Day', 'Week', 'Month'] as const;
export const DISTRIBUTION_DEFAULTS = {
  repeat_period: 'Day',
  repeat_every: 1,
  time: '08:00',
  disabled_enrolment_opt_in: false,
  repeat_questions: false,
  target_retention: 90,
} as const;
/**
 * "Repeat questions until they stick" (issue 28): the target retention a creator may pick, in
 * percent (FSRS's request_retention × 100). Below 70 % the intervals grow too long to help within
 * a course, above 97 % a question would come back nearly every day.
 */
export const TARGET_RETENTION_RANGE = { min: 70, max: 97 } as const;
/** A question stops coming back once answered right this many times in a row. */
export const REPEAT_RIGHT_IN_A_ROW = 2;
/** At most this many repeats a learner gets on one day. */
export const REPEATS_PER_DAY = 2;
/** Repeats go on for at most this many days after the course's last lesson. */
export const REPEAT_DAYS_AFTER_LAST_LESSON = 30;
/**
 * A course's reminder policy (issue 28): reminders of an unread lesson, the hours between them
 * (the first that long after delivery), and the learner paused after that many consecutive
 * unanswered lessons (0: never). Defaults: one reminder after 24 hours, as before the policy, and
 * a pause after 3 unanswered lessons (docs/decisions.md).
 */
export const REMINDER_POLICY_DEFAULTS = {
  reminder_count: 1,
  reminder_interval_hours: 24,
  auto_pause_after: 3,
} as const;
export const REMINDER_COUNT_MAX = 5;
/** A week: a longer wait is no reminder of today's lesson. */
export const REMINDER_INTERVAL_HOURS_MAX = 168;
export const AUTO_PAUSE_AFTER_MAX = 10;
/**
 * Courses saved before the policy: one reminder after 24 hours and no auto-pause, which is what
 * their creators published.
 */
export const LEGACY_REMINDER_POLICY = {
  reminder_count: 1,
  reminder_interval_hours: 24,
  auto_pause_after: 0,
} as const;
/** Delivery times are in CET; the rules of Europe/Rome give summer time. */
export const DELIVERY_TIME_ZONE = 'Europe/Rome';
export const DELIVERY_WINDOW_MONTHS = 3;

export const SUBSCRIPTION_FUNCTION_KEYS = [
  'distribution-channels',
  'creator-seats',
  'lessons',
  'learners',
  'learner-portal',
  'a-i-transformer',
  'a-i-translator',
  // Spec §6 gates "skipping days (weekends)" without naming its key; this is ours.
  'exclusion-days',
] as const;
export type TSubscriptionFunctionKey = (typeof SUBSCRIPTION_FUNCTION_KEYS)[number];
export const UNLIMITED = -1;

export const AI_MODELS = ['gpt-3.5', 'gpt-4'] as const;
export const AI_ASSESSMENT_TYPES = ['random', 'true_false', 'multiple_option'] as const;

/**
 * Ids one request may name (learners of a new list, lists of a learner or a course, terms to
 * accept). Decision (issue 11): 10,000, a hundred pages of the learners table at once; more is
 * refused with 422 rather than sent to the database as one enormous query.
 */
export const MAX_IDS_PER_REQUEST = 10_000;

export const PAGINATION = { defaultPerPage: 15, maxPerPage: 100 } as const;

export const DATE_FORMAT = 'DD-MM-YYYY HH:mm';
/**
 * Number formats by interface language (spec §9 "numbers formatted in the Italian locale", read
 * as: Italian formatting for Italian users, and each language its own; docs/decisions.md).
 */
export const NUMBER_LOCALES: Record<TLocale, string> = { en: 'en-GB', it: 'it-IT', de: 'de-DE' };
export const CHART_DAYS = 15;
export const MODAL_AUTO_CLOSE_MS = 1000;
export const PHONE_PREFERRED_COUNTRIES = ['it', 'ie'] as const;

/**
 * The field separator of an export, by the language of the user who asked for it: Excel opens a
 * CSV with the list separator of its regional settings, a comma in English and a semicolon in
 * Italian and German ones (where the comma is the decimal sign). UTF-8 with a BOM in every case.
 */
export const CSV_SEPARATORS: Record<TLocale, ',' | ';'> = { en: ',', it: ';', de: ';' };

export const EXPORT_DEFAULTS = {
  fileName: 'export.csv',
  contentType: 'application/octet-stream',
} as const;
