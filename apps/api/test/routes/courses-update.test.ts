import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { TCourse } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { buildTestApp, call, createSignedInUser, signIn } from '../helper.ts';
import {
  answerBody,
  courseOf,
  assessmentBody,
  lessonBody,
  multipart,
  pngImage,
  seedCourse,
  seedLearnersList,
  validCourseBody,
} from '../fixtures/courses.ts';

const FIX_ALL = 'Please fix all errors before proceed.';

describe('courses: saving the whole course', async () => {
  const app = await buildTestApp();
  const { company, headers } = await createSignedInUser(app);
  const classroom = company.classrooms[0]!.uuid;
  const base = `/api/v1/classrooms/${classroom}/courses`;
  const list = await seedLearnersList(app, company.uuid, { name: 'Team', learners: 3 });

  const create = async (payload: Record<string, string> = {}) => {
    const response = await call(app, {
      method: 'POST',
      url: base,
      headers,
      payload: { name: 'Draft', description: 'To be filled.', ...payload },
    });
    return response.json.data.uuid as string;
  };
  const save = (uuid: string, payload: unknown) =>
    call(app, { method: 'POST', url: `${base}/${uuid}`, headers, payload: payload as object });
  const get = async (uuid: string) =>
    courseOf(await call(app, { method: 'GET', url: `${base}/${uuid}`, headers }));

  /** The 422 `errors` of saving `body` (asserting it was refused). */
  const refused = async (body: unknown) => {
    const uuid = await create();
    const response = await save(uuid, body);
    expect(response.statusCode).toBe(422);
    expect(response.json.error.code).toBe('VALIDATION_FAILED');
    return response.json.error.errors as Record<string, string[]>;
  };
  const accepted = async (body: unknown) => {
    const uuid = await create();
    const response = await save(uuid, body);
    expect(response.statusCode).toBe(200);
    return courseOf(response);
  };

  it('saves two languages with assessments and reads them back the same', async () => {
    const uuid = await create();
    const body = validCourseBody({ lists: [list.uuid] });
    const response = await save(uuid, body);
    expect(response.statusCode).toBe(200);
    const course = courseOf(response);
    expect(course).toMatchObject({
      uuid,
      name: body.name,
      description: body.description,
      category: 'Sales',
      status: 'draft',
      lessons_count: 2,
      learners_lists: [{ uuid: list.uuid, name: 'Team' }],
      // A draft: the three learners of Team reachable on Slack; nobody enrolled yet.
      reached: 3,
      enrolments: 0,
      distribution: body.distribution,
    });
    expect(course.languages.map((language) => [language.short_name, language.is_primary])).toEqual([
      ['en', true],
      ['it', false],
    ]);
    expect(course.lessons.map(({ uuid: _uuid, ...lesson }) => lesson)).toEqual(body.lessons);
    expect(await get(uuid)).toEqual(course);
  });

  it('keeps lesson uuids for days and languages that stay', async () => {
    const uuid = await create();
    const first = courseOf(await save(uuid, validCourseBody({ days: 2 })));
    app.testClock.advance(60_000);
    const body = validCourseBody({ days: 3 });
    body.lessons = body.lessons.filter((lesson) => lesson.day !== 2);
    body.lessons[0]!.title = 'Renamed';
    const second = courseOf(await save(uuid, body));
    app.testClock.set('2026-11-22T09:00:00.000Z');
    const uuidOf = (course: TCourse, day: number, language: string) =>
      course.lessons.find((lesson) => lesson.day === day && lesson.language === language)?.uuid;
    expect(uuidOf(second, 1, 'en')).toBe(uuidOf(first, 1, 'en'));
    expect(uuidOf(second, 1, 'it')).toBe(uuidOf(first, 1, 'it'));
    expect(uuidOf(second, 2, 'en')).toBeUndefined();
    expect(uuidOf(second, 3, 'en')).toBeDefined();
    expect(second.lessons[0]!.title).toBe('Renamed');
    expect(second.updated_at).toBe('2026-11-22T09:01:00.000Z');
    const rows = await app.db
      .selectFrom('lessons')
      .select(['day', 'created_at'])
      .where('course_uuid', '=', uuid)
      .orderBy('day')
      .execute();
    expect(rows.map((row) => [row.day, row.created_at])).toEqual([
      [1, '2026-11-22T09:00:00.000Z'],
      [1, '2026-11-22T09:00:00.000Z'],
      [3, '2026-11-22T09:01:00.000Z'],
      [3, '2026-11-22T09:01:00.000Z'],
    ]);
  });

  it('drops a removed language with its lessons', async () => {
    const uuid = await create();
    await save(uuid, validCourseBody({ languages: ['en', 'it'] }));
    const course = courseOf(await save(uuid, validCourseBody({ languages: ['en'] })));
    expect(course.languages).toHaveLength(1);
    expect(course.lessons.map((lesson) => lesson.language)).toEqual(['en', 'en']);
  });

  it('keeps distribution and lists when the body leaves them out, clears them on null/[]', async () => {
    const uuid = await create();
    await save(uuid, validCourseBody({ lists: [list.uuid] }));
    const { distribution: _d, learners_lists: _l, ...rest } = validCourseBody();
    const kept = courseOf(await save(uuid, rest));
    expect(kept.distribution).not.toBeNull();
    expect(kept.learners_lists).toHaveLength(1);
    const cleared = (await save(uuid, { ...rest, distribution: null, learners_lists: [] })).json
      .data;
    expect(cleared.distribution).toBeNull();
    expect(cleared.learners_lists).toEqual([]);
  });

  it('pre-fills an empty answer response', async () => {
    const body = validCourseBody({ languages: ['en'], days: 1 });
    body.lessons[0]!.assessment.answers[1]!.response = '';
    const course = await accepted(body);
    expect(course.lessons[0]!.assessment!.answers[1]!.response).toBe('Thank you for your answer.');
  });

  it('refuses a description of 201 characters, at its path', async () => {
    await accepted({ ...validCourseBody(), description: 'd'.repeat(200) });
    const uuid = await create();
    const response = await save(uuid, { ...validCourseBody(), description: 'd'.repeat(201) });
    expect(response.json).toEqual({
      error: {
        status: 422,
        code: 'VALIDATION_FAILED',
        message: 'The description may not be greater than 200 characters.',
        errors: { description: ['The description may not be greater than 200 characters.'] },
      },
    });
  });

  it.each([1, 300])('accepts learning_minutes %s', async (minutes) => {
    const body = validCourseBody();
    body.lessons[1]!.learning_minutes = minutes;
    const course = await accepted(body);
    expect(course.lessons[1]!.learning_minutes).toBe(minutes);
  });

  it.each([0, 301])('refuses learning_minutes %s', async (minutes) => {
    const body = validCourseBody();
    body.lessons[1]!.learning_minutes = minutes;
    expect(await refused(body)).toEqual({
      'lessons.1.learning_minutes': ['Learning minutes must be between 1 and 300.'],
    });
  });

  it('takes 11 answers and refuses 12', async () => {
    const answers = (count: number) =>
      Array.from({ length: count }, (_, index) => answerBody(`Option ${index + 1}`, index === 0));
    const eleven = validCourseBody();
    eleven.lessons[0]!.assessment = assessmentBody({ answers: answers(11) });
    const course = await accepted(eleven);
    expect(course.lessons[0]!.assessment!.answers).toHaveLength(11);
    const twelve = validCourseBody();
    twelve.lessons[0]!.assessment = assessmentBody({ answers: answers(12) });
    expect(await refused(twelve)).toEqual({
      'lessons.0.assessment.answers': ['An assessment may have up to 11 answers.'],
    });
  });

  it('refuses similar answers, no correct answer and an empty answer, by path', async () => {
    const body = validCourseBody();
    body.lessons[0]!.assessment = assessmentBody({
      answers: [answerBody('Rome', true), answerBody('rome!')],
    });
    body.lessons[1]!.assessment = assessmentBody({
      answers: [answerBody('A'), answerBody('B')],
    });
    body.lessons[2]!.assessment = assessmentBody({
      answers: [answerBody('A', true), answerBody('B'), answerBody('')],
    });
    expect(await refused(body)).toEqual({
      'lessons.0.assessment.answers.1.text': ['Assessment answers can not be similar.'],
      'lessons.1.assessment.answers': [
        'One choice option in assessment question should be marked as a correct answer.',
      ],
      'lessons.2.assessment.answers.2.text': ['The answer text is required.'],
    });
  });

  it('checks true/false and open answer questions', async () => {
    const body = validCourseBody({ languages: ['en'], days: 2 });
    body.lessons[0]!.assessment = assessmentBody({
      type: 'true_false',
      answers: [answerBody('True', true), answerBody('False')],
    });
    body.lessons[1]!.assessment = assessmentBody({ type: 'open_answer', answers: [] });
    await accepted(body);
    body.lessons[0]!.assessment = assessmentBody({
      type: 'true_false',
      answers: [answerBody('True', true), answerBody('False', true)],
    });
    expect(await refused(body)).toEqual({
      'lessons.0.assessment.answers': [
        'Only one answer of a true/false question can be marked as correct.',
      ],
    });
  });

  it('keeps no answer rows for an open answer, even empty ones a type switch left behind', async () => {
    const body = validCourseBody({ languages: ['en'], days: 1 });
    // What the wizard sent after switching a multiple choice to "Open answer".
    body.lessons[0]!.assessment = assessmentBody({
      type: 'open_answer',
      answers: [answerBody('', true), answerBody('', false)],
    });
    const course = await accepted(body);
    expect(course.lessons[0]!.assessment).toMatchObject({ type: 'open_answer', answers: [] });
  });

  it('checks lesson texts at their limits', async () => {
    const body = validCourseBody();
    body.lessons[0]!.title = 't'.repeat(140);
    body.lessons[1]!.topic_intro = 'i'.repeat(600);
    body.lessons[2]!.topic_content = `<p>${'c'.repeat(1200)}</p>`;
    await accepted(body);
    body.lessons[0]!.title = 't'.repeat(141);
    body.lessons[1]!.topic_intro = 'i'.repeat(601);
    body.lessons[2]!.topic_content = `<p>${'c'.repeat(1201)}</p>`;
    body.lessons[3]!.topic_content = '<p><br></p>';
    expect(await refused(body)).toEqual({
      'lessons.0.title': ['The lesson title may not be greater than 140 characters.'],
      'lessons.1.topic_intro': ['The topic introduction may not be greater than 600 characters.'],
      'lessons.2.topic_content': ['The topic content may not be greater than 1200 characters.'],
      'lessons.3.topic_content': ['The topic content is required.'],
    });
  });

  it('refuses lessons outside the course languages and a second primary language', async () => {
    const body = validCourseBody({ languages: ['en'] });
    body.lessons.push(lessonBody(1, 'de'));
    expect(await refused(body)).toEqual({
      'lessons.2.language': ['The lesson language is not one of the course languages.'],
    });
    const twoPrimaries = validCourseBody();
    twoPrimaries.languages[1]!.is_primary = true;
    expect(await refused(twoPrimaries)).toEqual({
      languages: ['A course needs exactly one primary language.'],
    });
  });

  it('refuses learners lists of another company, or unknown ones', async () => {
    const other = await createSignedInUser(app);
    const foreign = await seedLearnersList(app, other.company.uuid);
    const body = validCourseBody({ lists: [list.uuid, foreign.uuid, 'nope'] });
    const uuid = await create();
    const response = await save(uuid, body);
    expect(response.statusCode).toBe(422);
    expect(response.json.error).toEqual({
      status: 422,
      code: 'VALIDATION_FAILED',
      message: 'The selected learners list is invalid.',
      errors: {
        'learners_lists.2': ['The selected learners list is invalid.'],
        'learners_lists.1': ['The selected learners list is invalid.'],
      },
    });
  });

  it('refuses a status other than draft or scheduled', async () => {
    expect(await refused({ ...validCourseBody(), status: 'active' })).toEqual({
      status: ['The status must be draft or scheduled.'],
    });
  });

  it('saves the Intro step as multipart, replacing the cover', async () => {
    const first = pngImage({ width: 8, height: 8 });
    const createForm = multipart(
      { name: 'Intro', description: 'First.' },
      { filename: 'a.png', contentType: 'image/png', content: first },
    );
    const created = await call(app, {
      method: 'POST',
      url: base,
      payload: createForm.payload,
      headers: { ...headers, ...createForm.headers },
    });
    const { uuid, image: oldImage } = created.json.data;

    const second = pngImage({ width: 16, height: 16 });
    const form = multipart(
      { uuid, name: 'Intro 2', description: 'Second.', category: 'Onboarding' },
      { filename: 'image.png', contentType: 'image/png', content: second },
    );
    const response = await call(app, {
      method: 'POST',
      url: `${base}/${uuid}`,
      payload: form.payload,
      headers: { ...headers, ...form.headers },
    });
    expect(response.statusCode).toBe(200);
    const course = courseOf(response);
    expect(course).toMatchObject({
      name: 'Intro 2',
      description: 'Second.',
      category: 'Onboarding',
    });
    expect(course.image).not.toBe(oldImage);
    expect(readFileSync(path.join(app.dataDir, course.image!))).toEqual(second);
    expect(existsSync(path.join(app.dataDir, oldImage))).toBe(false);

    // Without an image the cover stays.
    const textOnly = multipart({ name: 'Intro 3', description: 'Third.' });
    const kept = await call(app, {
      method: 'POST',
      url: `${base}/${uuid}`,
      payload: textOnly.payload,
      headers: { ...headers, ...textOnly.headers },
    });
    expect(kept.json.data).toMatchObject({
      name: 'Intro 3',
      image: course.image,
      category: 'Onboarding',
    });

    // A refused image leaves the course and its cover as they were.
    const bad = multipart(
      { name: 'Intro 4', description: '' },
      {
        filename: 'b.png',
        contentType: 'image/png',
        content: pngImage({ width: 600, height: 10 }),
      },
    );
    const refusedIntro = await call(app, {
      method: 'POST',
      url: `${base}/${uuid}`,
      payload: bad.payload,
      headers: { ...headers, ...bad.headers },
    });
    expect(refusedIntro.statusCode).toBe(422);
    expect(refusedIntro.json.error.errors).toEqual({
      description: ['The description is required.'],
      image: ['The image must be UP TO 500 pixels by 500 pixels.'],
    });
    expect((await get(uuid)).name).toBe('Intro 3');
    expect(existsSync(path.join(app.dataDir, course.image!))).toBe(true);
  });

  it('refuses to edit an active course and keeps a paused one paused', async () => {
    const active = await seedCourse(app, {
      companyUuid: company.uuid,
      classroomUuid: classroom,
      status: 'active',
    });
    const response = await save(active, validCourseBody());
    expect(response.statusCode).toBe(422);
    expect(response.json.error.message).toBe(
      'Only draft, scheduled or paused courses can be edited.',
    );

    const paused = await seedCourse(app, {
      companyUuid: company.uuid,
      classroomUuid: classroom,
      status: 'paused',
    });
    const saved = await save(paused, validCourseBody());
    expect(saved.statusCode).toBe(200);
    expect(saved.json.data.status).toBe('paused');
  });
});

describe('courses: publishing', async () => {
  const app = await buildTestApp();
  const { company, headers } = await createSignedInUser(app);
  const classroom = company.classrooms[0]!.uuid;
  const base = `/api/v1/classrooms/${classroom}/courses`;

  const create = async () =>
    (
      await call(app, {
        method: 'POST',
        url: base,
        headers,
        payload: { name: 'To publish', description: 'Soon.' },
      })
    ).json.data.uuid as string;
  const save = (uuid: string, payload: unknown) =>
    call(app, { method: 'POST', url: `${base}/${uuid}`, headers, payload: payload as object });

  it('asks for a learners list while the company has none', async () => {
    const uuid = await create();
    const response = await save(uuid, validCourseBody({ status: 'scheduled' }));
    expect(response.statusCode).toBe(422);
    expect(response.json.error).toEqual({
      status: 422,
      code: 'VALIDATION_FAILED',
      message: FIX_ALL,
      errors: { learners_lists: ['Please create at least one learners list to proceed.'] },
    });
  });

  it('lists every problem with day, language and option, and saves nothing', async () => {
    const list = await seedLearnersList(app, company.uuid, { name: 'Team', learners: 1 });
    const uuid = await create();
    const draft = validCourseBody({ lists: [list.uuid] });
    await save(uuid, draft);

    const body = validCourseBody({
      days: 3,
      startDate: '2026-11-22',
      channels: [],
      status: 'scheduled',
    });
    body.lessons = body.lessons.filter((lesson) => !(lesson.day === 2 && lesson.language === 'it'));
    // Day 3 (en) is now at index 3: its option 2 loses its text.
    body.lessons[3]!.assessment.answers[1]!.text = '';
    body.lessons[4]!.title = '';
    body.learners_lists = [];
    const response = await save(uuid, body);
    expect(response.statusCode).toBe(422);
    expect(response.json.error.message).toBe(FIX_ALL);
    expect(response.json.error.errors).toEqual({
      'lessons.3.assessment.answers.1.text': ['Day 3 (en), option 2: the answer text is required.'],
      'lessons.4.title': ['Day 3 (it): the lesson title is required.'],
      lessons: ['Day 2 (it): the lesson is missing.'],
      'distribution.start_date': ['Date must be in range from tomorrow to next 3 months.'],
      'distribution.channels': ['Select delivery channel of the course.'],
      learners_lists: ['Select at least one learner.'],
    });
    const course = courseOf(await call(app, { method: 'GET', url: `${base}/${uuid}`, headers }));
    expect(course.status).toBe('draft');
    expect(course.lessons).toHaveLength(4);
  });

  it('requires a delivery date', async () => {
    const list = await seedLearnersList(app, company.uuid);
    const uuid = await create();
    const response = await save(
      uuid,
      validCourseBody({ lists: [list.uuid], startDate: null, status: 'scheduled' }),
    );
    expect(response.json.error.errors).toEqual({
      'distribution.start_date': ['Select delivery date of the course.'],
    });
  });

  it.each([
    ['2026-11-23', true],
    ['2027-02-22', true],
    ['2027-02-23', false],
  ])('publishes on 22 Nov 2026 with start %s: %s', async (startDate, ok) => {
    const list = await seedLearnersList(app, company.uuid);
    const uuid = await create();
    const response = await save(
      uuid,
      validCourseBody({ lists: [list.uuid], startDate, status: 'scheduled' }),
    );
    expect(response.statusCode).toBe(ok ? 200 : 422);
    expect(response.json.error?.errors).toEqual(
      ok
        ? undefined
        : { 'distribution.start_date': ['Date must be in range from tomorrow to next 3 months.'] },
    );
  });

  it('schedules a complete course, re-checks it while scheduled, and takes it back to draft', async () => {
    const list = await seedLearnersList(app, company.uuid);
    const uuid = await create();
    const body = validCourseBody({ lists: [list.uuid], status: 'scheduled' });
    const response = await save(uuid, body);
    expect(response.statusCode).toBe(200);
    expect(response.json.data).toMatchObject({
      status: 'scheduled',
      scheduled_at: '2026-11-22T09:00:00.000Z',
    });

    // Saved again without a status, a scheduled course must still pass the check.
    const { status: _status, ...kept } = body;
    const broken = { ...kept, lessons: kept.lessons.slice(0, 3) };
    const refused = await save(uuid, broken);
    expect(refused.statusCode).toBe(422);
    expect(refused.json.error).toMatchObject({
      message: FIX_ALL,
      errors: { lessons: ['Day 2 (it): the lesson is missing.'] },
    });
    // The stored lists and distribution count when the body leaves them out.
    const { distribution: _d, learners_lists: _l, ...bare } = kept;
    const stillScheduled = await save(uuid, bare);
    expect(stillScheduled.statusCode).toBe(200);
    expect(stillScheduled.json.data.status).toBe('scheduled');

    const draft = await save(uuid, { ...broken, status: 'draft' });
    expect(draft.statusCode).toBe(200);
    expect(draft.json.data).toMatchObject({ status: 'draft', scheduled_at: null });
  });
});

describe('courses: plan limits', async () => {
  const app = await buildTestApp();
  const { company, user, headers } = await createSignedInUser(app, { plan: 'free' });
  const classroom = company.classrooms[0]!.uuid;
  const base = `/api/v1/classrooms/${classroom}/courses`;

  const create = async () =>
    (
      await call(app, {
        method: 'POST',
        url: base,
        headers,
        payload: { name: 'Free course', description: 'On the free plan.' },
      })
    ).json.data.uuid as string;
  const save = (uuid: string, payload: unknown) =>
    call(app, { method: 'POST', url: `${base}/${uuid}`, headers, payload: payload as object });
  const limitError = (message: string, feature: string, required: number, limit: number) => ({
    error: {
      status: 402,
      code: 'PLAN_LIMIT_REACHED',
      message,
      limit: { feature, required, limit },
    },
  });

  it('allows one distribution channel and refuses two', async () => {
    const uuid = await create();
    const one = await save(uuid, validCourseBody({ languages: ['en'], days: 1 }));
    expect(one.statusCode).toBe(200);
    const two = await save(
      uuid,
      validCourseBody({ languages: ['en'], days: 1, channels: ['slack', 'webex'] }),
    );
    expect(two.statusCode).toBe(402);
    expect(two.json).toEqual(
      limitError('Distribution channels limit reached.', 'distribution-channels', 2, 1),
    );
    const stored = await call(app, { method: 'GET', url: `${base}/${uuid}`, headers });
    expect(stored.json.data.distribution.channels).toEqual(['slack']);
  });

  it('refuses skipping weekends', async () => {
    const uuid = await create();
    const body = validCourseBody({ languages: ['en'], days: 1 });
    body.distribution.exclusion_days = ['saturday', 'sunday'] as never[];
    const response = await save(uuid, body);
    expect(response.statusCode).toBe(402);
    expect(response.json).toEqual(
      limitError('Exclusion days limit reached.', 'exclusion-days', 1, 0),
    );
  });

  it('counts lesson days created this month against the plan', async () => {
    // 1 day from the channel test and 0 from the refused one; seed 6 more this month and 9 last month.
    await seedCourse(app, {
      companyUuid: company.uuid,
      classroomUuid: classroom,
      days: 6,
      languages: ['en', 'it'],
    });
    await seedCourse(app, {
      companyUuid: company.uuid,
      classroomUuid: classroom,
      days: 9,
      lessonsCreatedAt: '2026-10-31T23:59:59.000Z',
    });
    const uuid = await create();
    // 7 used + 3 new = 10: the limit itself is fine.
    const three = await save(uuid, validCourseBody({ languages: ['en'], days: 3 }));
    expect(three.statusCode).toBe(200);
    // Translating existing days is not a new lesson.
    const translated = await save(uuid, validCourseBody({ languages: ['en', 'it'], days: 3 }));
    expect(translated.statusCode).toBe(200);
    // A fourth day is the 11th this month.
    const four = await save(uuid, validCourseBody({ languages: ['en'], days: 4 }));
    expect(four.statusCode).toBe(402);
    expect(four.json).toEqual(limitError('Lessons limit reached.', 'lessons', 11, 10));
    // Editing the existing days still works at the limit.
    const edited = validCourseBody({ languages: ['en'], days: 3 });
    edited.lessons[0]!.title = 'Edited';
    expect((await save(uuid, edited)).statusCode).toBe(200);
    // A clone would add 3 more days.
    const clone = await call(app, { method: 'POST', url: `${base}/${uuid}/clone`, headers });
    expect(clone.statusCode).toBe(402);
    expect(clone.json).toEqual(limitError('Lessons limit reached.', 'lessons', 13, 10));
  });

  it('starts counting again in a new month', async () => {
    app.testClock.set('2026-12-01T00:00:00.000Z');
    // The November token has expired by now.
    const tokens = await signIn(app, user);
    const december = { authorization: `Bearer ${tokens.access_token}` };
    const created = await call(app, {
      method: 'POST',
      url: base,
      headers: december,
      payload: { name: 'December', description: 'New month.' },
    });
    const response = await call(app, {
      method: 'POST',
      url: `${base}/${created.json.data.uuid}`,
      headers: december,
      payload: validCourseBody({ languages: ['en'], days: 4 }),
    });
    app.testClock.set('2026-11-22T09:00:00.000Z');
    expect(response.statusCode).toBe(200);
  });
});

describe('courses: the channels limit counts across the company', async () => {
  const app = await buildTestApp();
  const { company, headers } = await createSignedInUser(app, { plan: 'free' });
  const base = `/api/v1/classrooms/${company.classrooms[0]!.uuid}/courses`;
  const create = async (name: string) =>
    (
      await call(app, {
        method: 'POST',
        url: base,
        headers,
        payload: { name, description: 'Plan.' },
      })
    ).json.data.uuid as string;
  const save = (uuid: string, channels: string[]) =>
    call(app, {
      method: 'POST',
      url: `${base}/${uuid}`,
      headers,
      payload: validCourseBody({ languages: ['en'], days: 1, channels }),
    });

  it('lets a second course reuse the channel in use, refuses a new one, and frees it on archive', async () => {
    const first = await create('First');
    expect((await save(first, ['slack'])).statusCode).toBe(200);
    const second = await create('Second');
    expect((await save(second, ['slack'])).statusCode).toBe(200);

    const other = await save(second, ['whatsapp']);
    expect(other.statusCode).toBe(402);
    expect(other.json.error.limit).toEqual({
      feature: 'distribution-channels',
      required: 2,
      limit: 1,
    });

    // With the first course archived, the second may move to another channel.
    await call(app, { method: 'DELETE', url: `${base}/${first}/soft`, headers });
    expect((await save(second, ['whatsapp'])).statusCode).toBe(200);
  });
});
