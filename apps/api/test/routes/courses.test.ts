import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { TCourse } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { sanitizeSvg } from '../../src/lib/svg.ts';
import { buildTestApp, call, createSignedInUser } from '../helper.ts';
import {
  bmpImage,
  courseOf,
  coursesOf,
  gifImage,
  jpegImage,
  multipart,
  pngImage,
  seedCourse,
  seedLearnersList,
  svgImage,
  validCourseBody,
} from '../fixtures/courses.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NOT_FOUND = { error: { status: 404, code: 'NOT_FOUND', message: 'Not found.' } };
const TWO_MB = 2 * 1024 * 1024;

describe('courses: list, short list and one course', async () => {
  const app = await buildTestApp();
  const { company, user, headers } = await createSignedInUser(app);
  const [first, second] = company.classrooms;
  const classroom = first!.uuid;
  const other = await createSignedInUser(app);
  const base = `/api/v1/classrooms/${classroom}/courses`;

  // 17 live courses a minute apart ("Course 1" oldest), 2 archived, 1 in the other classroom.
  const live: string[] = [];
  for (let index = 1; index <= 17; index += 1) {
    live.push(
      await seedCourse(app, {
        companyUuid: company.uuid,
        classroomUuid: classroom,
        name: `Course ${index}`,
        createdAt: new Date(Date.UTC(2026, 10, 1, 8, index)).toISOString(),
        creatorUuid: user.uuid,
      }),
    );
  }
  const archived = [
    await seedCourse(app, {
      companyUuid: company.uuid,
      classroomUuid: classroom,
      name: 'Archived A',
      createdAt: '2026-11-02T08:00:00.000Z',
      deletedAt: '2026-11-20T10:00:00.000Z',
    }),
    await seedCourse(app, {
      companyUuid: company.uuid,
      classroomUuid: classroom,
      name: 'Archived B',
      createdAt: '2026-11-03T08:00:00.000Z',
      deletedAt: '2026-11-21T10:00:00.000Z',
    }),
  ];
  const elsewhere = await seedCourse(app, {
    companyUuid: company.uuid,
    classroomUuid: second!.uuid,
    name: 'Other classroom',
  });
  const foreign = await seedCourse(app, {
    companyUuid: other.company.uuid,
    classroomUuid: other.company.classrooms[0]!.uuid,
    name: 'Foreign',
  });

  it('paginates live courses newest first with Laravel meta and links', async () => {
    const response = await call(app, { method: 'GET', url: `${base}?per_page=5`, headers });
    expect(response.statusCode).toBe(200);
    expect(coursesOf(response).map((course) => course.name)).toEqual([
      'Course 17',
      'Course 16',
      'Course 15',
      'Course 14',
      'Course 13',
    ]);
    expect(response.json.meta).toEqual({
      current_page: 1,
      last_page: 4,
      per_page: 5,
      total: 17,
      from: 1,
      to: 5,
    });
    expect(response.json.links).toEqual({
      first: `${base}?per_page=5&page=1`,
      last: `${base}?per_page=5&page=4`,
      prev: null,
      next: `${base}?per_page=5&page=2`,
    });
  });

  it('answers the last page with what is left', async () => {
    const response = await call(app, { method: 'GET', url: `${base}?per_page=5&page=4`, headers });
    expect(coursesOf(response).map((course) => course.name)).toEqual(['Course 2', 'Course 1']);
    expect(response.json.meta).toMatchObject({ current_page: 4, from: 16, to: 17, total: 17 });
    expect(response.json.links).toMatchObject({
      prev: `${base}?per_page=5&page=3`,
      next: null,
    });
  });

  it('answers an empty page past the end', async () => {
    const response = await call(app, { method: 'GET', url: `${base}?per_page=5&page=5`, headers });
    expect(response.json.data).toEqual([]);
    expect(response.json.meta).toMatchObject({
      current_page: 5,
      last_page: 4,
      from: null,
      to: null,
    });
  });

  it('uses 15 per page by default', async () => {
    const response = await call(app, { method: 'GET', url: base, headers });
    expect(response.json.data).toHaveLength(15);
    expect(response.json.meta).toMatchObject({ per_page: 15, last_page: 2, total: 17 });
  });

  it('lists courses without lessons but with their count', async () => {
    const response = await call(app, { method: 'GET', url: `${base}?per_page=1`, headers });
    const [course] = response.json.data;
    expect(course).not.toHaveProperty('lessons');
    expect(course).toMatchObject({
      uuid: live[16],
      lessons_count: 0,
      status: 'draft',
      creator: { uuid: user.uuid, first_name: 'Test', last_name: 'User' },
      deleted_at: null,
    });
  });

  it('lists only archived courses with archived=true', async () => {
    const response = await call(app, { method: 'GET', url: `${base}?archived=true`, headers });
    expect(coursesOf(response).map((course) => course.uuid)).toEqual([archived[1], archived[0]]);
    expect(response.json.meta.total).toBe(2);
  });

  it('answers every course without meta when paginate=false', async () => {
    const response = await call(app, { method: 'GET', url: `${base}?paginate=false`, headers });
    expect(Object.keys(response.json)).toEqual(['data']);
    expect(response.json.data).toHaveLength(17);
    expect(coursesOf(response).map((course) => course.uuid)).not.toContain(elsewhere);
    const archivedOnly = await call(app, {
      method: 'GET',
      url: `${base}?paginate=0&archived=1`,
      headers,
    });
    expect(archivedOnly.json.data).toHaveLength(2);
  });

  it('refuses a malformed flag', async () => {
    const response = await call(app, { method: 'GET', url: `${base}?archived=maybe`, headers });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json.error.errors)).toEqual(['archived']);
  });

  it('answers the short list of live courses', async () => {
    const response = await call(app, { method: 'GET', url: `${base}/short`, headers });
    expect(response.statusCode).toBe(200);
    expect(response.json.data).toHaveLength(17);
    expect(response.json.data[0]).toEqual({ uuid: live[16], name: 'Course 17', status: 'draft' });
  });

  it('hides another company’s classroom and course behind 404s', async () => {
    const foreignBase = `/api/v1/classrooms/${other.company.classrooms[0]!.uuid}/courses`;
    for (const url of [foreignBase, `${foreignBase}/short`, `${foreignBase}/${foreign}`]) {
      const response = await call(app, { method: 'GET', url, headers });
      expect(response.statusCode).toBe(404);
      expect(response.json).toEqual(NOT_FOUND);
    }
    const crossed = await call(app, { method: 'GET', url: `${base}/${foreign}`, headers });
    expect(crossed.json).toEqual(NOT_FOUND);
  });

  it('answers 404 for a course of another classroom and for a malformed uuid', async () => {
    const wrongRoom = await call(app, { method: 'GET', url: `${base}/${elsewhere}`, headers });
    expect(wrongRoom.statusCode).toBe(404);
    const malformed = await call(app, { method: 'GET', url: `${base}/not-a-uuid`, headers });
    expect(malformed.statusCode).toBe(404);
  });

  it('documents every course route in the OpenAPI document', async () => {
    const response = await call(app, { method: 'GET', url: '/api/docs/json' });
    const prefix = '/api/v1/classrooms/{classroomUuid}/courses';
    const paths = response.json.paths;
    expect(Object.keys(paths[prefix])).toEqual(['get', 'post']);
    expect(Object.keys(paths[`${prefix}/short`])).toEqual(['get']);
    expect(Object.keys(paths[`${prefix}/{courseUuid}`]).sort()).toEqual(['delete', 'get', 'post']);
    expect(Object.keys(paths[`${prefix}/{courseUuid}/clone`])).toEqual(['post']);
    expect(Object.keys(paths[`${prefix}/{courseUuid}/soft`])).toEqual(['delete']);
    expect(Object.keys(paths[`${prefix}/{courseUuid}/restore`])).toEqual(['post']);
    expect(Object.keys(paths[prefix].post.requestBody.content)).toContain('multipart/form-data');
  });

  it('needs a token', async () => {
    const response = await call(app, { method: 'GET', url: base });
    expect(response.statusCode).toBe(401);
  });

  it('answers one course with lessons by day and language, lists and enrolments', async () => {
    const uuid = await seedCourse(app, {
      companyUuid: company.uuid,
      classroomUuid: classroom,
      name: 'Full',
      languages: ['it', 'en'],
      days: 2,
      creatorUuid: user.uuid,
    });
    const sales = await seedLearnersList(app, company.uuid, {
      name: 'Sales',
      learners: 3,
      archived: 1,
    });
    const support = await seedLearnersList(app, company.uuid, { name: 'Support', learners: 1 });
    // One learner in both lists counts once.
    await app.db
      .insertInto('learners_list_members')
      .values({ list_uuid: support.uuid, learner_uuid: sales.members[0]! })
      .execute();
    await app.db
      .insertInto('course_learners_lists')
      .values([
        { course_uuid: uuid, list_uuid: support.uuid },
        { course_uuid: uuid, list_uuid: sales.uuid },
      ])
      .execute();

    // On Slack, which every seeded learner has with an e-mail: each counts as reached.
    await app.db
      .updateTable('courses')
      .set({ distribution: JSON.stringify(validCourseBody().distribution) })
      .where('uuid', '=', uuid)
      .execute();

    const response = await call(app, { method: 'GET', url: `${base}/${uuid}`, headers });
    expect(response.statusCode).toBe(200);
    const course = courseOf(response);
    expect(course.lessons.map((lesson) => `${lesson.day}${lesson.language}`)).toEqual([
      '1it',
      '1en',
      '2it',
      '2en',
    ]);
    expect(course.languages).toEqual([
      {
        uuid: '6a1c2f3e-0002-4c00-8000-000000000002',
        name: 'Italiano',
        short_name: 'it',
        is_primary: true,
      },
      {
        uuid: '6a1c2f3e-0002-4c00-8000-000000000001',
        name: 'English',
        short_name: 'en',
        is_primary: false,
      },
    ]);
    expect(course.lessons_count).toBe(2);
    expect(course.learners_lists).toEqual([
      { uuid: sales.uuid, name: 'Sales' },
      { uuid: support.uuid, name: 'Support' },
    ]);
    // Sales has 2 live learners (one archived), Support adds 1 of its own: a draft reaches 3
    // (Finish's count) and nobody is enrolled yet (Insights' count). It used to say 3 enrolments.
    expect(course.reached).toBe(3);
    expect(course.enrolments).toBe(0);
    expect(course.lessons[0]).toMatchObject({
      uuid: expect.stringMatching(UUID),
      title: 'Day 1 in it',
      learning_minutes: 5,
      media: null,
      assessment: null,
    });
  });

  it('still reads an archived course', async () => {
    const response = await call(app, { method: 'GET', url: `${base}/${archived[0]}`, headers });
    expect(response.statusCode).toBe(200);
    expect(response.json.data.deleted_at).toBe('2026-11-20T10:00:00.000Z');
  });
});

describe('courses: create with a cover image', async () => {
  const app = await buildTestApp();
  const { company, user, headers } = await createSignedInUser(app);
  const classroom = company.classrooms[0]!.uuid;
  const base = `/api/v1/classrooms/${classroom}/courses`;
  const coversDir = path.join(app.dataDir, 'uploads', 'covers');
  const covers = () => (existsSync(coversDir) ? readdirSync(coversDir) : []);
  const courseCount = async () =>
    Number(
      (
        await app.db
          .selectFrom('courses')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('company_uuid', '=', company.uuid)
          .executeTakeFirstOrThrow()
      ).n,
    );

  const fields = { name: 'Cover course', description: 'With a picture.' };
  const post = async (
    content: Buffer | string,
    filename: string,
    contentType: string,
    extra: Record<string, string> = {},
  ) => {
    const form = multipart({ ...fields, ...extra }, { filename, contentType, content });
    return call(app, {
      method: 'POST',
      url: base,
      payload: form.payload,
      headers: { ...headers, ...form.headers },
    });
  };

  it('creates a draft from JSON with English as the primary language', async () => {
    const response = await call(app, {
      method: 'POST',
      url: base,
      headers,
      payload: { name: 'Plain', description: 'No picture.' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json.data).toEqual({
      uuid: expect.stringMatching(UUID),
      name: 'Plain',
      description: 'No picture.',
      image: null,
      category: null,
      enrollment: null,
      status: 'draft',
      languages: [
        {
          uuid: '6a1c2f3e-0002-4c00-8000-000000000001',
          name: 'English',
          short_name: 'en',
          is_primary: true,
        },
      ],
      lessons: [],
      lessons_count: 0,
      distribution: null,
      learners_lists: [],
      enrolments: 0,
      reached: 0,
      creator: { uuid: user.uuid, first_name: 'Test', last_name: 'User' },
      created_at: '2026-11-22T09:00:00.000Z',
      updated_at: '2026-11-22T09:00:00.000Z',
      scheduled_at: null,
      first_send_at: null,
      delivered_at: null,
      deleted_at: null,
    });
  });

  it('takes the primary language from a language field', async () => {
    const response = await post(pngImage({ width: 4, height: 4 }), 'cover.png', 'image/png', {
      language: 'it',
      category: 'Sales',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json.data.languages).toEqual([
      expect.objectContaining({ short_name: 'it', is_primary: true }),
    ]);
    expect(response.json.data.category).toBe('Sales');
  });

  it.each([
    ['png', () => pngImage({ width: 500, height: 500 }), 'image/png'],
    ['gif', () => gifImage({ width: 120, height: 80 }), 'image/gif'],
    ['bmp', () => bmpImage({ width: 64, height: 32 }), 'image/bmp'],
    ['jpg', () => jpegImage({ width: 320, height: 200 }), 'image/jpeg'],
    ['svg', () => Buffer.from(svgImage({ width: 500, height: 300 })), 'image/svg+xml'],
    [
      'svg',
      () => Buffer.from(svgImage({ width: 200, height: 500, viewBoxOnly: true })),
      'image/svg+xml',
    ],
  ])('stores a %s cover and serves it back', async (type, make, contentType) => {
    const bytes = make();
    // The name says png whatever the bytes are: the type comes from the bytes.
    const response = await post(bytes, 'image.png', contentType);
    expect(response.statusCode).toBe(201);
    const image: string = response.json.data.image;
    // An unguessable name: 256 random bits (issue 11 §9).
    expect(image).toMatch(new RegExp(`^/uploads/covers/[A-Za-z0-9_-]{43}\\.${type}$`));
    const stored = readFileSync(path.join(app.dataDir, image));
    // Raster covers are stored as sent; an SVG as rebuilt from the allow-list (same drawing).
    expect(stored).toEqual(type === 'svg' ? sanitizeSvg(bytes) : bytes);
    const served = await app.inject({ method: 'GET', url: image });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload).toEqual(stored);
  });

  it.each([
    ['501×500', () => pngImage({ width: 501, height: 500 })],
    ['500×501', () => pngImage({ width: 500, height: 501 })],
    ['an SVG 600 wide', () => Buffer.from(svgImage({ width: 600, height: 100 }))],
    [
      'a viewBox of 800×600',
      () => Buffer.from(svgImage({ width: 800, height: 600, viewBoxOnly: true })),
    ],
  ])('refuses %s and stores nothing', async (_label, make) => {
    const [before, count] = [covers(), await courseCount()];
    const response = await post(make(), 'big.png', 'image/png');
    expect(response.statusCode).toBe(422);
    expect(response.json).toEqual({
      error: {
        status: 422,
        code: 'VALIDATION_FAILED',
        message: 'The image must be UP TO 500 pixels by 500 pixels.',
        errors: { image: ['The image must be UP TO 500 pixels by 500 pixels.'] },
      },
    });
    expect(covers()).toEqual(before);
    expect(await courseCount()).toBe(count);
  });

  it.each([
    ['a text file named .png', Buffer.from('just text, not a picture'), 'image/png'],
    [
      'a WebP',
      Buffer.concat([
        Buffer.from('RIFF'),
        Buffer.alloc(4),
        Buffer.from('WEBPVP8 '),
        Buffer.alloc(20),
      ]),
      'image/webp',
    ],
    [
      'an SVG without any size',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'),
      'image/svg+xml',
    ],
  ])('refuses %s as an image type', async (_label, bytes, contentType) => {
    const [before, count] = [covers(), await courseCount()];
    const response = await post(bytes, 'cover.png', contentType);
    expect(response.statusCode).toBe(422);
    expect(response.json.error.errors).toEqual({
      image: ['The image must be a file of type: jpg, jpeg, svg, png, bmp, gif.'],
    });
    expect(covers()).toEqual(before);
    expect(await courseCount()).toBe(count);
  });

  it('accepts an image of exactly 2 MB', async () => {
    const response = await post(
      pngImage({ width: 10, height: 10, padTo: TWO_MB }),
      'a.png',
      'image/png',
    );
    expect(response.statusCode).toBe(201);
    expect(readFileSync(path.join(app.dataDir, response.json.data.image)).length).toBe(TWO_MB);
  });

  it('refuses an image over 2 MB and stores nothing', async () => {
    const [before, count] = [covers(), await courseCount()];
    const response = await post(
      pngImage({ width: 10, height: 10, padTo: TWO_MB + 1 }),
      'a.png',
      'image/png',
    );
    expect(response.statusCode).toBe(422);
    expect(response.json.error).toMatchObject({
      message: 'The image may not be greater than 2 MB.',
      errors: { image: ['The image may not be greater than 2 MB.'] },
    });
    expect(covers()).toEqual(before);
    expect(await courseCount()).toBe(count);
  });

  it('treats an empty file part as no image', async () => {
    const response = await post(Buffer.alloc(0), '', 'application/octet-stream');
    expect(response.statusCode).toBe(201);
    expect(response.json.data.image).toBeNull();
  });

  it('limits the description to 200 characters', async () => {
    const ok = await call(app, {
      method: 'POST',
      url: base,
      headers,
      payload: { name: 'Edge', description: 'd'.repeat(200) },
    });
    expect(ok.statusCode).toBe(201);
    const tooLong = await call(app, {
      method: 'POST',
      url: base,
      headers,
      payload: { name: 'Edge', description: 'd'.repeat(201) },
    });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json).toEqual({
      error: {
        status: 422,
        code: 'VALIDATION_FAILED',
        message: 'The description may not be greater than 200 characters.',
        errors: { description: ['The description may not be greater than 200 characters.'] },
      },
    });
  });

  it('reports every form problem at once, the image included', async () => {
    const form = multipart(
      { name: '', language: 'fr' },
      { filename: 'x.png', contentType: 'image/png', content: pngImage({ width: 501, height: 1 }) },
    );
    const response = await call(app, {
      method: 'POST',
      url: base,
      payload: form.payload,
      headers: { ...headers, ...form.headers },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json.error.errors).toEqual({
      name: ['The name is required.'],
      description: ['The description is required.'],
      language: ['The selected language is invalid.'],
      image: ['The image must be UP TO 500 pixels by 500 pixels.'],
    });
    expect(response.json.error.message).toBe('The name is required.');
  });

  it('answers 404 for another company’s classroom', async () => {
    const other = await createSignedInUser(app);
    const response = await call(app, {
      method: 'POST',
      url: `/api/v1/classrooms/${other.company.classrooms[0]!.uuid}/courses`,
      headers,
      payload: fields,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json).toEqual(NOT_FOUND);
  });
});

describe('courses: clone, archive, restore and delete', async () => {
  const app = await buildTestApp();
  const { company, user, headers } = await createSignedInUser(app);
  const classroom = company.classrooms[0]!.uuid;
  const base = `/api/v1/classrooms/${classroom}/courses`;
  const other = await createSignedInUser(app);
  const list = await seedLearnersList(app, company.uuid, { name: 'Team', learners: 2 });

  /** A course made through the API: cover, two languages, assessments, delivery and a list. */
  const makeCourse = async () => {
    const cover = pngImage({ width: 20, height: 10 });
    const form = multipart(
      { name: 'Original', description: 'The source.' },
      { filename: 'c.png', contentType: 'image/png', content: cover },
    );
    const created = await call(app, {
      method: 'POST',
      url: base,
      payload: form.payload,
      headers: { ...headers, ...form.headers },
    });
    const uuid: string = created.json.data.uuid;
    const body = validCourseBody({ lists: [list.uuid] });
    body.distribution.enrollment_close_time = '2026-11-30T18:00' as unknown as null;
    const saved = await call(app, {
      method: 'POST',
      url: `${base}/${uuid}`,
      headers,
      payload: body,
    });
    expect(saved.statusCode).toBe(200);
    return { uuid, cover, course: courseOf(saved) };
  };

  it('clones a course as a draft copy with everything but the dates', async () => {
    const { uuid, cover, course } = await makeCourse();
    app.testClock.advance(60_000);
    const response = await call(app, { method: 'POST', url: `${base}/${uuid}/clone`, headers });
    app.testClock.set('2026-11-22T09:00:00.000Z');
    expect(response.statusCode).toBe(201);
    const copy = courseOf(response);
    expect(copy.uuid).not.toBe(uuid);
    expect(copy).toMatchObject({
      name: 'Negotiation basics (copy)',
      description: course.description,
      category: 'Sales',
      status: 'draft',
      languages: course.languages,
      learners_lists: [{ uuid: list.uuid, name: 'Team' }],
      enrolments: 0,
      reached: 2,
      lessons_count: 2,
      creator: { uuid: user.uuid },
      scheduled_at: null,
      deleted_at: null,
      created_at: '2026-11-22T09:01:00.000Z',
    });
    expect(copy.distribution).toEqual({
      ...course.distribution,
      start_date: null,
      enrollment_close_time: null,
    });
    const withoutUuid = (lessons: TCourse['lessons']) =>
      lessons.map(({ uuid: _uuid, ...rest }) => rest);
    expect(withoutUuid(copy.lessons)).toEqual(withoutUuid(course.lessons));
    expect(copy.lessons[0]!.assessment!.answers).toHaveLength(3);
    const oldUuids = new Set(course.lessons.map((lesson) => lesson.uuid));
    expect(copy.lessons.every((lesson) => !oldUuids.has(lesson.uuid))).toBe(true);
    expect(copy.image).not.toBe(course.image);
    expect(readFileSync(path.join(app.dataDir, copy.image!))).toEqual(cover);

    const source = await call(app, { method: 'GET', url: `${base}/${uuid}`, headers });
    expect(source.json.data).toEqual(course);
  });

  it('archives a course, keeping its status and hiding it from the live list', async () => {
    const { uuid } = await makeCourse();
    const response = await call(app, { method: 'DELETE', url: `${base}/${uuid}/soft`, headers });
    expect(response.statusCode).toBe(200);
    expect(response.json.data).toMatchObject({
      uuid,
      status: 'draft',
      deleted_at: '2026-11-22T09:00:00.000Z',
    });
    const live = await call(app, { method: 'GET', url: `${base}?paginate=false`, headers });
    expect(coursesOf(live).map((course) => course.uuid)).not.toContain(uuid);
    const archived = await call(app, {
      method: 'GET',
      url: `${base}?paginate=false&archived=true`,
      headers,
    });
    expect(coursesOf(archived).map((course) => course.uuid)).toContain(uuid);
    const short = await call(app, { method: 'GET', url: `${base}/short`, headers });
    expect(coursesOf(short).map((course) => course.uuid)).not.toContain(uuid);

    const again = await call(app, { method: 'DELETE', url: `${base}/${uuid}/soft`, headers });
    expect(again.statusCode).toBe(422);
    expect(again.json.error.message).toBe('The course is already archived.');

    const edit = await call(app, {
      method: 'POST',
      url: `${base}/${uuid}`,
      headers,
      payload: validCourseBody(),
    });
    expect(edit.statusCode).toBe(422);
    expect(edit.json.error).toEqual({
      status: 422,
      code: 'VALIDATION_FAILED',
      message: 'An archived course cannot be edited. Restore it first.',
    });
  });

  it('restores an archived course, and refuses to restore a live one', async () => {
    const { uuid } = await makeCourse();
    await call(app, { method: 'DELETE', url: `${base}/${uuid}/soft`, headers });
    const response = await call(app, { method: 'POST', url: `${base}/${uuid}/restore`, headers });
    expect(response.statusCode).toBe(200);
    expect(response.json.data.deleted_at).toBeNull();
    const again = await call(app, { method: 'POST', url: `${base}/${uuid}/restore`, headers });
    expect(again.statusCode).toBe(422);
    expect(again.json.error.message).toBe('The course is not archived.');
  });

  it('deletes a course permanently with its lessons and cover file', async () => {
    const { uuid, course } = await makeCourse();
    const file = path.join(app.dataDir, course.image!);
    expect(existsSync(file)).toBe(true);
    const response = await call(app, { method: 'DELETE', url: `${base}/${uuid}`, headers });
    expect(response.statusCode).toBe(200);
    expect(response.json).toEqual({ data: { deleted: uuid } });
    expect(existsSync(file)).toBe(false);
    const lessons = await app.db
      .selectFrom('lessons')
      .select('uuid')
      .where('course_uuid', '=', uuid)
      .execute();
    expect(lessons).toEqual([]);
    const gone = await call(app, { method: 'GET', url: `${base}/${uuid}`, headers });
    expect(gone.statusCode).toBe(404);
    const served = await app.inject({ method: 'GET', url: course.image! });
    expect(served.statusCode).toBe(404);
  });

  it('answers 404 to another company for every action, changing nothing', async () => {
    const { uuid, course } = await makeCourse();
    const theirs = other.headers;
    for (const [method, url] of [
      ['POST', `${base}/${uuid}/clone`],
      ['DELETE', `${base}/${uuid}/soft`],
      ['POST', `${base}/${uuid}/restore`],
      ['DELETE', `${base}/${uuid}`],
      ['GET', `${base}/${uuid}`],
    ] as const) {
      const response = await call(app, { method, url, headers: theirs });
      expect(response.statusCode).toBe(404);
      expect(response.json).toEqual(NOT_FOUND);
    }
    const update = await call(app, {
      method: 'POST',
      url: `${base}/${uuid}`,
      headers: theirs,
      payload: validCourseBody({ days: 1 }),
    });
    expect(update.statusCode).toBe(404);
    const unchanged = await call(app, { method: 'GET', url: `${base}/${uuid}`, headers });
    expect(unchanged.json.data).toEqual(course);
  });
});
