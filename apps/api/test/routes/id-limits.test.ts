import { MAX_IDS_PER_REQUEST, MESSAGES } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { newUuid } from '../../src/lib/ids.ts';
import { insertCourse } from '../fixtures/learners.ts';
import { validCourseBody } from '../fixtures/courses.ts';
import { buildTestApp, call, createSignedInUser } from '../helper.ts';

// Issue 11 §3: long id arrays answered 500 ("too many SQL variables"). More than
// MAX_IDS_PER_REQUEST answers 422 naming the limit; up to it, the queries go in chunks.

const tooMany = () => Array.from({ length: 40_000 }, () => newUuid());
const limitBody = (field: string) => ({
  error: {
    status: 422,
    code: 'VALIDATION_FAILED',
    message: MESSAGES.idsMax,
    errors: { [field]: [MESSAGES.idsMax] },
  },
});

describe('requests naming many ids', async () => {
  const app = await buildTestApp();

  /** Rows straight into the database, a thousand per insert. */
  const insertMany = async (
    table: 'learners' | 'learners_lists',
    companyUuid: string,
    count: number,
  ) => {
    const now = app.clock.now().toISOString();
    const uuids = Array.from({ length: count }, () => newUuid());
    for (let start = 0; start < count; start += 1000) {
      const part = uuids.slice(start, start + 1000);
      if (table === 'learners') {
        await app.db
          .insertInto('learners')
          .values(
            part.map((uuid, index) => ({
              uuid,
              company_uuid: companyUuid,
              first_name: 'Ada',
              last_name: 'Lovelace',
              email: `ada${start + index}.${uuid.slice(0, 8)}@example.test`,
              phone: null,
              locale: 'en',
              channels: '["slack"]',
              active: 1,
              reachability: 'unknown',
              created_at: now,
              updated_at: now,
              deleted_at: null,
            })),
          )
          .execute();
      } else {
        await app.db
          .insertInto('learners_lists')
          .values(
            part.map((uuid, index) => ({
              uuid,
              company_uuid: companyUuid,
              name: `List ${start + index}`,
              created_at: now,
              updated_at: now,
            })),
          )
          .execute();
      }
    }
    return uuids;
  };

  it('answers 422 with the limit to 40,000 ids, on every route that takes a list of them', async () => {
    const { company, headers } = await createSignedInUser(app);
    const [learner] = await insertMany('learners', company.uuid, 1);
    const course = await insertCourse(app, company, { status: 'draft' });
    const cases = [
      ['POST', '/api/v1/learners-lists', { name: 'Everyone', learners: tooMany() }, 'learners'],
      ['PATCH', `/api/v1/learners/${learner}/learners-lists/sync`, { lists: tooMany() }, 'lists'],
      [
        'POST',
        '/api/v1/users/me/terms-and-conditions',
        tooMany().map((uuid) => ({ uuid })),
        'body',
      ],
      [
        'POST',
        '/api/v1/users/me/terms-and-conditions',
        { terms: tooMany().map((uuid) => ({ uuid })) },
        'terms',
      ],
      [
        'POST',
        `/api/v1/classrooms/${company.classrooms[0]!.uuid}/courses/${course.uuid}`,
        { ...validCourseBody(), learners_lists: tooMany() },
        'learners_lists',
      ],
    ] as const;
    for (const [method, url, payload, field] of cases) {
      const response = await call(app, { method, url, headers, payload });
      expect({ url, field, status: response.statusCode, body: response.json }).toEqual({
        url,
        field,
        status: 422,
        body: limitBody(field),
      });
    }
  });

  it(`takes ${MAX_IDS_PER_REQUEST.toLocaleString('en')} learners into a new list`, async () => {
    const { company, headers } = await createSignedInUser(app);
    const learners = await insertMany('learners', company.uuid, MAX_IDS_PER_REQUEST);
    const response = await call(app, {
      method: 'POST',
      url: '/api/v1/learners-lists',
      headers,
      payload: { name: 'Everyone', learners },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json.data.learners_count).toBe(MAX_IDS_PER_REQUEST);
  });

  it('syncs a learner into 2,500 lists and out of them again, and a course onto them', async () => {
    const { company, headers } = await createSignedInUser(app);
    const [learner] = await insertMany('learners', company.uuid, 1);
    const lists = await insertMany('learners_lists', company.uuid, 2500);
    const memberships = async () =>
      (
        await app.db
          .selectFrom('learners_list_members')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('learner_uuid', '=', learner!)
          .executeTakeFirstOrThrow()
      ).count;
    const sync = (wanted: string[]) =>
      call(app, {
        method: 'PATCH',
        url: `/api/v1/learners/${learner}/learners-lists/sync`,
        headers,
        payload: { lists: wanted },
      });
    expect((await sync(lists)).statusCode).toBe(200);
    expect(Number(await memberships())).toBe(2500);
    expect((await sync(lists.slice(0, 10))).statusCode).toBe(200);
    expect(Number(await memberships())).toBe(10);
    expect((await sync([])).statusCode).toBe(200);
    expect(Number(await memberships())).toBe(0);

    const course = await insertCourse(app, company, { status: 'draft' });
    const saved = await call(app, {
      method: 'POST',
      url: `/api/v1/classrooms/${company.classrooms[0]!.uuid}/courses/${course.uuid}`,
      headers,
      payload: { ...validCourseBody(), learners_lists: lists },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json.data.learners_lists).toHaveLength(2500);
  });

  it('names each of 10,000 unknown terms instead of failing', async () => {
    const { headers } = await createSignedInUser(app);
    const unknown = Array.from({ length: MAX_IDS_PER_REQUEST }, () => ({ uuid: newUuid() }));
    const response = await call(app, {
      method: 'POST',
      url: '/api/v1/users/me/terms-and-conditions',
      headers,
      payload: unknown,
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json.error.errors)).toHaveLength(MAX_IDS_PER_REQUEST);
  });
});
