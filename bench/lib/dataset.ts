import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { sql } from 'kysely';

import { romeDayStart, addDays } from '../../apps/api/src/analytics/period.ts';
import { createDatabase, migrateToLatest } from '../../apps/api/src/db/index.ts';
import { loadSqliteDriver } from '../../apps/api/src/db/sqlite-driver.ts';
import {
  dropAnalyticsTriggers,
  rebuildAnalyticsAggregates,
} from '../../apps/api/src/db/migrations/0006_analytics.ts';
import {
  dropRetentionTriggers,
  rebuildRetentionAggregates,
} from '../../apps/api/src/db/migrations/0040_retention.ts';

// A large, deterministic analytics dataset in a temporary SQLite file, built fast: migrate, drop
// the aggregate triggers, bulk-insert with prepared statements in one transaction, rebuild the
// aggregates once, which puts the triggers back (the state a live database is in).

export type CourseSpec = {
  name: string;
  status: 'active' | 'delivered';
  /** First lesson day, Europe/Rome; one lesson a day at 08:00 Rome. */
  startDate: string;
  lessonDays: number;
  /** Lesson days sent so far (the rest is not scheduled yet). */
  sentDays: number;
  /** Only the first this many learners are invited (default: all of them). */
  learners?: number;
};

export type DatasetSpec = { learners: number; courses: CourseSpec[]; seed?: number };

export type Dataset = {
  file: string;
  dataDir: string;
  companyUuid: string;
  classroomUuid: string;
  userUuid: string;
  courseUuids: string[];
  sampleLearnerUuid: string;
  /** The list every learner is in. */
  listUuid: string;
  deliveries: number;
  seconds: number;
};

// Lesson sends get ascending ids: random ones would scatter 3 million primary-key inserts.
const sequentialUuid = (index: number) =>
  `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;

/** Deterministic random numbers in [0, 1) (mulberry32). */
const randomFrom = (seed: number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

const FIRST = [
  'Ada',
  'Bruno',
  'Chiara',
  'Dario',
  'Elena',
  'Fabio',
  'Giulia',
  'Hannah',
  'Ivo',
  'Jana',
];
const LAST = ['Rossi', 'Bianchi', 'Müller', 'Schmidt', "D'Angelo", 'Ferrari', 'Weber', 'Colombo'];
const EN = '6a1c2f3e-0002-4c00-8000-000000000001';
const NOW = '2026-11-22T09:00:00.000Z';

export const BENCH_NOW = NOW;

export const buildDataset = async ({
  learners,
  courses,
  seed = 42,
}: DatasetSpec): Promise<Dataset> => {
  const started = performance.now();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ccp-bench-'));
  const file = path.join(dataDir, 'bench.sqlite');

  const handle = createDatabase({ dialect: 'sqlite', file });
  await migrateToLatest(handle);
  await dropAnalyticsTriggers(handle.db);
  await dropRetentionTriggers(handle.db);
  await handle.close();

  const random = randomFrom(seed);
  const db = new (loadSqliteDriver())(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  // Random uuid keys scatter index inserts: a large page cache keeps the bulk load fast.
  db.pragma('cache_size = -1000000');
  const companyUuid = randomUUID();
  const classroomUuid = randomUUID();
  const userUuid = randomUUID();
  const courseUuids = courses.map(() => randomUUID());
  const learnerUuids = Array.from({ length: learners }, () => randomUUID());
  const listUuid = randomUUID();
  let deliveries = 0;

  db.transaction(() => {
    db.prepare(
      `INSERT INTO companies (uuid, name, plan_key, created_at) VALUES (?, 'Bench Co', 'enterprise', ?)`,
    ).run(companyUuid, NOW);
    db.prepare(
      `INSERT INTO classrooms (uuid, company_uuid, name, position, created_at) VALUES (?, ?, 'Bench', 0, ?)`,
    ).run(classroomUuid, companyUuid, NOW);
    db.prepare(
      `INSERT INTO users (uuid, company_uuid, email, password_hash, first_name, last_name, avatar,
         locale, is_admin, is_2fa_enabled, totp_secret, totp_pending_secret, totp_last_step,
         created_at, updated_at)
       VALUES (?, ?, 'bench@example.test', 'x', 'Bench', 'User', NULL, 'en', 1, 1, NULL, NULL, NULL, ?, ?)`,
    ).run(userUuid, companyUuid, NOW, NOW);

    const insertLearner = db.prepare(
      `INSERT INTO learners (uuid, company_uuid, first_name, last_name, email, phone, locale,
         channels, active, reachability, created_at, updated_at, deleted_at)
       VALUES (?, ?, ?, ?, ?, ?, 'en', '["slack"]', 1, ?, ?, ?, NULL)`,
    );
    learnerUuids.forEach((uuid, index) => {
      insertLearner.run(
        uuid,
        companyUuid,
        FIRST[index % FIRST.length],
        `${LAST[Math.floor(random() * LAST.length)]} ${index}`,
        `learner${index}@bench.example`,
        // A third of the learners have a mobile phone (bench/learners.ts searches them).
        index % 3 === 0 ? `+39333${String(1_000_000 + index)}` : null,
        random() < 0.02 ? 'unreachable' : 'reachable',
        NOW,
        NOW,
      );
    });
    db.prepare(`INSERT INTO learners_lists VALUES (?, ?, 'Everyone', ?, ?)`).run(
      listUuid,
      companyUuid,
      NOW,
      NOW,
    );
    const insertMember = db.prepare(`INSERT INTO learners_list_members VALUES (?, ?)`);
    for (const uuid of learnerUuids) insertMember.run(listUuid, uuid);

    const insertCourse = db.prepare(
      `INSERT INTO courses (uuid, company_uuid, classroom_uuid, name, description, image_path,
         category, enrollment, status, distribution, creator_uuid, created_at, updated_at,
         scheduled_at, delivered_at, deleted_at)
       VALUES (?, ?, ?, ?, 'Bench course.', NULL, NULL, NULL, ?, NULL, ?, ?, ?, ?, NULL, NULL)`,
    );
    const insertLesson = db.prepare(
      `INSERT INTO lessons (uuid, course_uuid, day, language_uuid, title, topic_intro,
         topic_content, learning_minutes, media, assessment, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'Intro.', '<p>Content.</p>', ?, NULL, NULL, ?, ?)`,
    );
    const insertEnrollment = db.prepare(
      `INSERT INTO enrollments (uuid, company_uuid, course_uuid, learner_uuid, channel, status,
         invited_at, enrolled_at, completed_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'slack', ?, ?, ?, NULL, ?, ?)`,
    );
    const insertDelivery = db.prepare(
      `INSERT INTO lesson_deliveries (uuid, company_uuid, course_uuid, enrollment_uuid,
         learner_uuid, day, language, channel, scheduled_for, status, sent_at, delivered_at,
         read_at, answered_at, answer_correct, missed_at, reminders_sent, repeat_right_at,
         created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'en', 'slack', ?, 'sent', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const later = (iso: string, minutes: number) =>
      new Date(Date.parse(iso) + minutes * 60_000).toISOString();

    courses.forEach((course, courseIndex) => {
      const courseUuid = courseUuids[courseIndex]!;
      insertCourse.run(
        courseUuid,
        companyUuid,
        classroomUuid,
        course.name,
        course.status,
        userUuid,
        NOW,
        NOW,
        NOW,
      );
      for (let day = 1; day <= course.lessonDays; day += 1) {
        insertLesson.run(randomUUID(), courseUuid, day, EN, `Day ${day}`, 5 + (day % 6), NOW, NOW);
      }
      const sendTimes = Array.from({ length: course.sentDays }, (_, index) =>
        new Date(
          romeDayStart(addDays(course.startDate, index)).getTime() + 8 * 3_600_000,
        ).toISOString(),
      );
      for (const learnerUuid of learnerUuids.slice(0, course.learners ?? learnerUuids.length)) {
        const roll = random();
        const status = roll < 0.02 ? 'invited' : roll < 0.03 ? 'declined' : 'enrolled';
        const enrollmentUuid = randomUUID();
        insertEnrollment.run(
          enrollmentUuid,
          companyUuid,
          courseUuid,
          learnerUuid,
          status,
          NOW,
          status === 'enrolled' ? NOW : null,
          NOW,
          NOW,
        );
        if (status !== 'enrolled') continue;
        // Each learner has a steady habit: how likely they read, and answer what they read.
        const reads = 0.3 + random() * 0.7;
        sendTimes.forEach((at, index) => {
          const delivered = random() < 0.97;
          const read = delivered && random() < reads;
          const answered = read && random() < 0.8;
          const missed =
            delivered && !answered && Date.parse(NOW) - Date.parse(at) > 72 * 3_600_000;
          // Drawn in the order the insert's arguments used to draw them.
          const readAt = read ? later(at, 5 + Math.floor(random() * 600)) : null;
          const answeredAt = answered ? later(at, 700 + Math.floor(random() * 600)) : null;
          const correct = answered ? (random() < 0.7 ? 1 : 0) : null;
          // Half the questions got wrong or missed were right when they came back (issue 28's
          // repeats), chosen by position so the random stream (and every other figure) stays.
          const repeatRight = (correct === 0 || missed) && deliveries % 2 === 0;
          insertDelivery.run(
            sequentialUuid((deliveries += 1)),
            companyUuid,
            courseUuid,
            enrollmentUuid,
            learnerUuid,
            index + 1,
            at,
            at,
            delivered ? later(at, 1) : null,
            readAt,
            answeredAt,
            correct,
            missed ? later(at, 72 * 60) : null,
            delivered && !read && random() < 0.3 ? 1 : 0,
            repeatRight ? later(at, 26 * 60) : null,
            at,
            at,
          );
        });
      }
    });
  })();
  db.close();

  const reopened = createDatabase({ dialect: 'sqlite', file });
  await sql`PRAGMA cache_size = -1000000`.execute(reopened.db);
  await rebuildAnalyticsAggregates(reopened.db);
  await rebuildRetentionAggregates(reopened.db);
  // Fold the write-ahead log into the file, so the measured process does not replay it.
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(reopened.db);
  await reopened.close();

  return {
    file,
    dataDir,
    companyUuid,
    classroomUuid,
    userUuid,
    courseUuids,
    sampleLearnerUuid: learnerUuids[0]!,
    listUuid,
    deliveries,
    seconds: (performance.now() - started) / 1000,
  };
};

/** Median and maximum of timings in milliseconds. */
export const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median, max: sorted[sorted.length - 1]! };
};
