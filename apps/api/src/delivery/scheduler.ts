import { CHANNEL_CONTACT, MISSED_ANSWER_HOURS, REMINDER_AFTER_HOURS } from '@ccp/schemas';
import type { TAssessment, TChannelKey, TLessonMedia, TLocale } from '@ccp/schemas';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { CompiledQuery, ExpressionBuilder } from 'kysely';

import type { Db, Dialect } from '../db/index.ts';
import type { Database } from '../db/types.ts';
import { newUuid } from '../lib/ids.ts';
import { createConnectedAdapters } from './connected-adapters.ts';
import { deliveriesRepository, endOfOutcome, failure } from './deliveries-repository.ts';
import type { SendEnd } from './deliveries-repository.ts';
import {
  createOutboxAdapters,
  limiterOf,
  realSleep,
  sendWithRetries,
  writeRecords,
} from './channels.ts';
import type { ChannelAdapter, ChannelAdapters, SendOutcome, Sleep } from './channels.ts';
import {
  dropInvited,
  enrolmentCloseAt,
  lessonLanguage,
  loadCoursePlan,
  parseDistribution,
} from './enrolment.ts';
import type { CoursePlan } from './enrolment.ts';
import type { ChannelMessage, KnownIdentity, LessonContent } from './message.ts';

// The in-process scheduler. Each tick: close enrolments whose time has come, send opt-in
// invitations, send every due lesson, mark answers missed after 72 hours, remind unread lessons
// after 24 hours, and move course and enrolment statuses along. Every step claims its rows with
// a conditional UPDATE first, so two ticks (two processes, or a restart) never send twice.

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
  reminders: number;
  activated: number;
  completed: number;
  delivered: number;
};

const HOUR_MS = 60 * 60 * 1000;
const LIVE_COURSE_STATUSES = ['scheduled', 'active'];
// A delivered course still reminds its last lessons; paused, canceled and archived ones do not.
const REMINDING_COURSE_STATUSES = ['scheduled', 'active', 'delivered'];
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

type LessonRow = {
  day: number;
  title: string;
  topic_intro: string;
  topic_content: string;
  learning_minutes: number;
  media: string | null;
  assessment: string | null;
  short_name: string;
};

/**
 * What a due lesson and a reminder select of their delivery, course and learner, and where the
 * learner is on the channel (`i`, left-joined: a connector then need not look it up per send).
 */
const MESSAGE_COLUMNS = [
  'd.uuid',
  'd.company_uuid',
  'd.course_uuid',
  'd.learner_uuid',
  'd.day',
  'd.language',
  'd.channel',
  'c.name as course_name',
  'l.first_name',
  'l.last_name',
  'l.email',
  'l.phone',
  'i.address as identity_address',
  'i.provider_user_id',
  'i.conversation_id',
  'i.last_inbound_at',
] as const;

type MessageRow = {
  uuid: string;
  company_uuid: string;
  course_uuid: string;
  course_name: string;
  language: string;
  learner_uuid: string;
  first_name: string;
  last_name: string;
  identity_address: string | null;
  provider_user_id: string | null;
  conversation_id: string | null;
  last_inbound_at: string | null;
};

/** The learner's channel identity the select found (null: none saved yet). */
const identityOf = (row: MessageRow): KnownIdentity | null =>
  row.identity_address !== null && row.provider_user_id !== null
    ? {
        address: row.identity_address,
        providerUserId: row.provider_user_id,
        conversationId: row.conversation_id,
        lastInboundAt: row.last_inbound_at,
      }
    : null;

/** A lesson and its reminder carry the same content; only the kind differs. */
const lessonMessage = (
  kind: 'lesson' | 'reminder',
  adapter: ChannelAdapter,
  row: MessageRow,
  address: string,
  lesson: ChannelMessage['lesson'],
  totalDays: number,
): ChannelMessage => ({
  kind,
  channel: adapter.key,
  companyUuid: row.company_uuid,
  courseUuid: row.course_uuid,
  courseName: row.course_name,
  deliveryUuid: row.uuid,
  language: row.language as TLocale,
  recipient: {
    learnerUuid: row.learner_uuid,
    firstName: row.first_name,
    lastName: row.last_name,
    address,
    identity: identityOf(row),
  },
  lesson,
  totalDays,
});

/** Per-tick caches of course plans and lesson texts. */
const createLookups = (app: SchedulerApp) => {
  const plans = new Map<string, Promise<CoursePlan | undefined>>();
  const lessons = new Map<string, Promise<LessonRow[]>>();
  const planOf = (courseUuid: string) => {
    let plan = plans.get(courseUuid);
    if (!plan) plans.set(courseUuid, (plan = loadCoursePlan(app.db, courseUuid)));
    return plan;
  };
  const lessonsOf = (courseUuid: string) => {
    let rows = lessons.get(courseUuid);
    if (!rows) {
      rows = app.db
        .selectFrom('lessons')
        .innerJoin('languages', 'languages.uuid', 'lessons.language_uuid')
        .select([
          'lessons.day',
          'lessons.title',
          'lessons.topic_intro',
          'lessons.topic_content',
          'lessons.learning_minutes',
          'lessons.media',
          'lessons.assessment',
          'languages.short_name',
        ])
        .where('lessons.course_uuid', '=', courseUuid)
        .execute();
      lessons.set(courseUuid, rows);
    }
    return rows;
  };
  const readLesson = async (
    courseUuid: string,
    day: number,
    language: string,
  ): Promise<LessonContent | null> => {
    const [rows, plan] = await Promise.all([lessonsOf(courseUuid), planOf(courseUuid)]);
    const ofDay = rows.filter((row) => Number(row.day) === day);
    const row =
      ofDay.find((lesson) => lesson.short_name === language) ??
      ofDay.find((lesson) => lesson.short_name === plan?.primary) ??
      ofDay[0];
    if (!row) return null;
    return {
      day,
      title: row.title,
      topic_intro: row.topic_intro,
      topic_content: row.topic_content,
      learning_minutes: Number(row.learning_minutes),
      media: row.media ? (JSON.parse(row.media) as TLessonMedia) : null,
      assessment: row.assessment ? (JSON.parse(row.assessment) as TAssessment) : null,
    };
  };
  const contents = new Map<string, Promise<LessonContent | null>>();
  /** The lesson of a day in a language, else in the primary language, else any (read once a tick). */
  const lessonOf = (courseUuid: string, day: number, language: string) => {
    const key = `${courseUuid} ${day} ${language}`;
    let content = contents.get(key);
    if (!content) contents.set(key, (content = readLesson(courseUuid, day, language)));
    return content;
  };
  return { planOf, lessonOf };
};
type Lookups = ReturnType<typeof createLookups>;

type Contact = { email: string | null; phone: string | null };
const addressOf = (channel: string, contact: Contact): string | null =>
  (CHANNEL_CONTACT[channel as TChannelKey] === 'phone' ? contact.phone : contact.email) ?? null;

type TickContext = {
  app: SchedulerApp;
  now: Date;
  nowIso: string;
  adapters: ChannelAdapters;
  batchSize: number;
  send: (adapter: ChannelAdapter, message: ChannelMessage) => ReturnType<typeof sendWithRetries>;
  lookups: Lookups;
};

/** Works through items channel by channel: channels in parallel, each group in order. */
const perChannelGroup = async <T extends { channel: string }>(
  ctx: TickContext,
  items: T[],
  work: (group: T[], adapter: ChannelAdapter) => Promise<void>,
) => {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(item.channel);
    if (group) group.push(item);
    else groups.set(item.channel, [item]);
  }
  await Promise.all(
    [...groups].map(([channel, group]) => work(group, ctx.adapters[channel as TChannelKey])),
  );
};

/** Sends a group of items channel by channel: channels in parallel, each paced by its limiter. */
const perChannel = <T extends { channel: string }>(
  ctx: TickContext,
  items: T[],
  work: (item: T, adapter: ChannelAdapter) => Promise<void>,
) =>
  perChannelGroup(ctx, items, async (group, adapter) => {
    for (const item of group) await work(item, adapter);
  });

/** Rows claimed by a tick that died are marked failed (interrupted), never resent. */
const releaseStuck = ({ app, now, nowIso }: TickContext): Promise<number> =>
  deliveriesRepository.failInterrupted(
    app.db,
    new Date(now.getTime() - STUCK_SENDING_MS).toISOString(),
    nowIso,
  );

/** After the enrolment close time, learners still invited are dropped with their lessons. */
const closeEnrolments = async ({ app, now, nowIso }: TickContext): Promise<number> => {
  const courses = await app.db
    .selectFrom('courses')
    .select(['uuid', 'distribution'])
    .where('status', 'in', LIVE_COURSE_STATUSES)
    .where('deleted_at', 'is', null)
    .where('distribution', 'is not', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('enrollments')
          .select('enrollments.uuid')
          .whereRef('enrollments.course_uuid', '=', 'courses.uuid')
          .where('enrollments.status', '=', 'invited'),
      ),
    )
    .execute();
  let dropped = 0;
  for (const course of courses) {
    const closeAt = enrolmentCloseAt(parseDistribution(course.distribution));
    if (!closeAt || closeAt.getTime() > now.getTime()) continue;
    dropped += await app.db.transaction().execute((trx) => dropInvited(trx, course.uuid, nowIso));
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
const sendInvitations = async (ctx: TickContext): Promise<number> => {
  const { app, nowIso } = ctx;
  let sent = 0;
  for (;;) {
    const rows = await app.db
      .selectFrom('enrollments as e')
      .innerJoin('courses as c', 'c.uuid', 'e.course_uuid')
      .innerJoin('learners as l', 'l.uuid', 'e.learner_uuid')
      .select([
        'e.uuid',
        'e.company_uuid',
        'e.course_uuid',
        'e.learner_uuid',
        'e.channel',
        'c.name as course_name',
        'l.first_name',
        'l.last_name',
        'l.email',
        'l.phone',
        'l.locale',
        'e.invitation_attempts',
      ])
      .where('e.status', '=', 'invited')
      .where('e.invitation_sent_at', 'is', null)
      // A failed invitation waits for its retry time, or for a Resend when it has none.
      .where((eb) =>
        eb.or([
          eb('e.invitation_failure_code', 'is', null),
          eb('e.invitation_retry_at', '<=', nowIso),
        ]),
      )
      .where('l.deleted_at', 'is', null)
      .where('c.status', 'in', LIVE_COURSE_STATUSES)
      .where('c.deleted_at', 'is', null)
      .orderBy('e.created_at')
      .orderBy('e.uuid')
      .limit(ctx.batchSize)
      .execute();
    if (rows.length === 0) break;
    await perChannel(ctx, rows, async (row, adapter) => {
      if (!(await deliveriesRepository.claimInvitation(app.db, row.uuid, nowIso))) return;
      const plan = await ctx.lookups.planOf(row.course_uuid);
      if (!plan) return;
      const address = addressOf(row.channel, row);
      if (!address) {
        await deliveriesRepository.invitationFailed(
          app.db,
          row.uuid,
          nowIso,
          failure('no_contact'),
          null,
        );
        return;
      }
      const outcome = await ctx.send(adapter, {
        kind: 'invitation',
        channel: adapter.key,
        companyUuid: row.company_uuid,
        courseUuid: row.course_uuid,
        courseName: row.course_name,
        deliveryUuid: null,
        language: lessonLanguage(row.locale, plan),
        recipient: {
          learnerUuid: row.learner_uuid,
          firstName: row.first_name,
          lastName: row.last_name,
          address,
        },
        lesson: null,
        totalDays: plan.days.length,
      });
      const now = app.clock.now();
      const end = endOfOutcome(adapter.key, outcome, now);
      if (end.status === 'failed' || end.status === 'deferred') {
        app.log.warn({ enrolment: row.uuid, reason: end.failure.reason }, 'invitation not sent');
        const retryAt =
          end.status === 'deferred'
            ? end.retryAt
            : invitationRetryAt(Number(row.invitation_attempts ?? 0), outcome, now);
        await deliveriesRepository.invitationFailed(app.db, row.uuid, nowIso, end.failure, retryAt);
        return;
      }
      if (!outcome.ok) return;
      await writeRecords(app.db, [
        ...outcome.records,
        deliveriesRepository.invitationSent(app.db, row.uuid, nowIso),
      ]);
      sent += 1;
    });
    if (rows.length < ctx.batchSize) break;
  }
  return sent;
};

/** What a due lesson's select reads besides the message's columns. */
type DueRow = {
  day: number;
  channel: string;
  email: string | null;
  phone: string | null;
  learner_deleted_at: string | null;
};

/** How a claimed lesson ended, and what its send left to write (its outbox row, an identity). */
type Finish = {
  uuid: string;
  end: SendEnd;
  at: string;
  records: CompiledQuery[];
};

/**
 * The previous lesson's finish with its send's records, then the next lesson's claim (none: the
 * finish alone); answers whether the claim took the row. On SQLite in one transaction: a lesson
 * costs one commit instead of four (claim, identity, outbox row, finish), and the finish waits for
 * nothing, since the next claim follows its send at once (the pace is waited for after it). On
 * PostgreSQL the claim commits on its own: two schedulers each holding one lesson's row and the
 * course's analytics rows (locked by the finish's triggers) while claiming the other's next
 * lesson would deadlock. SQLite has one writer at a time, so nothing waits on a row there.
 */
const finishThenClaim = async (
  db: Db,
  dialect: Dialect | undefined,
  previous: Finish | null,
  claim: { uuid: string; at: string } | null,
): Promise<boolean> => {
  const statements = previous
    ? [
        ...previous.records,
        deliveriesRepository.finish(db, previous.uuid, previous.at, previous.end),
      ]
    : [];
  if (!claim) {
    await writeRecords(db, statements);
    return false;
  }
  const claimQuery = deliveriesRepository.claim(db, claim.uuid, claim.at);
  const claimed = async (executor: Db) =>
    Number((await executor.executeQuery(claimQuery)).numAffectedRows) === 1;
  if (statements.length === 0) return claimed(db);
  if (dialect !== 'sqlite') {
    await writeRecords(db, statements);
    return claimed(db);
  }
  return db.transaction().execute(async (trx) => {
    for (const statement of statements) await trx.executeQuery(statement);
    return claimed(trx);
  });
};

/** Sends one claimed lesson; answers how it ended. */
const sendLesson = async (
  ctx: TickContext,
  row: MessageRow & DueRow,
  adapter: ChannelAdapter,
): Promise<Finish> => {
  const { app } = ctx;
  const finish = (end: SendEnd, records: CompiledQuery[] = []): Finish => ({
    uuid: row.uuid,
    end,
    at: app.clock.now().toISOString(),
    records,
  });
  const [plan, lesson] = await Promise.all([
    ctx.lookups.planOf(row.course_uuid),
    ctx.lookups.lessonOf(row.course_uuid, Number(row.day), row.language),
  ]);
  if (row.learner_deleted_at !== null || !lesson || !plan) return finish({ status: 'canceled' });
  const address = addressOf(row.channel, row);
  if (!address) return finish({ status: 'failed', failure: failure('no_contact') });
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
  return finish(end, outcome.ok ? outcome.records : []);
};

/** Every lesson due now, of enrolled learners of live courses, sent once. */
const sendDueLessons = async (ctx: TickContext) => {
  const { app, nowIso } = ctx;
  const counts = { sent: 0, failed: 0, canceled: 0, deferred: 0 };
  const ended = ({ end }: Finish, channel: string) => {
    counts[end.status] += 1;
    if (end.status === 'sent' || end.status === 'failed')
      app.metrics.lessons.inc({ channel, status: end.status });
  };
  for (;;) {
    const rows = await app.db
      .selectFrom('lesson_deliveries as d')
      .innerJoin('enrollments as e', 'e.uuid', 'd.enrollment_uuid')
      .innerJoin('courses as c', 'c.uuid', 'd.course_uuid')
      .innerJoin('learners as l', 'l.uuid', 'd.learner_uuid')
      .leftJoin('learner_channel_identities as i', (join) =>
        join.onRef('i.learner_uuid', '=', 'd.learner_uuid').onRef('i.channel', '=', 'd.channel'),
      )
      .select([...MESSAGE_COLUMNS, 'l.deleted_at as learner_deleted_at'])
      .where('d.status', '=', 'scheduled')
      .where('d.scheduled_for', '<=', nowIso)
      // A lesson the provider asked to slow down for waits its turn; a deferred one is never
      // picked again in the same tick, whose loop would otherwise spin on it.
      .where((eb) =>
        eb.or([eb('d.next_attempt_at', 'is', null), eb('d.next_attempt_at', '<=', nowIso)]),
      )
      .where('e.status', '=', 'enrolled')
      .where('c.status', 'in', LIVE_COURSE_STATUSES)
      .where('c.deleted_at', 'is', null)
      .orderBy('d.scheduled_for')
      .orderBy('d.uuid')
      .limit(ctx.batchSize)
      .execute();
    if (rows.length === 0) break;
    await perChannelGroup(ctx, rows, async (group, adapter) => {
      let previous: Finish | null = null;
      for (const row of group) {
        const claim = { uuid: row.uuid, at: nowIso };
        const claimed = await finishThenClaim(app.db, app.dialect, previous, claim);
        previous = null;
        if (!claimed) continue;
        previous = await sendLesson(ctx, row, adapter);
        ended(previous, row.channel);
      }
      await finishThenClaim(app.db, app.dialect, previous, null);
    });
    if (rows.length < ctx.batchSize) break;
  }
  return counts;
};

/** True when the delivery's lesson (day and language) asks a question. */
const hasAssessment = (
  eb: ExpressionBuilder<Database & { d: Database['lesson_deliveries'] }, 'd'>,
) =>
  eb.exists(
    eb
      .selectFrom('lessons')
      .innerJoin('languages', 'languages.uuid', 'lessons.language_uuid')
      .select('lessons.uuid')
      .whereRef('lessons.course_uuid', '=', 'd.course_uuid')
      .whereRef('lessons.day', '=', 'd.day')
      .whereRef('languages.short_name', '=', 'd.language')
      .where('lessons.assessment', 'is not', null),
  );

/** When the lesson reached the learner: the channel's delivered receipt, else the send. */
const deliveredRef = (row: { delivered_at: string | null; sent_at: string | null }) =>
  Date.parse(row.delivered_at ?? row.sent_at ?? '');

/** No answer 72 hours after delivery: `missed_at` (that moment) and a 'missed' event. */
const markMissed = async ({ app, now, batchSize }: TickContext): Promise<number> => {
  const cutoff = new Date(now.getTime() - MISSED_ANSWER_HOURS * HOUR_MS).toISOString();
  let missed = 0;
  for (;;) {
    const rows = await app.db
      .selectFrom('lesson_deliveries as d')
      .select([
        'd.uuid',
        'd.company_uuid',
        'd.course_uuid',
        'd.learner_uuid',
        'd.sent_at',
        'd.delivered_at',
      ])
      // Literals, so the partial index on open questions applies.
      .where(sql<boolean>`d.status = 'sent' and d.answered_at is null and d.missed_at is null`)
      .where('d.sent_at', '<=', cutoff)
      .where((eb) => eb(eb.fn.coalesce('d.delivered_at', 'd.sent_at'), '<=', cutoff))
      .where(hasAssessment)
      .orderBy('d.sent_at')
      .limit(batchSize)
      .execute();
    if (rows.length === 0) break;
    let marked = 0;
    await app.db.transaction().execute(async (trx) => {
      const events: Database['learner_events'][] = [];
      for (const row of rows) {
        const missedAt = new Date(deliveredRef(row) + MISSED_ANSWER_HOURS * HOUR_MS).toISOString();
        const result = await trx
          .updateTable('lesson_deliveries')
          .set({ missed_at: missedAt, updated_at: missedAt })
          .where('uuid', '=', row.uuid)
          .where('missed_at', 'is', null)
          .where('answered_at', 'is', null)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) continue;
        events.push({
          uuid: newUuid(),
          company_uuid: row.company_uuid,
          course_uuid: row.course_uuid,
          learner_uuid: row.learner_uuid,
          delivery_uuid: row.uuid,
          type: 'missed',
          correct: null,
          occurred_at: missedAt,
          payload: null,
          created_at: missedAt,
        });
      }
      if (events.length > 0) await trx.insertInto('learner_events').values(events).execute();
      marked = events.length;
    });
    missed += marked;
    if (rows.length < batchSize) break;
  }
  return missed;
};

/** One reminder for a lesson still unread 24 hours after delivery, unless the course stopped. */
const sendReminders = async (ctx: TickContext): Promise<number> => {
  const { app, now, nowIso } = ctx;
  const cutoff = new Date(now.getTime() - REMINDER_AFTER_HOURS * HOUR_MS).toISOString();
  let reminded = 0;
  for (;;) {
    const rows = await app.db
      .selectFrom('lesson_deliveries as d')
      .innerJoin('courses as c', 'c.uuid', 'd.course_uuid')
      .innerJoin('learners as l', 'l.uuid', 'd.learner_uuid')
      .leftJoin('learner_channel_identities as i', (join) =>
        join.onRef('i.learner_uuid', '=', 'd.learner_uuid').onRef('i.channel', '=', 'd.channel'),
      )
      .select(MESSAGE_COLUMNS)
      .where(sql<boolean>`d.status = 'sent' and d.read_at is null and d.reminders_sent = 0`)
      .where('d.sent_at', '<=', cutoff)
      .where((eb) => eb(eb.fn.coalesce('d.delivered_at', 'd.sent_at'), '<=', cutoff))
      .where('d.answered_at', 'is', null)
      .where('c.status', 'in', REMINDING_COURSE_STATUSES)
      .where('c.deleted_at', 'is', null)
      .where('l.deleted_at', 'is', null)
      .orderBy('d.sent_at')
      .limit(ctx.batchSize)
      .execute();
    if (rows.length === 0) break;
    await perChannel(ctx, rows, async (row, adapter) => {
      const claim = await app.db
        .updateTable('lesson_deliveries')
        .set((eb) => ({ reminders_sent: eb('reminders_sent', '+', 1), updated_at: nowIso }))
        .where('uuid', '=', row.uuid)
        .where('reminders_sent', '=', 0)
        .where('read_at', 'is', null)
        .executeTakeFirst();
      if (Number(claim.numUpdatedRows) !== 1) return;
      const [plan, lesson] = await Promise.all([
        ctx.lookups.planOf(row.course_uuid),
        ctx.lookups.lessonOf(row.course_uuid, Number(row.day), row.language),
      ]);
      const address = addressOf(row.channel, row);
      if (!plan || !address) return;
      const outcome = await ctx.send(
        adapter,
        lessonMessage('reminder', adapter, row, address, lesson, plan.days.length),
      );
      if (!outcome.ok) {
        app.log.warn({ delivery: row.uuid, error: outcome.error }, 'reminder not sent');
        return;
      }
      const at = app.clock.now().toISOString();
      const event = app.db
        .insertInto('learner_events')
        .values({
          uuid: newUuid(),
          company_uuid: row.company_uuid,
          course_uuid: row.course_uuid,
          learner_uuid: row.learner_uuid,
          delivery_uuid: row.uuid,
          type: 'reminder',
          correct: null,
          occurred_at: at,
          payload: JSON.stringify({ provider_message_id: outcome.providerMessageId }),
          created_at: at,
        })
        .compile();
      await writeRecords(app.db, [...outcome.records, event]);
      reminded += 1;
    });
    if (rows.length < ctx.batchSize) break;
  }
  return reminded;
};

/**
 * scheduled → active once a lesson went out; enrolments completed once nothing is left to send
 * them; active → delivered once no enrolled learner has a lesson left (and nobody can still
 * opt in), dropping whoever never opted in. A canceled course's lessons are canceled.
 */
const updateStatuses = async ({ app, now, nowIso }: TickContext) => {
  await app.db
    .updateTable('lesson_deliveries')
    .set({ status: 'canceled', updated_at: nowIso })
    .where('status', '=', 'scheduled')
    .where((eb) =>
      eb(
        'course_uuid',
        'in',
        eb.selectFrom('courses').select('courses.uuid').where('courses.status', '=', 'canceled'),
      ),
    )
    .execute();

  const activated = await app.db
    .updateTable('courses')
    .set({ status: 'active' })
    .where('status', '=', 'scheduled')
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('lesson_deliveries')
          .select('lesson_deliveries.uuid')
          .whereRef('lesson_deliveries.course_uuid', '=', 'courses.uuid')
          // By `sent_at`, as the completion below: by `status` SQLite walks every sent lesson.
          .where('lesson_deliveries.sent_at', 'is not', null),
      ),
    )
    .returning('uuid')
    .execute();

  const completed = await app.db
    .updateTable('enrollments')
    .set({ status: 'completed', completed_at: nowIso, updated_at: nowIso })
    .where('status', '=', 'enrolled')
    .where((eb) =>
      eb.and([
        eb(
          'course_uuid',
          'in',
          eb
            .selectFrom('courses')
            .select('courses.uuid')
            .where('courses.status', 'in', LIVE_COURSE_STATUSES)
            .where('courses.deleted_at', 'is', null),
        ),
        // A lesson went out: `sent_at` is set exactly when a lesson is sent. Asked by `status`,
        // SQLite walks the status index through every sent lesson of every course for each
        // enrolment (seconds at 10,000) instead of the enrolment's own few rows.
        eb.exists(
          eb
            .selectFrom('lesson_deliveries')
            .select('lesson_deliveries.uuid')
            .whereRef('lesson_deliveries.enrollment_uuid', '=', 'enrollments.uuid')
            .where('lesson_deliveries.sent_at', 'is not', null),
        ),
        eb.not(
          eb.exists(
            eb
              .selectFrom('lesson_deliveries')
              .select('lesson_deliveries.uuid')
              .whereRef('lesson_deliveries.enrollment_uuid', '=', 'enrollments.uuid')
              .where('lesson_deliveries.status', 'in', ['scheduled', 'sending']),
          ),
        ),
      ]),
    )
    .returning('uuid')
    .execute();

  const finished = await app.db
    .selectFrom('courses')
    .select(['uuid', 'distribution'])
    .where('status', '=', 'active')
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('lesson_deliveries as d')
            .innerJoin('enrollments as e', 'e.uuid', 'd.enrollment_uuid')
            .select('d.uuid')
            .whereRef('d.course_uuid', '=', 'courses.uuid')
            .where('d.status', 'in', ['scheduled', 'sending'])
            .where('e.status', '=', 'enrolled'),
        ),
      ),
    )
    .execute();
  let delivered = 0;
  for (const course of finished) {
    const closeAt = enrolmentCloseAt(parseDistribution(course.distribution));
    const done = await app.db.transaction().execute(async (trx) => {
      if (closeAt && closeAt.getTime() > now.getTime()) {
        // Someone may still opt in and get the lessons: wait for the close time.
        const waiting = await trx
          .selectFrom('enrollments')
          .select('uuid')
          .where('course_uuid', '=', course.uuid)
          .where('status', '=', 'invited')
          .executeTakeFirst();
        if (waiting) return false;
      }
      await dropInvited(trx, course.uuid, nowIso);
      // Lessons of learners who declined stay unsent for good.
      await trx
        .updateTable('lesson_deliveries')
        .set({ status: 'canceled', updated_at: nowIso })
        .where('course_uuid', '=', course.uuid)
        .where('status', '=', 'scheduled')
        .execute();
      const last = await trx
        .selectFrom('lesson_deliveries')
        .select((eb) => eb.fn.max('sent_at').as('last'))
        .where('course_uuid', '=', course.uuid)
        .executeTakeFirst();
      const result = await trx
        .updateTable('courses')
        .set({ status: 'delivered', delivered_at: last?.last ?? nowIso })
        .where('uuid', '=', course.uuid)
        .where('status', '=', 'active')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    });
    if (done) delivered += 1;
  }
  return { activated: activated.length, completed: completed.length, delivered };
};

/**
 * One pass of the scheduler at `app.clock.now()`. Safe to run twice at once or after a
 * restart: every send is claimed first, and a claimed row is never sent again.
 */
export const runSchedulerTick = async (
  app: SchedulerApp,
  options: SchedulerOptions = {},
): Promise<TickResult> => {
  const now = app.clock.now();
  const sleep = options.sleep ?? realSleep;
  const baseDelayMs = options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS;
  const ctx: TickContext = {
    app,
    now,
    nowIso: now.toISOString(),
    adapters: adaptersOf(app, options),
    batchSize: options.batchSize ?? DEFAULT_BATCH,
    send: async (adapter, message) => {
      await limiterOf(adapter)();
      return sendWithRetries(adapter, message, { baseDelayMs, sleep });
    },
    lookups: createLookups(app),
  };
  const stuck = await releaseStuck(ctx);
  const dropped = await closeEnrolments(ctx);
  const invitations = await sendInvitations(ctx);
  const lessons = await sendDueLessons(ctx);
  const missed = await markMissed(ctx);
  const reminders = await sendReminders(ctx);
  const statuses = await updateStatuses(ctx);
  return {
    dropped,
    invitations,
    sent: lessons.sent,
    failed: lessons.failed + stuck,
    deferred: lessons.deferred,
    canceled: lessons.canceled,
    missed,
    reminders,
    ...statuses,
  };
};

/**
 * Runs a tick now and every `everyMs` (one at a time; a slow tick is not overlapped). The timer
 * never keeps the process alive; it stops when the app closes, or with the returned function,
 * which waits for a running tick.
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
  const timer = setInterval(run, everyMs);
  timer.unref();
  const stop = async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
  try {
    app.addHook('onClose', stop);
  } catch {
    // The app is already started (hooks are closed): the caller stops the scheduler itself.
  }
  run();
  return stop;
};
