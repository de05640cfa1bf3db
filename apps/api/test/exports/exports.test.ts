import { readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { pauseRepository } from '../../src/delivery/pause.ts';
import { buildTestApp, call, createSignedInUser } from '../helper.ts';
import {
  analyticsCourse,
  analyticsLearner,
  enrol,
  lessonSent,
  novemberAt8,
} from '../fixtures/analytics.ts';
import { insertList } from '../fixtures/learners.ts';

// Exports: CSV content (exact), formula-injection escaping, storage, the mail to the requester,
// download errors. Clock: 2026-11-22T09:00:00Z.

const STATISTICS_HEADER =
  'learner_uuid,first_name,last_name,email,phone,channel,enrollment_status,learner_status,pause_reason,paused_at,pauses,resumes,lessons_sent,lessons_delivered,lessons_read,answers,answers_correct,answers_wrong,answers_missed,reminders,progress,learning_minutes,first_sent_at,last_activity_at,questions_tried,right_first_try,right_after_repeat,retention';
const NOT_ENROLLED_HEADER =
  'learner_uuid,first_name,last_name,email,phone,locale,channels,reason,invited_at';
const csv = (...lines: string[]) => `\uFEFF${lines.map((line) => `${line}\r\n`).join('')}`;

const PAUSED_AT = '2026-11-21T10:00:00.000Z';

describe('exports', async () => {
  const app = await buildTestApp();
  const { company, user, headers } = await createSignedInUser(app);
  const other = await createSignedInUser(app);

  // Négociation 101: two days of 5 and 10 minutes.
  const course = await analyticsCourse(app, company, { name: 'Négociation 101', minutes: [5, 10] });
  const learner = (first_name: string, last_name: string, extra: Record<string, unknown> = {}) =>
    analyticsLearner(app, company, { first_name, last_name, ...extra });
  const ada = await learner('Ada', 'Alpha', { email: 'ada@example.test' });
  const bravo = await learner('=HYPERLINK("http://evil.example")', 'Bravo', {
    email: '@evil.example',
    phone: '+393331234567',
    channels: ['whatsapp'],
  });
  const charlie = await learner('\tTab', 'Charlie', { email: 'c@example.test' });
  const delta = await learner('O"Neil, Jr', 'Delta', {
    email: '-d@example.test',
    reachability: 'unreachable',
  });
  const echo = await learner('Echo', 'Echo', { email: 'echo@example.test' });
  const fox = await learner('Fox', 'Fox', { email: 'fox@example.test' });
  const golf = await learner('Golf', 'Golf', { email: 'golf@example.test' });
  const hotel = await learner('Hotel', 'Hotel', {
    email: 'hotel@example.test',
    channels: ['slack', 'webex'],
    locale: 'it',
  });
  const india = await learner('India', 'India', { deleted_at: '2026-11-20T10:00:00.000Z' });
  const juliet = await learner('Juliet', 'Juliet');
  const list = await insertList(app, company.uuid, 'Sales', [
    ada.uuid,
    bravo.uuid,
    charlie.uuid,
    delta.uuid,
    echo.uuid,
    fox.uuid,
    golf.uuid,
    hotel.uuid,
    india.uuid,
  ]);
  await insertList(app, company.uuid, 'Elsewhere', [juliet.uuid]);
  await app.db
    .insertInto('course_learners_lists')
    .values({ course_uuid: course.uuid, list_uuid: list.uuid })
    .execute();

  const adaEnrolment = await enrol(app, course, ada);
  await lessonSent(app, adaEnrolment, 1, { at: novemberAt8(10), readAfter: 10, answeredAfter: 20 });
  await lessonSent(app, adaEnrolment, 2, { at: novemberAt8(11) });
  const bravoEnrolment = await enrol(app, course, bravo, { channel: 'whatsapp' });
  await lessonSent(app, bravoEnrolment, 1, {
    at: novemberAt8(21),
    readAfter: 5,
    answeredAfter: 6,
    correct: false,
    reminders: 1,
  });
  await enrol(app, course, charlie);
  const deltaEnrolment = await enrol(app, course, delta);
  // Paused by a trainer (issue 28): the export says why, since when and how often.
  const trainer = { uuid: user.uuid, name: 'Tina Trainer' };
  await pauseRepository.pauseByTrainer(app.db, deltaEnrolment.uuid, trainer, PAUSED_AT);
  await enrol(app, course, echo, { status: 'invited' });
  await enrol(app, course, fox, { status: 'declined' });
  await enrol(app, course, golf, { status: 'dropped', enrolledAt: null });

  const statisticsCsv = csv(
    STATISTICS_HEADER,
    `${ada.uuid},Ada,Alpha,ada@example.test,,slack,enrolled,dormant,,,0,0,2,2,1,1,1,0,0,0,50,5,2026-11-10T07:00:00.000Z,2026-11-10T07:20:00.000Z,1,1,0,100`,
    `${bravo.uuid},"'=HYPERLINK(""http://evil.example"")",Bravo,'@evil.example,'+393331234567,whatsapp,enrolled,active,,,0,0,1,1,1,1,0,1,0,1,50,5,2026-11-21T07:00:00.000Z,2026-11-21T07:06:00.000Z,1,0,0,0`,
    `${charlie.uuid},'\tTab,Charlie,c@example.test,,slack,enrolled,not_started,,,0,0,0,0,0,0,0,0,0,0,0,0,,,0,0,0,0`,
    `${delta.uuid},"O""Neil, Jr",Delta,'-d@example.test,,slack,enrolled,unreachable,trainer,${PAUSED_AT},1,0,0,0,0,0,0,0,0,0,0,0,,,0,0,0,0`,
  );

  const post = (suffix: string, courseUuid = course.uuid, authHeaders = headers) =>
    call(app, {
      method: 'POST',
      url: `/api/v1/analytics/courses/${courseUuid}/${suffix}`,
      headers: authHeaders,
    });
  const download = (exportId: string, authHeaders = headers) =>
    call(app, {
      method: 'GET',
      url: `/api/v1/analytics/exports/${exportId}/download`,
      headers: authHeaders,
    });
  const exportRow = (uuid: string) =>
    app.db.selectFrom('exports').selectAll().where('uuid', '=', uuid).executeTakeFirstOrThrow();

  describe('POST /api/v1/analytics/courses/{courseId}/export-delivery-statistics', () => {
    it('stores the statistics CSV, answers 201 and e-mails the requester a link', async () => {
      const response = await post('export-delivery-statistics');
      expect(response.statusCode).toBe(201);
      const exportId: string = response.json.data.export_id;
      expect(response.json).toEqual({
        data: {
          export_id: exportId,
          type: 'statistics',
          type_display_name: 'Delivery statistics',
          status: 'ready',
        },
      });
      const row = await exportRow(exportId);
      expect(row).toMatchObject({
        company_uuid: company.uuid,
        user_uuid: user.uuid,
        course_uuid: course.uuid,
        type: 'statistics',
        file_name: 'delivery-statistics-negociation-101-2026-11-22.csv',
        content_type: 'text/csv; charset=utf-8',
        file_path: `exports/${exportId}.csv`,
        status: 'ready',
        rows: 4,
        completed_at: '2026-11-22T09:00:00.000Z',
      });
      expect(readFileSync(path.join(app.dataDir, row.file_path!), 'utf8')).toBe(statisticsCsv);

      const mails = await app.db
        .selectFrom('outbox_messages')
        .selectAll()
        .where('recipient', '=', user.email)
        .execute();
      expect(mails).toHaveLength(1);
      const link = `${app.publicUrl}/exports/${exportId}`;
      expect(mails[0]).toMatchObject({
        company_uuid: company.uuid,
        kind: 'email',
        channel: 'email',
        subject: 'Your export is ready',
      });
      const body = JSON.parse(mails[0]!.body);
      expect(body.text).toBe(
        `Hello Test,\n\nyour export "Delivery statistics" of the course "Négociation 101" is ready. Download it here: ${link}\n`,
      );
      expect(body.html).toBe(
        `Hello Test,<br><br>your export &quot;Delivery statistics&quot; of the course &quot;Négociation 101&quot; is ready. Download it here: <a href="${link}">${link}</a><br>`,
      );
    });

    it('links to CCP_PUBLIC_URL whatever Host the request names (issue 30)', async () => {
      const response = await call(app, {
        method: 'POST',
        url: `/api/v1/analytics/courses/${course.uuid}/export-delivery-statistics`,
        headers: { ...headers, host: 'evil.example', 'x-forwarded-host': 'evil.example' },
      });
      expect(response.statusCode).toBe(201);
      const exportId: string = response.json.data.export_id;
      const mails = await app.db
        .selectFrom('outbox_messages')
        .select('body')
        .where('recipient', '=', user.email)
        .execute();
      const texts = mails.map((mail) => (JSON.parse(mail.body) as { text: string }).text);
      const mine = texts.find((text) => text.includes(exportId));
      expect(mine).toContain(`Download it here: ${app.publicUrl}/exports/${exportId}`);
      expect(texts.join('\n')).not.toContain('evil.example/');
    });

    it('answers the file through the download call', async () => {
      const exportId: string = (await post('export-delivery-statistics')).json.data.export_id;
      const response = await download(exportId);
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({
        data: {
          file_content: Buffer.from(statisticsCsv, 'utf8').toString('base64'),
          file_name: 'delivery-statistics-negociation-101-2026-11-22.csv',
          content_type: 'text/csv; charset=utf-8',
          export_id: exportId,
          type: 'statistics',
          type_display_name: 'Delivery statistics',
        },
      });
    });

    it('answers a header only for a course without enrolments', async () => {
      const empty = await analyticsCourse(app, company, { name: 'Empty' });
      const exportId: string = (await post('export-delivery-statistics', empty.uuid)).json.data
        .export_id;
      const file = (await download(exportId)).json.data.file_content;
      expect(Buffer.from(file, 'base64').toString('utf8')).toBe(csv(STATISTICS_HEADER));
      expect((await exportRow(exportId)).rows).toBe(0);
    });

    it('answers 404 for another company’s course and stores nothing', async () => {
      const before = await app.db.selectFrom('exports').select('uuid').execute();
      const response = await post('export-delivery-statistics', course.uuid, other.headers);
      expect(response.statusCode).toBe(404);
      expect(response.json.error.code).toBe('NOT_FOUND');
      expect(await app.db.selectFrom('exports').select('uuid').execute()).toEqual(before);
      const mails = await app.db
        .selectFrom('outbox_messages')
        .select('uuid')
        .where('recipient', '=', other.user.email)
        .execute();
      expect(mails).toEqual([]);
    });
  });

  describe('POST /api/v1/analytics/courses/{courseId}/export-not-enrolled-learners', () => {
    it('lists the learners of the course’s lists who are not enrolled, with the reason', async () => {
      const response = await post('export-not-enrolled-learners');
      expect(response.statusCode).toBe(201);
      expect(response.json.data).toMatchObject({
        type: 'not_enrolled_learners',
        type_display_name: 'Not enrolled learners',
        status: 'ready',
      });
      const { data } = (await download(response.json.data.export_id)).json;
      expect(data.file_name).toBe('not-enrolled-learners-negociation-101-2026-11-22.csv');
      // Not India (archived) nor Juliet (in a list the course does not use).
      expect(Buffer.from(data.file_content, 'base64').toString('utf8')).toBe(
        csv(
          NOT_ENROLLED_HEADER,
          `${echo.uuid},Echo,Echo,echo@example.test,,en,slack,invited,2026-11-01T07:00:00.000Z`,
          `${fox.uuid},Fox,Fox,fox@example.test,,en,slack,declined,2026-11-01T07:00:00.000Z`,
          `${golf.uuid},Golf,Golf,golf@example.test,,en,slack,dropped,2026-11-01T07:00:00.000Z`,
          `${hotel.uuid},Hotel,Hotel,hotel@example.test,,it,slack webex,not_invited,`,
        ),
      );
    });
  });

  describe('the separator follows the requester’s language (Excel’s regional list separator)', () => {
    it('is a semicolon for Italian and German users, a comma otherwise', async () => {
      const request = async (language: string) => {
        const created = await call(app, {
          method: 'POST',
          url: `/api/v1/analytics/courses/${course.uuid}/export-not-enrolled-learners`,
          headers: { ...headers, 'accept-language': language },
        });
        const download = await call(app, {
          method: 'GET',
          url: `/api/v1/analytics/exports/${created.json.data.export_id}/download`,
          headers,
        });
        return Buffer.from(download.json.data.file_content as string, 'base64').toString('utf8');
      };
      const english = await request('en-GB');
      const italian = await request('it-IT,it;q=0.9');
      const german = await request('de');
      expect(english.startsWith(`\uFEFF${NOT_ENROLLED_HEADER}\r\n`)).toBe(true);
      expect(italian.startsWith(`\uFEFF${NOT_ENROLLED_HEADER.replaceAll(',', ';')}\r\n`)).toBe(
        true,
      );
      expect(german).toBe(italian);
      // The same rows, only the separator differs.
      expect(italian.split('\r\n').length).toBe(english.split('\r\n').length);
      expect(italian).toContain(
        `\r\n${hotel.uuid};Hotel;Hotel;hotel@example.test;;it;slack webex;not_invited;\r\n`,
      );
    });
  });

  describe('?format=plain (ccp): the same bytes for every language, cells as stored', () => {
    const request = async (language: string, query: string) => {
      const created = await call(app, {
        method: 'POST',
        url: `/api/v1/analytics/courses/${course.uuid}/export-delivery-statistics${query}`,
        headers: { ...headers, 'accept-language': language },
      });
      expect(created.statusCode).toBe(201);
      const download = await call(app, {
        method: 'GET',
        url: `/api/v1/analytics/exports/${created.json.data.export_id}/download`,
        headers,
      });
      return Buffer.from(download.json.data.file_content as string, 'base64').toString('utf8');
    };

    it('has no BOM, commas whatever the language, and no formula guard', async () => {
      const english = await request('en', '?format=plain');
      expect(await request('de-DE', '?format=plain')).toBe(english);
      expect(english.startsWith(STATISTICS_HEADER)).toBe(true);
      expect(english).toContain('+393331234567');
      expect(english).not.toContain("'+393331234567");
      expect(english).toContain('"=HYPERLINK(""http://evil.example"")"');
      // The default stays the spreadsheet file the web app downloads.
      expect(await request('en', '')).toContain("'+393331234567");
    });

    it('takes another delimiter, and 400 for an unknown format', async () => {
      const tabbed = await request('it', '?format=plain&delimiter=tab');
      expect(tabbed.startsWith(STATISTICS_HEADER.replaceAll(',', '\t'))).toBe(true);
      const refused = await call(app, {
        method: 'POST',
        url: `/api/v1/analytics/courses/${course.uuid}/export-delivery-statistics?format=pdf`,
        headers,
      });
      expect(refused.statusCode).toBe(422);
    });
  });

  describe('GET /api/v1/analytics/exports/{exportId}/download errors', () => {
    it('answers 403 NO_PRIVILEGES for another company’s export', async () => {
      const exportId: string = (await post('export-delivery-statistics')).json.data.export_id;
      const response = await download(exportId, other.headers);
      expect(response.statusCode).toBe(403);
      expect(response.json).toEqual({
        error: {
          status: 403,
          code: 'NO_PRIVILEGES',
          message: 'You have no privileges to download this export.',
        },
      });
    });

    it('answers 404 EXPORT_NOT_FOUND for an unknown export and for a vanished file', async () => {
      const notFound = {
        error: { status: 404, code: 'EXPORT_NOT_FOUND', message: 'The export was not found.' },
      };
      const unknown = await download('6a1c2f3e-0000-4000-8000-000000000000');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json).toEqual(notFound);

      const exportId: string = (await post('export-delivery-statistics')).json.data.export_id;
      rmSync(path.join(app.dataDir, 'exports', `${exportId}.csv`));
      const vanished = await download(exportId);
      expect(vanished.statusCode).toBe(404);
      expect(vanished.json).toEqual(notFound);
    });

    it('answers 409 for an export that is not ready', async () => {
      const exportId: string = (await post('export-delivery-statistics')).json.data.export_id;
      for (const status of ['pending', 'failed']) {
        await app.db.updateTable('exports').set({ status }).where('uuid', '=', exportId).execute();
        const response = await download(exportId);
        expect(response.statusCode).toBe(409);
        expect(response.json.error).toEqual({
          status: 409,
          code: 'CONFLICT',
          message: 'The export is not ready yet.',
        });
      }
    });

    it('answers 401 without a token', async () => {
      const response = await call(app, {
        method: 'GET',
        url: '/api/v1/analytics/exports/6a1c2f3e-0000-4000-8000-000000000000/download',
      });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('the classroom course export', () => {
    const classroom = company.classrooms[0]!.uuid;
    const url = (room = classroom, courseUuid = course.uuid) =>
      `/api/v1/analytics/classrooms/${room}/courses/${courseUuid}/export`;
    const courseCsv = Buffer.from(statisticsCsv, 'utf8').toString('base64');

    it('POST stores the statistics CSV and answers it inline as base64', async () => {
      const response = await call(app, { method: 'POST', url: url(), headers });
      expect(response.statusCode).toBe(201);
      const exportId: string = response.json.data.export_id;
      expect(response.json).toEqual({
        data: {
          base64: courseCsv,
          file_name: 'course-statistics-negociation-101-2026-11-22.csv',
          content_type: 'text/csv; charset=utf-8',
          export_id: exportId,
        },
      });
      expect(await exportRow(exportId)).toMatchObject({ type: 'course', status: 'ready', rows: 4 });
      expect((await download(exportId)).json.data.file_content).toBe(courseCsv);
    });

    it('GET answers the statistics CSV produced now, without storing it', async () => {
      const before = await app.db.selectFrom('exports').select('uuid').execute();
      const response = await call(app, { method: 'GET', url: url(), headers });
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({
        data: {
          base64: courseCsv,
          file_name: 'course-statistics-negociation-101-2026-11-22.csv',
          content_type: 'text/csv; charset=utf-8',
          export_id: null,
        },
      });
      expect(await app.db.selectFrom('exports').select('uuid').execute()).toEqual(before);
      const leftovers = readdirSync(path.join(app.dataDir, 'exports')).filter((name) =>
        name.startsWith('tmp-'),
      );
      expect(leftovers).toEqual([]);
    });

    it('answers 404 for a course of another classroom or company', async () => {
      const cases = [
        { method: 'GET' as const, url: url(company.classrooms[1]!.uuid), headers },
        { method: 'POST' as const, url: url(company.classrooms[1]!.uuid), headers },
        { method: 'GET' as const, url: url(), headers: other.headers },
        { method: 'POST' as const, url: url(), headers: other.headers },
      ];
      for (const request of cases) {
        const response = await call(app, request);
        expect(response.statusCode, `${request.method} ${request.url}`).toBe(404);
      }
    });
  });
});
