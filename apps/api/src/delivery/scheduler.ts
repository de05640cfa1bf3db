import { MISSED_ANSWER_HOURS } from '@ccp/schemas';
import type { TChannelKey } from '@ccp/schemas';
import type { FastifyInstance } from 'fastify';
import type { CompiledQuery } from 'kysely';

import type { Db, Dialect } from '../db/index.ts';
import { createConnectedAdapters } from './connected-adapters.ts';
import { deliveriesRepository, endOfOutcome, failure } from './deliveries-repository.ts';
import type {
  DueLessonRow,
  InvitationRow,
  OpenQuestionRow,
  ReminderRow,
  SendEnd,
} from './deliveries-repository.ts';
import {
  createOutboxAdapters,
  limiterOf,
  realSleep,
  sendWithRetries,
  writeRecords,
} from './channels.ts';
import type { ChannelAdapter, ChannelAdapters, SendOutcome, Sleep } from './channels.ts';
import { ChannelSendError } from './connector.ts';
import { feedbackEvent, sendEvent } from './conversation-repository.ts';
import type { ChannelMessage } from './message.ts';
import { feedbackRepository } from './feedback-repository.ts';
import type { FeedbackRow } from './feedback-repository.ts';
import {
  addressOf,
  createLookups,
  feedbackOf,
  invitationMessage,
  lessonMessage,
} from './outgoing.ts';
import type { Lookups } from './outgoing.ts';
import { pauseRepository } from './pause.ts';
import type { NoticeRow } from './pause.ts';
import { progressRepository } from './progress-repository.ts';
import { dueRepeats, missedRepeats, plannedRepeats, repeatFeedback } from './repeats.ts';
import { dueReminders } from './reminder-policy.ts';
// SchedulerApp names the app's decorations (db, clock…), declared on FastifyInstance there.
import type {} from '../context.ts';

// The in-process scheduler. Each tick: close enrolments whose time has come, send opt-in
// invitations, send every due lesson, mark answers missed after 72 hours (pausing a learner after
// the course's number of unanswered lessons), remind unread lessons as the course's policy says,
// and move course and enrolment statuses along. The four kinds of work are one
// loop (`drainClaimed`): select what is due, claim each row with a conditional UPDATE (so two
// ticks, two processes, or a restart never send twice), send it, and write how it ended with the
// next row's claim. The SQL lives in deliveries-repository.ts and progress-repository.ts.

type SchedulerApp = Pick<FastifyInstance, 'db' | 'clock' | 'log' | 'metrics'> &
  Partial<Pick<FastifyInstance, 'dialect' | 'secretBox' | 'channelSettings'>>;

export type SchedulerOptions = {
  /** The channel adapters; default: the outbox adapter for every channel. */
  adapters?: ChannelAdapters;
  /** Rows read per query; the tick loops until nothing is left. */
  batchSize?: number;
  /** First retry delay; doubled for each further retry. */
  retryBaseMs?: number;
  sleep?: Sleep;
};

export type TickResult = {
  /** Invited learners whose enrolment closed before they opted in. */
  dropped: number;
  invitations: number;
  sent: number;
  failed: number;
  /** Due lessons the provider asked to wait for: tried again at a later tick. */
  deferred: number;
  /** Due lessons dropped at send time (learner archived, lesson day gone). */
  canceled: number;
  missed: number;
  /** Learners paused after the course's number of unanswered lessons (issue 28). */
  paused: number;
  reminders: number;
  /** Answers told their feedback (or that a later answer no longer counts). */
  feedback: number;
  /** Learners told their enrolment was paused, resumed or stopped. */
  notices: number;
  activated: number;
  completed: number;
  delivered: number;
};

/** A tick's counts before it did anything. */
const NOTHING_DONE: TickResult = {
  dropped: 0,
  invitations: 0,
  sent: 0,
  failed: 0,
  deferred: 0,
  canceled: 0,
  missed: 0,
  paused: 0,
  reminders: 0,
  feedback: 0,
  notices: 0,
  activated: 0,
  completed: 0,
  delivered: 0,
};

const HOUR_MS = 60 * 60 * 1000;
// A row claimed but never finished (the process died mid-send) is given up after this long;
// it is not sent again, since the channel may already have it.
const STUCK_SENDING_MS = 15 * 60 * 1000;
const DEFAULT_BATCH = 500;
const DEFAULT_RETRY_BASE_MS = 1000;
const INVITATION_RETRY_BASE_MS = 5 * 60 * 1000;
const INVITATION_RETRY_MAX_MS = 24 * HOUR_MS;

const defaultAdapters = new WeakMap<object, ChannelAdapters>();

const adaptersOf = (app: SchedulerApp, options: SchedulerOptions): ChannelAdapters => {
  if (options.adapters) return options.adapters;
  let adapters = defaultAdapters.get(app.db);
  if (!adapters) {
    // An app with provider settings sends through the connected providers (connected-adapters.ts).
    adapters = app.channelSettings
      ? createConnectedAdapters({
          db: app.db,
          clock: app.clock,
          secretBox: app.secretBox ?? null,
          channelSettings: app.channelSettings,
          metrics: app.metrics,
        })
      : createOutboxAdapters(app);
    defaultAdapters.set(app.db, adapters);
  }
  return adapters;
};

/** An event on the lesson send `row` (the scheduler's own: missed, reminder, question_not_closed). */
const eventOf = (
  app: SchedulerApp,
  row: { uuid: string; company_uuid: string; course_uuid: string; learner_uuid: string },
  type: 'missed' | 'reminder' | 'question_not_closed',
  at: string,
  payload: Record<string, unknown> | null,
): CompiledQuery =>
  deliveriesRepository.event(app.db, {
    companyUuid: row.company_uuid,
    courseUuid: row.course_uuid,
    learnerUuid: row.learner_uuid,
    deliveryUuid: row.uuid,
    type,
    at,
    payload,
  });

export type TickContext = {
  app: SchedulerApp;
  now: Date;
  nowIso: string;
  adapters: ChannelAdapters;
  batchSize: number;
  send: (adapter: ChannelAdapter, message: ChannelMessage) => Promise<SendOutcome>;
  lookups: Lookups;
};

/**
 * One kind of the scheduler's work: what is due (`select`, a batch at a time), the claim that
 * takes a row exactly once, and the send, which answers what is left to write (the finish, the
 * send's records, an event). `local` work calls no provider (missed-answer marking): a batch's
 * claims and writes then go in one transaction.
 */
export type Drain<Row extends { channel: string }> = {
  select: (limit: number) => Promise<Row[]>;
  claim: (row: Row) => CompiledQuery;
  send: (row: Row, adapter: ChannelAdapter) => Promise<CompiledQuery[]>;
  local?: boolean;
};

/**
 * The previous row's writes, then the next row's claim (none: the writes alone); answers
 * whether the claim took the row. On SQLite in one transaction: a lesson costs one commit
 * instead of four (claim, identity, outbox row, finish), and the writes wait for nothing, since
 * the next claim follows its send at once (the pace is waited for after it). On PostgreSQL the
 * claim commits on its own: two schedulers each holding one lesson's row and the course's
 * analytics rows (locked by the finish's triggers) while claiming the other's next lesson would
 * deadlock. SQLite has one writer at a time, so nothing waits on a row there.
 */
const writeThenClaim = async (
  db: Db,
  dialect: Dialect | undefined,
  writes: CompiledQuery[],
  claim: CompiledQuery | null,
): Promise<boolean> => {
  if (!claim) {
    await writeRecords(db, writes);
    return false;
  }
  const claimed = async (executor: Db) =>
    Number((await executor.executeQuery(claim)).numAffectedRows) === 1;
  if (writes.length === 0) return claimed(db);
  if (dialect !== 'sqlite') {
    await writeRecords(db, writes);
    return claimed(db);
  }
  return db.transaction().execute(async (trx) => {
    for (const statement of writes) await trx.executeQuery(statement);
    return claimed(trx);
  });
};

/** Groups rows by channel, in their order. */
const byChannel = <T extends { channel: string }>(rows: T[]): Map<TChannelKey, T[]> => {
  const groups = new Map<TChannelKey, T[]>();
  for (const row of rows) {
    const channel = row.channel as TChannelKey;
    const group = groups.get(channel);
    if (group) group.push(row);
    else groups.set(channel, [row]);
  }
  return groups;
};

/** Claims and sends one channel's rows in order, each row's writes going with the next claim. */
const drainGroup = async <Row extends { channel: string }>(
  ctx: TickContext,
  drain: Drain<Row>,
  rows: Row[],
  adapter: ChannelAdapter,
) => {
  const { db, dialect } = ctx.app;
  let writes: CompiledQuery[] = [];
  for (const row of rows) {
    const claimed = await writeThenClaim(db, dialect, writes, drain.claim(row));
    writes = [];
    if (claimed) writes = await drain.send(row, adapter);
  }
  await writeThenClaim(db, dialect, writes, null);
};

/** Claims and settles rows that call no provider, a batch in one transaction. */
const drainLocally = async <Row extends { channel: string }>(
  ctx: TickContext,
  drain: Drain<Row>,
  rows: Row[],
) =>
  ctx.app.db.transaction().execute(async (trx) => {
    for (const row of rows) {
      const claim = await trx.executeQuery(drain.claim(row));
      if (Number(claim.numAffectedRows) !== 1) continue;
      const writes = await drain.send(row, ctx.adapters[row.channel as TChannelKey]);
      for (const statement of writes) await trx.executeQuery(statement);
    }
  });

/**
 * The scheduler's one loop: until nothing is due, a batch of rows, channel by channel (channels
 * in parallel, each paced by its limiter, its rows in order), each claimed, sent and finished.
 */
const drainClaimed = async <Row extends { channel: string }>(
  ctx: TickContext,
  drain: Drain<Row>,
): Promise<void> => {
  for (;;) {
    const rows = await drain.select(ctx.batchSize);
    if (rows.length === 0) return;
    if (drain.local) await drainLocally(ctx, drain, rows);
    else
      await Promise.all(
        [...byChannel(rows)].map(([channel, group]) =>
          drainGroup(ctx, drain, group, ctx.adapters[channel]),
        ),
      );
    if (rows.length < ctx.batchSize) return;
  }
};

/** Rows claimed by a tick that died are marked failed (interrupted), never resent. */
const releaseStuck = ({ app, now, nowIso }: TickContext): Promise<number> =>
  deliveriesRepository.failInterrupted(
    app.db,
    new Date(now.getTime() - STUCK_SENDING_MS).toISOString(),
    nowIso,
  );

/** After the enrolment close time, learners still invited are dropped with their lessons. */
const closeEnrolments = async ({ app, now, nowIso }: TickContext): Promise<number> => {
  let dropped = 0;
  for (const course of await progressRepository.coursesWithInvited(app.db)) {
    if (!course.closeAt || course.closeAt.getTime() > now.getTime()) continue;
    dropped += await progressRepository.dropInvited(app.db, course.uuid, nowIso);
  }
  return dropped;
};

/**
 * When a failed invitation is tried again: a refusal that may pass (the provider unavailable, a
 * rate limit) after a back-off that doubles with each attempt, up to a day; a permanent one
 * (unknown learner, channel not connected) waits for a Resend.
 */
const invitationRetryAt = (attempts: number, outcome: SendOutcome, now: Date): string | null => {
  if (outcome.ok) return null;
  const { kind } = outcome.verdict;
  if (kind !== 'retry' && kind !== 'rate_limited') return null;
  const waitMs = Math.min(INVITATION_RETRY_MAX_MS, INVITATION_RETRY_BASE_MS * 2 ** attempts);
  return new Date(now.getTime() + waitMs).toISOString();
};

/** The GDPR opt-in question, once per invited learner, on the learner's channel. */
const invitations = (ctx: TickContext, counts: TickResult): Drain<InvitationRow> => {
  const { app, nowIso } = ctx;
  const failed = (row: InvitationRow, end: SendEnd, retryAt: string | null) => {
    if (end.status !== 'failed' && end.status !== 'deferred') return [];
    app.log.warn({ enrolment: row.uuid, reason: end.failure.reason }, 'invitation not sent');
    return [deliveriesRepository.invitationFailed(app.db, row.uuid, nowIso, end.failure, retryAt)];
  };
  return {
    select: (limit) => deliveriesRepository.pendingInvitations(app.db, nowIso, limit),
    claim: (row) => deliveriesRepository.claimInvitation(app.db, row.uuid, nowIso),
    send: async (row, adapter) => {
      const plan = await ctx.lookups.planOf(row.course_uuid);
      if (!plan) return [];
      const address = addressOf(row.channel, row);
      if (!address) return failed(row, { status: 'failed', failure: failure('no_contact') }, null);
      const outcome = await ctx.send(adapter, invitationMessage(adapter, row, address, plan));
      const now = app.clock.now();
      const end = endOfOutcome(adapter.key, outcome, now);
      if (!outcome.ok) {
        const retryAt =
          end.status === 'deferred'
            ? end.retryAt
            : invitationRetryAt(Number(row.invitation_attempts ?? 0), outcome, now);
        return failed(row, end, retryAt);
      }
      counts.invitations += 1;
      return [...outcome.records, deliveriesRepository.invitationSent(app.db, row.uuid, nowIso)];
    },
  };
};

/** Every lesson due now, of enrolled learners of live courses, sent once. */
const dueLessons = (ctx: TickContext, counts: TickResult): Drain<DueLessonRow> => {
  const { app, nowIso } = ctx;
  const finish = (row: DueLessonRow, end: SendEnd, records: CompiledQuery[] = []) => {
    counts[end.status] += 1;
    if (end.status === 'sent' || end.status === 'failed')
      app.metrics.lessons.inc({ channel: row.channel, status: end.status });
    const at = app.clock.now().toISOString();
    return [...records, deliveriesRepository.finish(app.db, row.uuid, at, end)];
  };
  return {
    select: (limit) => deliveriesRepository.dueLessons(app.db, nowIso, limit),
    claim: (row) => deliveriesRepository.claim(app.db, row.uuid, nowIso),
    send: async (row, adapter) => {
      const [plan, lesson] = await ctx.lookups.lessonOf(row);
      if (row.learner_deleted_at !== null || !lesson || !plan)
        return finish(row, { status: 'canceled' });
      const address = addressOf(row.channel, row);
      if (!address) return finish(row, { status: 'failed', failure: failure('no_contact') });
      const outcome = await ctx.send(
        adapter,
        lessonMessage('lesson', adapter, row, address, lesson, plan.days.length),
      );
      const end = endOfOutcome(adapter.key, outcome, app.clock.now());
      if (end.status === 'failed' || end.status === 'deferred') {
        app.log.warn(
          { delivery: row.uuid, attempts: outcome.attempts, reason: end.failure.reason },
          end.status === 'deferred' ? 'lesson deferred' : 'lesson not sent',
        );
      }
      return finish(row, end, outcome.ok ? outcome.records : []);
    },
  };
};

/** When the lesson reached the learner: the channel's delivered receipt, else the send. */
const deliveredRef = (row: { delivered_at: string | null; sent_at: string | null }) =>
  Date.parse(row.delivered_at ?? row.sent_at ?? '');

/**
 * No answer 72 hours after delivery: `missed_at` (that moment) and a 'missed' event; `marked`
 * collects the lesson sends marked, for the auto-pause after them.
 */
const missedAnswers = (
  ctx: TickContext,
  counts: TickResult,
  marked: string[],
): Drain<OpenQuestionRow> => {
  const { app, now } = ctx;
  const cutoff = new Date(now.getTime() - MISSED_ANSWER_HOURS * HOUR_MS).toISOString();
  const missedAt = (row: OpenQuestionRow) =>
    new Date(deliveredRef(row) + MISSED_ANSWER_HOURS * HOUR_MS).toISOString();
  return {
    local: true,
    select: (limit) => deliveriesRepository.openQuestions(app.db, cutoff, limit),
    claim: (row) => deliveriesRepository.claimMissed(app.db, row.uuid, missedAt(row)),
    send: async (row) => {
      counts.missed += 1;
      marked.push(row.uuid);
      return [eventOf(app, row, 'missed', missedAt(row), null)];
    },
  };
};

/**
 * Reminders of a lesson still unread, as many and as far apart as its course's policy says (one
 * after 24 hours by default), unless the course stopped or the learner is paused.
 */
const reminders = (ctx: TickContext, counts: TickResult): Drain<ReminderRow> => {
  const { app, now, nowIso } = ctx;
  return {
    select: dueReminders(app.db, now),
    claim: (row) => deliveriesRepository.claimReminder(app.db, row, nowIso),
    send: async (row, adapter) => {
      const [plan, lesson] = await ctx.lookups.lessonOf(row);
      const address = addressOf(row.channel, row);
      if (!plan || !address) return [];
      const outcome = await ctx.send(
        adapter,
        lessonMessage('reminder', adapter, row, address, lesson, plan.days.length),
      );
      if (!outcome.ok) {
        app.log.warn({ delivery: row.uuid, error: outcome.error }, 'reminder not sent');
        return [];
      }
      counts.reminders += 1;
      const event = eventOf(app, row, 'reminder', app.clock.now().toISOString(), {
        provider_message_id: outcome.providerMessageId,
      });
      return [...outcome.records, event];
    },
  };
};

/**
 * The feedback on each answer recorded (issue 28), as one more message of its lesson send: the
 * response, or that a later answer no longer counts; on the course's last lesson with the
 * learner's completion. Attempted once: a feedback that failed is not sent again.
 */
const feedback = (ctx: TickContext, counts: TickResult): Drain<FeedbackRow> => {
  const { app, nowIso } = ctx;
  const finish = (row: FeedbackRow, sent: boolean) =>
    feedbackRepository.finish(app.db, row.uuid, sent, app.clock.now().toISOString());
  const completionOf = async (row: FeedbackRow, lastDay: number | undefined) =>
    Number(row.day) === lastDay
      ? feedbackRepository.score(app.db, row.course_uuid, row.learner_uuid)
      : null;
  return {
    select: (limit) => feedbackRepository.queued(app.db, limit),
    claim: (row) => feedbackRepository.claim(app.db, row, nowIso),
    send: async (row, adapter) => {
      const [plan, lesson] = await ctx.lookups.lessonOf(row);
      const address = addressOf(row.channel, row);
      if (!plan || !address) return [finish(row, false)];
      const completion = await completionOf(row, plan.days.at(-1));
      const message = lessonMessage('feedback', adapter, row, address, lesson, plan.days.length);
      const told = feedbackOf(row, lesson, completion);
      const outcome = await ctx.send(adapter, { ...message, feedback: told });
      const logged = feedbackEvent(app, row, told, outcome.ok);
      // After the feedback, never before it: an edit that fails or is slow costs the learner nothing.
      const closing = await closeQuestion(ctx, adapter, row, message);
      if (!outcome.ok) {
        app.log.warn({ delivery: row.uuid, error: outcome.error }, 'feedback not sent');
        return [finish(row, false), logged, ...closing];
      }
      counts.feedback += 1;
      return [...outcome.records, finish(row, true), logged, ...closing];
    },
  };
};

/**
 * The learner's one-line confirmation that their enrolment was paused, resumed or stopped
 * (issue 28), as one more message of their latest lesson send. Attempted once.
 */
const notices = (ctx: TickContext, counts: TickResult): Drain<NoticeRow> => {
  const { app } = ctx;
  return {
    select: (limit) => pauseRepository.queuedNotices(app.db, limit),
    claim: (row) => pauseRepository.claimNotice(app.db, row),
    send: async (row, adapter) => {
      const [plan, lesson] = await ctx.lookups.lessonOf(row);
      const address = addressOf(row.channel, row);
      if (!plan || !address) return [];
      const message = lessonMessage('feedback', adapter, row, address, lesson, plan.days.length);
      const outcome = await ctx.send(adapter, {
        ...message,
        feedback: { kind: 'notice', notice: row.notice },
      });
      if (!outcome.ok) {
        app.log.warn({ delivery: row.uuid, error: outcome.error }, 'notice not sent');
        return [];
      }
      counts.notices += 1;
      const at = app.clock.now().toISOString();
      return [...outcome.records, sendEvent(app.db, row, 'notice', at, { notice: row.notice })];
    },
  };
};

/**
 * Edits the question just answered so it cannot be answered twice (issue 28), where the channel
 * can edit a message: the chosen answer marked, no buttons. Once, with the first answer's
 * feedback; a failure is only noted on the delivery's events (`question_not_closed`).
 */
const closeQuestion = async (
  { app }: TickContext,
  adapter: ChannelAdapter,
  row: FeedbackRow,
  message: ChannelMessage,
): Promise<CompiledQuery[]> => {
  const providerMessageId = row.provider_message_id;
  if (!adapter.closeQuestion || row.feedback_status !== 'pending' || !providerMessageId) return [];
  try {
    await adapter.closeQuestion({
      providerMessageId,
      message: { ...message, kind: 'lesson' },
      answerIndex: row.answer_index,
    });
    const at = app.clock.now().toISOString();
    return [
      sendEvent(app.db, row, 'question_closed', at, { provider_message_id: providerMessageId }),
    ];
  } catch (error) {
    const code =
      error instanceof ChannelSendError
        ? error.verdict.code
        : (adapter.classifyError?.(error).code ?? 'error');
    app.log.warn({ delivery: row.uuid, err: error }, 'question not closed');
    return [
      eventOf(app, row, 'question_not_closed', app.clock.now().toISOString(), {
        provider_message_id: providerMessageId,
        code,
      }),
    ];
  }
};

/**
 * scheduled → active once a lesson went out; enrolments completed once nothing is left to send
 * them; active → delivered once no enrolled learner has a lesson left (and nobody can still
 * opt in), dropping whoever never opted in. A canceled course's lessons are canceled.
 */
const updateStatuses = async ({ app, now, nowIso }: TickContext) => {
  await progressRepository.cancelLessonsOfCanceledCourses(app.db, nowIso);
  const activated = await progressRepository.activateStartedCourses(app.db);
  const completed = await progressRepository.completeFinishedEnrolments(app.db, nowIso);
  let delivered = 0;
  for (const course of await progressRepository.coursesWithNothingLeft(app.db)) {
    if (await progressRepository.deliverCourse(app.db, course, now)) delivered += 1;
  }
  return { activated, completed, delivered };
};

/** What one pass works with: the time, the channels, the pace and the caches. */
const tickContext = (app: SchedulerApp, options: SchedulerOptions): TickContext => {
  const now = app.clock.now();
  const sleep = options.sleep ?? realSleep;
  const baseDelayMs = options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS;
  return {
    app,
    now,
    nowIso: now.toISOString(),
    adapters: adaptersOf(app, options),
    batchSize: options.batchSize ?? DEFAULT_BATCH,
    send: async (adapter, message) => {
      await limiterOf(adapter)();
      return sendWithRetries(adapter, message, { baseDelayMs, sleep });
    },
    lookups: createLookups(app.db),
  };
};

/**
 * "Repeat questions until they stick" (repeats.ts), after the day's lessons: the feedback on
 * repeats answered, wrong or missed questions planned, unanswered repeats missed, due ones sent.
 */
const drainRepeats = async (ctx: TickContext) => {
  await drainClaimed(ctx, repeatFeedback(ctx));
  await drainClaimed(ctx, plannedRepeats(ctx));
  await drainClaimed(ctx, missedRepeats(ctx));
  await drainClaimed(ctx, dueRepeats(ctx));
};

/**
 * One pass of the scheduler at `app.clock.now()`. Safe to run twice at once or after a
 * restart: every send is claimed first, and a claimed row is never sent again.
 */
export const runSchedulerTick = async (
  app: SchedulerApp,
  options: SchedulerOptions = {},
): Promise<TickResult> => {
  const ctx = tickContext(app, options);
  const counts = { ...NOTHING_DONE, failed: await releaseStuck(ctx) };
  counts.dropped = await closeEnrolments(ctx);
  // Feedback first: a learner who just answered is waiting for it, a lesson due is not.
  await drainClaimed(ctx, feedback(ctx, counts));
  await drainClaimed(ctx, notices(ctx, counts));
  await drainClaimed(ctx, invitations(ctx, counts));
  await drainClaimed(ctx, dueLessons(ctx, counts));
  const marked: string[] = [];
  await drainClaimed(ctx, missedAnswers(ctx, counts, marked));
  counts.paused = await pauseRepository.pauseUnanswered(app.db, marked, ctx.nowIso);
  await drainClaimed(ctx, notices(ctx, counts));
  await drainClaimed(ctx, reminders(ctx, counts));
  await drainRepeats(ctx);
  return { ...counts, ...(await updateStatuses(ctx)) };
};

/** Sends the feedback and notices waiting now, and nothing else (an answer just came in). */
export const runFeedback = async (
  app: SchedulerApp,
  options: SchedulerOptions = {},
): Promise<number> => {
  const ctx = tickContext(app, options);
  const counts = { ...NOTHING_DONE };
  await drainClaimed(ctx, feedback(ctx, counts));
  await drainClaimed(ctx, repeatFeedback(ctx));
  await drainClaimed(ctx, notices(ctx, counts));
  return counts.feedback + counts.notices;
};

/**
 * Runs `work` now, never twice at once: asked again while it runs, it runs once more after.
 * Answers the function that asks, and one that waits for the run under way.
 */
const serialRunner = (work: () => Promise<void>) => {
  let running: Promise<void> | null = null;
  let again = false;
  const run = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = work().finally(() => {
      running = null;
      if (again) {
        again = false;
        run();
      }
    });
  };
  return { run, settled: async () => running ?? undefined };
};

/**
 * Runs a tick now and every `everyMs` (one at a time; a slow tick is not overlapped), and the
 * feedback on an answer as soon as the answer is recorded (`app.deliveryWake`). The timer never
 * keeps the process alive; it stops when the app closes, or with the returned function, which
 * waits for a running tick.
 */
export const startScheduler = (
  app: FastifyInstance,
  everyMs = 60_000,
  options: SchedulerOptions = {},
): (() => Promise<void>) => {
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = () => {
    if (running || stopped) return;
    running = runSchedulerTick(app, options)
      .then((result) => {
        const busy = Object.values(result).some((count) => count > 0);
        if (busy) app.log.info(result, 'scheduler tick');
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'scheduler tick failed'))
      .finally(() => {
        running = null;
      });
  };
  const feedbackRunner = serialRunner(async () => {
    if (stopped) return;
    await runFeedback(app, options).catch((error: unknown) =>
      app.log.error({ err: error }, 'feedback failed'),
    );
  });
  const unlisten = app.deliveryWake.listen(feedbackRunner.run);
  const timer = setInterval(run, everyMs);
  timer.unref();
  const stop = async () => {
    stopped = true;
    clearInterval(timer);
    unlisten();
    await Promise.all([running, feedbackRunner.settled()]);
  };
  try {
    app.addHook('onClose', stop);
  } catch {
    // The app is already started (hooks are closed): the caller stops the scheduler itself.
  }
  run();
  return stop;
};
