import { MESSAGES } from '@ccp/schemas';
import type { TAiCourseResult } from '@ccp/schemas';
import { beforeEach, describe, expect, it } from 'vitest';

import { fakeTranslation, seedTranslatableCourse } from '../fixtures/ai.ts';
import { lessonBody } from '../fixtures/courses.ts';
import { startFakeOpenAi } from '../fixtures/fake-openai.ts';
import type { FakeChatHandler } from '../fixtures/fake-openai.ts';
import { buildTestApp, call, createSignedInUser } from '../helper.ts';
import type { TestApp } from '../helper.ts';

// POST /api/v1/classrooms/{classroomUuid}/courses/{courseUuid}/translate: lessons translated by
// a fake OpenAI-compatible provider, and the failures of spec §8.

/** A lesson of lessonBody() has 11 texts: title, intro, content, question, 3 × (answer,
 * response), thank-you message. */
const TEXTS_PER_LESSON = 11;

const itemsOf = (user: string): string[] => (JSON.parse(user) as { items: string[] }).items;

const translating =
  (tag: string): FakeChatHandler =>
  ({ user }) => ({ content: { items: itemsOf(user).map((item) => fakeTranslation(item, tag)) } });

const usageCount = async (app: TestApp, companyUuid: string) =>
  (
    await app.db
      .selectFrom('usage_events')
      .selectAll()
      .where('company_uuid', '=', companyUuid)
      .where('function_key', '=', 'a-i-translator')
      .execute()
  ).length;

describe('translating a course by AI', async () => {
  const fake = await startFakeOpenAi();
  const app = await buildTestApp({
    ai: {
      apiKey: 'sk-translate',
      baseUrl: fake.baseUrl,
      models: { 'gpt-3.5': 'small-model', 'gpt-4': 'large-model' },
      maxRetryDelayMs: 10,
    },
  });
  const { company, headers } = await createSignedInUser(app, { plan: 'enterprise' });
  const classroom = company.classrooms[0]!.uuid;
  const translate = (course: string, payload: Record<string, unknown>) =>
    call(app, {
      method: 'POST',
      url: `/api/v1/classrooms/${classroom}/courses/${course}/translate`,
      headers,
      payload,
    });
  const seed = (
    options: Parameters<typeof seedTranslatableCourse>[1] extends infer O ? Partial<O> : never = {},
  ) =>
    seedTranslatableCourse(app, {
      companyUuid: company.uuid,
      classroomUuid: classroom,
      ...options,
    });
  const languagesOf = async (course: string) =>
    (
      await app.db
        .selectFrom('course_languages')
        .innerJoin('languages', 'languages.uuid', 'course_languages.language_uuid')
        .select('languages.short_name')
        .where('course_uuid', '=', course)
        .orderBy('course_languages.position')
        .execute()
    ).map((row) => row.short_name);

  beforeEach(() => fake.reset());

  it('adds the target language with every day translated, structure kept', async () => {
    const course = await seed({ days: 2 });
    fake.onChat(translating('[it]'));
    const response = await translate(course, { target_language: 'it', model: 'gpt-4' });
    expect(response.statusCode).toBe(200);
    const result = response.json.data as TAiCourseResult;
    expect(result.generator).toBe('openai');
    expect(result.problems).toEqual([]);
    expect(
      result.course.languages.map((language) => [language.short_name, language.is_primary]),
    ).toEqual([
      ['en', true],
      ['it', false],
    ]);
    const italian = result.course.lessons.filter((lesson) => lesson.language === 'it');
    expect(italian.map((lesson) => lesson.day)).toEqual([1, 2]);
    const source = lessonBody(1, 'en');
    expect(italian[0]).toMatchObject({
      title: '[it] Day 1 in en',
      topic_intro: '[it] Why day 1 matters.',
      topic_content: '<p>[it] The content of day <strong>1</strong>.</p>',
      learning_minutes: source.learning_minutes,
      media: source.media,
      assessment: {
        question: '[it] Which answer is right?',
        type: 'multiple_choice',
        mandatory: true,
        answers: [
          { text: '[it] Right', correct: true, response: '[it] About Right.' },
          { text: '[it] Wrong', correct: false, response: '[it] About Wrong.' },
          { text: '[it] Maybe', correct: false, response: '[it] About Maybe.' },
        ],
        thank_you_message: '[it] Thanks!',
      },
    });
    // The source lessons are unchanged.
    expect(result.course.lessons.filter((lesson) => lesson.language === 'en')[0]?.title).toBe(
      'Day 1 in en',
    );

    const chats = fake.chats();
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(chat.json?.model).toBe('large-model');
      expect(chat.headers.authorization).toBe('Bearer sk-translate');
      expect(chat.json?.response_format).toEqual({ type: 'json_object' });
      expect(chat.system).toContain('from English into Italian');
      expect(chat.system).toContain(`exactly ${TEXTS_PER_LESSON} translated strings`);
    }
    expect(chats.map((chat) => itemsOf(chat.user)[0]).sort()).toEqual([
      'Day 1 in en',
      'Day 2 in en',
    ]);
    expect(itemsOf(chats[0]!.user)).toHaveLength(TEXTS_PER_LESSON);
    expect(await usageCount(app, company.uuid)).toBe(1);

    // The course reads back the same through the courses API.
    const read = await call(app, {
      method: 'GET',
      url: `/api/v1/classrooms/${classroom}/courses/${course}`,
      headers,
    });
    expect(read.json.data.lessons).toEqual(result.course.lessons);
  });

  it('refuses to overwrite an existing translation unless asked, then replaces it in place', async () => {
    const course = await seed({ languages: ['en', 'de'], days: 1 });
    const refused = await translate(course, { target_language: 'de' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json.error.errors).toEqual({ target_language: [MESSAGES.translationExists] });
    expect(fake.chats()).toHaveLength(0);

    const before = await call(app, {
      method: 'GET',
      url: `/api/v1/classrooms/${classroom}/courses/${course}`,
      headers,
    });
    const lessons = before.json.data.lessons as TAiCourseResult['course']['lessons'];
    const oldGerman = lessons.find((lesson) => lesson.language === 'de')!;
    fake.onChat(translating('[de]'));
    const response = await translate(course, { target_language: 'de', overwrite: true });
    expect(response.statusCode).toBe(200);
    const german = (response.json.data as TAiCourseResult).course.lessons.filter(
      (lesson) => lesson.language === 'de',
    );
    expect(german).toHaveLength(1);
    expect(german[0]?.uuid).toBe(oldGerman.uuid);
    expect(german[0]?.title).toBe('[de] Day 1 in en');
    expect(fake.chats()[0]?.json?.model).toBe('small-model');
  });

  it('translates only the days asked for, keeping the target’s other days', async () => {
    const course = await seed({ languages: ['en', 'de'], days: 3 });
    fake.onChat(translating('[de]'));
    const refused = await translate(course, { target_language: 'de', days: [2] });
    expect(refused.statusCode).toBe(422);
    const response = await translate(course, {
      target_language: 'de',
      days: [2],
      overwrite: true,
    });
    expect(response.statusCode).toBe(200);
    const german = (response.json.data as TAiCourseResult).course.lessons
      .filter((lesson) => lesson.language === 'de')
      .map((lesson) => [lesson.day, lesson.title]);
    expect(german).toEqual([
      [1, 'Day 1 in de'],
      [2, '[de] Day 2 in en'],
      [3, 'Day 3 in de'],
    ]);
    expect(fake.chats()).toHaveLength(1);
  });

  it('answers 502 with the server-error text and stores nothing when the provider fails', async () => {
    const course = await seed({ days: 2 });
    const used = await usageCount(app, company.uuid);
    fake.onChat(() => ({ status: 500, body: { error: 'down' } }));
    const response = await translate(course, { target_language: 'it' });
    expect(response.statusCode).toBe(502);
    expect(response.json.error).toEqual({
      status: 502,
      code: 'AI_PROVIDER_ERROR',
      message: MESSAGES.translationServerError,
    });
    expect(await languagesOf(course)).toEqual(['en']);
    expect(await usageCount(app, company.uuid)).toBe(used);
  });

  it('answers 502 on a size mismatch and stores nothing', async () => {
    const course = await seed({ days: 1 });
    fake.onChat(({ user }) => ({ content: { items: itemsOf(user).slice(1) } }));
    const response = await translate(course, { target_language: 'it' });
    expect(response.statusCode).toBe(502);
    expect(response.json.error).toEqual({
      status: 502,
      code: 'AI_PROVIDER_ERROR',
      message: `Translation failed: the AI service returned ${TEXTS_PER_LESSON - 1} texts for the ${TEXTS_PER_LESSON} it was sent. Please try again.`,
    });
    expect(await languagesOf(course)).toEqual(['en']);
  });

  it('answers 502 "Translation not found" when a text comes back blank, and stores nothing', async () => {
    const course = await seed({ days: 1 });
    fake.onChat(({ user }) => ({
      content: { items: itemsOf(user).map((item, at) => (at === 1 ? ' ' : `[IT] ${item}`)) },
    }));
    const response = await translate(course, { target_language: 'it' });
    expect(response.statusCode).toBe(502);
    expect(response.json.error.message).toBe(MESSAGES.translationNotFound);
    expect(await languagesOf(course)).toEqual(['en']);
  });

  it('answers 502 when the answer is not a list of texts', async () => {
    const course = await seed({ days: 1 });
    fake.onChat(() => ({ content: { translation: 'Ciao' } }));
    const response = await translate(course, { target_language: 'it' });
    expect(response.statusCode).toBe(502);
    expect(response.json.error.message).toBe(MESSAGES.aiInvalidResponse);
  });

  it('clamps translated texts to the §5 limits', async () => {
    const course = await seed({ days: 1 });
    fake.onChat(({ user }) => ({
      content: { items: itemsOf(user).map((item) => `${item} ${'lungo '.repeat(300)}`) },
    }));
    const response = await translate(course, { target_language: 'it' });
    expect(response.statusCode).toBe(200);
    const lesson = (response.json.data as TAiCourseResult).course.lessons.find(
      (item) => item.language === 'it',
    )!;
    // Cut at a word boundary with an ellipsis, within each limit.
    for (const [text, max] of [
      [lesson.title, 140],
      [lesson.topic_intro, 600],
      [lesson.assessment!.question, 300],
    ] as const) {
      expect([...text].length).toBeLessThanOrEqual(max);
      expect([...text].length).toBeGreaterThan(max - 10);
      expect(text.endsWith('…')).toBe(true);
    }
    expect(lesson.assessment!.answers.every((answer) => [...answer.text].length <= 100)).toBe(true);
    expect((response.json.data as TAiCourseResult).problems).toEqual([]);
  });

  it('stores a draft translation that breaks a rule and lists the problem', async () => {
    const course = await seed({ days: 1 });
    // Every answer translated to the same word: the answers become similar.
    fake.onChat(({ user }) => ({
      content: {
        items: itemsOf(user).map((item, index) =>
          [4, 6, 8].includes(index) ? 'Sì' : `[it] ${item}`,
        ),
      },
    }));
    const response = await translate(course, { target_language: 'it' });
    expect(response.statusCode).toBe(200);
    const problems = (response.json.data as TAiCourseResult).problems;
    expect(problems.map((problem) => problem.message)).toEqual([
      'Day 1 (it), option 2: assessment answers can not be similar.',
      'Day 1 (it), option 3: assessment answers can not be similar.',
    ]);
  });

  it('keeps a scheduled course publishable: a broken translation is not stored', async () => {
    const course = await seed({ days: 1, status: 'scheduled' });
    fake.onChat(({ user }) => ({
      content: {
        items: itemsOf(user).map((item, index) => ([4, 6].includes(index) ? 'Sì' : item)),
      },
    }));
    const response = await translate(course, { target_language: 'it' });
    expect(response.statusCode).toBe(502);
    expect(response.json.error.message).toBe(MESSAGES.aiInvalidResponse);
    expect(await languagesOf(course)).toEqual(['en']);
  });

  it('answers 422 for the primary language, no lessons, an archived or a delivered course', async () => {
    const course = await seed({ days: 1 });
    const same = await translate(course, { target_language: 'en' });
    expect(same.statusCode).toBe(422);
    expect(same.json.error.errors).toEqual({ target_language: [MESSAGES.translationSameLanguage] });

    const empty = await translate(await seed({ days: 0 }), { target_language: 'it' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json.error.message).toBe(MESSAGES.translationNothing);

    const archived = await seed({ deletedAt: '2026-01-01T00:00:00.000Z' });
    expect((await translate(archived, { target_language: 'it' })).json.error.message).toBe(
      MESSAGES.courseArchived,
    );
    const delivered = await seed({ status: 'delivered' });
    expect((await translate(delivered, { target_language: 'it' })).json.error.message).toBe(
      MESSAGES.courseNotEditable,
    );
    expect(fake.chats()).toHaveLength(0);
  });

  it('answers 422 for a missing or unknown target language', async () => {
    const course = await seed({ days: 1 });
    for (const payload of [
      {},
      { target_language: 'fr' },
      { target_language: 'it', model: 'gpt-5' },
    ]) {
      const response = await translate(course, payload);
      expect(response.statusCode).toBe(422);
    }
    const response = await translate(course, { target_language: 'fr' });
    expect(response.json.error.errors).toEqual({ target_language: [MESSAGES.languageUnknown] });
  });

  it('answers 404 for a course of another company', async () => {
    const other = await createSignedInUser(app);
    const course = await seedTranslatableCourse(app, {
      companyUuid: other.company.uuid,
      classroomUuid: other.company.classrooms[0]!.uuid,
    });
    const response = await call(app, {
      method: 'POST',
      url: `/api/v1/classrooms/${other.company.classrooms[0]!.uuid}/courses/${course}/translate`,
      headers,
      payload: { target_language: 'it' },
    });
    expect(response.statusCode).toBe(404);
  });
});

describe('translating without a provider', async () => {
  const app = await buildTestApp();
  const { company, headers } = await createSignedInUser(app);

  it('answers 503 telling the creator that an administrator can connect a provider', async () => {
    const classroom = company.classrooms[0]!.uuid;
    const course = await seedTranslatableCourse(app, {
      companyUuid: company.uuid,
      classroomUuid: classroom,
    });
    const response = await call(app, {
      method: 'POST',
      url: `/api/v1/classrooms/${classroom}/courses/${course}/translate`,
      headers,
      payload: { target_language: 'it' },
    });
    expect(response.statusCode).toBe(503);
    expect(response.json.error).toEqual({
      status: 503,
      code: 'AI_NOT_CONFIGURED',
      message: MESSAGES.aiNotConfigured,
    });
    // Nothing addressed to a server operator reaches a creator (issue 27 item 8).
    expect(response.json.error.message).toBe(
      'This needs an AI provider, and none is connected yet. Your administrator can connect one.',
    );
  });
});

describe('the translator plan limit', async () => {
  const fake = await startFakeOpenAi();
  const app = await buildTestApp({ ai: { apiKey: 'sk-plan', baseUrl: fake.baseUrl } });
  const { company, headers } = await createSignedInUser(app, { plan: 'free' });
  const classroom = company.classrooms[0]!.uuid;

  it('allows the free plan one translation a month, then answers 402 before asking the provider', async () => {
    fake.onChat(translating('[it]'));
    const first = await seedTranslatableCourse(app, {
      companyUuid: company.uuid,
      classroomUuid: classroom,
      days: 1,
    });
    const second = await seedTranslatableCourse(app, {
      companyUuid: company.uuid,
      classroomUuid: classroom,
      days: 1,
    });
    const url = (course: string) => `/api/v1/classrooms/${classroom}/courses/${course}/translate`;
    const ok = await call(app, {
      method: 'POST',
      url: url(first),
      headers,
      payload: { target_language: 'it' },
    });
    expect(ok.statusCode).toBe(200);
    const calls = fake.chats().length;
    const refused = await call(app, {
      method: 'POST',
      url: url(second),
      headers,
      payload: { target_language: 'it' },
    });
    expect(refused.statusCode).toBe(402);
    expect(refused.json.error).toEqual({
      status: 402,
      code: 'PLAN_LIMIT_REACHED',
      message: 'AI translator limit reached.',
      limit: { feature: 'a-i-translator', required: 2, limit: 1 },
    });
    expect(fake.chats()).toHaveLength(calls);
  });

  it('12 parallel translations with one use left: one is made, 11 answer 402 (issue 30)', async () => {
    const other = await createSignedInUser(app, { plan: 'free' });
    const room = other.company.classrooms[0]!.uuid;
    fake.onChat(translating('[de]'));
    const courses = await Promise.all(
      Array.from({ length: 12 }, () =>
        seedTranslatableCourse(app, {
          companyUuid: other.company.uuid,
          classroomUuid: room,
          days: 1,
        }),
      ),
    );
    const responses = await Promise.all(
      courses.map((course) =>
        call(app, {
          method: 'POST',
          url: `/api/v1/classrooms/${room}/courses/${course}/translate`,
          headers: other.headers,
          payload: { target_language: 'de' },
        }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, ...Array.from({ length: 11 }, () => 402)]);
    expect(await usageCount(app, other.company.uuid)).toBe(1);
  });

  it('a translation the provider fails gives its use back', async () => {
    const other = await createSignedInUser(app, { plan: 'free' });
    const room = other.company.classrooms[0]!.uuid;
    const course = await seedTranslatableCourse(app, {
      companyUuid: other.company.uuid,
      classroomUuid: room,
      days: 1,
    });
    const translateIt = () =>
      call(app, {
        method: 'POST',
        url: `/api/v1/classrooms/${room}/courses/${course}/translate`,
        headers: other.headers,
        payload: { target_language: 'de' },
      });
    fake.onChat(() => ({ status: 400, body: { error: { message: 'no' } } }));
    const failed = await translateIt();
    expect(failed.statusCode).toBe(502);
    expect(await usageCount(app, other.company.uuid)).toBe(0);
    fake.onChat(translating('[de]'));
    const again = await translateIt();
    expect(again.statusCode).toBe(200);
    expect(await usageCount(app, other.company.uuid)).toBe(1);
  });
});
