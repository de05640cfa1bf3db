import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { LANGUAGES } from '../../src/db/migrations/0002_reference_data.ts';
import { purgeArchived } from '../../src/jobs/purge.ts';
import { DAY_MS } from '../../src/lib/clock.ts';
import { newUuid } from '../../src/lib/ids.ts';
import { buildTestApp, createCompany } from '../helper.ts';

const MINUTE_MS = 60_000;

describe('purgeArchived', async () => {
  const app = await buildTestApp();
  const company = await createCompany(app);
  const classroom = company.classrooms[0]!;
  const start = app.clock.now().getTime();
  const ago = (ms: number) => new Date(start - ms).toISOString();
  const created = ago(90 * DAY_MS);
  const listUuid = newUuid();
  await app.db
    .insertInto('learners_lists')
    .values({
      uuid: listUuid,
      company_uuid: company.uuid,
      name: 'Everyone',
      created_at: created,
      updated_at: created,
    })
    .execute();

  const coverFile = (uuid: string) => path.join(app.dataDir, 'uploads', 'covers', `${uuid}.png`);

  /** A course with one lesson, its language and list, archived `archivedMs` ago (or not). */
  const insertCourse = async (
    name: string,
    archivedMs: number | null,
    cover: 'leading-slash' | 'relative' | null,
  ) => {
    const uuid = newUuid();
    let imagePath: string | null = null;
    if (cover) {
      await mkdir(path.dirname(coverFile(uuid)), { recursive: true });
      await writeFile(coverFile(uuid), Buffer.from('89504e470d0a1a0a', 'hex'));
      imagePath = `${cover === 'leading-slash' ? '/' : ''}uploads/covers/${uuid}.png`;
    }
    await app.db
      .insertInto('courses')
      .values({
        uuid,
        company_uuid: company.uuid,
        classroom_uuid: classroom.uuid,
        name,
        description: 'A course for the purge test.',
        image_path: imagePath,
        category: null,
        enrollment: null,
        status: 'delivered',
        distribution: null,
        creator_uuid: null,
        created_at: created,
        updated_at: created,
        scheduled_at: null,
        delivered_at: null,
        deleted_at: archivedMs === null ? null : ago(archivedMs),
      })
      .execute();
    await app.db
      .insertInto('course_languages')
      .values({ course_uuid: uuid, language_uuid: LANGUAGES[0].uuid, is_primary: 1, position: 0 })
      .execute();
    await app.db
      .insertInto('lessons')
      .values({
        uuid: newUuid(),
        course_uuid: uuid,
        day: 1,
        language_uuid: LANGUAGES[0].uuid,
        title: 'Day one',
        topic_intro: 'Intro',
        topic_content: '<p>Content</p>',
        learning_minutes: 3,
        media: null,
        assessment: null,
        created_at: created,
        updated_at: created,
      })
      .execute();
    await app.db
      .insertInto('course_learners_lists')
      .values({ course_uuid: uuid, list_uuid: listUuid })
      .execute();
    return uuid;
  };

  const insertLearner = async (name: string, archivedMs: number | null) => {
    const uuid = newUuid();
    await app.db
      .insertInto('learners')
      .values({
        uuid,
        company_uuid: company.uuid,
        first_name: name,
        last_name: 'Purge',
        email: `${name.toLowerCase()}@purge.example`,
        phone: null,
        locale: 'en',
        channels: '["slack"]',
        active: 1,
        reachability: 'reachable',
        created_at: created,
        updated_at: created,
        deleted_at: archivedMs === null ? null : ago(archivedMs),
      })
      .execute();
    await app.db
      .insertInto('learners_list_members')
      .values({ list_uuid: listUuid, learner_uuid: uuid })
      .execute();
    return uuid;
  };

  const courses = {
    old: await insertCourse('Archived 31 days ago', 31 * DAY_MS, 'leading-slash'),
    older: await insertCourse('Archived 40 days ago, no cover', 40 * DAY_MS, null),
    exactly30: await insertCourse('Archived exactly 30 days ago', 30 * DAY_MS, null),
    recent: await insertCourse('Archived 29 days ago', 29 * DAY_MS, 'relative'),
    live: await insertCourse('Not archived', null, 'leading-slash'),
  };
  const learners = {
    old: await insertLearner('Old', 31 * DAY_MS),
    exactly30: await insertLearner('Thirty', 30 * DAY_MS),
    recent: await insertLearner('Recent', 29 * DAY_MS),
    live: await insertLearner('Live', null),
  };

  const courseExists = async (uuid: string) =>
    (await app.db
      .selectFrom('courses')
      .select('uuid')
      .where('uuid', '=', uuid)
      .executeTakeFirst()) !== undefined;
  const rowsOf = async (uuid: string) => ({
    lessons: (
      await app.db.selectFrom('lessons').select('uuid').where('course_uuid', '=', uuid).execute()
    ).length,
    languages: (
      await app.db
        .selectFrom('course_languages')
        .select('course_uuid')
        .where('course_uuid', '=', uuid)
        .execute()
    ).length,
    lists: (
      await app.db
        .selectFrom('course_learners_lists')
        .select('course_uuid')
        .where('course_uuid', '=', uuid)
        .execute()
    ).length,
  });
  const learnerExists = async (uuid: string) =>
    (await app.db
      .selectFrom('learners')
      .select('uuid')
      .where('uuid', '=', uuid)
      .executeTakeFirst()) !== undefined;
  const memberships = async (uuid: string) =>
    (
      await app.db
        .selectFrom('learners_list_members')
        .select('list_uuid')
        .where('learner_uuid', '=', uuid)
        .execute()
    ).length;

  it('deletes only what was archived more than 30 days ago, with its lessons and cover file', async () => {
    expect(existsSync(coverFile(courses.old))).toBe(true);
    expect(await purgeArchived(app)).toEqual({ courses: 2, learners: 1 });

    for (const uuid of [courses.old, courses.older]) {
      expect(await courseExists(uuid)).toBe(false);
      expect(await rowsOf(uuid)).toEqual({ lessons: 0, languages: 0, lists: 0 });
    }
    expect(existsSync(coverFile(courses.old))).toBe(false);

    for (const uuid of [courses.exactly30, courses.recent, courses.live]) {
      expect(await courseExists(uuid)).toBe(true);
      expect(await rowsOf(uuid)).toEqual({ lessons: 1, languages: 1, lists: 1 });
    }
    expect(existsSync(coverFile(courses.recent))).toBe(true);
    expect(existsSync(coverFile(courses.live))).toBe(true);

    expect(await learnerExists(learners.old)).toBe(false);
    expect(await memberships(learners.old)).toBe(0);
    for (const uuid of [learners.exactly30, learners.recent, learners.live]) {
      expect(await learnerExists(uuid)).toBe(true);
      expect(await memberships(uuid)).toBe(1);
    }
    // The list itself is not archived and stays.
    expect(
      await app.db
        .selectFrom('learners_lists')
        .select('uuid')
        .where('uuid', '=', listUuid)
        .execute(),
    ).toHaveLength(1);
  });

  it('finds nothing more to purge when run again at the same time', async () => {
    expect(await purgeArchived(app)).toEqual({ courses: 0, learners: 0 });
  });

  it('keeps an item archived exactly 30 days ago and purges it one minute later', async () => {
    expect(await courseExists(courses.exactly30)).toBe(true);
    app.testClock.advance(MINUTE_MS);
    expect(await purgeArchived(app)).toEqual({ courses: 1, learners: 1 });
    expect(await courseExists(courses.exactly30)).toBe(false);
    expect(await learnerExists(learners.exactly30)).toBe(false);
    expect(await courseExists(courses.recent)).toBe(true);
    expect(await learnerExists(learners.recent)).toBe(true);
  });

  it('purges the 29-day items once the clock has moved two days on', async () => {
    app.testClock.set(new Date(start + 2 * DAY_MS));
    expect(await purgeArchived(app)).toEqual({ courses: 1, learners: 1 });
    expect(await courseExists(courses.recent)).toBe(false);
    expect(await rowsOf(courses.recent)).toEqual({ lessons: 0, languages: 0, lists: 0 });
    expect(existsSync(coverFile(courses.recent))).toBe(false);
    expect(await learnerExists(learners.recent)).toBe(false);

    expect(await courseExists(courses.live)).toBe(true);
    expect(await rowsOf(courses.live)).toEqual({ lessons: 1, languages: 1, lists: 1 });
    expect(existsSync(coverFile(courses.live))).toBe(true);
    expect(await learnerExists(learners.live)).toBe(true);
  });
});
