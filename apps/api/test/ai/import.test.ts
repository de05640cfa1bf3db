import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { MESSAGES, ZLessonSchema, stripHtml } from '@ccp/schemas';
import type { TAiImportJob, TCourse } from '@ccp/schemas';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import IT from '../../../../locales/it.json' with { type: 'json' };
import { drainJobs } from '../../src/jobs/runner.ts';
import {
  FORM_FIELDS,
  GUIDE_CHAPTERS,
  GUIDE_FURNITURE,
  SECTIONS,
  aiLesson,
  importThroughJob,
  makeDocx,
  makeGuidePdf,
  makePdf,
  makePptx,
  postImport,
  readImportJob,
  sectionsAsText,
} from '../fixtures/ai.ts';
import { startFakeOpenAi } from '../fixtures/fake-openai.ts';
import { buildTestApp, call, createSignedInUser } from '../helper.ts';
import type { TestApp } from '../helper.ts';

// POST /api/v1/classrooms/{classroomUuid}/courses/import: the upload is checked and queued (202),
// then the job turns the file into a draft course, offline or through a fake OpenAI-compatible
// provider; GET …/courses/import/{jobUuid} follows it.

const jobOf = (response: { json: () => unknown }) =>
  (response.json() as { data: TAiImportJob }).data;

const usageCount = async (app: TestApp, companyUuid: string, key: string) =>
  (
    await app.db
      .selectFrom('usage_events')
      .selectAll()
      .where('company_uuid', '=', companyUuid)
      .where('function_key', '=', key)
      .execute()
  ).length;

const coursesOf = (app: TestApp, companyUuid: string) =>
  app.db.selectFrom('courses').selectAll().where('company_uuid', '=', companyUuid).execute();

const uploadsLeft = (app: TestApp) => {
  const dir = path.join(app.dataDir, 'ai-imports');
  return existsSync(dir) ? readdirSync(dir) : [];
};

describe('the AI import, offline', async () => {
  const app = await buildTestApp();
  const { company, headers } = await createSignedInUser(app, { plan: 'enterprise' });
  const classroom = company.classrooms[0]!.uuid;

  it.each([
    ['source.txt', () => sectionsAsText()],
    ['source.docx', () => makeDocx()],
    ['source.pptx', () => makePptx()],
    ['source.pdf', () => makePdf()],
  ])('turns %s into a draft course labelled as an offline draft', async (filename, make) => {
    const before = await usageCount(app, company.uuid, 'a-i-transformer');
    const { response, job, course } = await importThroughJob(app, {
      classroom,
      headers,
      file: { filename, content: await make() },
    });
    expect(response.statusCode).toBe(202);
    expect(jobOf(response)).toMatchObject({ status: 'queued', phase: 'queued', progress: 0 });
    expect(job).toMatchObject({
      status: 'completed',
      phase: 'done',
      progress: 100,
      file_name: filename,
      name: FORM_FIELDS.name,
      generator: 'offline',
      lessons: 3,
      problems: [],
      warnings: [],
      error_summary: null,
    });
    expect(course).toMatchObject({
      name: FORM_FIELDS.name,
      description: FORM_FIELDS.description,
      // No internal label on the creator's card (issue 27 item 9).
      category: null,
      status: 'draft',
      lessons_count: 3,
      distribution: null,
    });
    expect(course!.uuid).toBe(job!.course_uuid);
    expect(course!.languages.map((language) => [language.short_name, language.is_primary])).toEqual(
      [['en', true]],
    );
    expect(course!.lessons.map((lesson) => [lesson.day, lesson.language, lesson.title])).toEqual(
      SECTIONS.map((section, index) => [index + 1, 'en', section.heading]),
    );
    for (const lesson of course!.lessons) {
      expect(ZLessonSchema.safeParse(lesson).success).toBe(true);
      expect(stripHtml(lesson.topic_content)).toContain(
        SECTIONS[lesson.day - 1]!.paragraphs[0]!.slice(0, 40),
      );
      expect(['multiple_choice', 'true_false']).toContain(lesson.assessment?.type);
      // The standard thank-you, and minutes from what the learner reads at ~200 words a minute.
      expect(lesson.assessment?.thank_you_message).toBe(MESSAGES.answerResponseDefault);
      const read = [
        lesson.topic_intro,
        stripHtml(lesson.topic_content),
        lesson.assessment?.question ?? '',
        ...(lesson.assessment?.answers.map((answer) => answer.text) ?? []),
      ].join(' ');
      expect(lesson.learning_minutes).toBe(
        Math.max(1, Math.ceil(read.split(/\s+/).filter(Boolean).length / 200)),
      );
    }
    expect(await usageCount(app, company.uuid, 'a-i-transformer')).toBe(before + 1);
    expect(uploadsLeft(app)).toEqual([]);
  });

  it('makes the asked number of lessons, in the asked language and assessment type', async () => {
    const { course } = await importThroughJob(app, {
      classroom,
      headers,
      fields: {
        ...FORM_FIELDS,
        language: 'de',
        number_of_lessons: '6',
        assessment_type: 'true_false',
      },
      file: { filename: 'quelle.txt', content: sectionsAsText() },
    });
    expect(course!.languages.map((language) => language.short_name)).toEqual(['de']);
    expect(course!.lessons).toHaveLength(6);
    expect(course!.lessons.every((lesson) => lesson.language === 'de')).toBe(true);
    expect(course!.lessons.map((lesson) => lesson.assessment?.type)).toEqual(
      Array(6).fill('true_false'),
    );
    expect(course!.lessons[0]?.assessment?.answers.map((answer) => answer.text)).toEqual([
      'Richtig',
      'Falsch',
    ]);
  });

  it('uses only multiple choice for "multiple_option"', async () => {
    const { course } = await importThroughJob(app, {
      classroom,
      headers,
      fields: { ...FORM_FIELDS, assessment_type: 'multiple_option' },
      file: { filename: 'source.txt', content: sectionsAsText() },
    });
    expect(course!.lessons.map((lesson) => lesson.assessment?.type)).toEqual(
      Array(3).fill('multiple_choice'),
    );
  });

  it('makes fewer lessons than asked from a short text, and says so', async () => {
    const { job, course } = await importThroughJob(app, {
      classroom,
      headers,
      fields: { ...FORM_FIELDS, number_of_lessons: '30' },
      file: {
        filename: 'short.txt',
        content: 'Leaves are green because of chlorophyll. Roots take up water from the soil.',
      },
    });
    expect(course!.lessons).toHaveLength(2);
    expect(job!.warnings).toEqual([
      'The source had enough text for 2 lessons only, so 2 were made instead of 30.',
    ]);
  });

  it('answers 422 naming every missing field and the missing file', async () => {
    const before = (await coursesOf(app, company.uuid)).length;
    const response = await postImport(app, { classroom, headers, fields: {} });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      error: {
        status: 422,
        code: 'VALIDATION_FAILED',
        message: MESSAGES.nameRequired,
        errors: {
          name: [MESSAGES.nameRequired],
          description: [MESSAGES.descriptionRequired],
          number_of_lessons: [MESSAGES.aiLessonsCountRange],
          file: [MESSAGES.courseSourceFileRequired],
        },
      },
    });
    expect((await coursesOf(app, company.uuid)).length).toBe(before);
  });

  it('answers 422 for a JSON body: the file is required', async () => {
    const response = await call(app, {
      method: 'POST',
      url: `/api/v1/classrooms/${classroom}/courses/import`,
      headers,
      payload: FORM_FIELDS,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json.error.errors).toEqual({ file: [MESSAGES.courseSourceFileRequired] });
  });

  it.each(['list.xls', 'virus.exe', 'notes.md', 'no-extension'])(
    'refuses %s as an unsupported type',
    async (filename) => {
      const response = await postImport(app, {
        classroom,
        headers,
        file: { filename, content: 'Plain text pretending.' },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().error.errors).toEqual({ file: [MESSAGES.aiFileType] });
      expect(uploadsLeft(app)).toEqual([]);
    },
  );

  it('accepts the type by extension whatever its case', async () => {
    const response = await postImport(app, {
      classroom,
      headers,
      file: { filename: 'SOURCE.TXT', content: sectionsAsText() },
    });
    expect(response.statusCode).toBe(202);
    await drainJobs(app);
  });

  it.each([
    ['fake.docx', 'This is not a Word file.'],
    ['fake.pptx', 'This is not a slide deck.'],
    ['fake.pdf', 'This is not a PDF.'],
  ])('answers 422 for %s whose bytes are not its type', async (filename, content) => {
    const response = await postImport(app, { classroom, headers, file: { filename, content } });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.errors).toEqual({ file: [MESSAGES.aiFileUnreadable] });
    expect(uploadsLeft(app)).toEqual([]);
  });

  it('answers 422 when the file has no text', async () => {
    const response = await postImport(app, {
      classroom,
      headers,
      file: { filename: 'blank.txt', content: ' \n\n \t\n' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.errors).toEqual({ file: [MESSAGES.aiFileNoText] });
    expect(uploadsLeft(app)).toEqual([]);
  });

  it('shows each step while the job runs, and a stopped job stores nothing', async () => {
    const upload = await postImport(app, {
      classroom,
      headers,
      file: { filename: 'source.txt', content: sectionsAsText() },
    });
    const { uuid } = jobOf(upload);
    // Coming back to the page: the job is found by its id, as queued.
    expect(await readImportJob(app, { classroom, headers, uuid })).toMatchObject({
      status: 'queued',
      phase: 'queued',
    });
    const cancel = await call(app, {
      method: 'POST',
      url: `/api/v1/classrooms/${classroom}/courses/import/${uuid}/cancel`,
      headers,
    });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json.data).toMatchObject({ status: 'canceled', course_uuid: null });
    const courses = (await coursesOf(app, company.uuid)).length;
    await drainJobs(app);
    expect((await coursesOf(app, company.uuid)).length).toBe(courses);
    expect(uploadsLeft(app)).toEqual([]);
    const again = await call(app, {
      method: 'POST',
      url: `/api/v1/classrooms/${classroom}/courses/import/${uuid}/cancel`,
      headers,
    });
    expect(again.statusCode).toBe(422);
  });

  it('answers 503 for audio and video without a provider, in words for a creator', async () => {
    const before = await usageCount(app, company.uuid, 'a-i-transformer');
    // Each starts as its type does (ID3 tag, MPEG-4 ftyp atom): the bytes must match the name.
    for (const [filename, start] of [
      ['talk.mp3', 'ID3'],
      ['talk.mp4', '\0\0\0\x18ftypisom'],
    ]) {
      const response = await postImport(app, {
        classroom,
        headers,
        file: {
          filename: filename!,
          content: Buffer.from(`${start} not decoded by anyone`, 'latin1'),
        },
      });
      expect(response.statusCode).toBe(503);
      expect(response.json().error).toEqual({
        status: 503,
        code: 'AI_NOT_CONFIGURED',
        message: MESSAGES.aiTranscriptionNotConfigured,
      });
      // A creator is told what to do; a server setting is for the operator (issue 27 item 8).
      expect(response.json().error.message).not.toMatch(/OPENAI|server/);
    }
    expect(await usageCount(app, company.uuid, 'a-i-transformer')).toBe(before);
    expect(uploadsLeft(app)).toEqual([]);
  });

  it('answers 404 for a classroom of another company', async () => {
    const other = await createSignedInUser(app);
    const response = await postImport(app, {
      classroom: other.company.classrooms[0]!.uuid,
      headers,
      file: { filename: 'source.txt', content: sectionsAsText() },
    });
    expect(response.statusCode).toBe(404);
    // Nor is a job read or stopped through another company.
    const mine = await postImport(app, {
      classroom,
      headers,
      file: { filename: 'source.txt', content: sectionsAsText() },
    });
    const url = `/api/v1/classrooms/${classroom}/courses/import/${jobOf(mine).uuid}`;
    expect((await call(app, { method: 'GET', url, headers: other.headers })).statusCode).toBe(404);
    await drainJobs(app);
  });
});

describe('the AI import size limit', async () => {
  const app = await buildTestApp({ ai: { maxUploadBytes: 1024 } });
  const { company, headers } = await createSignedInUser(app, { plan: 'enterprise' });
  const classroom = company.classrooms[0]!.uuid;

  it('refuses a file over the limit with the spec text and keeps nothing', async () => {
    const response = await postImport(app, {
      classroom,
      headers,
      file: { filename: 'big.txt', content: 'Leaves are green. '.repeat(100) },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.errors).toEqual({
      file: ['File is too large. Max size: 700 MB.'],
    });
    expect(uploadsLeft(app)).toEqual([]);
    expect(await coursesOf(app, company.uuid)).toEqual([]);
  });

  it('accepts a file of exactly the limit', async () => {
    const content = `${'Leaves are green. '.repeat(56)}`.padEnd(1024, '.');
    expect(Buffer.byteLength(content)).toBe(1024);
    const { job } = await importThroughJob(app, {
      classroom,
      headers,
      fields: { ...FORM_FIELDS, number_of_lessons: '1' },
      file: { filename: 'limit.txt', content },
    });
    expect(job?.status).toBe('completed');
  });
});

describe('the AI import plan limits', async () => {
  const app = await buildTestApp();
  const { company, headers } = await createSignedInUser(app, { plan: 'free' });
  const classroom = company.classrooms[0]!.uuid;
  const uploadOnce = (
    fields: Record<string, string> = { ...FORM_FIELDS, number_of_lessons: '2' },
  ) =>
    postImport(app, {
      classroom,
      headers,
      fields,
      file: { filename: 'source.txt', content: sectionsAsText() },
    });

  it('does not count a refused import', async () => {
    const refused = await postImport(app, { classroom, headers, fields: FORM_FIELDS });
    expect(refused.statusCode).toBe(422);
    expect(await usageCount(app, company.uuid, 'a-i-transformer')).toBe(0);
  });

  it('allows the free plan one conversion a month, then answers 402', async () => {
    app.testClock.set(new Date('2026-03-10T09:00:00Z'));
    expect((await uploadOnce()).statusCode).toBe(202);
    expect(await drainJobs(app)).toBe(1);
    const second = await uploadOnce();
    expect(second.statusCode).toBe(402);
    expect(second.json().error).toEqual({
      status: 402,
      code: 'PLAN_LIMIT_REACHED',
      message: 'AI transformer limit reached.',
      limit: { feature: 'a-i-transformer', required: 2, limit: 1 },
    });
    expect(await usageCount(app, company.uuid, 'a-i-transformer')).toBe(1);
    expect(await coursesOf(app, company.uuid)).toHaveLength(1);
  });

  it('allows it again the next month; a second upload while the first is queued answers 402', async () => {
    app.testClock.set(new Date('2026-04-01T00:00:01Z'));
    const first = await uploadOnce();
    // The queued import holds the month's one use (issue 30): it is not taken twice.
    const second = await uploadOnce();
    expect([first.statusCode, second.statusCode]).toEqual([202, 402]);
    expect(second.json().error.limit).toEqual({
      feature: 'a-i-transformer',
      required: 2,
      limit: 1,
    });
    await drainJobs(app);
    const done = await readImportJob(app, { classroom, headers, uuid: jobOf(first).uuid });
    expect(done).toMatchObject({ status: 'completed', lessons: 2 });
  });

  it('counts the new lesson days against the lessons limit (10 a month)', async () => {
    app.testClock.set(new Date('2026-05-02T09:00:00Z'));
    const response = await uploadOnce({ ...FORM_FIELDS, number_of_lessons: '11' });
    expect(response.statusCode).toBe(402);
    expect(response.json().error.limit).toEqual({ feature: 'lessons', required: 11, limit: 10 });
    expect(await usageCount(app, company.uuid, 'a-i-transformer')).toBe(2);
  });

  it('12 parallel uploads with one conversion left: one queued, 11 answer 402 (issue 30)', async () => {
    app.testClock.set(new Date('2026-06-03T09:00:00Z'));
    const before = await usageCount(app, company.uuid, 'a-i-transformer');
    const uploads = await Promise.all(Array.from({ length: 12 }, () => uploadOnce()));
    const statuses = uploads.map((upload) => upload.statusCode).sort();
    expect(statuses).toEqual([202, ...Array.from({ length: 11 }, () => 402)]);
    expect(await drainJobs(app)).toBe(1);
    expect(await usageCount(app, company.uuid, 'a-i-transformer')).toBe(before + 1);
  });
});

describe('the AI import with a provider', async () => {
  const fake = await startFakeOpenAi();
  const app = await buildTestApp({
    ai: {
      apiKey: 'sk-import',
      baseUrl: fake.baseUrl,
      models: { 'gpt-3.5': 'small-model', 'gpt-4': 'large-model' },
      transcribeModel: 'whisper-test',
      maxRetryDelayMs: 10,
    },
  });
  const { company, headers } = await createSignedInUser(app, { plan: 'enterprise' });
  const classroom = company.classrooms[0]!.uuid;

  beforeEach(() => fake.reset());

  it('has the provider write the lessons from the document text', async () => {
    // The answer waits until the test has seen the job at the writing step.
    let answer = () => undefined as void;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    fake.onChat(async () => {
      await answered;
      return { content: { lessons: [aiLesson(1), aiLesson(2), aiLesson(3)] } };
    });
    const upload = await postImport(app, {
      classroom,
      headers,
      fields: { ...FORM_FIELDS, model: 'gpt-4' },
      file: { filename: 'source.docx', content: await makeDocx() },
    });
    expect(upload.statusCode).toBe(202);
    const { uuid } = jobOf(upload);
    const running = drainJobs(app);
    await vi.waitFor(async () =>
      expect(await readImportJob(app, { classroom, headers, uuid })).toMatchObject({
        status: 'running',
        phase: 'writing',
        progress: 30,
      }),
    );
    answer();
    await running;
    const job = await readImportJob(app, { classroom, headers, uuid });
    expect(job).toMatchObject({
      status: 'completed',
      generator: 'openai',
      problems: [],
      warnings: [],
    });
    const course = (
      await call(app, {
        method: 'GET',
        url: `/api/v1/classrooms/${classroom}/courses/${job.course_uuid}`,
        headers,
      })
    ).json.data as TCourse;
    expect(course.category).toBeNull();
    expect(course.lessons.map((lesson) => lesson.title)).toEqual([
      'Lesson 1: light and leaves',
      'Lesson 2: light and leaves',
      'Lesson 3: light and leaves',
    ]);
    expect(course.lessons[0]?.assessment).toEqual({
      question: 'Which pigment catches light (day 1)?',
      type: 'multiple_choice',
      mandatory: true,
      answers: aiLesson(1).assessment.answers,
      thank_you_message: null,
    });
    const [chat] = fake.chats();
    expect(fake.chats()).toHaveLength(1);
    expect(chat?.json?.model).toBe('large-model');
    expect(chat?.headers.authorization).toBe('Bearer sk-import');
    expect(chat?.json?.response_format).toEqual({ type: 'json_object' });
    expect(chat?.system).toContain('exactly 3 daily lessons, written in English');
    expect(chat?.system).toContain('"multiple_choice" or "true_false"');
    expect(chat?.user).toContain(`Course name: ${FORM_FIELDS.name}`);
    expect(chat?.user).toContain('## How plants make food');
    expect(chat?.user).toContain(SECTIONS[2]!.paragraphs[1]);
  });

  it('hands the provider the document without its headers, footers, contents or title page', async () => {
    fake.onChat(() => ({ content: { lessons: [aiLesson(1)] } }));
    const upload = await postImport(app, {
      classroom,
      headers,
      fields: { ...FORM_FIELDS, number_of_lessons: '1' },
      file: { filename: 'guide.pdf', content: await makeGuidePdf() },
    });
    expect(upload.statusCode).toBe(202);
    await drainJobs(app);
    const user = fake.chats()[0]?.user ?? '';
    GUIDE_CHAPTERS.forEach((chapter, index) => {
      expect(user).toContain(`## ${index + 1} ${chapter.heading}\n\n${chapter.paragraphs[0]}`);
    });
    for (const furniture of [
      GUIDE_FURNITURE.footer,
      GUIDE_FURNITURE.author,
      GUIDE_FURNITURE.copyright,
      GUIDE_FURNITURE.contents,
      'Page 3 of',
      '....',
      ...GUIDE_FURNITURE.indexEntries,
    ]) {
      expect(user).not.toContain(furniture);
    }
  });

  it('repairs or drops what breaks the lesson rules, and says what it did', async () => {
    fake.onChat(() => ({
      content: {
        lessons: [
          aiLesson(1, { title: 'T'.repeat(200), learning_minutes: 0 }),
          { title: 'No content at all' },
          aiLesson(3, {
            assessment: {
              type: 'multiple_choice',
              question: 'Which?',
              answers: [
                { text: 'One', correct: false },
                { text: 'Two', correct: false },
              ],
            },
          }),
        ],
      },
    }));
    const { job, course } = await importThroughJob(app, {
      classroom,
      headers,
      fields: { ...FORM_FIELDS, assessment_type: 'true_false' },
      file: { filename: 'source.txt', content: sectionsAsText() },
    });
    expect(job!.problems).toEqual([]);
    expect(course!.lessons.map((lesson) => lesson.day)).toEqual([1, 2]);
    expect([...course!.lessons[0]!.title].length).toBe(140);
    expect(course!.lessons[0]?.learning_minutes).toBe(1);
    // Only true/false was asked for: both assessments were rebuilt from the lesson text.
    expect(course!.lessons.map((lesson) => lesson.assessment?.type)).toEqual([
      'true_false',
      'true_false',
    ]);
    expect(job!.warnings).toEqual([
      'Day 1: the AI assessment was not valid and was rebuilt from the lesson text.',
      'Day 2: the AI lesson was not usable and was left out.',
      'Day 2: the AI assessment was not valid and was rebuilt from the lesson text.',
      'The source had enough text for 2 lessons only, so 2 were made instead of 3.',
    ]);
  });

  it('ends the job failed and stores nothing when the provider answers no lessons', async () => {
    const before = await usageCount(app, company.uuid, 'a-i-transformer');
    const courses = (await coursesOf(app, company.uuid)).length;
    fake.onChat(() => ({ content: 'I cannot help with that.' }));
    const { job } = await importThroughJob(app, {
      classroom,
      headers: { ...headers, 'accept-language': 'it' },
      file: { filename: 'source.txt', content: sectionsAsText() },
    });
    // Said in the reader's language.
    expect(job).toMatchObject({
      status: 'failed',
      course_uuid: null,
      error_summary: IT.validation.aiInvalidResponse,
    });
    expect(await usageCount(app, company.uuid, 'a-i-transformer')).toBe(before);
    expect((await coursesOf(app, company.uuid)).length).toBe(courses);
    expect(uploadsLeft(app)).toEqual([]);
  });

  it('transcribes audio, then writes the lessons from the transcript', async () => {
    fake.onTranscription(() => ({
      content: {
        text: 'Welcome to the talk. Plants make food from light. Roots take up water from the soil. Leaves breathe through stomata.',
      },
    }));
    fake.onChat(() => ({ content: { lessons: [aiLesson(1), aiLesson(2)] } }));
    const { course } = await importThroughJob(app, {
      classroom,
      headers,
      fields: { ...FORM_FIELDS, number_of_lessons: '2' },
      file: { filename: 'talk.mp3', content: Buffer.from('ID3 fake audio bytes') },
    });
    expect(course!.lessons).toHaveLength(2);
    const [transcription, chat] = fake.requests;
    expect(transcription?.path).toBe('/v1/audio/transcriptions');
    expect(transcription?.form?.model).toBe('whisper-test');
    expect(transcription?.file).toMatchObject({ name: 'talk.mp3', text: 'ID3 fake audio bytes' });
    expect(chat?.json?.model).toBe('small-model');
    expect(fake.chats()[0]?.user).toContain('Plants make food from light.');
    expect(uploadsLeft(app)).toEqual([]);
  });

  it('ends the job failed when the transcription keeps failing', async () => {
    fake.onTranscription(() => ({ status: 503 }));
    const { job } = await importThroughJob(app, {
      classroom,
      headers,
      file: {
        filename: 'clip.mp4',
        content: Buffer.from('\0\0\0\x18ftypisom fake video', 'latin1'),
      },
    });
    expect(job).toMatchObject({ status: 'failed', error_summary: MESSAGES.aiProviderFailed });
    expect(fake.requests).toHaveLength(2);
    expect(fake.chats()).toHaveLength(0);
  });
});
