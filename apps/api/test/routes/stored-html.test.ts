import { MESSAGES } from '@ccp/schemas';
import type { TCourse } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { insertCourse } from '../fixtures/learners.ts';
import { lessonBody, validCourseBody } from '../fixtures/courses.ts';
import { buildTestApp, call, createSignedInUser } from '../helper.ts';

// Issue 11 §5: lesson HTML saved by hand came back exactly as sent (10 of 10 stored-XSS
// payloads), and a media link could close its attribute. Every save goes through one allow-list.

const PAYLOADS: [string, string][] = [
  ['<p>C</p><img src=x onerror=alert(1)>', '<p>C</p>'],
  ['<p>C</p><script>alert(1)</script>', '<p>C</p>'],
  ['<p><a href="javascript:alert(1)">C</a></p>', '<p><a>C</a></p>'],
  ['<p><a href=" JaVaScRiPt:alert(1)">C</a></p>', '<p><a>C</a></p>'],
  ['<p onclick="alert(1)" style="x">C</p>', '<p>C</p>'],
  ['<svg onload=alert(1)><p>C</p></svg><p>C</p>', '<p>C</p>'],
  ['<iframe src="https://evil.example"></iframe><p>C</p>', '<p>C</p>'],
  ['<p>C<math><mi xlink:href="javascript:alert(1)">x</mi></math></p>', '<p>C</p>'],
  ['<p>C</p><object data="x.swf"></object><embed src="x">', '<p>C</p>'],
  ['<p>C<!--<img src=x onerror=alert(1)>--></p><style>p{}</style>', '<p>C</p>'],
  ['<p>1 < 2 & <b>C</b></p>', '<p>1 &lt; 2 &amp; <b>C</b></p>'],
  [
    '<p><a href="https://ok.example/?a=1&b=2" target="_blank">C</a></p>',
    '<p><a href="https://ok.example/?a=1&amp;b=2">C</a></p>',
  ],
];

describe('lesson HTML on save', async () => {
  const app = await buildTestApp();
  const { company, headers } = await createSignedInUser(app);
  const classroom = company.classrooms[0]!.uuid;

  const save = async (lessons: object[]) => {
    const course = await insertCourse(app, company, { status: 'draft' });
    return call(app, {
      method: 'POST',
      url: `/api/v1/classrooms/${classroom}/courses/${course.uuid}`,
      headers,
      payload: { ...validCourseBody({ languages: ['en'], days: 0 }), lessons },
    });
  };

  it('stores every payload through the allow-list, and answers what it stored', async () => {
    const response = await save(
      PAYLOADS.map(([html], index) => lessonBody(index + 1, 'en', { topic_content: html })),
    );
    expect(response.statusCode).toBe(200);
    const stored = await app.db
      .selectFrom('lessons')
      .select(['day', 'topic_content'])
      .where('course_uuid', '=', response.json.data.uuid)
      .orderBy('day')
      .execute();
    expect(stored.map((row) => row.topic_content)).toEqual(PAYLOADS.map(([, safe]) => safe));
    const answered = (response.json as { data: TCourse }).data.lessons;
    expect(answered.map((lesson) => lesson.topic_content)).toEqual(
      PAYLOADS.map(([, safe]) => safe),
    );
  });

  it('refuses content that is only markup once sanitised', async () => {
    const response = await save([
      lessonBody(1, 'en', {
        topic_content: '<script>alert("a long enough text")</script><img src=x>',
      }),
    ]);
    expect(response.statusCode).toBe(422);
    expect(response.json.error.errors['lessons.0.topic_content']).toEqual([
      MESSAGES.topicContentRequired,
    ]);
  });

  it.each([
    ['link', 'https://ok.example/x"><script>alert(1)</script>'],
    ['link', "https://ok.example/x' onmouseover='alert(1)"],
    ['link', 'https://ok.example/<x>'],
    ['link', 'javascript:alert(1)'],
    ['link', 'data:text/html,<script>alert(1)</script>'],
    ['upload', '/uploads/x"><script>alert(1)</script>'],
  ])('refuses a %s media URL that is not a plain http(s) URL: %s', async (type, url) => {
    const response = await save([lessonBody(1, 'en', { media: { type, url } })]);
    expect(response.statusCode).toBe(422);
    expect(response.json.error.errors['lessons.0.media.url']).toEqual([MESSAGES.mediaUrlInvalid]);
  });

  it('cleans the lessons of a course it clones', async () => {
    const course = await insertCourse(app, company, { status: 'draft' });
    const now = app.clock.now().toISOString();
    const language = await app.db
      .selectFrom('languages')
      .select('uuid')
      .where('short_name', '=', 'en')
      .executeTakeFirstOrThrow();
    await app.db
      .insertInto('course_languages')
      .values({
        course_uuid: course.uuid,
        language_uuid: language.uuid,
        is_primary: 1,
        position: 0,
      })
      .execute();
    // A lesson stored before the allow-list existed.
    await app.db
      .insertInto('lessons')
      .values({
        uuid: crypto.randomUUID(),
        course_uuid: course.uuid,
        day: 1,
        language_uuid: language.uuid,
        title: 'Old',
        topic_intro: 'Old intro',
        topic_content: '<p>Old</p><img src=x onerror=alert(1)>',
        learning_minutes: 5,
        media: null,
        assessment: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const clone = await call(app, {
      method: 'POST',
      url: `/api/v1/classrooms/${classroom}/courses/${course.uuid}/clone`,
      headers,
    });
    expect(clone.statusCode).toBe(201);
    expect(clone.json.data.lessons[0].topic_content).toBe('<p>Old</p>');
  });
});
