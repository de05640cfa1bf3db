import { afterAll, describe, expect, it } from 'vitest';

import { rebuildRetentionAggregates } from '../../src/db/migrations/0040_retention.ts';
import { DAY1, DAY2, channelWorld } from '../fixtures/channels.ts';
import { authHeaders } from '../fixtures/delivery.ts';
import { startFakeSlack } from '../fakes/slack.ts';
import { buildTestApp, call, createSignedInUser } from '../helper.ts';
import {
  analyticsCourse,
  analyticsLearner,
  enrol as enrolLearner,
  lessonSent,
  novemberAt8,
} from '../fixtures/analytics.ts';

// The retention insight (issue 28, docs/metrics.md "Retention"): three learners answer day 1's
// question over Slack — Ada right at once, Bruno wrong and then right when it repeats, Carla
// wrong twice — and Insights, the learners table, the questions view and the export say so.
// Answer 0 is the right one of the channel fixtures' question.

const RIGHT = 0;
const WRONG = 1;

describe('retention over Slack, answers through the webhook', async () => {
  const fake = await startFakeSlack();
  afterAll(() => fake.close());
  const { app, world, connect, webhook, enrol, tickAt } = await channelWorld('slack', {
    slack: { apiUrl: fake.apiUrl },
  });
  const nowSeconds = () => Math.floor(app.clock.now().getTime() / 1000);
  const get = async (url: string) => {
    const response = await call(app, {
      method: 'GET',
      url,
      headers: await authHeaders(app, world),
    });
    expect(response.statusCode).toBe(200);
    return response.json.data as unknown;
  };

  await connect({ bot_token: fake.token, signing_secret: fake.signingSecret });
  const { course, learners } = await enrol(
    [
      { first_name: 'Ada', last_name: 'Alpha' },
      { first_name: 'Bruno', last_name: 'Beta' },
      { first_name: 'Carla', last_name: 'Gamma' },
    ],
    { distribution: { repeat_questions: true, target_retention: 90 } },
  );
  const [ada, bruno, carla] = learners.map((learner) => {
    const user = fake.addUser(learner.email!);
    // The learner's questions (lessons and repeats), in the order they went.
    const questions = () =>
      fake.messages.filter(
        (message) =>
          message.userId === user.id &&
          (message.blocks.some((block) => block.type === 'actions') ||
            fake.updates.some((update) => update.ts === message.ts)),
      );
    return { ...learner, questions };
  });
  const tap = async (message: Parameters<typeof fake.tapRequest>[0] | undefined, index: number) =>
    expect(
      (await webhook(fake.tapRequest(message!, index, { nowSeconds: nowSeconds() }))).json,
    ).toEqual({ status: 'recorded' });

  const insights = async () =>
    (
      (await get(`/api/v2/analytics/classrooms/${world.classroom}/courses/insights`)) as {
        uuid: string;
      }[]
    ).find((item) => item.uuid === course);
  const learnerRows = async () =>
    (await get(`/api/v2/analytics/classrooms/${world.classroom}/courses/${course}/learners`)) as {
      first_name: string;
      questions_tried: number;
      right_first_try: number;
      right_after_repeat: number;
      retention: number;
    }[];
  const questionsUrl = `/api/v2/analytics/classrooms/${world.classroom}/courses/${course}/questions`;

  const snapshot = async () => ({
    questions: await app.db
      .withTables<{
        analytics_question_stats: Record<string, unknown> & { course_uuid: string; day: number };
      }>()
      .selectFrom('analytics_question_stats')
      .selectAll()
      .where('course_uuid', '=', course)
      .orderBy('day')
      .execute(),
    enrolments: await app.db
      .withTables<{
        analytics_enrollment_stats: {
          course_uuid: string;
          learner_uuid: string;
          repeat_right: number;
        };
      }>()
      .selectFrom('analytics_enrollment_stats')
      .select(['learner_uuid', 'repeat_right'])
      .where('course_uuid', '=', course)
      .orderBy('learner_uuid')
      .execute(),
  });
  /** The maintained counts, after checking a rebuild from the sends gives the same. */
  const sameAsRebuild = async () => {
    const maintained = await snapshot();
    await rebuildRetentionAggregates(app.db);
    return { maintained, rebuilt: await snapshot() };
  };

  it('counts a first-try answer right, and wrong ones as not right yet before any repeat', async () => {
    await tickAt(DAY1);
    await tap(ada!.questions()[0], RIGHT);
    await tap(bruno!.questions()[0], WRONG);
    await tap(carla!.questions()[0], WRONG);
    await tickAt(DAY1);

    expect(await insights()).toMatchObject({
      questionsTried: 3,
      retention: 33.3,
      retentionFirstTry: 33.3,
      retentionAfterRepeat: 0,
      retentionNotYet: 66.7,
    });
  });

  it('counts a question right after one repeat, and one still wrong as not right yet', async () => {
    // Day 2: the day's lesson, then day 1's question again for Bruno and Carla.
    await tickAt(DAY2);
    const brunoRepeat = bruno!.questions()[2];
    expect(JSON.stringify(brunoRepeat!.blocks)).toContain('Day 1');
    await tap(brunoRepeat, RIGHT);
    await tap(carla!.questions()[2], WRONG);
    await tickAt(DAY2);

    // Day 2's lessons are unanswered and under 72 hours old: not tried yet.
    expect(await insights()).toMatchObject({
      questionsTried: 3,
      retention: 66.7,
      retentionFirstTry: 33.3,
      retentionAfterRepeat: 33.3,
      retentionNotYet: 33.3,
    });
    const rows = await learnerRows();
    expect(
      rows.map(
        ({ first_name, questions_tried, right_first_try, right_after_repeat, retention }) => [
          first_name,
          questions_tried,
          right_first_try,
          right_after_repeat,
          retention,
        ],
      ),
    ).toEqual([
      ['Ada', 1, 1, 0, 100],
      ['Bruno', 1, 0, 1, 100],
      ['Carla', 1, 0, 0, 0],
    ]);
    expect(await get(questionsUrl)).toEqual([
      {
        day: 1,
        title: expect.any(String) as string,
        questions_tried: 3,
        right_first_try: 1,
        right_after_repeat: 1,
        not_right_yet: 1,
        retention: 66.7,
      },
      {
        day: 2,
        title: expect.any(String) as string,
        questions_tried: 0,
        right_first_try: 0,
        right_after_repeat: 0,
        not_right_yet: 0,
        retention: 0,
      },
    ]);
  });

  it('shows on the learner page which question was right after repetition', async () => {
    const days = async (learnerUuid: string) =>
      (
        (await get(`/api/v1/analytics/learners/${learnerUuid}`)) as {
          courses: {
            uuid: string;
            days: { day: number; state: string; right_after_repeat_at: string | null }[];
          }[];
        }
      ).courses.find((item) => item.uuid === course)!.days;
    expect((await days(bruno!.uuid))[0]).toMatchObject({
      state: 'wrong',
      right_after_repeat_at: expect.any(String) as string,
    });
    expect((await days(carla!.uuid))[0]).toMatchObject({
      state: 'wrong',
      right_after_repeat_at: null,
    });
    expect((await days(ada!.uuid))[0]).toMatchObject({
      state: 'correct',
      right_after_repeat_at: null,
    });
  });

  it('carries the retention columns in the statistics export', async () => {
    const headers = await authHeaders(app, world);
    const created = await call(app, {
      method: 'POST',
      url: `/api/v1/analytics/courses/${course}/export-delivery-statistics`,
      headers,
    });
    expect(created.statusCode).toBe(201);
    const download = await call(app, {
      method: 'GET',
      url: `/api/v1/analytics/exports/${created.json.data.export_id}/download`,
      headers,
    });
    const [header, ...lines] = Buffer.from(download.json.data.file_content as string, 'base64')
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    const columns = header!.split(',');
    const retentionOf = (line: string) => {
      const cells = line.split(',');
      return [
        'first_name',
        'questions_tried',
        'right_first_try',
        'right_after_repeat',
        'retention',
      ].map((column) => cells[columns.indexOf(column)]);
    };
    expect(lines.map(retentionOf)).toEqual([
      ['Ada', '1', '1', '0', '100'],
      ['Bruno', '1', '0', '1', '100'],
      ['Carla', '1', '0', '0', '0'],
    ]);
  });

  it('keeps counts that equal a rebuild from the sends', async () => {
    const { maintained, rebuilt } = await sameAsRebuild();
    expect(rebuilt).toEqual(maintained);
    expect(maintained.enrolments.map((row) => Number(row.repeat_right)).sort()).toEqual([0, 0, 1]);
  });

  it('keeps the first right repeat: a later wrong repeat does not take it back', async () => {
    // Bruno's second repeat comes days later; wrong this time, his question still counts as right
    // after repetition (he got it right once it came back).
    const repeat = await app.db
      .selectFrom('question_repeats')
      .innerJoin('lesson_deliveries as d', 'd.uuid', 'question_repeats.delivery_uuid')
      .select('question_repeats.send_at')
      .where('d.learner_uuid', '=', bruno!.uuid)
      .executeTakeFirstOrThrow();
    await tickAt(repeat.send_at!);
    await tap(bruno!.questions().at(-1), WRONG);
    expect((await learnerRows()).find((row) => row.first_name === 'Bruno')).toMatchObject({
      right_after_repeat: 1,
    });
    expect(((await get(questionsUrl)) as { right_after_repeat: number }[])[0]).toMatchObject({
      right_after_repeat: 1,
    });
    // Whatever the days since did (missed lessons, more repeats), the counts equal a rebuild.
    const { maintained, rebuilt } = await sameAsRebuild();
    expect(rebuilt).toEqual(maintained);
  });
});

describe('retention without repeats, from the stored sends', async () => {
  const fixtureApp = await buildTestApp();
  const { company, headers } = await createSignedInUser(fixtureApp);
  const course = await analyticsCourse(fixtureApp, company, { minutes: [5, 5, 5] });
  const learner = await analyticsLearner(fixtureApp, company, { first_name: 'Dora' });
  const enrolment = await enrolLearner(fixtureApp, course, learner);
  // Right, wrong, missed after 72 hours: a question never repeated is right at once or not yet.
  await lessonSent(fixtureApp, enrolment, 1, { at: novemberAt8(10), answeredAfter: 30 });
  await lessonSent(fixtureApp, enrolment, 2, {
    at: novemberAt8(11),
    answeredAfter: 30,
    correct: false,
  });
  await lessonSent(fixtureApp, enrolment, 3, { at: novemberAt8(12), missedAfter: 72 * 60 });

  it('counts a missed question as tried and not right', async () => {
    const classroom = company.classrooms[0]!.uuid;
    const response = await call(fixtureApp, {
      method: 'GET',
      url: `/api/v2/analytics/classrooms/${classroom}/courses/insights`,
      headers,
    });
    expect(response.json.data[0]).toMatchObject({
      questionsTried: 3,
      retention: 33.3,
      retentionFirstTry: 33.3,
      retentionAfterRepeat: 0,
      retentionNotYet: 66.7,
    });
  });

  it('answers 404 for the questions of another company’s course', async () => {
    const other = await createSignedInUser(fixtureApp);
    const response = await call(fixtureApp, {
      method: 'GET',
      url: `/api/v2/analytics/classrooms/${other.company.classrooms[0]!.uuid}/courses/${course.uuid}/questions`,
      headers: other.headers,
    });
    expect(response.statusCode).toBe(404);
  });
});
