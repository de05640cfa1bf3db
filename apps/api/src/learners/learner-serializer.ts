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

/** What a learner's wire shape holds that only a write to learners or lists changes. */
type TStoredFields = Omit<TLearner, 'learning_time' | 'courses' | 'analytics' | 'status'>;

/** A learner's stored fields, in ZLearnerSchema's order (the wire's, up to `deleted_at`). */
const storedFields = (
  row: LearnersTable,
  lists: readonly TLearnerListRef[],
  names: Map<string, string>,
): TStoredFields => ({
  uuid: row.uuid,
  first_name: row.first_name,
  last_name: row.last_name,
  email: row.email,
  phone: normalizePhoneFromServer(row.phone),
  locale: oneOf<TLocale>(LOCALES, row.locale, DEFAULT_LOCALE),
  time_zone: row.time_zone,
  channels: channelKeysOf(row).map((key) => ({ key, name: names.get(key) ?? key })),
  learners_lists: lists.map(({ uuid, name }) => ({ uuid, name })),
  active: row.active === 1,
  reachability: oneOf<TReachability>(REACHABILITY, row.reachability, 'unknown'),
  created_at: row.created_at,
  updated_at: row.updated_at,
  deleted_at: row.deleted_at,
});

const statusOf = (row: LearnersTable): TLearner['status'] =>
  row.deleted_at === null ? 'active' : 'archived';

/** What a learner's wire shape holds that other writes change: courses, figures, time spent. */
type TCurrentFields = Pick<TLearner, 'learning_time' | 'courses' | 'analytics'>;

/**
 * Each learner's courses and figures, read in two queries for the batch (on every request: they
 * change without a write to learners or lists).
 */
const currentFieldsOf = async (
  db: Db,
  rows: readonly LearnersTable[],
): Promise<(row: LearnersTable) => TCurrentFields> => {
  const [courseRows, summaries] = await Promise.all([
    coursesOfLearners.run(
      db,
      [],
      rows.map((row) => row.uuid),
    ),
    summariesOf(db, rows),
  ]);
  const coursesByLearner = groupBy(courseRows.rows, (row) => row.learner_uuid);
  return (row) => {
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
    const summary = summaries.get(row.uuid) ?? NO_COURSES;
    return {
      learning_time: summary.learning_time,
      courses,
      analytics: {
        courses_activity: summary.courses_activity,
        courses_completion: summary.courses_completion,
        courses_progress: summary.courses_progress,
      },
    };
  };
};

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
  const [names, listsByLearner, currentOf] = await Promise.all([
    channelNames(db),
    knownLists ??
      listsOfLearners(
        db,
        rows.map((row) => row.uuid),
      ),
    currentFieldsOf(db, rows),
  ]);
  return rows.map((row): TLearner => {
    const { learning_time, courses, analytics } = currentOf(row);
    return {
      ...storedFields(row, listsByLearner.get(row.uuid) ?? [], names),
      learning_time,
      status: statusOf(row),
      courses,
      analytics,
    };
  });
};

/**
 * A learner as JSON text around what is read on every request: `head` + learning time +
 * `middle` + courses + `,"analytics":` + figures + `}` (ZLearnerSchema's order, as the route's
 * schema serializer writes it).
 */
type LearnerJsonParts = { row: LearnersTable; head: string; middle: string };

/**
 * The JSON parts of a remembered page's learners, by the page's rows (learner-page.ts keeps the
 * same rows and lists per version of the company's learners): a page asked again writes only its
 * courses and figures. Channel names change with migrations only.
 */
const jsonPartsByPage = new WeakMap<LearnersTable[], Promise<LearnerJsonParts[]>>();

const jsonPartsOf = async (
  db: Db,
  rows: LearnersTable[],
  lists: Map<string, TLearnerListRef[]>,
): Promise<LearnerJsonParts[]> => {
  const names = await channelNames(db);
  return rows.map((row) => {
    const stored = JSON.stringify(storedFields(row, lists.get(row.uuid) ?? [], names));
    return {
      row,
      head: `${stored.slice(0, -1)},"learning_time":`,
      middle: `,"status":${JSON.stringify(statusOf(row))},"courses":`,
    };
  });
};

/**
 * A remembered page of learners (rows and lists from learnerPage) as the JSON text of their
 * wire shapes, comma-separated: the same text the route's schema serializer writes for
 * serializeLearners' answer, with the stored fields written once per page.
 */
export const learnersJson = async (
  db: Db,
  rows: LearnersTable[],
  lists: Map<string, TLearnerListRef[]>,
): Promise<string> => {
  if (rows.length === 0) return '';
  let parts = jsonPartsByPage.get(rows);
  if (!parts) {
    parts = jsonPartsOf(db, rows, lists);
    jsonPartsByPage.set(rows, parts);
    // A failed read is not remembered (the request that asked reports the error).
    void parts.catch(() => jsonPartsByPage.delete(rows));
  }
  const [written, currentOf] = await Promise.all([parts, currentFieldsOf(db, rows)]);
  return written
    .map(({ row, head, middle }) => {
      const { learning_time, courses, analytics } = currentOf(row);
      return `${head}${JSON.stringify(learning_time)}${middle}${JSON.stringify(courses)},"analytics":${JSON.stringify(analytics)}}`;
    })
    .join(',');
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
