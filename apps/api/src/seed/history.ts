import { MISSED_ANSWER_HOURS, REMINDER_AFTER_HOURS } from '@ccp/schemas';
import type { TAssessment, TDistribution } from '@ccp/schemas';
import type { Insertable, Transaction } from 'kysely';

import type { Database } from '../db/types.ts';
import { learnerChannel, lessonLanguage, loadCoursePlan } from '../delivery/enrolment.ts';
import { lessonSlots } from '../delivery/schedule.ts';
import { createRandom } from './random.ts';
import type { Random } from './random.ts';
import { seedRepeats } from './repeats.ts';

// The demo's delivery history: what the scheduler and the channels would have recorded for the
// published courses up to `now` (about 90 days for the oldest), so the insights show real
// figures. A simulated population answers with four habits (keen, steady, casual, dormant);
// everything is drawn from a fixed seed, so the same `now` gives the same history.

type Trx = Transaction<Database>;

const HISTORY_SEED = 20_260_105;
/** Repeats draw from a stream of their own: the lessons' history stays what it was without them. */
const REPEATS_SEED = 20_261_126;
const CONVERSATION_SEED = 20_261_126;
/** Share of enrolments sent two lessons or more that a trainer paused for an afternoon. */
const PAUSED_SHARE = 0.06;
const BATCH_SIZE = 500;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** The statuses with enrolments; scheduled ones have invitations and a plan, nothing sent yet. */
const PUBLISHED = ['scheduled', 'active', 'paused', 'delivered'];

type Habit = {
  /** The channel confirms delivery (unreachable learners never do). */
  delivered: number;
  read: number;
  /** Minutes from delivery to read, as a range. */
  readMinutes: [number, number];
  answer: number;
  correct: number;
  answerMinutes: [number, number];
};

const HABITS: readonly (readonly [Habit, number])[] = [
  [
    {
      delivered: 0.99,
      read: 0.95,
      readMinutes: [2, 90],
      answer: 0.93,
      correct: 0.84,
      answerMinutes: [1, 12],
    },
    35,
  ],
  [
    {
      delivered: 0.98,
      read: 0.8,
      readMinutes: [20, 600],
      answer: 0.78,
      correct: 0.71,
      answerMinutes: [2, 40],
    },
    35,
  ],
  [
    {
      delivered: 0.96,
      read: 0.5,
      readMinutes: [120, 1800],
      answer: 0.55,
      correct: 0.6,
      answerMinutes: [3, 90],
    },
    20,
  ],
  [
    {
      delivered: 0.92,
      read: 0.1,
      readMinutes: [1200, 3600],
      answer: 0.3,
      correct: 0.5,
      answerMinutes: [5, 240],
    },
    10,
  ],
];

const OPEN_ANSWERS = [
  'I would ask more questions first.',
  'Summarise and confirm the next step.',
  'Share the data behind the figure.',
  'Listen, then reframe the value.',
];

const iso = (ms: number) => new Date(ms).toISOString();
const between = (random: Random, [min, max]: [number, number]) => random.int(min, max);

const insertAll = async <T extends keyof Database>(
  trx: Trx,
  table: T,
  rows: Insertable<Database[T]>[],
): Promise<void> => {
  for (let start = 0; start < rows.length; start += BATCH_SIZE) {
    await trx
      .insertInto(table)
      .values(rows.slice(start, start + BATCH_SIZE))
      .execute();
  }
};

export type HistorySummary = { enrolments: number; deliveries: number; events: number };

/**
 * The text of the answer a learner tapped: one of the right answers or one of the wrong ones,
 * picked from the delivery's uuid so the seed's random stream (and every figure) stays the same.
 */
const chosenAnswer = (assessment: TAssessment, correct: boolean, deliveryUuid: string): string => {
  const candidates = assessment.answers.filter((answer) => answer.correct === correct);
  const pool = candidates.length > 0 ? candidates : assessment.answers;
  const index = [...deliveryUuid].reduce((sum, char) => sum + char.charCodeAt(0), 0) % pool.length;
  return pool[index]?.text ?? '';
};

/**
 * Simulates the delivery history of every published course already in the database (inside the
 * demo seed's transaction): enrolments and opt-ins, lesson sends, delivered/read/answered
 * events, unread reminders after 24 h and answers missed after 72 h, up to `now`.
 */
export const seedHistory = async (trx: Trx, now: Date): Promise<HistorySummary> => {
  const random = createRandom(HISTORY_SEED);
  const repeatRandom = createRandom(REPEATS_SEED);
  // The conversation's extra steps draw from their own stream: the figures above stay the same.
  const story = createRandom(CONVERSATION_SEED);
  const nowMs = now.getTime();
  const courses = await trx
    .selectFrom('courses')
    .leftJoin('users', 'users.uuid', 'courses.creator_uuid')
    .select([
      'courses.uuid',
      'courses.status',
      'courses.scheduled_at',
      'courses.updated_at',
      'users.first_name as creator_first_name',
      'users.last_name as creator_last_name',
    ])
    .where('courses.status', 'in', PUBLISHED)
    .where('courses.distribution', 'is not', null)
    .where('courses.scheduled_at', 'is not', null)
    .orderBy('courses.created_at')
    .orderBy('courses.uuid')
    .execute();

  // A learner keeps one habit across courses.
  const habits = new Map<string, Habit>();
  const habitOf = (learnerUuid: string) => {
    let habit = habits.get(learnerUuid);
    if (!habit) habits.set(learnerUuid, (habit = random.weighted(HABITS)));
    return habit;
  };

  const enrolments: Insertable<Database['enrollments']>[] = [];
  const deliveries: Insertable<Database['lesson_deliveries']>[] = [];
  const events: Insertable<Database['learner_events']>[] = [];
  const repeats: Insertable<Database['question_repeats']>[] = [];

  for (const course of courses) {
    const plan = await loadCoursePlan(trx, course.uuid);
    if (!plan?.distribution || plan.days.length === 0) continue;
    const distribution: TDistribution = plan.distribution;
    const scheduledAt = Date.parse(course.scheduled_at!);
    // Sends stopped when a course was paused (its last edit); none yet for a scheduled one.
    const sendUntil =
      course.status === 'scheduled'
        ? scheduledAt
        : course.status === 'paused'
          ? Date.parse(course.updated_at)
          : nowMs;
    // A paused course stopped reminding too.
    const remindUntil = course.status === 'paused' ? Math.min(nowMs, sendUntil) : nowMs;
    const slots = lessonSlots(distribution, plan.days.length).map((slot) => Date.parse(slot.at));
    const firstSlot = slots[0] ?? nowMs;
    const lessons = await trx
      .selectFrom('lessons')
      .innerJoin('languages', 'languages.uuid', 'lessons.language_uuid')
      .select(['lessons.day', 'lessons.assessment', 'languages.short_name'])
      .where('lessons.course_uuid', '=', course.uuid)
      .execute();
    const assessmentOf = (day: number, language: string): TAssessment | null => {
      const row = lessons.find((lesson) => lesson.day === day && lesson.short_name === language);
      return row?.assessment ? (JSON.parse(row.assessment) as TAssessment) : null;
    };
    const learners = await trx
      .selectFrom('learners')
      .innerJoin('learners_list_members as m', 'm.learner_uuid', 'learners.uuid')
      .innerJoin('course_learners_lists as cl', 'cl.list_uuid', 'm.list_uuid')
      .select([
        'learners.uuid',
        'learners.company_uuid',
        'learners.channels',
        'learners.email',
        'learners.phone',
        'learners.locale',
        'learners.reachability',
      ])
      .distinct()
      .where('cl.course_uuid', '=', course.uuid)
      .where('learners.deleted_at', 'is', null)
      .where('learners.created_at', '<=', course.scheduled_at!)
      .orderBy('learners.uuid')
      .execute();
    const optIn = !distribution.disabled_enrolment_opt_in;

    for (const learner of learners) {
      const channel = learnerChannel(learner, distribution.channels);
      if (!channel) continue;
      const habit = habitOf(learner.uuid);
      const language = lessonLanguage(learner.locale, plan);
      const enrolmentUuid = random.uuid();
      const base = {
        company_uuid: learner.company_uuid,
        course_uuid: course.uuid,
        learner_uuid: learner.uuid,
      };
      // This enrolment's events are the ones pushed from here on.
      const eventsFrom = events.length;
      const logWith =
        (stream: Random) =>
        (type: string, at: number, extra: Partial<Insertable<Database['learner_events']>> = {}) =>
          events.push({
            uuid: stream.uuid(),
            ...base,
            delivery_uuid: null,
            type,
            correct: null,
            occurred_at: iso(at),
            payload: null,
            created_at: iso(at),
            ...extra,
          });
      const event = logWith(random);
      const storyEvent = logWith(story);

      // What the learner is told after each answer (issue 28): the feedback a few seconds
      // later, the question closed where the channel can edit it, the score after the last.
      const score = { answered: 0, right: 0 };
      const answerReplies = (
        answeredAt: number,
        lastDay: boolean,
        withDelivery: { delivery_uuid: string },
      ) => {
        const at = answeredAt + story.int(2, 9) * 1000;
        // The question closes a second after the feedback: both before now, or neither.
        if (at + 1000 > nowMs) return;
        const completion = lastDay ? { completion: { ...score } } : {};
        const told = { kind: 'answer', sent: true, ...completion };
        storyEvent('feedback', at, { ...withDelivery, payload: JSON.stringify(told) });
        if (channel !== 'whatsapp') {
          storyEvent('question_closed', at + 1000, { ...withDelivery, payload: '{}' });
        }
      };
      // The GDPR opt-in: most say yes within a day of the invitation, before the first lesson.
      const invitedAt = scheduledAt + MINUTE;
      let status: string = 'enrolled';
      let enrolledAt: number | null = scheduledAt;
      if (optIn) {
        const answer = random.weighted([
          ['yes', 82],
          ['no', 5],
          ['silent', 13],
        ] as const);
        const answeredAt = Math.min(
          invitedAt + random.int(10, 30 * 60) * MINUTE,
          firstSlot - MINUTE,
        );
        enrolledAt = null;
        if (answer === 'silent' || answeredAt > nowMs) {
          status = course.status === 'delivered' ? 'dropped' : 'invited';
        } else if (answer === 'no') {
          status = 'declined';
          event('declined', answeredAt);
        } else {
          enrolledAt = answeredAt;
          event('opted_in', answeredAt);
        }
      }

      const rows: Insertable<Database['lesson_deliveries']>[] = [];
      plan.days.forEach((day, index) => {
        const slot = slots[index];
        if (slot === undefined) return;
        const sent = status === 'enrolled' && slot <= sendUntil && slot <= nowMs;
        const delivery: Insertable<Database['lesson_deliveries']> = {
          uuid: random.uuid(),
          ...base,
          enrollment_uuid: enrolmentUuid,
          day,
          language,
          channel,
          scheduled_for: iso(slot),
          status: sent
            ? 'sent'
            : status === 'declined' || status === 'dropped' || course.status === 'delivered'
              ? 'canceled'
              : 'scheduled',
          sent_at: null,
          delivered_at: null,
          read_at: null,
          answered_at: null,
          answer_correct: null,
          missed_at: null,
          reminders_sent: 0,
          created_at: course.scheduled_at!,
          updated_at: course.scheduled_at!,
        };
        rows.push(delivery);
        if (!sent) return;

        const sentAt = slot + random.int(1, 40) * 1000;
        delivery.sent_at = iso(sentAt);
        delivery.updated_at = iso(sentAt);
        const reachable = learner.reachability !== 'unreachable';
        const deliveredAt =
          reachable && random.chance(habit.delivered) ? sentAt + random.int(1, 90) * 1000 : null;
        const ref = deliveredAt ?? sentAt;
        const withDelivery = { delivery_uuid: delivery.uuid };
        if (deliveredAt !== null && deliveredAt <= nowMs) {
          delivery.delivered_at = iso(deliveredAt);
          event('delivered', deliveredAt, withDelivery);
        }

        // Unread after 24 hours: one reminder (while the course was still sending), which wakes
        // some learners up.
        let readAt: number | null =
          reachable && random.chance(habit.read)
            ? ref + between(random, habit.readMinutes) * MINUTE
            : null;
        const remindAt = ref + REMINDER_AFTER_HOURS * HOUR + random.int(5, 55) * 1000;
        if ((readAt === null || readAt > remindAt) && remindAt <= remindUntil) {
          delivery.reminders_sent = 1;
          event('reminder', remindAt, withDelivery);
          if (readAt === null && reachable && random.chance(0.35)) {
            readAt = remindAt + random.int(10, 600) * MINUTE;
          }
        }
        if (readAt !== null && readAt <= nowMs) {
          delivery.read_at = iso(readAt);
          delivery.delivered_at ??= iso(readAt);
          event('read', readAt, withDelivery);
        } else readAt = null;

        const assessment = assessmentOf(day, language);
        if (!assessment) return;
        // As the scheduler counts it: from the delivery receipt, which a read fills in.
        const missAt = (deliveredAt ?? readAt ?? sentAt) + MISSED_ANSWER_HOURS * HOUR;
        const answeredAt =
          readAt !== null && random.chance(habit.answer)
            ? readAt + between(random, habit.answerMinutes) * MINUTE
            : null;
        if (answeredAt !== null && answeredAt <= nowMs && answeredAt < missAt) {
          const open = assessment.type === 'open_answer';
          const correct = open || random.chance(habit.correct);
          delivery.answered_at = iso(answeredAt);
          delivery.answer_correct = correct ? 1 : 0;
          event('answered', answeredAt, {
            ...withDelivery,
            correct: correct ? 1 : 0,
            payload: JSON.stringify({
              text: open
                ? random.pick(OPEN_ANSWERS)
                : chosenAnswer(assessment, correct, delivery.uuid),
            }),
          });
          score.answered += 1;
          if (correct) score.right += 1;
          answerReplies(answeredAt, index === plan.days.length - 1, withDelivery);
        } else if (missAt <= nowMs) {
          delivery.missed_at = iso(missAt);
          event('missed', missAt, withDelivery);
        }
      });

      // An unreachable learner's lessons of a running course never reached them: the provider
      // refused each one, and the learner page and the course report say why (issue 25).
      if (learner.reachability === 'unreachable' && course.status !== 'delivered') {
        failUnreachable(rows, channel, events, eventsFrom);
      }

      if (distribution.repeat_questions && status === 'enrolled') {
        const settings = {
          time: distribution.time,
          targetRetention: distribution.target_retention,
        };
        // A repeat is a message to read and answer like a lesson: a dormant reader rarely does.
        const repeatHabit = { ...habit, answer: habit.read * habit.answer };
        repeats.push(...seedRepeats(repeatRandom, rows, settings, repeatHabit, nowMs));
      }
      const trainer = `${course.creator_first_name ?? ''} ${course.creator_last_name ?? ''}`.trim();
      pauseStory(rows, story, trainer || null, nowMs, storyEvent);

      const allSent = rows.length > 0 && rows.every((row) => row.status === 'sent');
      const lastSent = rows.reduce<string | null>(
        (last, row) => (row.sent_at && (!last || row.sent_at > last) ? row.sent_at : last),
        null,
      );
      enrolments.push({
        uuid: enrolmentUuid,
        ...base,
        channel,
        status: status === 'enrolled' && allSent ? 'completed' : status,
        invited_at: course.scheduled_at!,
        enrolled_at: enrolledAt === null ? null : iso(enrolledAt),
        completed_at: status === 'enrolled' && allSent ? lastSent : null,
        invitation_sent_at: optIn ? iso(invitedAt) : null,
        created_at: course.scheduled_at!,
        updated_at: lastSent ?? course.scheduled_at!,
      });
      deliveries.push(...rows);
    }
  }

  await insertAll(trx, 'enrollments', enrolments);
  await insertAll(trx, 'lesson_deliveries', deliveries);
  await insertAll(trx, 'learner_events', events);
  await insertAll(trx, 'question_repeats', repeats);
  return { enrolments: enrolments.length, deliveries: deliveries.length, events: events.length };
};

/**
 * A few learners were paused by their trainer for an afternoon and resumed the same day, between
 * two lessons (issue 28): the conversation shows who did it, and the learner was told.
 */
const pauseStory = (
  rows: Insertable<Database['lesson_deliveries']>[],
  story: Random,
  trainer: string | null,
  nowMs: number,
  storyEvent: (
    type: string,
    at: number,
    extra: Partial<Insertable<Database['learner_events']>>,
  ) => void,
) => {
  const sent = rows.filter((row) => row.status === 'sent' && row.sent_at);
  if (sent.length < 2 || !story.chance(PAUSED_SHARE)) return;
  // After a lesson that has a next one: the afternoon's pause holds nothing back.
  const lesson = sent[story.int(0, sent.length - 2)]!;
  const pausedAt = Date.parse(lesson.sent_at!) + story.int(2, 4) * HOUR;
  const resumedAt = pausedAt + story.int(2, 5) * HOUR;
  if (resumedAt + MINUTE > nowMs) return;
  const by = { by: 'trainer', ...(trainer ? { user_name: trainer } : {}) };
  storyEvent('paused', pausedAt, { payload: JSON.stringify({ reason: 'trainer', ...by }) });
  storyEvent('resumed', resumedAt, { payload: JSON.stringify(by) });
  storyEvent('notice', resumedAt + MINUTE, {
    delivery_uuid: lesson.uuid,
    payload: JSON.stringify({ notice: 'resumed' }),
  });
};

/** What each provider answers for a learner it cannot reach: the reason and its own words. */
const UNREACHABLE: Record<string, { reason: string; detail: string }> = {
  slack: {
    reason: 'learner_not_found',
    detail: 'users_not_found: An API error occurred: users_not_found',
  },
  'ms-teams': {
    reason: 'app_not_installed',
    detail: 'not_installed: the learner has not installed the app',
  },
  whatsapp: { reason: 'undeliverable', detail: '131026: Message undeliverable' },
  webex: {
    reason: 'learner_not_found',
    detail: 'person_not_found: no Webex person with this e-mail',
  },
  'google-chat': {
    reason: 'app_not_installed',
    detail: 'app_not_added: the learner has not added the app',
  },
};

/** Turns the sends of an unreachable learner into failures, with no receipts or answers. */
const failUnreachable = (
  rows: Insertable<Database['lesson_deliveries']>[],
  channel: string,
  events: Insertable<Database['learner_events']>[],
  eventsFrom: number,
) => {
  const why = UNREACHABLE[channel] ?? { reason: 'provider_error', detail: 'error' };
  const failed = new Set<string>();
  for (const row of rows) {
    if (row.status !== 'sent') continue;
    failed.add(row.uuid);
    Object.assign(row, {
      status: 'failed',
      sent_at: null,
      delivered_at: null,
      read_at: null,
      answered_at: null,
      answer_correct: null,
      missed_at: null,
      reminders_sent: 0,
      failure_code: why.reason,
      failure_detail: why.detail,
    });
  }
  for (let index = events.length - 1; index >= eventsFrom; index -= 1) {
    const uuid = events[index]!.delivery_uuid;
    if (uuid && failed.has(uuid)) events.splice(index, 1);
  }
};
