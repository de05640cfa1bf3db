import { MESSAGES, ZListLearnersResponseSchema } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { searchInSql } from '../../src/learners/learner-page.ts';
import { insertLearnerRows, learnerRow } from '../../src/learners/learners-repository.ts';
import { buildTestApp, call, createSignedInUser } from '../helper.ts';
import {
  insertCourse,
  insertLearner,
  insertLearners,
  insertList,
  learnerBody,
} from '../fixtures/learners.ts';

const validation = (errors: Record<string, string[]>) => ({
  error: {
    status: 422,
    code: 'VALIDATION_FAILED',
    message: Object.values(errors)[0]?.[0],
    errors,
  },
});
const notFoundBody = { error: { status: 404, code: 'NOT_FOUND', message: MESSAGES.notFound } };
const uuidsOf = (body: any): string[] =>
  (body.data as { uuid: string }[]).map((learner) => learner.uuid);

describe('learners API', async () => {
  const app = await buildTestApp();
  const rowOf = (uuid: string) =>
    app.db.selectFrom('learners').selectAll().where('uuid', '=', uuid).executeTakeFirst();

  describe('POST /api/v1/learners', () => {
    it('creates a learner, normalising e-mail, phone and channel names', async () => {
      const { headers, company } = await createSignedInUser(app);
      const now = app.clock.now().toISOString();
      const response = await call(app, {
        method: 'POST',
        url: '/api/v1/learners',
        headers,
        payload: {
          first_name: 'Zoë',
          last_name: "D'Arcy-Müller",
          email: '  Zoe.Darcy@Example.TEST ',
          channels: ['Whatsapp', 'MS Teams'],
          locale: 'de',
          channel_name: 'Whatsapp',
          phone: '+39 333 123 4567',
        },
      });
      expect(response.statusCode).toBe(201);
      expect(response.json).toEqual({
        data: {
          uuid: expect.any(String),
          first_name: 'Zoë',
          last_name: "D'Arcy-Müller",
          email: 'zoe.darcy@example.test',
          phone: '+393331234567',
          locale: 'de',
          // Not given: the phone's country has one zone.
          time_zone: 'Europe/Rome',
          channels: [
            { key: 'whatsapp', name: 'WhatsApp' },
            { key: 'ms-teams', name: 'MS Teams' },
          ],
          learners_lists: [],
          active: true,
          reachability: 'unknown',
          created_at: now,
          updated_at: now,
          deleted_at: null,
          learning_time: 0,
          status: 'active',
          courses: [],
          analytics: { courses_activity: 0, courses_completion: 0, courses_progress: 0 },
        },
      });
      const row = await rowOf(response.json.data.uuid);
      expect(row).toMatchObject({
        company_uuid: company.uuid,
        email: 'zoe.darcy@example.test',
        phone: '+393331234567',
        channels: '["whatsapp","ms-teams"]',
        active: 1,
        deleted_at: null,
      });
    });

    it('keeps the learner’s own time zone in Intl’s spelling, and refuses an unknown one', async () => {
      const { headers } = await createSignedInUser(app);
      const created = await call(app, {
        method: 'POST',
        url: '/api/v1/learners',
        headers,
        payload: learnerBody({ phone: '+393331234567', time_zone: 'america/new_york' }),
      });
      expect(created.statusCode).toBe(201);
      expect(created.json.data.time_zone).toBe('America/New_York');
      expect((await rowOf(created.json.data.uuid))?.time_zone).toBe('America/New_York');

      const bad = await call(app, {
        method: 'PUT',
        url: `/api/v1/learners/${created.json.data.uuid}`,
        headers,
        payload: learnerBody({ time_zone: 'Mars/Olympus' }),
      });
      expect(bad.statusCode).toBe(422);
      expect(bad.json).toEqual(validation({ time_zone: [MESSAGES.timeZoneInvalid] }));
      expect((await rowOf(created.json.data.uuid))?.time_zone).toBe('America/New_York');

      // Cleared, with a number of a country of six zones: the company's zone applies (null).
      const cleared = await call(app, {
        method: 'PUT',
        url: `/api/v1/learners/${created.json.data.uuid}`,
        headers,
        payload: learnerBody({ phone: '+12125550100', time_zone: '' }),
      });
      expect(cleared.statusCode).toBe(200);
      expect(cleared.json.data.time_zone).toBeNull();
    });

    it('defaults the locale to en and stores no phone for a lone plus', async () => {
      const { headers } = await createSignedInUser(app);
      const response = await call(app, {
        method: 'POST',
        url: '/api/v1/learners',
        headers,
        payload: learnerBody({ channels: ['slack'], locale: undefined, phone: '+' }),
      });
      expect(response.statusCode).toBe(201);
      expect(response.json.data).toMatchObject({ locale: 'en', phone: null });
      expect((await rowOf(response.json.data.uuid))?.phone).toBeNull();
    });

    it('refuses WhatsApp without a phone, on the phone field', async () => {
      const { headers, company } = await createSignedInUser(app);
      const response = await call(app, {
        method: 'POST',
        url: '/api/v1/learners',
        headers,
        payload: learnerBody({ channels: ['whatsapp'], phone: undefined }),
      });
      expect(response.statusCode).toBe(422);
      expect(response.json).toEqual(validation({ phone: ['Phone is required for this channel.'] }));
      const count = await app.db
        .selectFrom('learners')
        .where('company_uuid', '=', company.uuid)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(0);
    });

    it('counts a lone plus as no phone for WhatsApp', async () => {
      const { headers } = await createSignedInUser(app);
      const response = await call(app, {
        method: 'POST',
        url: '/api/v1/learners',
        headers,
        payload: learnerBody({ channels: ['whatsapp'], phone: '+' }),
      });
      expect(response.statusCode).toBe(422);
      expect(response.json.error.errors).toEqual({ phone: [MESSAGES.phoneRequiredForChannel] });
    });

    it.each([['slack'], ['ms-teams'], ['webex'], ['google-chat']])(
      'refuses %s without an e-mail, on the email field',
      async (channel) => {
        const { headers } = await createSignedInUser(app);
        const response = await call(app, {
          method: 'POST',
          url: '/api/v1/learners',
          headers,
          payload: learnerBody({ channels: [channel], email: '' }),
        });
        expect(response.statusCode).toBe(422);
        expect(response.json).toEqual(
          validation({ email: ['The email is required for this channel.'] }),
        );
      },
    );

    it('accepts WhatsApp alone without an e-mail', async () => {
      const { headers } = await createSignedInUser(app);
      const response = await call(app, {
        method: 'POST',
        url: '/api/v1/learners',
        headers,
        payload: learnerBody({ channels: ['whatsapp'], email: null }),
      });
      expect(response.statusCode).toBe(201);
      expect(response.json.data.email).toBeNull();
    });

    it('refuses a malformed e-mail and a phone that is not a plus and digits', async () => {
      const { headers } = await createSignedInUser(app);
      const response = await call(app, {
        method: 'POST',
        url: '/api/v1/learners',
        headers,
        payload: learnerBody({ email: 'not-an-email', phone: '333 123 4567' }),
      });
      expect(response.statusCode).toBe(422);
      expect(response.json).toEqual(
        validation({
          email: ['The email must be valid.'],
          phone: [MESSAGES.phoneInvalid],
        }),
      );
    });

    it('refuses names with digits and reports every invalid field at once', async () => {
      const { headers } = await createSignedInUser(app);
      const response = await call(app, {
        method: 'POST',
        url: '/api/v1/learners',
        headers,
        payload: learnerBody({ first_name: 'R2D2', last_name: '', channels: ['slack', 'sms'] }),
      });
      expect(response.statusCode).toBe(422);
      expect(response.json).toEqual(
        validation({
          first_name: [MESSAGES.nameInvalid],
          last_name: [MESSAGES.nameRequired],
          'channels.1': [MESSAGES.channelUnknown],
        }),
      );
    });

    it('accepts a 255-character name and refuses 256', async () => {
      const { headers } = await createSignedInUser(app);
      const ok = await call(app, {
        method: 'POST',
        url: '/api/v1/learners',
        headers,
        payload: learnerBody({ last_name: 'a'.repeat(255) }),
      });
      expect(ok.statusCode).toBe(201);
      const tooLong = await call(app, {
        method: 'POST',
        url: '/api/v1/learners',
        headers,
        payload: learnerBody({ last_name: 'a'.repeat(256) }),
      });
      expect(tooLong.statusCode).toBe(422);
      expect(tooLong.json.error.errors).toEqual({ last_name: [MESSAGES.nameMax] });
    });

    it('refuses no channels and an unknown locale', async () => {
      const { headers } = await createSignedInUser(app);
      const response = await call(app, {
        method: 'POST',
        url: '/api/v1/learners',
        headers,
        payload: learnerBody({ channels: [], locale: 'fr' }),
      });
      expect(response.statusCode).toBe(422);
      expect(response.json.error.errors).toEqual({
        channels: [MESSAGES.channelsRequired],
        locale: [MESSAGES.localeInvalid],
      });
    });

    it('refuses an e-mail already taken in the company, by an archived learner too', async () => {
      const { headers, company } = await createSignedInUser(app);
      await insertLearner(app, company.uuid, {
        email: 'taken@example.test',
        deleted_at: app.clock.now().toISOString(),
        active: 0,
      });
      const response = await call(app, {
        method: 'POST',
        url: '/api/v1/learners',
        headers,
        payload: learnerBody({ email: 'Taken@Example.test' }),
      });
      expect(response.statusCode).toBe(422);
      expect(response.json).toEqual(validation({ email: ['The email has already been taken.'] }));
      const rows = await app.db
        .selectFrom('learners')
        .select('uuid')
        .where('company_uuid', '=', company.uuid)
        .execute();
      expect(rows).toHaveLength(1);
    });

    it('allows an e-mail another company uses', async () => {
      const other = await createSignedInUser(app);
      await insertLearner(app, other.company.uuid, { email: 'shared@example.test' });
      const { headers } = await createSignedInUser(app);
      const response = await call(app, {
        method: 'POST',
        url: '/api/v1/learners',
        headers,
        payload: learnerBody({ email: 'shared@example.test' }),
      });
      expect(response.statusCode).toBe(201);
    });

    it('answers 402 past the learners limit of the plan, archived learners not counted', async () => {
      const { headers, company } = await createSignedInUser(app, { plan: 'free' });
      await insertLearners(app, company.uuid, 5);
      await insertLearner(app, company.uuid, {
        deleted_at: app.clock.now().toISOString(),
        active: 0,
      });
      const sixth = await call(app, {
        method: 'POST',
        url: '/api/v1/learners',
        headers,
        payload: learnerBody(),
      });
      expect(sixth.statusCode).toBe(201);
      const seventh = await call(app, {
        method: 'POST',
        url: '/api/v1/learners',
        headers,
        payload: learnerBody(),
      });
      expect(seventh.statusCode).toBe(402);
      expect(seventh.json).toEqual({
        error: {
          status: 402,
          code: 'PLAN_LIMIT_REACHED',
          message: 'Learners limit reached.',
          limit: { feature: 'learners', required: 7, limit: 6 },
        },
      });
      const rows = await app.db
        .selectFrom('learners')
        .select('uuid')
        .where('company_uuid', '=', company.uuid)
        .where('deleted_at', 'is', null)
        .execute();
      expect(rows).toHaveLength(6);
    });

    it('needs a signed-in caller', async () => {
      const response = await call(app, {
        method: 'POST',
        url: '/api/v1/learners',
        payload: learnerBody(),
      });
      expect(response.statusCode).toBe(401);
      expect(response.json.error.code).toBe('UNAUTHENTICATED');
    });
  });

  describe('POST /api/v1/learners/learners-lists/{listUuid}', () => {
    it('creates the learner inside the list', async () => {
      const { headers, company } = await createSignedInUser(app);
      const list = await insertList(app, company.uuid, 'Sales team');
      const response = await call(app, {
        method: 'POST',
        url: `/api/v1/learners/learners-lists/${list.uuid}`,
        headers,
        payload: learnerBody(),
      });
      expect(response.statusCode).toBe(201);
      expect(response.json.data.learners_lists).toEqual([{ uuid: list.uuid, name: 'Sales team' }]);
      const member = await app.db
        .selectFrom('learners_list_members')
        .selectAll()
        .where('learner_uuid', '=', response.json.data.uuid)
        .execute();
      expect(member).toEqual([{ list_uuid: list.uuid, learner_uuid: response.json.data.uuid }]);
    });

    it('answers 404 for another company’s list and creates nothing', async () => {
      const other = await createSignedInUser(app);
      const foreign = await insertList(app, other.company.uuid, 'Theirs');
      const { headers, company } = await createSignedInUser(app);
      const response = await call(app, {
        method: 'POST',
        url: `/api/v1/learners/learners-lists/${foreign.uuid}`,
        headers,
        payload: learnerBody(),
      });
      expect(response.statusCode).toBe(404);
      expect(response.json).toEqual(notFoundBody);
      const rows = await app.db
        .selectFrom('learners')
        .select('uuid')
        .where('company_uuid', '=', company.uuid)
        .execute();
      expect(rows).toEqual([]);
    });
  });

  describe('GET /api/v1/learners', () => {
    it('paginates newest first with Laravel meta and links', async () => {
      const { headers, company } = await createSignedInUser(app);
      const rows = await insertLearners(app, company.uuid, 23);
      const newestFirst = [...rows].reverse().map((row) => row.uuid);

      const first = await call(app, {
        method: 'GET',
        url: '/api/v1/learners?per_page=10',
        headers,
      });
      expect(first.statusCode).toBe(200);
      expect(uuidsOf(first.json)).toEqual(newestFirst.slice(0, 10));
      expect(first.json.meta).toEqual({
        current_page: 1,
        last_page: 3,
        per_page: 10,
        total: 23,
        from: 1,
        to: 10,
      });
      expect(first.json.links).toEqual({
        first: '/api/v1/learners?per_page=10&page=1',
        last: '/api/v1/learners?per_page=10&page=3',
        prev: null,
        next: '/api/v1/learners?per_page=10&page=2',
      });

      const last = await call(app, {
        method: 'GET',
        url: '/api/v1/learners?per_page=10&page=3',
        headers,
      });
      expect(uuidsOf(last.json)).toEqual(newestFirst.slice(20));
      expect(last.json.meta).toEqual({
        current_page: 3,
        last_page: 3,
        per_page: 10,
        total: 23,
        from: 21,
        to: 23,
      });
      expect(last.json.links.next).toBeNull();
      expect(last.json.links.prev).toBe('/api/v1/learners?per_page=10&page=2');
    });

    it('uses 15 per page by default and answers an empty page past the end', async () => {
      const { headers, company } = await createSignedInUser(app);
      await insertLearners(app, company.uuid, 16);
      const page1 = await call(app, { method: 'GET', url: '/api/v1/learners', headers });
      expect(page1.json.data).toHaveLength(15);
      expect(page1.json.meta).toMatchObject({ per_page: 15, last_page: 2, total: 16 });
      const page9 = await call(app, { method: 'GET', url: '/api/v1/learners?page=9', headers });
      expect(page9.json.data).toEqual([]);
      expect(page9.json.meta).toMatchObject({ current_page: 9, from: null, to: null });
    });

    it('lists archived learners only with archived=true', async () => {
      const { headers, company } = await createSignedInUser(app);
      const [live] = await insertLearners(app, company.uuid, 1);
      const archived = await insertLearner(app, company.uuid, {
        deleted_at: app.clock.now().toISOString(),
        active: 0,
      });
      const active = await call(app, { method: 'GET', url: '/api/v1/learners', headers });
      expect(uuidsOf(active.json)).toEqual([live?.uuid]);
      const onlyArchived = await call(app, {
        method: 'GET',
        url: '/api/v1/learners?archived=true',
        headers,
      });
      expect(uuidsOf(onlyArchived.json)).toEqual([archived.uuid]);
      expect(onlyArchived.json.data[0]).toMatchObject({ status: 'archived', active: false });
    });

    it('refuses an archived flag that is not a boolean', async () => {
      const { headers } = await createSignedInUser(app);
      const response = await call(app, {
        method: 'GET',
        url: '/api/v1/learners?archived=maybe',
        headers,
      });
      expect(response.statusCode).toBe(422);
      expect(Object.keys(response.json.error.errors)).toEqual(['archived']);
    });

    it('searches names, e-mail and phone digits anywhere in them, case-insensitively', async () => {
      const { headers, company } = await createSignedInUser(app);
      const ada = await insertLearner(app, company.uuid, {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@analytical.test',
        phone: '+393331234567',
      });
      const grace = await insertLearner(app, company.uuid, {
        first_name: 'Grace',
        last_name: 'Hopper',
        email: 'grace_100%@navy.test',
        phone: '+353871234567',
      });
      const search = async (text: string) => {
        const response = await call(app, {
          method: 'GET',
          url: `/api/v1/learners?search=${encodeURIComponent(text)}`,
          headers,
        });
        expect(response.statusCode).toBe(200);
        expect(response.json.meta.total).toBe(response.json.data.length);
        return uuidsOf(response.json).sort();
      };
      expect(await search('LOVE')).toEqual([ada.uuid]);
      expect(await search('ada lovelace')).toEqual([ada.uuid]);
      expect(await search('navy.test')).toEqual([grace.uuid]);
      // % and _ match themselves, not any text.
      expect(await search('100%')).toEqual([grace.uuid]);
      expect(await search('_')).toEqual([grace.uuid]);
      // Phones as typed: international with + or 00, national with or without the trunk 0.
      expect(await search('+39 333 123')).toEqual([ada.uuid]);
      expect(await search('0039 333')).toEqual([ada.uuid]);
      expect(await search('333 1234')).toEqual([ada.uuid]);
      expect(await search('087 123')).toEqual([grace.uuid]);
      expect(await search('4567')).toEqual([ada.uuid, grace.uuid].sort());
      expect(await search('+44')).toEqual([]);
      expect(await search('nobody')).toEqual([]);
    });

    it('finds with its search index what the SQL search finds: live, archived, in a list', async () => {
      const { headers, company } = await createSignedInUser(app);
      const first = ['Ada', 'Bruno', 'Chiara', 'Zoë', 'Jürgen'];
      const last = ['Lovelace', 'Rossi', "D'Angelo", 'Müller', 'Adams-Ross'];
      const now = app.clock.now().getTime();
      // Some learners share an instant (an import's batch): the order falls back to the uuid.
      const rows = Array.from({ length: 40 }, (_, index) =>
        learnerRow(
          company.uuid,
          {
            first_name: first[index % 5]!,
            last_name: last[(index * 3) % 5]!,
            email: index % 4 === 0 ? null : `user${index}_${index % 3 ? 'a' : 'b'}@example.test`,
            phone: index % 3 === 0 ? `+3933312345${String(index).padStart(2, '0')}` : null,
            locale: 'en',
            channels: ['slack'],
          },
          {
            created_at: new Date(now - Math.floor(index / 3) * 1000).toISOString(),
            deleted_at: index % 5 === 4 ? new Date(now).toISOString() : null,
          },
        ),
      );
      await insertLearnerRows(app.db, rows);
      const list = await insertList(
        app,
        company.uuid,
        'Half',
        rows.filter((_, index) => index % 2 === 0).map((row) => row.uuid),
      );
      const terms = ['a', 'ADA', 'ross', 'zoë', 'MÜLLER', "d'an", 'o r', 'user1', '_b@', '%'];
      const phones = ['333', '+39 333 123', '0039', '45 1', '1234520'];
      for (const search of [...terms, ...phones, 'nobody']) {
        for (const archived of [false, true]) {
          for (const listUuid of [undefined, list.uuid]) {
            const path = listUuid
              ? `/api/v1/learners/learners-lists/${listUuid}`
              : '/api/v1/learners';
            const response = await call(app, {
              method: 'GET',
              url: `${path}?per_page=100&archived=${archived}&search=${encodeURIComponent(search)}`,
              headers,
            });
            const query = { companyUuid: company.uuid, archived, listUuid, search };
            const expected = await searchInSql(app.db, {
              ...query,
              page: { page: 1, perPage: 100 },
            });
            expect([search, archived, listUuid, uuidsOf(response.json)]).toEqual([
              search,
              archived,
              listUuid,
              expected,
            ]);
          }
        }
      }
      // A name upper-cased beyond ASCII is found too (SQLite's lower() leaves Ö as it is).
      const loud = await insertLearner(app, company.uuid, {
        first_name: 'ÖZGE',
        last_name: 'ÇELİK',
      });
      const found = await call(app, {
        method: 'GET',
        url: `/api/v1/learners?search=${encodeURIComponent('özge ç')}`,
        headers,
      });
      expect(uuidsOf(found.json)).toEqual([loud.uuid]);
    });

    it('pages 2,100 learners of one instant in one order: all, in a list and searched', async () => {
      const { headers, company } = await createSignedInUser(app);
      // An import gives a batch one created_at: the order falls back to the uuid, descending.
      // More learners than are remembered one by one, so pages seek from remembered positions.
      const rows = Array.from({ length: 2100 }, (_, index) =>
        learnerRow(
          company.uuid,
          {
            first_name: 'Ada',
            last_name: `Lovelace ${index}`,
            email: `ada${index}@example.test`,
            locale: 'en',
            channels: ['slack'],
          },
          { created_at: app.clock.now().toISOString() },
        ),
      );
      await insertLearnerRows(app.db, rows);
      const list = await insertList(
        app,
        company.uuid,
        'Everyone',
        rows.map((row) => row.uuid),
      );
      const expected = rows.map((row) => row.uuid).sort((a, b) => (a < b ? 1 : -1));
      const page = async (path: string, number: number) => {
        const response = await call(app, {
          method: 'GET',
          url: `${path}per_page=90&page=${number}`,
          headers,
        });
        expect(response.json.meta.total).toBe(2100);
        return uuidsOf(response.json);
      };
      // Remembered positions are every 1,000th learner (100th member of a list over 2,000; a
      // search keeps its matches): pages before, across and after them, the deepest first.
      for (const path of [
        '/api/v1/learners?',
        `/api/v1/learners/learners-lists/${list.uuid}?`,
        '/api/v1/learners?search=lovelace&',
      ]) {
        for (const number of [13, 1, 2, 12, 24]) {
          expect(await page(path, number)).toEqual(expected.slice((number - 1) * 90, number * 90));
        }
      }
    });

    it('answers totals, pages and list counts that follow every write', async () => {
      const { headers, company } = await createSignedInUser(app);
      const [first, second] = await insertLearners(app, company.uuid, 2);
      const team = await insertList(app, company.uuid, 'Team', [first!.uuid, second!.uuid]);
      const get = async (url: string) =>
        (await call(app, { method: 'GET', url, headers })).json as {
          data: { uuid: string; learners_count?: number }[];
          meta: { total: number };
        };
      const state = async () => ({
        live: uuidsOf(await get('/api/v1/learners')),
        archived: (await get('/api/v1/learners?archived=true')).meta.total,
        team: (await get(`/api/v1/learners/learners-lists/${team.uuid}`)).meta.total,
        counts: (await get('/api/v1/learners-lists')).data.map((row) => row.learners_count),
      });
      const write = async (method: 'POST' | 'DELETE' | 'PATCH', url: string, payload?: object) => {
        const response = await call(app, { method, url, headers, payload });
        expect(response.statusCode).toBeLessThan(300);
        return response.json as { data: { uuid: string } };
      };
      expect(await state()).toEqual({
        live: [second!.uuid, first!.uuid],
        archived: 0,
        team: 2,
        counts: [2],
      });
      app.testClock.advance(1000);
      const created = await write(
        'POST',
        `/api/v1/learners/learners-lists/${team.uuid}`,
        learnerBody(),
      );
      const third = created.data.uuid;
      expect(await state()).toEqual({
        live: [third, second!.uuid, first!.uuid],
        archived: 0,
        team: 3,
        counts: [3],
      });
      await write('DELETE', `/api/v1/learners/${second!.uuid}/soft`);
      expect(await state()).toEqual({
        live: [third, first!.uuid],
        archived: 1,
        team: 2,
        counts: [2],
      });
      await write('POST', `/api/v1/learners/${second!.uuid}/restore`);
      await write('PATCH', `/api/v1/learners/${first!.uuid}/learners-lists/sync`, { lists: [] });
      expect(await state()).toEqual({
        live: [third, second!.uuid, first!.uuid],
        archived: 0,
        team: 2,
        counts: [2],
      });
      await write('DELETE', `/api/v1/learners/${third}`);
      expect(await state()).toEqual({
        live: [second!.uuid, first!.uuid],
        archived: 0,
        team: 1,
        counts: [1],
      });
    });

    it('never lists another company’s learners', async () => {
      const other = await createSignedInUser(app);
      await insertLearners(app, other.company.uuid, 3);
      const { headers } = await createSignedInUser(app);
      const response = await call(app, { method: 'GET', url: '/api/v1/learners', headers });
      expect(response.json.data).toEqual([]);
      expect(response.json.meta.total).toBe(0);
    });
  });

  describe('GET /api/v1/learners/learners-lists/{listUuid}', () => {
    it('lists the members of one list, with the archived filter', async () => {
      const { headers, company } = await createSignedInUser(app);
      const [inList, archivedInList, outside] = await insertLearners(app, company.uuid, 3);
      await app.db
        .updateTable('learners')
        .set({ deleted_at: app.clock.now().toISOString(), active: 0 })
        .where('uuid', '=', archivedInList!.uuid)
        .execute();
      const list = await insertList(app, company.uuid, 'Team', [
        inList!.uuid,
        archivedInList!.uuid,
      ]);
      const response = await call(app, {
        method: 'GET',
        url: `/api/v1/learners/learners-lists/${list.uuid}`,
        headers,
      });
      expect(response.statusCode).toBe(200);
      const uuids = uuidsOf(response.json);
      expect(uuids).toEqual([inList!.uuid]);
      expect(uuids).not.toContain(outside!.uuid);
      expect(response.json.meta.total).toBe(1);
      const archived = await call(app, {
        method: 'GET',
        url: `/api/v1/learners/learners-lists/${list.uuid}?archived=1`,
        headers,
      });
      expect(uuidsOf(archived.json)).toEqual([archivedInList!.uuid]);
    });

    it('writes each member as GET /learners/{id} writes it: lists, courses, nulls, quotes', async () => {
      const { headers, company } = await createSignedInUser(app);
      const learner = await insertLearner(app, company.uuid, {
        first_name: 'Zoë "Zo"',
        last_name: "D'Arcy\\Müller",
        phone: '393331234567',
        channels: ['whatsapp', 'slack'],
        reachability: 'reachable',
      });
      const bare = await insertLearner(app, company.uuid, { email: null, phone: null });
      const list = await insertList(app, company.uuid, 'Sales </script>', [
        learner.uuid,
        bare.uuid,
      ]);
      await insertCourse(app, company, {
        name: 'Pitching',
        status: 'scheduled',
        lists: [list.uuid],
      });
      const page = await call(app, {
        method: 'GET',
        url: `/api/v1/learners/learners-lists/${list.uuid}`,
        headers,
      });
      expect(page.statusCode).toBe(200);
      for (const uuid of [learner.uuid, bare.uuid]) {
        const one = await call(app, { method: 'GET', url: `/api/v1/learners/${uuid}`, headers });
        const listed = (page.json.data as { uuid: string }[]).find((item) => item.uuid === uuid);
        expect(listed).toEqual(one.json.data);
      }
      expect(page.json.data[0].courses).toEqual([
        { uuid: expect.any(String), name: 'Pitching', status: 'scheduled' },
      ]);
    });

    it('writes a page asked again in the schema’s order, with the courses added since', async () => {
      const { headers, company } = await createSignedInUser(app);
      const learner = await insertLearner(app, company.uuid, {
        first_name: 'Zoë "Zo"',
        phone: '393331234567',
        channels: ['whatsapp'],
      });
      const list = await insertList(app, company.uuid, 'Sales', [learner.uuid]);
      const ask = () => call(app, { method: 'GET', url: '/api/v1/learners?per_page=5', headers });
      const before = await ask();
      expect(before.json.data[0].courses).toEqual([]);
      // A course reaches the learner through a list: no write to learners or lists, so the page
      // is remembered; its courses and figures are read again.
      await insertCourse(app, company, { name: 'Pitching', status: 'active', lists: [list.uuid] });
      const after = await ask();
      expect(after.statusCode).toBe(200);
      expect(after.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(after.json.data[0].courses).toEqual([
        { uuid: expect.any(String), name: 'Pitching', status: 'active' },
      ]);
      // Byte for byte what the route's schema writes: its keys in order, nothing else.
      expect(after.body).toBe(JSON.stringify(ZListLearnersResponseSchema.parse(after.json)));
      const one = await call(app, {
        method: 'GET',
        url: `/api/v1/learners/${learner.uuid}`,
        headers,
      });
      expect(after.json.data[0]).toEqual(one.json.data);
    });

    it('answers 404 for another company’s list', async () => {
      const other = await createSignedInUser(app);
      const [theirs] = await insertLearners(app, other.company.uuid, 1);
      const foreign = await insertList(app, other.company.uuid, 'Theirs', [theirs!.uuid]);
      const { headers } = await createSignedInUser(app);
      const response = await call(app, {
        method: 'GET',
        url: `/api/v1/learners/learners-lists/${foreign.uuid}`,
        headers,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json).toEqual(notFoundBody);
    });
  });

  describe('GET /api/v1/learners/{id}', () => {
    it('answers the learner with its lists and the courses of those lists', async () => {
      const { headers, company } = await createSignedInUser(app);
      const learner = await insertLearner(app, company.uuid, {
        phone: '393331234567',
        channels: ['whatsapp'],
        reachability: 'reachable',
      });
      const sales = await insertList(app, company.uuid, 'Sales', [learner.uuid]);
      const all = await insertList(app, company.uuid, 'All staff', [learner.uuid]);
      const course = await insertCourse(app, company, {
        name: 'Pitching',
        status: 'scheduled',
        lists: [sales.uuid, all.uuid],
      });
      await insertCourse(app, company, {
        name: 'Old course',
        deletedAt: app.clock.now().toISOString(),
        lists: [sales.uuid],
      });
      const response = await call(app, {
        method: 'GET',
        url: `/api/v1/learners/${learner.uuid}`,
        headers,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json.data).toMatchObject({
        uuid: learner.uuid,
        // A stored phone without a plus gets one.
        phone: '+393331234567',
        channels: [{ key: 'whatsapp', name: 'WhatsApp' }],
        reachability: 'reachable',
        learners_lists: [
          { uuid: all.uuid, name: 'All staff' },
          { uuid: sales.uuid, name: 'Sales' },
        ],
        courses: [{ uuid: course.uuid, name: 'Pitching', status: 'scheduled' }],
      });
    });

    it('answers an archived learner too', async () => {
      const { headers, company } = await createSignedInUser(app);
      const archivedAt = app.clock.now().toISOString();
      const learner = await insertLearner(app, company.uuid, { deleted_at: archivedAt, active: 0 });
      const response = await call(app, {
        method: 'GET',
        url: `/api/v1/learners/${learner.uuid}`,
        headers,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json.data).toMatchObject({
        status: 'archived',
        active: false,
        deleted_at: archivedAt,
      });
    });

    it('answers 404 for another company’s learner or a malformed id', async () => {
      const other = await createSignedInUser(app);
      const foreign = await insertLearner(app, other.company.uuid);
      const { headers } = await createSignedInUser(app);
      for (const id of [foreign.uuid, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
        const response = await call(app, { method: 'GET', url: `/api/v1/learners/${id}`, headers });
        expect(response.statusCode).toBe(404);
        expect(response.json).toEqual(notFoundBody);
      }
    });
  });

  describe('GET /api/v1/learners/{id}/reachability', () => {
    it('answers per channel: true with the contact when reachable, false without it', async () => {
      const { headers, company } = await createSignedInUser(app);
      const learner = await insertLearner(app, company.uuid, {
        channels: ['slack', 'whatsapp'],
        phone: null,
        reachability: 'reachable',
      });
      const response = await call(app, {
        method: 'GET',
        url: `/api/v1/learners/${learner.uuid}/reachability`,
        headers,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({
        data: {
          uuid: learner.uuid,
          reachability: 'reachable',
          channels: [
            { key: 'slack', name: 'Slack', reachable: true },
            { key: 'whatsapp', name: 'WhatsApp', reachable: false },
          ],
        },
      });
    });

    it('answers null while unknown and false when unreachable', async () => {
      const { headers, company } = await createSignedInUser(app);
      const unknown = await insertLearner(app, company.uuid, { reachability: 'unknown' });
      const unreachable = await insertLearner(app, company.uuid, { reachability: 'unreachable' });
      const first = await call(app, {
        method: 'GET',
        url: `/api/v1/learners/${unknown.uuid}/reachability`,
        headers,
      });
      expect(first.json.data.channels).toEqual([{ key: 'slack', name: 'Slack', reachable: null }]);
      const second = await call(app, {
        method: 'GET',
        url: `/api/v1/learners/${unreachable.uuid}/reachability`,
        headers,
      });
      expect(second.json.data).toMatchObject({
        reachability: 'unreachable',
        channels: [{ key: 'slack', name: 'Slack', reachable: false }],
      });
    });

    it('answers 404 for another company’s learner', async () => {
      const other = await createSignedInUser(app);
      const foreign = await insertLearner(app, other.company.uuid);
      const { headers } = await createSignedInUser(app);
      const response = await call(app, {
        method: 'GET',
        url: `/api/v1/learners/${foreign.uuid}/reachability`,
        headers,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json).toEqual(notFoundBody);
    });
  });

  describe('PUT /api/v1/learners/{learnerUuid}', () => {
    it('takes back a learner exactly as GET answered it (channels as {key, name})', async () => {
      const { headers, company } = await createSignedInUser(app);
      const learner = await insertLearner(app, company.uuid, {
        phone: '+393331234567',
        channels: ['slack', 'whatsapp'],
      });
      const fetched = await call(app, {
        method: 'GET',
        url: `/api/v1/learners/${learner.uuid}`,
        headers,
      });
      expect(fetched.json.data.channels).toEqual([
        { key: 'slack', name: 'Slack' },
        { key: 'whatsapp', name: 'WhatsApp' },
      ]);
      const response = await call(app, {
        method: 'PUT',
        url: `/api/v1/learners/${learner.uuid}`,
        headers,
        payload: fetched.json.data,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json.data.channels).toEqual(fetched.json.data.channels);
      expect(response.json.data.phone).toBe('+393331234567');
    });

    it('replaces the details and clears a phone of one character', async () => {
      const { headers, company } = await createSignedInUser(app);
      const learner = await insertLearner(app, company.uuid, {
        phone: '+393331234567',
        channels: ['slack', 'whatsapp'],
      });
      app.testClock.advance(60_000);
      const response = await call(app, {
        method: 'PUT',
        url: `/api/v1/learners/${learner.uuid}`,
        headers,
        payload: {
          first_name: 'Anne-Marie',
          last_name: "O'Neill",
          email: 'Anne@Example.test',
          channels: ['Slack'],
          locale: 'it',
          phone: '+',
        },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json.data).toMatchObject({
        uuid: learner.uuid,
        first_name: 'Anne-Marie',
        last_name: "O'Neill",
        email: 'anne@example.test',
        phone: null,
        locale: 'it',
        channels: [{ key: 'slack', name: 'Slack' }],
        created_at: learner.created_at,
        updated_at: app.clock.now().toISOString(),
      });
      expect(await rowOf(learner.uuid)).toMatchObject({
        first_name: 'Anne-Marie',
        email: 'anne@example.test',
        phone: null,
        channels: '["slack"]',
      });
    });

    it('stores a new phone without separators', async () => {
      const { headers, company } = await createSignedInUser(app);
      const learner = await insertLearner(app, company.uuid);
      const response = await call(app, {
        method: 'PUT',
        url: `/api/v1/learners/${learner.uuid}`,
        headers,
        payload: learnerBody({ email: learner.email, phone: '+353 (87) 123.45-67' }),
      });
      expect(response.statusCode).toBe(200);
      expect((await rowOf(learner.uuid))?.phone).toBe('+353871234567');
    });

    it('keeps its own e-mail but refuses another learner’s', async () => {
      const { headers, company } = await createSignedInUser(app);
      const learner = await insertLearner(app, company.uuid, { email: 'me@example.test' });
      await insertLearner(app, company.uuid, { email: 'you@example.test' });
      const same = await call(app, {
        method: 'PUT',
        url: `/api/v1/learners/${learner.uuid}`,
        headers,
        payload: learnerBody({ email: 'me@example.test' }),
      });
      expect(same.statusCode).toBe(200);
      const taken = await call(app, {
        method: 'PUT',
        url: `/api/v1/learners/${learner.uuid}`,
        headers,
        payload: learnerBody({ email: 'YOU@example.test' }),
      });
      expect(taken.statusCode).toBe(422);
      expect(taken.json).toEqual(validation({ email: [MESSAGES.emailTaken] }));
      expect((await rowOf(learner.uuid))?.email).toBe('me@example.test');
    });

    it('applies the channel contact rules: clearing the phone of a WhatsApp learner fails', async () => {
      const { headers, company } = await createSignedInUser(app);
      const learner = await insertLearner(app, company.uuid, {
        channels: ['whatsapp'],
        phone: '+393331234567',
      });
      const response = await call(app, {
        method: 'PUT',
        url: `/api/v1/learners/${learner.uuid}`,
        headers,
        payload: learnerBody({ channels: ['whatsapp'], phone: '+' }),
      });
      expect(response.statusCode).toBe(422);
      expect(response.json).toEqual(validation({ phone: [MESSAGES.phoneRequiredForChannel] }));
      expect((await rowOf(learner.uuid))?.phone).toBe('+393331234567');
    });

    it('answers 404 for another company’s learner and leaves it alone', async () => {
      const other = await createSignedInUser(app);
      const foreign = await insertLearner(app, other.company.uuid);
      const { headers } = await createSignedInUser(app);
      const response = await call(app, {
        method: 'PUT',
        url: `/api/v1/learners/${foreign.uuid}`,
        headers,
        payload: learnerBody({ first_name: 'Hijacked' }),
      });
      expect(response.statusCode).toBe(404);
      expect(response.json).toEqual(notFoundBody);
      expect((await rowOf(foreign.uuid))?.first_name).toBe('Ada');
    });
  });

  describe('PATCH /api/v1/learners/{id}/learners-lists/sync', () => {
    it('sets exactly the given memberships', async () => {
      const { headers, company } = await createSignedInUser(app);
      const learner = await insertLearner(app, company.uuid);
      const keep = await insertList(app, company.uuid, 'Keep', [learner.uuid]);
      const drop = await insertList(app, company.uuid, 'Drop', [learner.uuid]);
      const add = await insertList(app, company.uuid, 'Add');
      const response = await call(app, {
        method: 'PATCH',
        url: `/api/v1/learners/${learner.uuid}/learners-lists/sync`,
        headers,
        payload: { lists: [keep.uuid, add.uuid, add.uuid] },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({
        data: {
          result: true,
          learners_lists: [
            { uuid: add.uuid, name: 'Add' },
            { uuid: keep.uuid, name: 'Keep' },
          ],
        },
      });
      const members = await app.db
        .selectFrom('learners_list_members')
        .select('list_uuid')
        .where('learner_uuid', '=', learner.uuid)
        .execute();
      expect(members.map((row) => row.list_uuid).sort()).toEqual([keep.uuid, add.uuid].sort());
      expect(members.map((row) => row.list_uuid)).not.toContain(drop.uuid);
    });

    it('removes every membership for an empty list', async () => {
      const { headers, company } = await createSignedInUser(app);
      const learner = await insertLearner(app, company.uuid);
      await insertList(app, company.uuid, 'One', [learner.uuid]);
      const response = await call(app, {
        method: 'PATCH',
        url: `/api/v1/learners/${learner.uuid}/learners-lists/sync`,
        headers,
        payload: { lists: [] },
      });
      expect(response.json).toEqual({ data: { result: true, learners_lists: [] } });
      const members = await app.db
        .selectFrom('learners_list_members')
        .select('list_uuid')
        .where('learner_uuid', '=', learner.uuid)
        .execute();
      expect(members).toEqual([]);
    });

    it('refuses unknown and foreign lists by index and changes nothing', async () => {
      const other = await createSignedInUser(app);
      const foreign = await insertList(app, other.company.uuid, 'Theirs');
      const { headers, company } = await createSignedInUser(app);
      const learner = await insertLearner(app, company.uuid);
      const mine = await insertList(app, company.uuid, 'Mine', [learner.uuid]);
      const response = await call(app, {
        method: 'PATCH',
        url: `/api/v1/learners/${learner.uuid}/learners-lists/sync`,
        headers,
        payload: { lists: [foreign.uuid, '00000000-0000-4000-8000-000000000000'] },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json).toEqual(
        validation({
          'lists.0': [MESSAGES.learnersListUnknown],
          'lists.1': [MESSAGES.learnersListUnknown],
        }),
      );
      const members = await app.db
        .selectFrom('learners_list_members')
        .select('list_uuid')
        .where('learner_uuid', '=', learner.uuid)
        .execute();
      expect(members).toEqual([{ list_uuid: mine.uuid }]);
    });

    it('refuses a malformed uuid and a missing lists field', async () => {
      const { headers, company } = await createSignedInUser(app);
      const learner = await insertLearner(app, company.uuid);
      const malformed = await call(app, {
        method: 'PATCH',
        url: `/api/v1/learners/${learner.uuid}/learners-lists/sync`,
        headers,
        payload: { lists: ['nope'] },
      });
      expect(malformed.statusCode).toBe(422);
      expect(malformed.json.error.errors).toEqual({ 'lists.0': [MESSAGES.learnersListUnknown] });
      const missing = await call(app, {
        method: 'PATCH',
        url: `/api/v1/learners/${learner.uuid}/learners-lists/sync`,
        headers,
        payload: {},
      });
      expect(missing.statusCode).toBe(422);
      expect(missing.json.error.errors).toEqual({ lists: [MESSAGES.required] });
    });

    it('answers 404 for another company’s learner', async () => {
      const other = await createSignedInUser(app);
      const foreign = await insertLearner(app, other.company.uuid);
      const { headers } = await createSignedInUser(app);
      const response = await call(app, {
        method: 'PATCH',
        url: `/api/v1/learners/${foreign.uuid}/learners-lists/sync`,
        headers,
        payload: { lists: [] },
      });
      expect(response.statusCode).toBe(404);
    });
  });

  describe('DELETE /api/v1/learners/{id}/soft (archive)', () => {
    it('archives the learner', async () => {
      const { headers, company } = await createSignedInUser(app);
      const learner = await insertLearner(app, company.uuid);
      app.testClock.advance(5_000);
      const now = app.clock.now().toISOString();
      const response = await call(app, {
        method: 'DELETE',
        url: `/api/v1/learners/${learner.uuid}/soft`,
        headers,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json.data).toMatchObject({
        uuid: learner.uuid,
        status: 'archived',
        active: false,
        deleted_at: now,
      });
      expect(await rowOf(learner.uuid)).toMatchObject({ deleted_at: now, active: 0 });
    });

    it('refuses while the learner is in a list of an active course, naming the course', async () => {
      const { headers, company } = await createSignedInUser(app);
      const learner = await insertLearner(app, company.uuid);
      const list = await insertList(app, company.uuid, 'Cohort', [learner.uuid]);
      await insertCourse(app, company, { status: 'active', lists: [list.uuid] });
      const response = await call(app, {
        method: 'DELETE',
        url: `/api/v1/learners/${learner.uuid}/soft`,
        headers,
      });
      expect(response.statusCode).toBe(422);
      // Which course, so the creator knows where to look (issue 27 item 10).
      expect(response.json).toEqual({
        error: {
          status: 422,
          code: 'VALIDATION_FAILED',
          message: 'The learner is taking “Onboarding basics” and cannot be archived.',
        },
      });
      const italian = await call(app, {
        method: 'DELETE',
        url: `/api/v1/learners/${learner.uuid}/soft`,
        headers: { ...headers, 'accept-language': 'it' },
      });
      expect(italian.json.error.message).toBe(
        'Il discente sta seguendo «Onboarding basics» e non può essere archiviato.',
      );
      expect(await rowOf(learner.uuid)).toMatchObject({ deleted_at: null, active: 1 });
    });

    it.each([
      ['a scheduled course', { status: 'scheduled' }],
      ['a delivered course', { status: 'delivered' }],
      ['an archived active course', { status: 'active', deletedAt: '2026-11-01T00:00:00.000Z' }],
    ])('allows archiving a learner of %s', async (_label, course) => {
      const { headers, company } = await createSignedInUser(app);
      const learner = await insertLearner(app, company.uuid);
      const list = await insertList(app, company.uuid, 'Cohort', [learner.uuid]);
      await insertCourse(app, company, { ...course, lists: [list.uuid] });
      const response = await call(app, {
        method: 'DELETE',
        url: `/api/v1/learners/${learner.uuid}/soft`,
        headers,
      });
      expect(response.statusCode).toBe(200);
    });

    it('refuses a learner already archived', async () => {
      const { headers, company } = await createSignedInUser(app);
      const archivedAt = '2026-11-01T00:00:00.000Z';
      const learner = await insertLearner(app, company.uuid, { deleted_at: archivedAt, active: 0 });
      const response = await call(app, {
        method: 'DELETE',
        url: `/api/v1/learners/${learner.uuid}/soft`,
        headers,
      });
      expect(response.statusCode).toBe(422);
      expect(response.json.error.message).toBe(MESSAGES.learnerAlreadyArchived);
      expect((await rowOf(learner.uuid))?.deleted_at).toBe(archivedAt);
    });

    it('answers 404 for another company’s learner and leaves it alone', async () => {
      const other = await createSignedInUser(app);
      const foreign = await insertLearner(app, other.company.uuid);
      const { headers } = await createSignedInUser(app);
      const response = await call(app, {
        method: 'DELETE',
        url: `/api/v1/learners/${foreign.uuid}/soft`,
        headers,
      });
      expect(response.statusCode).toBe(404);
      expect((await rowOf(foreign.uuid))?.deleted_at).toBeNull();
    });
  });

  describe('POST /api/v1/learners/{id}/restore', () => {
    it('restores an archived learner', async () => {
      const { headers, company } = await createSignedInUser(app);
      const learner = await insertLearner(app, company.uuid, {
        deleted_at: '2026-11-01T00:00:00.000Z',
        active: 0,
      });
      const response = await call(app, {
        method: 'POST',
        url: `/api/v1/learners/${learner.uuid}/restore`,
        headers,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json.data).toMatchObject({
        status: 'active',
        active: true,
        deleted_at: null,
      });
      expect(await rowOf(learner.uuid)).toMatchObject({ deleted_at: null, active: 1 });
    });

    it('refuses a learner that is not archived', async () => {
      const { headers, company } = await createSignedInUser(app);
      const learner = await insertLearner(app, company.uuid);
      const response = await call(app, {
        method: 'POST',
        url: `/api/v1/learners/${learner.uuid}/restore`,
        headers,
      });
      expect(response.statusCode).toBe(422);
      expect(response.json.error.message).toBe(MESSAGES.learnerNotArchived);
    });

    it('answers 402 when restoring would pass the plan limit', async () => {
      const { headers, company } = await createSignedInUser(app, { plan: 'free' });
      await insertLearners(app, company.uuid, 6);
      const archived = await insertLearner(app, company.uuid, {
        deleted_at: '2026-11-01T00:00:00.000Z',
        active: 0,
      });
      const response = await call(app, {
        method: 'POST',
        url: `/api/v1/learners/${archived.uuid}/restore`,
        headers,
      });
      expect(response.statusCode).toBe(402);
      expect(response.json.error).toMatchObject({
        code: 'PLAN_LIMIT_REACHED',
        message: 'Learners limit reached.',
        limit: { feature: 'learners', required: 7, limit: 6 },
      });
      expect((await rowOf(archived.uuid))?.deleted_at).toBe('2026-11-01T00:00:00.000Z');
    });

    it('answers 404 for another company’s learner', async () => {
      const other = await createSignedInUser(app);
      const foreign = await insertLearner(app, other.company.uuid, {
        deleted_at: '2026-11-01T00:00:00.000Z',
        active: 0,
      });
      const { headers } = await createSignedInUser(app);
      const response = await call(app, {
        method: 'POST',
        url: `/api/v1/learners/${foreign.uuid}/restore`,
        headers,
      });
      expect(response.statusCode).toBe(404);
      expect((await rowOf(foreign.uuid))?.deleted_at).toBe('2026-11-01T00:00:00.000Z');
    });
  });

  describe('DELETE /api/v1/learners/{id} (permanent)', () => {
    it('deletes the learner and its memberships, the list stays', async () => {
      const { headers, company } = await createSignedInUser(app);
      const learner = await insertLearner(app, company.uuid);
      const list = await insertList(app, company.uuid, 'Stays', [learner.uuid]);
      const response = await call(app, {
        method: 'DELETE',
        url: `/api/v1/learners/${learner.uuid}`,
        headers,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({ data: { deleted: learner.uuid } });
      expect(await rowOf(learner.uuid)).toBeUndefined();
      const members = await app.db
        .selectFrom('learners_list_members')
        .selectAll()
        .where('list_uuid', '=', list.uuid)
        .execute();
      expect(members).toEqual([]);
      const lists = await app.db
        .selectFrom('learners_lists')
        .select('uuid')
        .where('uuid', '=', list.uuid)
        .execute();
      expect(lists).toHaveLength(1);
      const again = await call(app, {
        method: 'GET',
        url: `/api/v1/learners/${learner.uuid}`,
        headers,
      });
      expect(again.statusCode).toBe(404);
    });

    it('deletes an archived learner', async () => {
      const { headers, company } = await createSignedInUser(app);
      const learner = await insertLearner(app, company.uuid, {
        deleted_at: '2026-11-01T00:00:00.000Z',
        active: 0,
      });
      const response = await call(app, {
        method: 'DELETE',
        url: `/api/v1/learners/${learner.uuid}`,
        headers,
      });
      expect(response.json).toEqual({ data: { deleted: learner.uuid } });
      expect(await rowOf(learner.uuid)).toBeUndefined();
    });

    it('answers 404 for another company’s learner and keeps it', async () => {
      const other = await createSignedInUser(app);
      const foreign = await insertLearner(app, other.company.uuid);
      const { headers } = await createSignedInUser(app);
      const response = await call(app, {
        method: 'DELETE',
        url: `/api/v1/learners/${foreign.uuid}`,
        headers,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json).toEqual(notFoundBody);
      expect(await rowOf(foreign.uuid)).toBeDefined();
    });
  });

  it('documents the learner calls in the OpenAPI document', async () => {
    const response = await call(app, { method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json.paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/v1/learners',
        '/api/v1/learners/learners-lists/{listUuid}',
        '/api/v1/learners/{uuid}',
        '/api/v1/learners/{uuid}/reachability',
        '/api/v1/learners/{uuid}/learners-lists/sync',
        '/api/v1/learners/{uuid}/soft',
        '/api/v1/learners/{uuid}/restore',
      ]),
    );
  });
});
