import { CHANNEL_CONTACT, LOCALES } from '@ccp/schemas';
import type { TChannelKey, TDistribution, TLocale } from '@ccp/schemas';
import type { Insertable, Transaction } from 'kysely';

import type { Db } from '../db/index.ts';
import type { CoursesTable, Database, EnrollmentsTable } from '../db/types.ts';
import { chunks as chunksOf } from '../lib/chunks.ts';
import type { Clock } from '../lib/clock.ts';
import { newOrderedUuid } from '../lib/ids.ts';
import { learnerHoursResolver, loadDeliveryHours, plansByLearner } from './delivery-hours.ts';
import type { HoursOf } from './delivery-hours.ts';
import { lessonSlots, romeLocalDateTime } from './schedule.ts';

// Enrolment and planning: who a published course reaches, on which channel, in which language,
// and one lesson_deliveries row per learner and lesson day at the time the Distribution says.
// Everything here is idempotent: running it again converges on the same rows.

export type Executor = Db | Transaction<Database>;
export type DeliveryDeps = { db: Db; clock: Clock };

// Well inside SQLite's 32766 bound parameters with the widest row here (19 columns).
const CHUNK = 500;

/** Statuses whose deliveries are kept planned: the learner is in, or may still opt in. */
const PLANNED_ENROLMENTS = ['invited', 'enrolled'];
/** A delivery in one of these has left (or tried to leave) the building: never planned again. */
export const DONE_DELIVERY_STATUSES = ['sent', 'sending', 'failed'];

const chunks = <T>(items: T[]): T[][] => chunksOf(items, CHUNK);

export type CoursePlan = {
  course: CoursesTable;
  distribution: TDistribution | null;
  /** Distinct lesson days, ascending. */
  days: number[];
  /** Course language short names; `primary` is one of them. */
  languages: string[];
  primary: TLocale;
};

const isLocale = (value: string): value is TLocale =>
  (LOCALES as readonly string[]).includes(value);

/** A course's stored Distribution JSON, or null. */
export const parseDistribution = (text: string | null): TDistribution | null =>
  text ? (JSON.parse(text) as TDistribution) : null;

/** The course with what planning needs, or undefined. */
export const loadCoursePlan = async (
  db: Executor,
  courseUuid: string,
): Promise<CoursePlan | undefined> => {
  const course = await db
    .selectFrom('courses')
    .selectAll()
    .where('uuid', '=', courseUuid)
    .executeTakeFirst();
  if (!course) return undefined;
  const [days, languages] = await Promise.all([
    db
      .selectFrom('lessons')
      .select('day')
      .distinct()
      .where('course_uuid', '=', courseUuid)
      .orderBy('day')
      .execute(),
    db
      .selectFrom('course_languages')
      .innerJoin('languages', 'languages.uuid', 'course_languages.language_uuid')
      .select(['languages.short_name', 'course_languages.is_primary'])
      .where('course_languages.course_uuid', '=', courseUuid)
      .orderBy('course_languages.position')
      .execute(),
  ]);
  const primary = languages.find((row) => Number(row.is_primary) === 1)?.short_name ?? 'en';
  return {
    course,
    distribution: parseDistribution(course.distribution),
    days: days.map((row) => Number(row.day)),
    languages: languages.map((row) => row.short_name),
    primary: isLocale(primary) ? primary : 'en',
  };
};

export type LearnerContact = {
  channels: string;
  email: string | null;
  phone: string | null;
};

/**
 * The channel a learner is reached on: the first of the course's channels the learner has, with
 * the contact it needs (an e-mail, or a phone for WhatsApp). Null: the learner cannot be enrolled.
 */
export const learnerChannel = (
  learner: LearnerContact,
  courseChannels: readonly TChannelKey[],
): TChannelKey | null => {
  const own = new Set(JSON.parse(learner.channels) as string[]);
  return (
    courseChannels.find(
      (key) => own.has(key) && !!(CHANNEL_CONTACT[key] === 'email' ? learner.email : learner.phone),
    ) ?? null
  );
};

/** The learner's locale when the course has it, else the course's primary language. */
export const lessonLanguage = (
  locale: string,
  plan: Pick<CoursePlan, 'languages' | 'primary'>,
): TLocale => (plan.languages.includes(locale) && isLocale(locale) ? locale : plan.primary);

/** When opt-ins stop being accepted (the Distribution's close time, Rome), or null. */
export const enrolmentCloseAt = (distribution: TDistribution | null): Date | null =>
  distribution?.enrollment_close_time
    ? romeLocalDateTime(distribution.enrollment_close_time)
    : null;

/** A planned enrolment: its uuid, learner, channel and lesson language. */
export type PlanTarget = {
  uuid: string;
  learnerUuid: string;
  channel: string;
  language: TLocale;
  /** The learner's stored time zone when the caller read it; else read when the plan needs it. */
  timeZone?: string | null;
};

/** Each target learner's stored time zone: as given, or read (only those not given). */
const targetTimeZones = async (
  trx: Executor,
  targets: readonly PlanTarget[],
): Promise<Map<string, string | null>> => {
  const zones = new Map<string, string | null>();
  const unknown: string[] = [];
  for (const target of targets) {
    if (target.timeZone === undefined) unknown.push(target.learnerUuid);
    else zones.set(target.learnerUuid, target.timeZone);
  }
  for (const part of chunks(unknown)) {
    const rows = await trx
      .selectFrom('learners')
      .select(['uuid', 'time_zone'])
      .where('uuid', 'in', part)
      .execute();
    for (const row of rows) zones.set(row.uuid, row.time_zone);
  }
  return zones;
};

/**
 * The learner's hours for each target (see learnerHoursResolver): none for every learner unless
 * the course reads its time in the learner's zone or the company set quiet hours or holidays.
 */
const hoursOfTargets = async (
  trx: Executor,
  plan: CoursePlan,
  targets: readonly PlanTarget[],
): Promise<(target: PlanTarget) => ReturnType<HoursOf>> => {
  const company = await loadDeliveryHours(trx, plan.course.company_uuid);
  if (!plansByLearner(company, plan.distribution)) return () => ({ key: '' });
  const zones = await targetTimeZones(trx, targets);
  const hoursOf = await learnerHoursResolver(company, plan.distribution, zones.values());
  return (target) => hoursOf(zones.get(target.learnerUuid) ?? null);
};

type DeliveryRow = {
  uuid: string;
  enrollment_uuid: string;
  day: number;
  status: string;
  scheduled_for: string;
  channel: string;
  language: string;
};

/**
 * Plans one enrolment's unsent lessons from the next slot after `now`, in the learner's language:
 * a learner who opted in, or one resumed after a pause (issue 28).
 */
export const planEnrolment = async (
  trx: Executor,
  plan: CoursePlan,
  enrolment: { uuid: string; learner_uuid: string; channel: string },
  now: Date,
): Promise<void> => {
  const learner = await trx
    .selectFrom('learners')
    .select('locale')
    .where('uuid', '=', enrolment.learner_uuid)
    .executeTakeFirstOrThrow();
  await planDeliveries(
    trx,
    plan,
    [
      {
        uuid: enrolment.uuid,
        learnerUuid: enrolment.learner_uuid,
        channel: enrolment.channel,
        language: lessonLanguage(learner.locale, plan),
      },
    ],
    now,
  );
};

/**
 * Plans the lessons of the given enrolments: each lesson day not sent yet, in day order, takes
 * the next slot of the Distribution after `now`; rows are created, re-timed, re-channelled or
 * revived (canceled, unsent) as needed, and scheduled rows of days the course no longer has are
 * canceled. With `retime: false` (a paused course) only channel, language and removed days change.
 */
export const planDeliveries = async (
  trx: Executor,
  plan: CoursePlan,
  targets: PlanTarget[],
  now: Date,
  { retime = true }: { retime?: boolean } = {},
): Promise<{ created: number; updated: number }> => {
  const { course, distribution } = plan;
  const nowIso = now.toISOString();
  let created = 0;
  let updated = 0;
  if (targets.length === 0) return { created, updated };

  const existing: DeliveryRow[] = [];
  for (const part of chunks(targets.map((target) => target.uuid))) {
    existing.push(
      ...(await trx
        .selectFrom('lesson_deliveries')
        .select([
          'uuid',
          'enrollment_uuid',
          'day',
          'status',
          'scheduled_for',
          'channel',
          'language',
        ])
        .where('enrollment_uuid', 'in', part)
        .execute()),
    );
  }
  const byEnrolment = new Map<string, Map<number, DeliveryRow>>();
  for (const row of existing) {
    let days = byEnrolment.get(row.enrollment_uuid);
    if (!days) byEnrolment.set(row.enrollment_uuid, (days = new Map<number, DeliveryRow>()));
    days.set(Number(row.day), row);
  }

  const planned = new Set(plan.days);
  const hoursOf: (target: PlanTarget) => ReturnType<HoursOf> = retime
    ? await hoursOfTargets(trx, plan, targets)
    : () => ({ key: '' });
  // Per learner hours (zone, holiday country) and pending days: 10,000 learners in a few zones
  // compute a few schedules.
  const slotCache = new Map<string, string[]>();
  const slotsFor = (count: number, pendingKey: string, target: PlanTarget) => {
    const { key: hoursKey, hours } = hoursOf(target);
    const key = `${hoursKey}#${pendingKey}`;
    let slots = slotCache.get(key);
    if (!slots) {
      slots = distribution
        ? lessonSlots(distribution, count, now, hours).map((slot) => slot.at)
        : [];
      slotCache.set(key, slots);
    }
    return slots;
  };

  const inserts: Insertable<Database['lesson_deliveries']>[] = [];
  // Grouped so a re-save updates a day for many learners with one statement.
  const retimes = new Map<string, string[]>();
  const channelMoves = new Map<string, string[]>();
  const languageMoves = new Map<string, string[]>();
  const cancels: string[] = [];
  const push = (groups: Map<string, string[]>, key: string, uuid: string) => {
    const group = groups.get(key);
    if (group) group.push(uuid);
    else groups.set(key, [uuid]);
  };

  for (const target of targets) {
    const rows = byEnrolment.get(target.uuid) ?? new Map<number, DeliveryRow>();
    for (const row of rows.values()) {
      if (row.status !== 'scheduled') continue;
      if (!planned.has(Number(row.day))) cancels.push(row.uuid);
      else {
        if (row.channel !== target.channel) push(channelMoves, target.channel, row.uuid);
        if (row.language !== target.language) push(languageMoves, target.language, row.uuid);
      }
    }
    if (!retime) continue;
    const pending = plan.days.filter((day) => {
      const row = rows.get(day);
      return !row || !DONE_DELIVERY_STATUSES.includes(row.status);
    });
    const slots = slotsFor(pending.length, pending.join(','), target);
    pending.forEach((day, index) => {
      const at = slots[index];
      if (!at) return;
      const row = rows.get(day);
      if (!row) {
        inserts.push({
          uuid: newOrderedUuid(),
          company_uuid: course.company_uuid,
          course_uuid: course.uuid,
          enrollment_uuid: target.uuid,
          learner_uuid: target.learnerUuid,
          day,
          language: target.language,
          channel: target.channel,
          scheduled_for: at,
          status: 'scheduled',
          sent_at: null,
          delivered_at: null,
          read_at: null,
          answered_at: null,
          answer_correct: null,
          missed_at: null,
          reminders_sent: 0,
          created_at: nowIso,
          updated_at: nowIso,
        });
      } else if (row.status === 'canceled' || row.scheduled_for !== at) {
        push(retimes, `${day}|${at}`, row.uuid);
        // A revived row takes the enrolment's current channel and language too.
        if (row.status === 'canceled') {
          if (row.channel !== target.channel) push(channelMoves, target.channel, row.uuid);
          if (row.language !== target.language) push(languageMoves, target.language, row.uuid);
        }
      }
    });
  }

  for (const part of chunks(inserts)) {
    const result = await trx
      .insertInto('lesson_deliveries')
      .values(part)
      .onConflict((oc) => oc.columns(['enrollment_uuid', 'day']).doNothing())
      .executeTakeFirst();
    created += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  for (const [key, uuids] of retimes) {
    const at = key.slice(key.indexOf('|') + 1);
    for (const part of chunks(uuids)) {
      const result = await trx
        .updateTable('lesson_deliveries')
        .set({ scheduled_for: at, status: 'scheduled', updated_at: nowIso })
        .where('uuid', 'in', part)
        .where('status', 'in', ['scheduled', 'canceled'])
        .executeTakeFirst();
      updated += Number(result.numUpdatedRows);
    }
  }
  for (const [groups, column] of [
    [channelMoves, 'channel'],
    [languageMoves, 'language'],
  ] as const) {
    for (const [value, uuids] of groups) {
      for (const part of chunks(uuids)) {
        await trx
          .updateTable('lesson_deliveries')
          .set({ [column]: value, updated_at: nowIso })
          .where('uuid', 'in', part)
          .where('status', 'in', ['scheduled', 'canceled'])
          .execute();
      }
    }
  }
  for (const part of chunks(cancels)) {
    await trx
      .updateTable('lesson_deliveries')
      .set({ status: 'canceled', updated_at: nowIso })
      .where('uuid', 'in', part)
      .where('status', '=', 'scheduled')
      .execute();
  }
  return { created, updated };
};

/** Cancels the still-scheduled lessons of the given enrolments. */
export const cancelEnrolmentDeliveries = async (
  trx: Executor,
  enrollmentUuids: string[],
  nowIso: string,
): Promise<number> => {
  let canceled = 0;
  for (const part of chunks(enrollmentUuids)) {
    const result = await trx
      .updateTable('lesson_deliveries')
      .set({ status: 'canceled', updated_at: nowIso })
      .where('enrollment_uuid', 'in', part)
      .where('status', '=', 'scheduled')
      .executeTakeFirst();
    canceled += Number(result.numUpdatedRows);
  }
  return canceled;
};

/** Drops the course's learners still invited (the opt-in closed) and cancels their lessons. */
export const dropInvited = async (
  trx: Executor,
  courseUuid: string,
  nowIso: string,
): Promise<number> => {
  const dropped = await trx
    .updateTable('enrollments')
    .set({ status: 'dropped', updated_at: nowIso })
    .where('course_uuid', '=', courseUuid)
    .where('status', '=', 'invited')
    .returning('uuid')
    .execute();
  await cancelEnrolmentDeliveries(
    trx,
    dropped.map((row) => row.uuid),
    nowIso,
  );
  return dropped.length;
};

type CourseLearner = LearnerContact & { uuid: string; locale: string; time_zone: string | null };

const courseLearners = async (trx: Executor, courseUuid: string): Promise<CourseLearner[]> =>
  trx
    .selectFrom('learners')
    .innerJoin('learners_list_members as m', 'm.learner_uuid', 'learners.uuid')
    .innerJoin('course_learners_lists as cl', 'cl.list_uuid', 'm.list_uuid')
    .select([
      'learners.uuid',
      'learners.channels',
      'learners.email',
      'learners.phone',
      'learners.locale',
      'learners.time_zone',
    ])
    .distinct()
    .where('cl.course_uuid', '=', courseUuid)
    .where('learners.deleted_at', 'is', null)
    .orderBy('learners.uuid')
    .execute();

/**
 * A published (scheduled) or paused course's enrolments and lessons brought in line with its
 * lists and Distribution. Scheduled: learners new in the lists are enrolled (invited when the
 * opt-in is on), learners gone from them dropped, the opt-in switched off enrols the invited, and
 * every unsent lesson is planned. Paused: only channels, languages and removed days follow.
 */
const planCourse = async (
  trx: Executor,
  plan: CoursePlan,
  now: Date,
  { enrol }: { enrol: boolean },
) => {
  const { course, distribution } = plan;
  if (!distribution) return;
  const nowIso = now.toISOString();
  const optIn = !distribution.disabled_enrolment_opt_in;
  const closeAt = enrolmentCloseAt(distribution);
  const open = closeAt === null || closeAt.getTime() > now.getTime();

  const learners = await courseLearners(trx, course.uuid);
  const loadEnrolments = () =>
    trx.selectFrom('enrollments').selectAll().where('course_uuid', '=', course.uuid).execute();
  let enrolments = await loadEnrolments();
  const desired = new Map<
    string,
    { channel: TChannelKey; language: TLocale; timeZone: string | null }
  >();
  for (const learner of learners) {
    const channel = learnerChannel(learner, distribution.channels);
    if (channel) {
      desired.set(learner.uuid, {
        channel,
        language: lessonLanguage(learner.locale, plan),
        timeZone: learner.time_zone,
      });
    }
  }

  if (enrol) {
    const byLearner = new Map(enrolments.map((row) => [row.learner_uuid, row]));
    const fresh: EnrollmentsTable[] = [];
    const revived: string[] = [];
    for (const [learnerUuid, want] of desired) {
      const row = byLearner.get(learnerUuid);
      if (!row) {
        fresh.push({
          uuid: newOrderedUuid(),
          company_uuid: course.company_uuid,
          course_uuid: course.uuid,
          learner_uuid: learnerUuid,
          channel: want.channel,
          status: optIn ? 'invited' : 'enrolled',
          invited_at: nowIso,
          enrolled_at: optIn ? null : nowIso,
          completed_at: null,
          created_at: nowIso,
          updated_at: nowIso,
        });
      } else if (row.status === 'dropped' && open) {
        revived.push(row.uuid);
      }
    }
    const dropped = enrolments
      .filter((row) => PLANNED_ENROLMENTS.includes(row.status) && !desired.has(row.learner_uuid))
      .map((row) => row.uuid);
    for (const part of chunks(fresh)) {
      await trx
        .insertInto('enrollments')
        .values(part)
        .onConflict((oc) => oc.columns(['course_uuid', 'learner_uuid']).doNothing())
        .execute();
    }
    for (const part of chunks(revived)) {
      await trx
        .updateTable('enrollments')
        .set({
          status: optIn ? 'invited' : 'enrolled',
          invited_at: nowIso,
          enrolled_at: optIn ? null : nowIso,
          invitation_sent_at: null,
          invitation_retry_at: null,
          invitation_failure_code: null,
          invitation_failure_detail: null,
          invitation_failed_at: null,
          invitation_attempts: 0,
          updated_at: nowIso,
        })
        .where('uuid', 'in', part)
        .where('status', '=', 'dropped')
        .execute();
    }
    for (const part of chunks(dropped)) {
      await trx
        .updateTable('enrollments')
        .set({ status: 'dropped', updated_at: nowIso })
        .where('uuid', 'in', part)
        .execute();
    }
    await cancelEnrolmentDeliveries(trx, dropped, nowIso);
    // The opt-in switched off after publishing: whoever was still invited is in.
    if (!optIn) {
      await trx
        .updateTable('enrollments')
        .set({ status: 'enrolled', enrolled_at: nowIso, updated_at: nowIso })
        .where('course_uuid', '=', course.uuid)
        .where('status', '=', 'invited')
        .execute();
    }
    enrolments = await loadEnrolments();
  }

  // The channel follows the learner's first usable course channel, from the next lesson on.
  const targets: PlanTarget[] = [];
  const moved = new Map<string, string[]>();
  for (const row of enrolments) {
    const want = desired.get(row.learner_uuid);
    if (!want || !PLANNED_ENROLMENTS.includes(row.status)) continue;
    if (row.channel !== want.channel) {
      const group = moved.get(want.channel);
      if (group) group.push(row.uuid);
      else moved.set(want.channel, [row.uuid]);
    }
    targets.push({
      uuid: row.uuid,
      learnerUuid: row.learner_uuid,
      channel: want.channel,
      language: want.language,
      timeZone: want.timeZone,
    });
  }
  for (const [channel, uuids] of moved) {
    for (const part of chunks(uuids)) {
      await trx
        .updateTable('enrollments')
        .set({ channel, updated_at: nowIso })
        .where('uuid', 'in', part)
        .execute();
    }
  }
  await planDeliveries(trx, plan, targets, now, { retime: enrol });
};

/**
 * Back to draft: enrolments that received nothing are removed (with their opt-in events), the
 * others dropped with their scheduled lessons canceled.
 */
const unpublish = async (trx: Executor, plan: CoursePlan, nowIso: string) => {
  const rows = await trx
    .selectFrom('enrollments')
    .select(['uuid', 'learner_uuid'])
    .where('course_uuid', '=', plan.course.uuid)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('lesson_deliveries')
            .select('lesson_deliveries.uuid')
            .whereRef('lesson_deliveries.enrollment_uuid', '=', 'enrollments.uuid')
            .where('lesson_deliveries.status', 'in', DONE_DELIVERY_STATUSES),
        ),
      ),
    )
    .execute();
  for (const part of chunks(rows)) {
    await trx
      .deleteFrom('learner_events')
      .where('course_uuid', '=', plan.course.uuid)
      .where('delivery_uuid', 'is', null)
      .where(
        'learner_uuid',
        'in',
        part.map((row) => row.learner_uuid),
      )
      .execute();
    await trx
      .deleteFrom('enrollments')
      .where(
        'uuid',
        'in',
        part.map((row) => row.uuid),
      )
      .execute();
  }
  const kept = await trx
    .updateTable('enrollments')
    .set({ status: 'dropped', updated_at: nowIso })
    .where('course_uuid', '=', plan.course.uuid)
    .where('status', 'in', PLANNED_ENROLMENTS)
    .returning('uuid')
    .execute();
  await cancelEnrolmentDeliveries(
    trx,
    kept.map((row) => row.uuid),
    nowIso,
  );
};

/**
 * Brings a course's enrolments and lesson plan in line with it after a save: publishing
 * (status scheduled) enrols and plans, a paused course follows channel and language changes
 * from the next lesson, a course back to draft is unpublished. Archived courses are left alone.
 */
export const syncCourseDelivery = async (deps: DeliveryDeps, courseUuid: string): Promise<void> => {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const plan = await loadCoursePlan(trx, courseUuid);
    if (!plan || plan.course.deleted_at !== null) return;
    if (plan.course.status === 'draft') await unpublish(trx, plan, now.toISOString());
    else if (plan.course.status === 'scheduled') await planCourse(trx, plan, now, { enrol: true });
    else if (plan.course.status === 'paused') await planCourse(trx, plan, now, { enrol: false });
  });
};

/** Cancels every still-scheduled lesson of a course. */
const cancelScheduledLessons = (trx: Executor, courseUuid: string, nowIso: string) =>
  trx
    .updateTable('lesson_deliveries')
    .set({ status: 'canceled', updated_at: nowIso })
    .where('course_uuid', '=', courseUuid)
    .where('status', '=', 'scheduled')
    .execute();

/** The statuses whose lessons are still going out: archiving one of them pauses it. */
export const RUNNING_COURSE_STATUSES: readonly string[] = ['scheduled', 'active'];

/**
 * Archiving: the course is marked archived and, while it was running, paused, with its
 * still-scheduled lessons canceled. Paused, it is neither completed nor delivered by the
 * scheduler, so restoring it can never end it: the creator resumes or cancels it.
 */
export const archiveCourse = async (deps: DeliveryDeps, courseUuid: string): Promise<void> => {
  const nowIso = deps.clock.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('courses')
      .set({ deleted_at: nowIso })
      .where('uuid', '=', courseUuid)
      .execute();
    await trx
      .updateTable('courses')
      .set({ status: 'paused' })
      .where('uuid', '=', courseUuid)
      .where('status', 'in', RUNNING_COURSE_STATUSES)
      .execute();
    await cancelScheduledLessons(trx, courseUuid, nowIso);
  });
};

/** Restoring keeps the status: a course archived while running stays paused. */
export const restoreCourse = async (deps: DeliveryDeps, courseUuid: string): Promise<void> => {
  await deps.db
    .updateTable('courses')
    .set({ deleted_at: null })
    .where('uuid', '=', courseUuid)
    .execute();
};

/**
 * Resuming a paused course: active again when a lesson already went out (scheduled otherwise),
 * enrolments follow its lists, and every lesson not yet sent is planned from the next slot after
 * now, by the course's own cadence, time (Rome) and skipped weekdays.
 */
export const resumeCourse = async (deps: DeliveryDeps, courseUuid: string): Promise<void> => {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const plan = await loadCoursePlan(trx, courseUuid);
    if (!plan || plan.course.status !== 'paused') return;
    const sent = await trx
      .selectFrom('lesson_deliveries')
      .select('uuid')
      .where('course_uuid', '=', courseUuid)
      .where('sent_at', 'is not', null)
      .executeTakeFirst();
    const status = sent ? 'active' : 'scheduled';
    await trx
      .updateTable('courses')
      .set({ status, updated_at: now.toISOString() })
      .where('uuid', '=', courseUuid)
      .execute();
    await planCourse(trx, { ...plan, course: { ...plan.course, status } }, now, { enrol: true });
  });
};

/**
 * Canceling a course for good: no further lessons or invitations, and nobody counts as having
 * completed it, since what was not sent never will be.
 */
export const cancelCourse = async (deps: DeliveryDeps, courseUuid: string): Promise<void> => {
  const nowIso = deps.clock.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('courses')
      .set({ status: 'canceled', updated_at: nowIso })
      .where('uuid', '=', courseUuid)
      .execute();
    await dropInvited(trx, courseUuid, nowIso);
    await cancelScheduledLessons(trx, courseUuid, nowIso);
  });
};
