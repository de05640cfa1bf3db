import { MESSAGES } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { buildTestApp, call, createSignedInUser } from '../helper.ts';
import { insertCourse, insertLearner, insertList } from '../fixtures/learners.ts';

const notFoundBody = { error: { status: 404, code: 'NOT_FOUND', message: MESSAGES.notFound } };

describe('learners lists API', async () => {
  const app = await buildTestApp();
  const listRow = (uuid: string) =>
    app.db.selectFrom('learners_lists').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  const membersOf = async (listUuid: string) =>
    (
      await app.db
        .selectFrom('learners_list_members')
        .select('learner_uuid')
        .where('list_uuid', '=', listUuid)
        .execute()
    )
      .map((row) => row.learner_uuid)
      .sort();

  describe('GET /api/v1/learners-lists', () => {
    it('answers the company’s lists by name with their non-archived learner counts', async () => {
      const { headers, company } = await createSignedInUser(app);
      const [a, b] = [
        await insertLearner(app, company.uuid),
        await insertLearner(app, company.uuid),
      ];
      const archived = await insertLearner(app, company.uuid, {
        deleted_at: app.clock.now().toISOString(),
        active: 0,
      });
      const sales = await insertList(app, company.uuid, 'sales', [a.uuid, b.uuid, archived.uuid]);
      const empty = await insertList(app, company.uuid, 'Empty');
      const onboarding = await insertList(app, company.uuid, 'Onboarding', [a.uuid]);
      const other = await createSignedInUser(app);
      await insertList(app, other.company.uuid, 'Another company');

      const response = await call(app, { method: 'GET', url: '/api/v1/learners-lists', headers });
      expect(response.statusCode).toBe(200);
      const at = app.clock.now().toISOString();
      expect(response.json).toEqual({
        data: [
          { uuid: empty.uuid, name: 'Empty', learners_count: 0, created_at: at, updated_at: at },
          {
            uuid: onboarding.uuid,
            name: 'Onboarding',
            learners_count: 1,
            created_at: at,
            updated_at: at,
          },
          { uuid: sales.uuid, name: 'sales', learners_count: 2, created_at: at, updated_at: at },
        ],
      });
    });

    it('answers an empty array, without the client-side "All users" pseudo-list', async () => {
      const { headers } = await createSignedInUser(app);
      const response = await call(app, { method: 'GET', url: '/api/v1/learners-lists', headers });
      expect(response.json).toEqual({ data: [] });
    });

    it('needs a signed-in caller', async () => {
      const response = await call(app, { method: 'GET', url: '/api/v1/learners-lists' });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('POST /api/v1/learners-lists', () => {
    it('creates a list with learners', async () => {
      const { headers, company } = await createSignedInUser(app);
      const a = await insertLearner(app, company.uuid);
      const b = await insertLearner(app, company.uuid);
      const now = app.clock.now().toISOString();
      const response = await call(app, {
        method: 'POST',
        url: '/api/v1/learners-lists',
        headers,
        payload: { name: '  New hires 2026 ', learners: [a.uuid, b.uuid, a.uuid] },
      });
      expect(response.statusCode).toBe(201);
      expect(response.json).toEqual({
        data: {
          uuid: expect.any(String),
          name: 'New hires 2026',
          learners_count: 2,
          created_at: now,
          updated_at: now,
        },
      });
      const uuid = response.json.data.uuid;
      expect(await listRow(uuid)).toMatchObject({
        company_uuid: company.uuid,
        name: 'New hires 2026',
      });
      expect(await membersOf(uuid)).toEqual([a.uuid, b.uuid].sort());
    });

    it('creates an empty list without learners', async () => {
      const { headers } = await createSignedInUser(app);
      const response = await call(app, {
        method: 'POST',
        url: '/api/v1/learners-lists',
        headers,
        payload: { name: 'Empty' },
      });
      expect(response.statusCode).toBe(201);
      expect(response.json.data.learners_count).toBe(0);
    });

    it('accepts a 100-character name and refuses 101 or none', async () => {
      const { headers } = await createSignedInUser(app);
      const ok = await call(app, {
        method: 'POST',
        url: '/api/v1/learners-lists',
        headers,
        payload: { name: 'n'.repeat(100) },
      });
      expect(ok.statusCode).toBe(201);
      const tooLong = await call(app, {
        method: 'POST',
        url: '/api/v1/learners-lists',
        headers,
        payload: { name: 'n'.repeat(101) },
      });
      expect(tooLong.statusCode).toBe(422);
      expect(tooLong.json).toEqual({
        error: {
          status: 422,
          code: 'VALIDATION_FAILED',
          message: 'The name may not be greater than 100 characters.',
          errors: { name: ['The name may not be greater than 100 characters.'] },
        },
      });
      const blank = await call(app, {
        method: 'POST',
        url: '/api/v1/learners-lists',
        headers,
        payload: { name: '   ' },
      });
      expect(blank.statusCode).toBe(422);
      expect(blank.json.error.errors).toEqual({ name: [MESSAGES.nameRequired] });
      const missing = await call(app, {
        method: 'POST',
        url: '/api/v1/learners-lists',
        headers,
        payload: {},
      });
      expect(missing.json.error.errors).toEqual({ name: [MESSAGES.nameRequired] });
    });

    it('refuses a name the company already uses, whatever its case', async () => {
      const { headers, company } = await createSignedInUser(app);
      await insertList(app, company.uuid, 'Sales');
      const response = await call(app, {
        method: 'POST',
        url: '/api/v1/learners-lists',
        headers,
        payload: { name: 'SALES' },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json.error.errors).toEqual({ name: ['The name has already been taken.'] });
      const other = await createSignedInUser(app);
      const elsewhere = await call(app, {
        method: 'POST',
        url: '/api/v1/learners-lists',
        headers: other.headers,
        payload: { name: 'Sales' },
      });
      expect(elsewhere.statusCode).toBe(201);
    });

    it('refuses another company’s learners and malformed uuids by index, creating nothing', async () => {
      const other = await createSignedInUser(app);
      const foreign = await insertLearner(app, other.company.uuid);
      const { headers, company } = await createSignedInUser(app);
      const mine = await insertLearner(app, company.uuid);
      const response = await call(app, {
        method: 'POST',
        url: '/api/v1/learners-lists',
        headers,
        payload: { name: 'Mixed', learners: [mine.uuid, foreign.uuid] },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json.error.errors).toEqual({ 'learners.1': [MESSAGES.learnerUnknown] });
      const malformed = await call(app, {
        method: 'POST',
        url: '/api/v1/learners-lists',
        headers,
        payload: { name: 'Mixed', learners: ['nope'] },
      });
      expect(malformed.json.error.errors).toEqual({ 'learners.0': [MESSAGES.learnerUnknown] });
      const lists = await app.db
        .selectFrom('learners_lists')
        .select('uuid')
        .where('company_uuid', '=', company.uuid)
        .execute();
      expect(lists).toEqual([]);
    });
  });

  describe('PUT /api/v1/learners-lists/{uuid}', () => {
    it('renames a list, and its learners’ pages show the new name', async () => {
      const { headers, company } = await createSignedInUser(app);
      const learner = await insertLearner(app, company.uuid);
      const list = await insertList(app, company.uuid, 'Old name', [learner.uuid]);
      const listsOnPage = async () => {
        const page = await call(app, { method: 'GET', url: '/api/v1/learners', headers });
        const [first] = (page.json as { data: { learners_lists: { name: string }[] }[] }).data;
        return first?.learners_lists.map((ref) => ref.name);
      };
      expect(await listsOnPage()).toEqual(['Old name']);
      app.testClock.advance(1_000);
      const response = await call(app, {
        method: 'PUT',
        url: `/api/v1/learners-lists/${list.uuid}`,
        headers,
        payload: { name: 'New name' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({
        data: {
          uuid: list.uuid,
          name: 'New name',
          learners_count: 1,
          created_at: list.created_at,
          updated_at: app.clock.now().toISOString(),
        },
      });
      expect((await listRow(list.uuid))?.name).toBe('New name');
      expect(await listsOnPage()).toEqual(['New name']);
    });

    it('allows keeping its own name but not taking another list’s', async () => {
      const { headers, company } = await createSignedInUser(app);
      const list = await insertList(app, company.uuid, 'Mine');
      await insertList(app, company.uuid, 'Taken');
      const same = await call(app, {
        method: 'PUT',
        url: `/api/v1/learners-lists/${list.uuid}`,
        headers,
        payload: { name: 'MINE' },
      });
      expect(same.statusCode).toBe(200);
      const taken = await call(app, {
        method: 'PUT',
        url: `/api/v1/learners-lists/${list.uuid}`,
        headers,
        payload: { name: 'taken' },
      });
      expect(taken.statusCode).toBe(422);
      expect(taken.json.error.errors).toEqual({ name: [MESSAGES.nameTaken] });
      expect((await listRow(list.uuid))?.name).toBe('MINE');
    });

    it('answers 404 for another company’s list and leaves it alone', async () => {
      const other = await createSignedInUser(app);
      const foreign = await insertList(app, other.company.uuid, 'Theirs');
      const { headers } = await createSignedInUser(app);
      const response = await call(app, {
        method: 'PUT',
        url: `/api/v1/learners-lists/${foreign.uuid}`,
        headers,
        payload: { name: 'Hijacked' },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json).toEqual(notFoundBody);
      expect((await listRow(foreign.uuid))?.name).toBe('Theirs');
    });
  });

  describe('DELETE /api/v1/learners-lists/{uuid}', () => {
    it('deletes the list and its memberships; the learners stay', async () => {
      const { headers, company } = await createSignedInUser(app);
      const learner = await insertLearner(app, company.uuid);
      const list = await insertList(app, company.uuid, 'Gone', [learner.uuid]);
      const course = await insertCourse(app, company, { status: 'draft', lists: [list.uuid] });
      const response = await call(app, {
        method: 'DELETE',
        url: `/api/v1/learners-lists/${list.uuid}`,
        headers,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({ data: { deleted: list.uuid } });
      expect(await listRow(list.uuid)).toBeUndefined();
      expect(await membersOf(list.uuid)).toEqual([]);
      const learnerRow = await app.db
        .selectFrom('learners')
        .select(['uuid', 'deleted_at'])
        .where('uuid', '=', learner.uuid)
        .executeTakeFirst();
      expect(learnerRow).toEqual({ uuid: learner.uuid, deleted_at: null });
      const links = await app.db
        .selectFrom('course_learners_lists')
        .selectAll()
        .where('course_uuid', '=', course.uuid)
        .execute();
      expect(links).toEqual([]);
    });

    it('answers 404 for another company’s list and keeps it', async () => {
      const other = await createSignedInUser(app);
      const foreign = await insertList(app, other.company.uuid, 'Theirs');
      const { headers } = await createSignedInUser(app);
      const response = await call(app, {
        method: 'DELETE',
        url: `/api/v1/learners-lists/${foreign.uuid}`,
        headers,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json).toEqual(notFoundBody);
      expect(await listRow(foreign.uuid)).toBeDefined();
    });
  });

  it('documents the list calls in the OpenAPI document', async () => {
    const response = await call(app, { method: 'GET', url: '/api/docs/json' });
    expect(Object.keys(response.json.paths)).toEqual(
      expect.arrayContaining(['/api/v1/learners-lists', '/api/v1/learners-lists/{uuid}']),
    );
    expect(Object.keys(response.json.paths['/api/v1/learners-lists'])).toEqual(
      expect.arrayContaining(['get', 'post']),
    );
  });
});
