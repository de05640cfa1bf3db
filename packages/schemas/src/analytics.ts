import { z } from 'zod';

import { ZPageQuerySchema, ZUuidSchema, dataEnvelope, paginatedEnvelope } from './common.ts';
import { COURSE_STATUSES } from './constants.ts';
import { addCalendarDays, deliveryCalendarDate } from './course-distribution.ts';
import { MESSAGES } from './messages.ts';

// The analytics shapes of spec §3/§7 and the formulas behind them. docs/metrics.md defines every
// figure (what is counted, over which learners, in which period); keep it in step with this file.

/** Spec §9: the engagement rate loses this many points per reminder (per enrolled learner). */
export const ENGAGEMENT_REMINDER_PENALTY = 5;
/** A learner with no read or answer for this many days is dormant (once a lesson is this old). */
export const DORMANT_AFTER_DAYS = 7;
/** Days the date-filtered endpoints accept at most, so a chart stays one row per day. */
export const ANALYTICS_MAX_PERIOD_DAYS = 366;

/** An enrolment's engagement status, first match wins (docs/metrics.md, "Learner status"). */
export const ENGAGEMENT_STATUSES = [
  'completed',
  'unreachable',
  'active',
  'dormant',
  'not_started',
] as const;
export type TEngagementStatus = (typeof ENGAGEMENT_STATUSES)[number];

/** One lesson day of a learner: not sent yet, waiting (under 72 h), answered, or missed. */
export const ASSESSMENT_STATES = [
  'not_sent',
  'pending',
  'correct',
  'wrong',
  'not_answered',
] as const;
export type TAssessmentState = (typeof ASSESSMENT_STATES)[number];

/** Mood from the answer success rate; `none` until a first answer. */
export const MOODS = ['none', 'sad', 'neutral', 'happy', 'excited'] as const;
export type TMood = (typeof MOODS)[number];
/** Upper bounds (exclusive) of the success rate per mood; spec §9's effectiveness bands 25/50/75/100. */
export const MOOD_BANDS: readonly { below: number; mood: TMood }[] = [
  { below: 25, mood: 'sad' },
  { below: 50, mood: 'neutral' },
  { below: 75, mood: 'happy' },
];

// --- Formulas ----------------------------------------------------------------------------

/** `part / whole` as a percentage in 0..100; 0 when there is nothing to divide by (never NaN). */
export const percentage = (part: number, whole: number): number =>
  whole > 0 ? Math.min(100, Math.max(0, (part / whole) * 100)) : 0;

/** Rates go out with one decimal. */
export const roundRate = (value: number): number => Math.round(value * 10) / 10;

/**
 * Spec §9: the average of the assessment completion and success rates, minus 5 points per
 * reminder sent per enrolled learner, never below 0.
 */
export const engagementRate = ({
  completionRate,
  successRate,
  remindersPerLearner,
}: {
  completionRate: number;
  successRate: number;
  remindersPerLearner: number;
}): number =>
  Math.max(
    0,
    (completionRate + successRate) / 2 - ENGAGEMENT_REMINDER_PENALTY * remindersPerLearner,
  );

/** Spec §9: the average of the completion, engagement and progress rates. */
export const zickScore = (completion: number, engagement: number, progress: number): number =>
  (completion + engagement + progress) / 3;

/** The mood band of an answer success rate; `none` when nothing was answered. */
export const moodOf = (successRate: number, answers: number): TMood => {
  if (answers <= 0) return 'none';
  return MOOD_BANDS.find((band) => successRate < band.below)?.mood ?? 'excited';
};

/**
 * The retention insight's counts (issue 28, docs/metrics.md "Retention"), over the questions a
 * learner tried (answered, or missed after 72 hours): right on the first try, right only after
 * repetition, and the rest, not right yet. What counts as each is migration 0040's
 * `retentionIndicators`; this is the one formula over them.
 */
export type TRetentionCounts = { tried: number; firstTry: number; afterRepeat: number };

/** Right by now (first try or after repetition) ÷ tried, and the share of each outcome. */
export const retentionRates = ({ tried, firstTry, afterRepeat }: TRetentionCounts) => ({
  retention: roundRate(percentage(firstTry + afterRepeat, tried)),
  firstTry: roundRate(percentage(firstTry, tried)),
  afterRepeat: roundRate(percentage(afterRepeat, tried)),
  notYet: roundRate(percentage(tried - firstTry - afterRepeat, tried)),
});

// --- Queries -----------------------------------------------------------------------------

const ZDateSchema = z.iso.date({ error: MESSAGES.analyticsDateInvalid });

const periodDays = (start: string, end: string) =>
  (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000 + 1;

const periodFields = { start_date: ZDateSchema.optional(), end_date: ZDateSchema.optional() };

const checkPeriod = (
  query: { start_date?: string | undefined; end_date?: string | undefined },
  ctx: z.RefinementCtx,
) => {
  if (!query.start_date || !query.end_date) return;
  if (query.end_date < query.start_date) {
    ctx.addIssue({ code: 'custom', path: ['end_date'], message: MESSAGES.analyticsDateOrder });
  } else if (periodDays(query.start_date, query.end_date) > ANALYTICS_MAX_PERIOD_DAYS) {
    ctx.addIssue({ code: 'custom', path: ['end_date'], message: MESSAGES.analyticsPeriodMax });
  }
};

/**
 * The dashboard's periods (spec §2: W week, M month, Y year, ALL): the last 7, 30 and 365
 * Europe/Rome days up to today, and no bounds at all. Rolling rather than calendar periods, so
 * Monday morning's "W" is not almost empty (docs/decisions.md).
 */
export const STATS_PERIODS = { W: 7, M: 30, Y: 365, ALL: null } as const;
export type TStatsPeriod = keyof typeof STATS_PERIODS;
export const STATS_PERIOD_KEYS = Object.keys(STATS_PERIODS) as TStatsPeriod[];

/** The dates of a period ending today (Europe/Rome), or none for ALL. */
export const statsPeriodDates = (
  period: TStatsPeriod,
  now: Date,
): { start_date?: string; end_date?: string } => {
  const days = STATS_PERIODS[period];
  if (days === null) return {};
  const today = deliveryCalendarDate(now);
  return { start_date: addCalendarDays(today, 1 - days), end_date: today };
};

/** `start_date` / `end_date` (YYYY-MM-DD, Europe/Rome days, both inclusive, both optional). */
export const ZAnalyticsPeriodQuerySchema = z.object(periodFields).superRefine(checkPeriod);
export type TAnalyticsPeriodQuery = z.infer<typeof ZAnalyticsPeriodQuerySchema>;

/** The period plus an optional course of the classroom (the insights course selector). */
export const ZAnalyticsCourseFilterQuerySchema = z
  .object({ ...periodFields, course_id: ZUuidSchema.optional() })
  .superRefine(checkPeriod);
export type TAnalyticsCourseFilterQuery = z.infer<typeof ZAnalyticsCourseFilterQuerySchema>;

export const ZAnalyticsIdParamsSchema = z.object({ id: ZUuidSchema });

// --- Shapes ------------------------------------------------------------------------------

/** A percentage 0..100 with one decimal. */
export const ZRateSchema = z.number().min(0).max(100);
const count = () => z.number().int().min(0);

export const ZClassroomAnalyticsSchema = z.object({
  active_learners_rate: ZRateSchema,
  completion_rate: ZRateSchema,
  learners: count(),
  progress_rate: ZRateSchema,
  total_courses: count(),
});
export type TClassroomAnalytics = z.infer<typeof ZClassroomAnalyticsSchema>;
export const ZClassroomAnalyticsResponseSchema = dataEnvelope(ZClassroomAnalyticsSchema);

export const ZDistributionChartDaySchema = z.object({
  date: z.iso.date(),
  delivered: count(),
  read: count(),
  answered: count(),
});
export const ZDistributionChartChannelSchema = z.object({
  channel: z.string(),
  delivered: count(),
});
export const ZDistributionChartSchema = z.object({
  start_date: z.iso.date(),
  end_date: z.iso.date(),
  list: z.array(ZDistributionChartDaySchema),
  channels: z.array(ZDistributionChartChannelSchema),
});
export type TDistributionChart = z.infer<typeof ZDistributionChartSchema>;
export const ZDistributionChartResponseSchema = dataEnvelope(ZDistributionChartSchema);

export const ZLearnersAnalyticsSchema = z.object({ interacted: count(), completed: count() });
export type TLearnersAnalytics = z.infer<typeof ZLearnersAnalyticsSchema>;
export const ZLearnersAnalyticsResponseSchema = dataEnvelope(ZLearnersAnalyticsSchema);

export const ZClassroomStatisticsSchema = z.object({
  totalActiveLearners: count(),
  coursesAttended: count(),
  lessonsAttended: count(),
  /** Minutes. */
  learningTime: count(),
});
export type TClassroomStatistics = z.infer<typeof ZClassroomStatisticsSchema>;
export const ZClassroomStatisticsResponseSchema = dataEnvelope(ZClassroomStatisticsSchema);

export const ZCourseInsightSchema = z.object({
  uuid: ZUuidSchema,
  name: z.string(),
  status: z.enum(COURSE_STATUSES),
  learners: count(),
  delivery: ZRateSchema,
  completion: ZRateSchema,
  activity: ZRateSchema,
  progress: ZRateSchema,
  enrollment: ZRateSchema,
  dormant: ZRateSchema,
  mood: z.enum(MOODS),
  completionRate: ZRateSchema,
  activityRate: ZRateSchema,
  successRate: ZRateSchema,
  engagementRate: ZRateSchema,
  dormantLearners: count(),
  zick_score: ZRateSchema,
  /** Retention (issue 28): questions tried, and right by now ÷ tried, with each outcome's share. */
  questionsTried: count(),
  retention: ZRateSchema,
  retentionFirstTry: ZRateSchema,
  retentionAfterRepeat: ZRateSchema,
  retentionNotYet: ZRateSchema,
});
export type TCourseInsight = z.infer<typeof ZCourseInsightSchema>;
export const ZCourseInsightsResponseSchema = dataEnvelope(z.array(ZCourseInsightSchema));

export const ZLearnersStatusSchema = z.object({
  completed: count(),
  unreachable: count(),
  active: count(),
  dormant: count(),
  not_started: count(),
  total: count(),
});
export type TLearnersStatus = z.infer<typeof ZLearnersStatusSchema>;
export const ZLearnersStatusResponseSchema = dataEnvelope(ZLearnersStatusSchema);

export const ZLessonDayAnalysisSchema = z.object({
  day: z.number().int().min(1),
  title: z.string().nullable(),
  sent_at: z.string().nullable(),
  read_at: z.string().nullable(),
  answered_at: z.string().nullable(),
  state: z.enum(ASSESSMENT_STATES),
  /** What the learner answered, when the channel reported its text. */
  answer: z.string().nullable(),
  /** Delta time to read: delivery (or send) to read, in seconds. */
  dtr_seconds: z.number().int().min(0).nullable(),
  /** Delta time to complete the assessment: read to answer, in seconds. */
  dtca_seconds: z.number().int().min(0).nullable(),
  /** Not right at first, right when it came back (issue 28): when a repeat was first answered right. */
  right_after_repeat_at: z.string().nullable(),
});
export type TLessonDayAnalysis = z.infer<typeof ZLessonDayAnalysisSchema>;

export const ZLearnerCourseInsightsSchema = z.object({
  uuid: ZUuidSchema,
  name: z.string(),
  status: z.enum(COURSE_STATUSES),
  learner_status: z.enum(ENGAGEMENT_STATUSES),
  progress: ZRateSchema,
  learning_time: count(),
  days: z.array(ZLessonDayAnalysisSchema),
});
export type TLearnerCourseInsights = z.infer<typeof ZLearnerCourseInsightsSchema>;

export const ZLearnerInsightsSchema = z.object({
  courses_activity: ZRateSchema,
  courses_completion: ZRateSchema,
  courses_progress: ZRateSchema,
  /** Minutes. */
  learning_time: count(),
  courses: z.array(ZLearnerCourseInsightsSchema),
});
export type TLearnerInsights = z.infer<typeof ZLearnerInsightsSchema>;
export const ZLearnerInsightsResponseSchema = dataEnvelope(ZLearnerInsightsSchema);

// --- A course's learners by status (the insights table) ------------------------------------

/** Who the insights table lists: a status of docs/metrics.md, or `interacted` (read a lesson). */
/** `paused`: learners paused or stopped (issue 28), whatever their engagement status. */
export const COURSE_LEARNER_FILTERS = ['interacted', ...ENGAGEMENT_STATUSES, 'paused'] as const;
export type TCourseLearnerFilter = (typeof COURSE_LEARNER_FILTERS)[number];

export const ZAnalyticsCourseParamsSchema = z.object({ id: ZUuidSchema, courseId: ZUuidSchema });

/** `status` narrows the list; pages as every list (default 15, at most 100 a page). */
export const ZCourseLearnersQuerySchema = ZPageQuerySchema.extend({
  status: z.enum(COURSE_LEARNER_FILTERS, { error: MESSAGES.learnerStatusInvalid }).optional(),
});
export type TCourseLearnersQuery = z.infer<typeof ZCourseLearnersQuerySchema>;

/** An enrolled learner of a course with the status and progress the course's figures count. */
export const ZCourseLearnerSchema = z.object({
  uuid: ZUuidSchema,
  first_name: z.string(),
  last_name: z.string(),
  email: z.string().nullable(),
  status: z.enum(ENGAGEMENT_STATUSES),
  lessons_read: count(),
  /** The course's lesson days. */
  lessons_total: count(),
  /** Minutes. */
  learning_time: count(),
  last_activity_at: z.string().nullable(),
  /** Why the learner gets no lessons (PAUSE_REASONS: unanswered, trainer, stop); null: they do. */
  pause_reason: z.string().nullable(),
  /** Retention (issue 28): the learner's questions tried, right on the first try, after repetition. */
  questions_tried: count(),
  right_first_try: count(),
  right_after_repeat: count(),
  retention: ZRateSchema,
});
export type TCourseLearner = z.infer<typeof ZCourseLearnerSchema>;
export const ZCourseLearnersResponseSchema = paginatedEnvelope(ZCourseLearnerSchema);

// --- A course's questions by retention (issue 28) ------------------------------------------

/** One lesson day's question over the course's learners: how it was got right, if it was. */
export const ZCourseQuestionSchema = z.object({
  day: z.number().int().min(1),
  /** The lesson's title in the course's primary language. */
  title: z.string().nullable(),
  questions_tried: count(),
  right_first_try: count(),
  right_after_repeat: count(),
  not_right_yet: count(),
  retention: ZRateSchema,
});
export type TCourseQuestion = z.infer<typeof ZCourseQuestionSchema>;
export const ZCourseQuestionsResponseSchema = dataEnvelope(z.array(ZCourseQuestionSchema));
