import type {
  TAssessment,
  TCourse,
  TCourseLesson,
  TCourseListItem,
  TCourseUpdateRequest,
  TDistribution,
  TLessonMedia,
} from '@ccp/schemas';
import { DISTRIBUTION_DEFAULTS } from '@ccp/schemas';
import { reminderPolicyOf } from '@ccp/schemas';
import type { Transaction } from 'kysely';

import type { Db } from '../db/index.ts';
import type { CoursesTable, Database } from '../db/types.ts';
import { notFound } from '../lib/app-error.ts';
import { sanitizeHtml } from '../lib/html.ts';
import { ID_CHUNK, chunks, selectInChunks } from '../lib/chunks.ts';
import { newUuid } from '../lib/ids.ts';
import { courseSums } from '../analytics/rollups.ts';
import { learnerChannel } from '../delivery/enrolment.ts';
import { lessonSlots } from '../delivery/schedule.ts';

// Reading and writing courses with their languages, lessons and lists. Every lookup is scoped
// by company (and classroom), so another company's uuid is simply not found.

type Executor = Db | Transaction<Database>;

const parseJson = <T>(text: string | null): T | null =>
  text === null ? null : (JSON.parse(text) as T);

export const parseDistribution = (text: string | null): TDistribution | null => {
  const distribution = parseJson<TDistribution>(text);
  // Saved before issue 28: delivered in CET, as every course was, nothing repeated, and with
  // its one reminder.
  return distribution
    ? {
        ...distribution,
        learner_time_zone: distribution.learner_time_zone ?? false,
        repeat_questions: distribution.repeat_questions ?? DISTRIBUTION_DEFAULTS.repeat_questions,
        target_retention: distribution.target_retention ?? DISTRIBUTION_DEFAULTS.target_retention,
        ...reminderPolicyOf(distribution),
      }
    : null;
};

/** The caller's classroom, or 404. */
export const findClassroom = async (db: Db, companyUuid: string, classroomUuid: string) => {
  const classroom = await db
    .selectFrom('classrooms')
    .select(['uuid', 'company_uuid'])
    .where('uuid', '=', classroomUuid)
    .where('company_uuid', '=', companyUuid)
    .executeTakeFirst();
  if (!classroom) throw notFound();
  return classroom;
};

/** A course of the caller's company in the given classroom, archived or not, or 404. */
export const findCourse = async (
  db: Db,
  companyUuid: string,
  classroomUuid: string,
  courseUuid: string,
): Promise<CoursesTable> => {
  const course = await db
    .selectFrom('courses')
    .selectAll()
    .where('uuid', '=', courseUuid)
    .where('classroom_uuid', '=', classroomUuid)
    .where('company_uuid', '=', companyUuid)
    .executeTakeFirst();
  if (!course) throw notFound();
  return course;
};

/** The languages table by short name (en, it, de). */
export const languagesByShortName = async (db: Executor) => {
  const rows = await db.selectFrom('languages').selectAll().execute();
  return new Map(rows.map((row) => [row.short_name, row]));
};

const groupBy = <T>(rows: T[], key: (row: T) => string): Map<string, T[]> => {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const id = key(row);
    const group = groups.get(id);
    if (group) group.push(row);
    else groups.set(id, [row]);
  }
  return groups;
};

/** The first send its delivery settings plan (the Finish step's "First send"), or null. */
const firstSendAt = (distribution: TDistribution | null): string | null =>
  distribution ? (lessonSlots(distribution, 1)[0]?.at ?? null) : null;

/**
 * Per draft course, the learners publishing would reach: distinct non-archived learners of its
 * lists with one of its channels and that channel's contact (the rule enrolment uses). Drafts
 * only: a dashboard has few, and a published course counts its enrolments instead.
 */
const reachedLearners = async (db: Db, drafts: CoursesTable[]): Promise<Map<string, number>> => {
  const reached = new Map<string, number>();
  const channelsOf = new Map(
    drafts.map((row) => [row.uuid, parseDistribution(row.distribution)?.channels ?? []]),
  );
  const ids = drafts
    .filter((row) => (channelsOf.get(row.uuid) ?? []).length > 0)
    .map((row) => row.uuid);
  if (ids.length === 0) return reached;
  const members = await db
    .selectFrom('course_learners_lists as cl')
    .innerJoin('learners_list_members as m', 'm.list_uuid', 'cl.list_uuid')
    .innerJoin('learners', 'learners.uuid', 'm.learner_uuid')
    .select([
      'cl.course_uuid',
      'learners.uuid',
      'learners.channels',
      'learners.email',
      'learners.phone',
    ])
    .where('cl.course_uuid', 'in', ids)
    .where('learners.deleted_at', 'is', null)
    .execute();
  const seen = groupBy(members, (row) => row.course_uuid);
  for (const [course, rows] of seen) {
    const channels = channelsOf.get(course) ?? [];
    const learners = new Set(
      rows.filter((row) => learnerChannel(row, channels) !== null).map((row) => row.uuid),
    );
    reached.set(course, learners.size);
  }
  return reached;
};

/** Course rows as list items (the Course without lessons), with a few batched queries. */
export const toCourseListItems = async (
  db: Db,
  rows: CoursesTable[],
): Promise<TCourseListItem[]> => {
  if (rows.length === 0) return [];
  // `paginate=false` lists every course: a few queries per thousand, not one with every id.
  if (rows.length > ID_CHUNK) {
    const items: TCourseListItem[] = [];
    for (const part of chunks(rows)) items.push(...(await toCourseListItems(db, part)));
    return items;
  }
  const ids = rows.map((row) => row.uuid);
  const [languages, dayCounts, lists, enrolments, creators] = await Promise.all([
    db
      .selectFrom('course_languages')
      .innerJoin('languages', 'languages.uuid', 'course_languages.language_uuid')
      .select([
        'course_languages.course_uuid',
        'course_languages.is_primary',
        'languages.uuid',
        'languages.name',
        'languages.short_name',
      ])
      .where('course_languages.course_uuid', 'in', ids)
      .orderBy('course_languages.position')
      .orderBy('languages.position')
      .execute(),
    db
      .selectFrom('lessons')
      .select((eb) => ['course_uuid', eb.fn.count<number>('day').distinct().as('days')])
      .where('course_uuid', 'in', ids)
      .groupBy('course_uuid')
      .execute(),
    db
      .selectFrom('course_learners_lists')
      .innerJoin('learners_lists', 'learners_lists.uuid', 'course_learners_lists.list_uuid')
      .select(['course_learners_lists.course_uuid', 'learners_lists.uuid', 'learners_lists.name'])
      .where('course_learners_lists.course_uuid', 'in', ids)
      .orderBy('learners_lists.name')
      .orderBy('learners_lists.uuid')
      .execute(),
    courseSums(db, ids),
    (() => {
      const creatorIds = [
        ...new Set(rows.map((row) => row.creator_uuid).filter((id) => id !== null)),
      ];
      return creatorIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('users')
            .select(['uuid', 'first_name', 'last_name'])
            .where('uuid', 'in', creatorIds)
            .execute();
    })(),
  ]);
  const languagesOf = groupBy(languages, (row) => row.course_uuid);
  const listsOf = groupBy(lists, (row) => row.course_uuid);
  const daysOf = new Map(dayCounts.map((row) => [row.course_uuid, Number(row.days)]));
  const reachedOf = await reachedLearners(
    db,
    rows.filter((row) => row.status === 'draft'),
  );
  const creatorOf = new Map(creators.map((row) => [row.uuid, row]));
  return rows.map((row) => ({
    uuid: row.uuid,
    name: row.name,
    description: row.description,
    image: row.image_path,
    category: row.category,
    enrollment: row.enrollment,
    status: row.status as TCourse['status'],
    languages: (languagesOf.get(row.uuid) ?? []).map((language) => ({
      uuid: language.uuid,
      name: language.name,
      short_name: language.short_name,
      is_primary: language.is_primary === 1,
    })),
    lessons_count: daysOf.get(row.uuid) ?? 0,
    distribution: parseDistribution(row.distribution),
    learners_lists: (listsOf.get(row.uuid) ?? []).map(({ uuid, name }) => ({ uuid, name })),
    enrolments: enrolments.get(row.uuid)?.enrolled ?? 0,
    reached: row.status === 'draft' ? (reachedOf.get(row.uuid) ?? 0) : null,
    creator: row.creator_uuid ? (creatorOf.get(row.creator_uuid) ?? null) : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    scheduled_at: row.scheduled_at,
    first_send_at: firstSendAt(parseDistribution(row.distribution)),
    delivered_at: row.delivered_at,
    deleted_at: row.deleted_at,
  }));
};

/** A course's lessons, by day and then by the language's position in the course. */
export const lessonsOf = async (db: Db, courseUuid: string): Promise<TCourseLesson[]> => {
  const rows = await db
    .selectFrom('lessons')
    .innerJoin('languages', 'languages.uuid', 'lessons.language_uuid')
    .leftJoin('course_languages', (join) =>
      join
        .onRef('course_languages.course_uuid', '=', 'lessons.course_uuid')
        .onRef('course_languages.language_uuid', '=', 'lessons.language_uuid'),
    )
    .selectAll('lessons')
    .select([
      'languages.short_name',
      'languages.position as language_position',
      'course_languages.position as course_position',
    ])
    .where('lessons.course_uuid', '=', courseUuid)
    .execute();
  const rank = (row: (typeof rows)[number]) => [
    row.day,
    row.course_position ?? Number.MAX_SAFE_INTEGER,
    row.language_position,
  ];
  rows.sort((a, b) => {
    const [ra, rb] = [rank(a), rank(b)];
    for (let index = 0; index < ra.length; index += 1) {
      const diff = (ra[index] ?? 0) - (rb[index] ?? 0);
      if (diff !== 0) return diff;
    }
    return 0;
  });
  return rows.map((row) => ({
    uuid: row.uuid,
    day: row.day,
    language: row.short_name,
    title: row.title,
    topic_intro: row.topic_intro,
    topic_content: row.topic_content,
    learning_minutes: row.learning_minutes,
    media: parseJson<TLessonMedia>(row.media),
    assessment: parseJson<TAssessment>(row.assessment),
  }));
};

/** The Course resource of one course, lessons included. */
export const loadCourse = async (db: Db, courseUuid: string): Promise<TCourse> => {
  const row = await db
    .selectFrom('courses')
    .selectAll()
    .where('uuid', '=', courseUuid)
    .executeTakeFirstOrThrow();
  const [[item], lessons] = await Promise.all([
    toCourseListItems(db, [row]),
    lessonsOf(db, courseUuid),
  ]);
  if (!item) throw notFound();
  return { ...item, lessons };
};

/** The uuids of the course's learners lists. */
export const listUuidsOf = async (db: Db, courseUuid: string): Promise<string[]> => {
  const rows = await db
    .selectFrom('course_learners_lists')
    .select('list_uuid')
    .where('course_uuid', '=', courseUuid)
    .execute();
  return rows.map((row) => row.list_uuid);
};

/** Of the given list uuids, those that are not lists of the company. */
export const foreignListUuids = async (
  db: Db,
  companyUuid: string,
  uuids: readonly string[],
): Promise<Set<string>> => {
  const wanted = [...new Set(uuids.map((uuid) => uuid.toLowerCase()))];
  if (wanted.length === 0) return new Set();
  const found = await selectInChunks(wanted, (part) =>
    db
      .selectFrom('learners_lists')
      .select('uuid')
      .where('company_uuid', '=', companyUuid)
      .where('uuid', 'in', part)
      .execute(),
  );
  const own = new Set(found.map((row) => row.uuid));
  return new Set(wanted.filter((uuid) => !own.has(uuid)));
};

export const companyHasLearnersLists = async (db: Db, companyUuid: string): Promise<boolean> => {
  const row = await db
    .selectFrom('learners_lists')
    .select('uuid')
    .where('company_uuid', '=', companyUuid)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
};

/** What a new draft is made of; the rest (status, enrolment, the dates) is a draft's. */
export type DraftCourse = Pick<
  CoursesTable,
  | 'uuid'
  | 'company_uuid'
  | 'classroom_uuid'
  | 'name'
  | 'description'
  | 'image_path'
  | 'category'
  | 'distribution'
  | 'creator_uuid'
>;

/** Inserts a new draft course (created, cloned, or written by the AI import) at `now`. */
export const insertDraftCourse = async (
  db: Executor,
  course: DraftCourse,
  now: string,
): Promise<void> => {
  await db
    .insertInto('courses')
    .values({
      ...course,
      enrollment: null,
      status: 'draft',
      created_at: now,
      updated_at: now,
      scheduled_at: null,
      delivered_at: null,
      deleted_at: null,
    })
    .execute();
};

/**
 * Replaces a course's languages and lessons with those of the body (and its lists when the body
 * has them). A lesson whose day and language stay keeps its uuid and created_at.
 */
export const replaceCourseContent = async (
  trx: Transaction<Database>,
  courseUuid: string,
  body: Pick<TCourseUpdateRequest, 'languages' | 'lessons' | 'learners_lists'>,
  now: string,
): Promise<void> => {
  const languages = await languagesByShortName(trx);
  const uuidOf = (shortName: string) => {
    const language = languages.get(shortName);
    if (!language) throw new Error(`Unknown language ${shortName}`);
    return language.uuid;
  };
  // The primary language first, the others in the order given.
  const ordered = [
    ...body.languages.filter((language) => language.is_primary),
    ...body.languages.filter((language) => !language.is_primary),
  ];
  await trx.deleteFrom('course_languages').where('course_uuid', '=', courseUuid).execute();
  await trx
    .insertInto('course_languages')
    .values(
      ordered.map((language, position) => ({
        course_uuid: courseUuid,
        language_uuid: uuidOf(language.short_name),
        is_primary: language.is_primary ? 1 : 0,
        position,
      })),
    )
    .execute();

  const existing = await trx
    .selectFrom('lessons')
    .select(['uuid', 'day', 'language_uuid'])
    .where('course_uuid', '=', courseUuid)
    .execute();
  const existingByKey = new Map(existing.map((row) => [`${row.day}:${row.language_uuid}`, row]));
  const kept = new Set<string>();
  for (const lesson of body.lessons) {
    const languageUuid = uuidOf(lesson.language);
    const content = {
      title: lesson.title,
      topic_intro: lesson.topic_intro,
      // Every writer of lessons comes through here: the allow-list applies whatever the source.
      topic_content: sanitizeHtml(lesson.topic_content),
      learning_minutes: lesson.learning_minutes,
      media: lesson.media ? JSON.stringify(lesson.media) : null,
      assessment: lesson.assessment ? JSON.stringify(lesson.assessment) : null,
      updated_at: now,
    };
    const current = existingByKey.get(`${lesson.day}:${languageUuid}`);
    if (current) {
      kept.add(current.uuid);
      await trx.updateTable('lessons').set(content).where('uuid', '=', current.uuid).execute();
    } else {
      await trx
        .insertInto('lessons')
        .values({
          uuid: newUuid(),
          course_uuid: courseUuid,
          day: lesson.day,
          language_uuid: languageUuid,
          created_at: now,
          ...content,
        })
        .execute();
    }
  }
  const removed = existing.filter((row) => !kept.has(row.uuid)).map((row) => row.uuid);
  if (removed.length > 0) await trx.deleteFrom('lessons').where('uuid', 'in', removed).execute();

  if (body.learners_lists !== undefined) {
    await trx.deleteFrom('course_learners_lists').where('course_uuid', '=', courseUuid).execute();
    for (const part of chunks(body.learners_lists)) {
      await trx
        .insertInto('course_learners_lists')
        .values(part.map((list) => ({ course_uuid: courseUuid, list_uuid: list })))
        .execute();
    }
  }
};
