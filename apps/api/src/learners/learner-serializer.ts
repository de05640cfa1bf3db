import {
  CHANNEL_CONTACT,
  CHANNEL_KEYS,
  COURSE_STATUSES,
  DEFAULT_LOCALE,
  LOCALES,
  REACHABILITY,
  normalizePhoneFromServer,
} from '@ccp/schemas';
import type {
  TChannelKey,
  TCourseStatus,
  TLearner,
  TLearnerCourse,
  TLearnerListRef,
  TLearnerReachability,
  TLocale,
  TReachability,
} from '@ccp/schemas';
import { sql } from 'kysely';

import { learnerSummaries } from '../analytics/learner.ts';
import type { TLearnerSummary } from '../analytics/learner.ts';
import type { Db } from '../db/index.ts';
import { preparedListQuery } from '../db/prepared.ts';
import type { LearnersTable } from '../db/types.ts';
import { notFound } from '../lib/app-error.ts';
import { cacheOf } from './learner-page-cache.ts';

// The wire shape of learners (GET answers): a batch of rows with their lists, courses, analytics
// summary and channel names, in a few queries for the whole batch.

const isChannelKey = (value: unknown): value is TChannelKey =>
  typeof value === 'string' && (CHANNEL_KEYS as readonly string[]).includes(value);

const oneOf = <T extends string>(values: readonly T[], value: string, fallback: T): T =>
  (values as readonly string[]).includes(value) ? (value as T) : fallback;

/** The channel keys stored on a learner (JSON text); anything unknown is dropped. */
export const channelKeysOf = (row: Pick<LearnersTable, 'channels'>): TChannelKey[] => {
  try {
    const parsed: unknown = JSON.parse(row.channels);
    return Array.isArray(parsed) ? parsed.filter(isChannelKey) : [];
  } catch {
    return [];
  }
};

/**
 * Channel display names by key, from the reference table (written by migrations only: read once
 * a minute, not on every page of learners).
 */
export const channelNames = (db: Db): Promise<Map<string, string>> =>
  cacheOf<Map<string, string>>(db, 'channel-names').get('all', 0, async () => {
    const rows = await db.selectFrom('channels').select(['key', 'name']).execute();
    return new Map(rows.map((row) => [row.key, row.name]));
  });

const groupBy = <T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, T[]> => {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
};

const NO_COURSES: TLearnerSummary = {
  courses_activity: 0,
  courses_completion: 0,
  courses_progress: 0,
  learning_time: 0,
};

/** Each learner's analytics summary, asked per company (a batch normally has one). */
const summariesOf = async (db: Db, rows: readonly LearnersTable[]) => {
  const byCompany = groupBy(rows, (row) => row.company_uuid);
  const maps = await Promise.all(
    [...byCompany].map(([company, own]) =>
      learnerSummaries(
        db,
        company,
        own.map((row) => row.uuid),
      ),
    ),
  );
  return new Map(maps.flatMap((map) => [...map]));
};

/** Each learner's lists (uuid and name), in the order of GET /learners-lists. */
export const listsOfLearners = async (
  db: Db,
  uuids: readonly string[],
): Promise<Map<string, TLearnerListRef[]>> => {
  if (uuids.length === 0) return new Map();
  const memberships = await db
    .selectFrom('learners_list_members as m')
    .innerJoin('learners_lists as l', 'l.uuid', 'm.list_uuid')
    .where('m.learner_uuid', 'in', [...uuids])
    .select(['m.learner_uuid', 'l.uuid', 'l.name'])
    .orderBy(sql`lower(l.name)`)
    .orderBy('l.uuid')
    .execute();
  const lists = new Map<string, TLearnerListRef[]>();
  for (const { learner_uuid, uuid, name } of memberships) {
    const own = lists.get(learner_uuid);
    if (own) own.push({ uuid, name });
    else lists.set(learner_uuid, [{ uuid, name }]);
  }
  return lists;
};

type LearnerCourseRow = { learner_uuid: string; uuid: string; name: string; status: string };

// Courses whose lists include the learner; archived courses are left out. Asked by every page of
// learners: compiled once per page size (db/prepared.ts).
const coursesOfLearners = preparedListQuery<[], LearnerCourseRow>(0, (db, _markers, uuids) =>
  db
    .selectFrom('learners_list_members as m')
    .innerJoin('course_learners_lists as cl', 'cl.list_uuid', 'm.list_uuid')
    .innerJoin('courses as c', 'c.uuid', 'cl.course_uuid')
    .where('m.learner_uuid', 'in', uuids)
    .where('c.deleted_at', 'is', null)
    .select(['m.learner_uuid', 'c.uuid', 'c.name', 'c.status'])
    .orderBy('c.name')
    .orderBy('c.uuid'),
);

/**
 * The wire shape of learners, loading their lists (unless given: a page of learners remembers
 * them per version of the company's learners) and courses in two queries for the batch.
 */
export const serializeLearners = async (
  db: Db,
  rows: LearnersTable[],
  knownLists?: Map<string, TLearnerListRef[]>,
): Promise<TLearner[]> => {
  if (rows.length === 0) return [];
  const uuids = rows.map((row) => row.uuid);
  const [names, listsByLearner, courseRows, summaries] = await Promise.all([
    channelNames(db),
    knownLists ?? listsOfLearners(db, uuids),
    coursesOfLearners.run(db, [], uuids).then((result) => result.rows),
    summariesOf(db, rows),
  ]);
  const coursesByLearner = groupBy(courseRows, (row) => row.learner_uuid);

  return rows.map((row): TLearner => {
    const lists: TLearnerListRef[] = (listsByLearner.get(row.uuid) ?? []).map(({ uuid, name }) => ({
      uuid,
      name,
    }));
    // A learner in two lists of one course names that course once.
    const courses: TLearnerCourse[] = [];
    for (const course of coursesByLearner.get(row.uuid) ?? []) {
      if (courses.some((seen) => seen.uuid === course.uuid)) continue;
      courses.push({
        uuid: course.uuid,
        name: course.name,
        status: oneOf<TCourseStatus>(COURSE_STATUSES, course.status, 'draft'),
      });
    }
    const { learning_time, ...analytics } = summaries.get(row.uuid) ?? NO_COURSES;
    return {
      uuid: row.uuid,
      first_name: row.first_name,
      last_name: row.last_name,
      email: row.email,
      phone: normalizePhoneFromServer(row.phone),
      locale: oneOf<TLocale>(LOCALES, row.locale, DEFAULT_LOCALE),
      time_zone: row.time_zone,
      channels: channelKeysOf(row).map((key) => ({ key, name: names.get(key) ?? key })),
      learners_lists: lists,
      active: row.active === 1,
      reachability: oneOf<TReachability>(REACHABILITY, row.reachability, 'unknown'),
      created_at: row.created_at,
      updated_at: row.updated_at,
      deleted_at: row.deleted_at,
      learning_time,
      status: row.deleted_at === null ? 'active' : 'archived',
      courses,
      analytics,
    };
  });
};

export const serializeLearner = async (db: Db, row: LearnersTable): Promise<TLearner> => {
  const [learner] = await serializeLearners(db, [row]);
  if (!learner) throw notFound();
  return learner;
};

/** Per channel of the learner: does it have the contact, and is the learner known reachable? */
export const reachabilityOf = async (db: Db, row: LearnersTable): Promise<TLearnerReachability> => {
  const names = await channelNames(db);
  const reachability = oneOf<TReachability>(REACHABILITY, row.reachability, 'unknown');
  return {
    uuid: row.uuid,
    reachability,
    channels: channelKeysOf(row).map((key) => {
      const contact = CHANNEL_CONTACT[key] === 'email' ? row.email : row.phone;
      const reachable =
        !contact || reachability === 'unreachable'
          ? false
          : reachability === 'reachable'
            ? true
            : null;
      return { key, name: names.get(key) ?? key, reachable };
    }),
  };
};
