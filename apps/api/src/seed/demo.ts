import {
  DELIVERY_TIME_ZONE,
  DISTRIBUTION_DEFAULTS,
  deliveryCalendarDate,
  REMINDER_POLICY_DEFAULTS,
} from '@ccp/schemas';
import type { TAssessment, TDistribution } from '@ccp/schemas';
import type { Insertable, Transaction } from 'kysely';

import type { Db } from '../db/index.ts';
import { LANGUAGES } from '../db/migrations/0002_reference_data.ts';
import type { Database } from '../db/types.ts';
import { DAY_MS } from '../lib/clock.ts';
import { insertListRows, insertMemberRows } from '../learners/learners-lists-repository.ts';
import { insertLearnerRows, learnerRow } from '../learners/learners-repository.ts';
import { hashPassword } from '../lib/passwords.ts';
import { seedConnections } from './connections.ts';
import { DEMO_COURSES, THANK_YOU } from './courses.ts';
import type { DemoCourse, DemoLessonText } from './courses.ts';
import { seedHistory } from './history.ts';
import { makeLearners } from './people.ts';
import type { DemoLearner, LearnerMix } from './people.ts';
import { createRandom } from './random.ts';
import type { Random } from './random.ts';
import { seedTeam } from './team.ts';
import { DEMO_TERMS } from './terms.ts';

export type SeedOptions = { totpSecret: string; now: Date };
export type SeedSummary = {
  accounts: { email: string; note: string }[];
  password: string;
  totpSecret: string;
};

export const DEMO_PASSWORD = 'ChangeMe-2026!';
// Any fixed number works; changing it reshuffles every name, contact and uuid of the demo.
const DEMO_SEED = 20_260_101;
// Well below SQLite's 32766 bound variables and Postgres' 65535 parameters for every table here.
const BATCH_SIZE = 100;
const ACME_LEARNERS = 500;

const ACME_LISTS = [
  'Sales EMEA',
  'Sales Italy',
  'New Hires 2026',
  'Team Leads',
  'Customer Success',
] as const;
type AcmeList = (typeof ACME_LISTS)[number];

const languageUuid = (shortName: 'en' | 'it'): string =>
  LANGUAGES.find((language) => language.short_name === shortName)!.uuid;

type Trx = Transaction<Database>;

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

// '+01:00' in winter, '+02:00' in summer: delivery times are CET with Europe/Rome's summer time.
const romeOffset = (date: string): string => {
  const name = new Intl.DateTimeFormat('en', {
    timeZone: DELIVERY_TIME_ZONE,
    timeZoneName: 'longOffset',
  })
    .formatToParts(new Date(`${date}T12:00:00Z`))
    .find((part) => part.type === 'timeZoneName')?.value;
  return name?.replace('GMT', '') || '+01:00';
};

/** Clock arithmetic relative to the seed's `now`, so tests with a manual clock get stable dates. */
const timeline = (now: Date) => {
  const base = now.getTime();
  return {
    /** ISO timestamp `days` before now, plus `minutes` (may be negative). */
    ago: (days: number, minutes = 0) =>
      new Date(base - days * DAY_MS + minutes * 60_000).toISOString(),
    /** 'YYYY-MM-DD' of now plus `days`, as a Rome calendar day like the delivery window. */
    date: (days: number) => deliveryCalendarDate(new Date(base + days * DAY_MS)),
    /** A delivery moment: a date and an 'HH:mm' in Rome time, as the distribution defines it. */
    delivery: (date: string, time: string) =>
      new Date(`${date}T${time}:00${romeOffset(date)}`).toISOString(),
  };
};
type Timeline = ReturnType<typeof timeline>;

type Company = { uuid: string; name: string; plan: string };
type Ids = Random;

type UserSeed = {
  key: 'creator' | 'newCreator' | 'member' | 'globexAdmin' | 'free';
  email: string;
  first: string;
  last: string;
  company: Company;
  admin: boolean;
  twoFactor: boolean;
  createdDaysAgo: number;
  note: string;
};

const learnerRows = (
  ids: Ids,
  t: Timeline,
  companyUuid: string,
  learners: DemoLearner[],
  random: Random,
) =>
  learners.map((learner) => {
    const created = t.ago(learner.createdDaysAgo, -random.int(0, 600));
    const deleted =
      learner.archivedDaysAgo === null ? null : t.ago(learner.archivedDaysAgo, -random.int(0, 600));
    const updated =
      deleted ??
      (random.chance(0.3)
        ? t.ago(random.int(0, learner.createdDaysAgo - 1), -random.int(0, 600))
        : created);
    return learnerRow(
      companyUuid,
      learner,
      {
        active: learner.active ? 1 : 0,
        reachability: learner.reachability,
        created_at: created,
        updated_at: updated,
        deleted_at: deleted,
      },
      ids.uuid(),
    );
  });

const assessmentOf = (
  text: DemoLessonText,
  lesson: DemoCourse['lessons'][number],
  thankYou: string,
): TAssessment => ({
  question: text.question,
  type: lesson.type,
  mandatory: lesson.mandatory,
  answers:
    lesson.type === 'open_answer'
      ? []
      : text.answers.map(([answer, response], index) => ({
          text: answer,
          correct: index === lesson.correct,
          response,
        })),
  thank_you_message: thankYou,
});

/** The delivery settings and dates of a course, consistent with its status. */
const deliveryOf = (course: DemoCourse, t: Timeline) => {
  if (course.status === 'draft' || course.startInDays === undefined) {
    return {
      distribution: null,
      created: t.ago(6, -90),
      updated: t.ago(1, -200),
      scheduled: null,
      delivered: null,
    };
  }
  const start = course.startInDays;
  const time = course.time ?? '08:00';
  const startDate = t.date(start);
  const distribution: TDistribution = {
    repeat_period: 'Day',
    repeat_every: 1,
    time,
    start_date: startDate,
    channels: course.channels,
    disabled_enrolment_opt_in: course.classroom === 'onboarding',
    exclusion_days: course.exclusionDays ?? [],
    learner_time_zone: false,
    repeat_questions: course.repeatQuestions ?? DISTRIBUTION_DEFAULTS.repeat_questions,
    target_retention: DISTRIBUTION_DEFAULTS.target_retention,
    ...REMINDER_POLICY_DEFAULTS,
    enrollment_close_time: course.status === 'scheduled' ? `${t.date(start - 1)}T18:00` : null,
  };
  // Scheduled at least five days before the start, and never later than two days ago.
  const scheduledDaysAgo = Math.max(2, 5 - start);
  const lastDay = course.lessons.length - 1;
  const delivered =
    course.status === 'delivered' ? t.delivery(t.date(start + lastDay), time) : null;
  const created = t.ago(scheduledDaysAgo + 14, -120);
  const updated =
    course.status === 'canceled' || course.status === 'paused'
      ? t.ago(1, -75)
      : t.ago(scheduledDaysAgo, -30);
  return {
    distribution,
    created,
    updated: delivered && delivered > updated ? delivered : updated,
    scheduled: t.ago(scheduledDaysAgo, -30),
    delivered,
  };
};

/**
 * Seeds the demo organisation into an empty database: Acme Training (500 learners, courses in
 * every status in English and Italian), Globex Learning (a member waiting on its administrator)
 * and Freelance Trainer (the Free plan). Deterministic for a given `now`.
 */
export const seedDemo = async (db: Db, options: SeedOptions): Promise<SeedSummary> => {
  const t = timeline(options.now);
  // One stream per part, so editing the courses does not reshuffle the learners.
  const ids = createRandom(DEMO_SEED);
  const people = createRandom(DEMO_SEED + 1);
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  const acme: Company = { uuid: ids.uuid(), name: 'Acme Training', plan: 'business' };
  const globex: Company = { uuid: ids.uuid(), name: 'Globex Learning', plan: 'business' };
  const freelance: Company = { uuid: ids.uuid(), name: 'Freelance Trainer', plan: 'free' };
  const classrooms = {
    sales: { uuid: ids.uuid(), company: acme, name: 'Sales Academy', position: 0 },
    onboarding: { uuid: ids.uuid(), company: acme, name: 'Onboarding', position: 1 },
    globex: { uuid: ids.uuid(), company: globex, name: 'Globex Academy', position: 0 },
    free: { uuid: ids.uuid(), company: freelance, name: 'My Workshops', position: 0 },
  };

  const userSeeds: UserSeed[] = [
    {
      key: 'creator',
      email: 'creator@example.com',
      first: 'Chiara',
      last: 'Colombo',
      company: acme,
      admin: true,
      twoFactor: true,
      createdDaysAgo: 300,
      note: 'Acme Training administrator, 2FA on, all terms accepted',
    },
    {
      key: 'newCreator',
      email: 'new.creator@example.com',
      first: 'Liam',
      last: "O'Connor",
      company: acme,
      admin: true,
      twoFactor: false,
      createdDaysAgo: 2,
      note: 'Acme Training administrator, 2FA not set up yet, one term to accept',
    },
    {
      key: 'member',
      email: 'member@example.com',
      first: 'Jonas',
      last: 'Becker',
      company: globex,
      admin: false,
      twoFactor: true,
      createdDaysAgo: 90,
      note: 'Globex Learning member (not an administrator), 2FA on, one term only an administrator may accept',
    },
    {
      key: 'globexAdmin',
      email: 'globex.admin@example.com',
      first: 'Sarah',
      last: 'Walsh',
      company: globex,
      admin: true,
      twoFactor: true,
      createdDaysAgo: 120,
      note: 'Globex Learning administrator, 2FA on, can accept the pending Data Processing Agreement',
    },
    {
      key: 'free',
      email: 'free@example.com',
      first: 'Marco',
      last: 'Esposito',
      company: freelance,
      admin: true,
      twoFactor: true,
      createdDaysAgo: 20,
      note: 'Freelance Trainer administrator on the Free plan, 2FA on, all terms accepted',
    },
  ];
  const users = Object.fromEntries(
    userSeeds.map((user) => [user.key, { ...user, uuid: ids.uuid() }]),
  ) as Record<UserSeed['key'], UserSeed & { uuid: string }>;

  const terms = Object.fromEntries(
    DEMO_TERMS.map((term) => [term.key, { ...term, uuid: ids.uuid() }]),
  ) as Record<(typeof DEMO_TERMS)[number]['key'], (typeof DEMO_TERMS)[number] & { uuid: string }>;
  // Who accepted what. Globex's administrator has not accepted the company-scope Data Processing
  // Agreement, so member@ (not an administrator) sees it pending and cannot accept it.
  const acceptances: { term: keyof typeof terms; company: Company; user: UserSeed['key'] }[] = [
    { term: 'tos', company: acme, user: 'creator' },
    { term: 'dpa', company: acme, user: 'creator' },
    { term: 'conduct', company: acme, user: 'creator' },
    { term: 'tos', company: globex, user: 'globexAdmin' },
    { term: 'conduct', company: globex, user: 'globexAdmin' },
    { term: 'conduct', company: globex, user: 'member' },
    { term: 'tos', company: freelance, user: 'free' },
    { term: 'dpa', company: freelance, user: 'free' },
    { term: 'conduct', company: freelance, user: 'free' },
  ];

  // Learners: 500 at Acme across every channel mix, a few at Globex and four on the Free plan.
  const acmeMix: LearnerMix = {
    domain: 'acme.example',
    channelSets: [
      [['ms-teams'], 22],
      [['slack'], 10],
      [['ms-teams', 'whatsapp'], 25],
      [['slack', 'whatsapp'], 10],
      [['whatsapp'], 18],
      [['webex'], 4],
      [['google-chat'], 3],
      [['ms-teams', 'slack'], 5],
      [['ms-teams', 'whatsapp', 'webex'], 3],
    ],
    maxAgeDays: 120,
    archivedShare: 0.02,
    inactiveShare: 0.03,
  };
  const acmeLearners = makeLearners(people, ACME_LEARNERS, acmeMix);
  const globexLearners = makeLearners(people, 8, {
    domain: 'globex.example',
    channelSets: [
      [['slack'], 2],
      [['slack', 'whatsapp'], 1],
    ],
    maxAgeDays: 80,
    archivedShare: 0,
    inactiveShare: 0,
  });
  // The Free plan allows one channel and 6 learners: four leave room for two more, then the 402.
  const freeLearners = makeLearners(people, 4, {
    domain: 'freelance.example',
    channelSets: [[['whatsapp'], 1]],
    maxAgeDays: 18,
    archivedShare: 0,
    inactiveShare: 0,
  });

  const acmeListRows = ACME_LISTS.map((name, index) => ({
    uuid: ids.uuid(),
    company_uuid: acme.uuid,
    name,
    created_at: t.ago(130 - index * 3, -60),
    updated_at: t.ago(1, -60 - index * 7),
  }));
  const listUuid = (name: AcmeList) => acmeListRows.find((list) => list.name === name)!.uuid;
  const globexList = {
    uuid: ids.uuid(),
    company_uuid: globex.uuid,
    name: 'Globex Team',
    created_at: t.ago(85),
    updated_at: t.ago(10),
  };
  const freeList = {
    uuid: ids.uuid(),
    company_uuid: freelance.uuid,
    name: 'Workshop Participants',
    created_at: t.ago(18),
    updated_at: t.ago(3),
  };

  const acmeLearnerRows = learnerRows(ids, t, acme.uuid, acmeLearners, people);
  const globexLearnerRows = learnerRows(ids, t, globex.uuid, globexLearners, people);
  const freeLearnerRows = learnerRows(ids, t, freelance.uuid, freeLearners, people);

  // Each Acme learner sits in one or two lists: new hires, Italian speakers and the rest of sales.
  const members: { list_uuid: string; learner_uuid: string }[] = [];
  acmeLearners.forEach((learner, index) => {
    const uuid = acmeLearnerRows[index]!.uuid;
    const primary: AcmeList =
      learner.createdDaysAgo <= 45 && people.chance(0.5)
        ? 'New Hires 2026'
        : learner.locale === 'it'
          ? people.weighted([
              ['Sales Italy', 65],
              ['Sales EMEA', 15],
              ['Customer Success', 20],
            ] as const)
          : people.weighted([
              ['Sales EMEA', 60],
              ['Customer Success', 35],
              ['Sales Italy', 5],
            ] as const);
    members.push({ list_uuid: listUuid(primary), learner_uuid: uuid });
    if (people.chance(0.3)) {
      // Team Leads is only ever a second list: leads also belong to their own team's list.
      const others = ACME_LISTS.filter((name) => name !== primary);
      const second: AcmeList = people.chance(0.3) ? 'Team Leads' : people.pick(others);
      members.push({ list_uuid: listUuid(second), learner_uuid: uuid });
    }
  });
  for (const row of globexLearnerRows)
    members.push({ list_uuid: globexList.uuid, learner_uuid: row.uuid });
  for (const row of freeLearnerRows)
    members.push({ list_uuid: freeList.uuid, learner_uuid: row.uuid });

  // Courses, their languages, lessons and lists.
  const courseRows: Insertable<Database['courses']>[] = [];
  const courseLanguageRows: Insertable<Database['course_languages']>[] = [];
  const lessonRows: Insertable<Database['lessons']>[] = [];
  const courseListRows: Insertable<Database['course_learners_lists']>[] = [];
  for (const course of DEMO_COURSES) {
    const uuid = ids.uuid();
    const classroom = classrooms[course.classroom];
    const delivery = deliveryOf(course, t);
    const deleted =
      course.archivedDaysAgo === undefined ? null : t.ago(course.archivedDaysAgo, -45);
    courseRows.push({
      uuid,
      company_uuid: classroom.company.uuid,
      classroom_uuid: classroom.uuid,
      name: course.name,
      description: course.description,
      image_path: null,
      category: course.category,
      enrollment: null,
      status: course.status,
      distribution: delivery.distribution ? JSON.stringify(delivery.distribution) : null,
      creator_uuid: (course.classroom === 'free' ? users.free : users.creator).uuid,
      created_at: delivery.created,
      updated_at: deleted ?? delivery.updated,
      scheduled_at: delivery.scheduled,
      delivered_at: delivery.delivered,
      deleted_at: deleted,
    });
    const bilingual = course.lessons.every((lesson) => lesson.it !== undefined);
    const languages = bilingual ? (['en', 'it'] as const) : (['en'] as const);
    languages.forEach((language, position) =>
      courseLanguageRows.push({
        course_uuid: uuid,
        language_uuid: languageUuid(language),
        is_primary: language === 'en' ? 1 : 0,
        position,
      }),
    );
    course.lessons.forEach((lesson, index) => {
      const last = index === course.lessons.length - 1;
      for (const language of languages) {
        const text = language === 'en' ? lesson.en : lesson.it!;
        const thankYou = last
          ? language === 'en'
            ? THANK_YOU.lastEn
            : THANK_YOU.lastIt
          : THANK_YOU[language][index % THANK_YOU[language].length]!;
        lessonRows.push({
          uuid: ids.uuid(),
          course_uuid: uuid,
          day: index + 1,
          language_uuid: languageUuid(language),
          title: text.title,
          topic_intro: text.intro,
          topic_content: text.content,
          learning_minutes: lesson.minutes,
          media: lesson.media ? JSON.stringify(lesson.media) : null,
          assessment: JSON.stringify(assessmentOf(text, lesson, thankYou)),
          created_at: delivery.created,
          updated_at: delivery.created,
        });
      }
    });
    for (const list of course.lists)
      courseListRows.push({ course_uuid: uuid, list_uuid: listUuid(list as AcmeList) });
  }

  await db.transaction().execute(async (trx) => {
    await insertAll(trx, 'companies', [
      { uuid: acme.uuid, name: acme.name, plan_key: acme.plan, created_at: t.ago(400) },
      { uuid: globex.uuid, name: globex.name, plan_key: globex.plan, created_at: t.ago(150) },
      {
        uuid: freelance.uuid,
        name: freelance.name,
        plan_key: freelance.plan,
        created_at: t.ago(21),
      },
    ]);
    await insertAll(
      trx,
      'classrooms',
      Object.values(classrooms).map((room) => ({
        uuid: room.uuid,
        company_uuid: room.company.uuid,
        name: room.name,
        position: room.position,
        created_at: t.ago(room.company === freelance ? 21 : 140 - room.position),
      })),
    );
    await insertAll(
      trx,
      'users',
      Object.values(users).map((user) => ({
        uuid: user.uuid,
        company_uuid: user.company.uuid,
        email: user.email,
        password_hash: passwordHash,
        first_name: user.first,
        last_name: user.last,
        avatar: null,
        locale: 'en',
        is_admin: user.admin ? 1 : 0,
        is_2fa_enabled: user.twoFactor ? 1 : 0,
        totp_secret: user.twoFactor ? options.totpSecret : null,
        totp_pending_secret: null,
        totp_last_step: null,
        created_at: t.ago(user.createdDaysAgo),
        updated_at: t.ago(Math.min(user.createdDaysAgo, 1)),
      })),
    );
    await seedTeam(trx, {
      companyUuid: acme.uuid,
      admin: { uuid: users.creator.uuid, email: users.creator.email },
      passwordHash,
      now: options.now,
    });
    await seedConnections(trx, {
      companyUuid: acme.uuid,
      createdBy: users.creator.uuid,
      now: options.now,
    });
    await insertAll(
      trx,
      'terms',
      DEMO_TERMS.map((term, position) => ({
        uuid: terms[term.key].uuid,
        title: term.title,
        content: term.content,
        scope: term.scope,
        position,
        published_at: t.ago(term.publishedDaysAgo),
      })),
    );
    await insertAll(
      trx,
      'terms_acceptances',
      acceptances.map((acceptance) => {
        const user = users[acceptance.user];
        const term = terms[acceptance.term];
        return {
          uuid: ids.uuid(),
          term_uuid: term.uuid,
          company_uuid: acceptance.company.uuid,
          user_uuid: user.uuid,
          // The first sign-in after both the user and the term existed.
          accepted_at: t.ago(Math.min(user.createdDaysAgo, term.publishedDaysAgo), 90),
        };
      }),
    );
    await insertListRows(trx, [...acmeListRows, globexList, freeList]);
    await insertLearnerRows(trx, [...acmeLearnerRows, ...globexLearnerRows, ...freeLearnerRows]);
    await insertMemberRows(trx, members);
    await insertAll(trx, 'courses', courseRows);
    await insertAll(trx, 'course_languages', courseLanguageRows);
    await insertAll(trx, 'lessons', lessonRows);
    await insertAll(trx, 'course_learners_lists', courseListRows);
    await seedHistory(trx, options.now);
  });

  return {
    accounts: Object.values(users).map((user) => ({ email: user.email, note: user.note })),
    password: DEMO_PASSWORD,
    totpSecret: options.totpSecret,
  };
};

export { isEmptyDatabase } from './empty-database.ts';
