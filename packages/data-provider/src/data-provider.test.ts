import type { AuthProvider, DataProvider, HttpError } from '@refinedev/core';
import { describe, expect, it } from 'vitest';

import { actionRequests, createActions } from './actions.ts';
import { ApiError } from './api-error.ts';
import { authProvider } from './auth-provider.ts';
import { dataProvider } from './data-provider.ts';
import { createSession } from './session.ts';
import { fakeClient } from './test/fake-client.ts';
import type { FakeAnswer } from './test/fake-client.ts';

const COMPANY = { uuid: 'co-1', name: 'Acme Training' };
const CLASSROOMS = [
  { uuid: 'room-1', name: 'Sales Academy' },
  { uuid: 'room-2', name: 'Onboarding' },
];
const COURSES = '/api/v1/classrooms/room-1/courses';
const META = { current_page: 2, last_page: 3, per_page: 50, total: 120, from: 51, to: 100 };
const LINKS = { first: 'f', last: 'l', prev: 'p', next: 'n' };
const page = <T>(data: T[]) => ({ data, meta: META, links: LINKS });

const organisation = {
  'GET /api/v1/company': { data: COMPANY },
  'GET /api/v1/companies/co-1/classrooms': { data: CLASSROOMS },
};

const setup = (routes: Record<string, FakeAnswer>) => {
  const fake = fakeClient({ ...organisation, ...routes });
  const session = createSession(fake.client);
  const provider = dataProvider(fake.client, { session });
  const requests = () =>
    fake.calls.filter(
      (call) => call.path !== '/api/v1/company' && !call.path.endsWith('/classrooms'),
    );
  return { ...fake, session, provider, requests };
};

const server = { currentPage: 2, pageSize: 50, mode: 'server' as const };

const fieldsOf = (form: FormData) => {
  const fields: [string, FormDataEntryValue][] = [];
  form.forEach((value, name) => fields.push([name, value]));
  return fields;
};

describe('dataProvider: courses', () => {
  it('lists a page of the current classroom: the first classroom, resolved once', async () => {
    const { provider, calls } = setup({ [`GET ${COURSES}`]: page([{ uuid: 'c1' }]) });
    const result = await provider.getList({ resource: 'courses', pagination: server });
    await provider.getList({ resource: 'courses', pagination: server });

    expect(result).toEqual({ data: [{ uuid: 'c1' }], total: 120, meta: META, links: LINKS });
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'GET /api/v1/company',
      'GET /api/v1/companies/co-1/classrooms',
      `GET ${COURSES}`,
      `GET ${COURSES}`,
    ]);
    expect(calls[2]?.options).toEqual({ query: { archived: false, page: 2, per_page: 50 } });
  });

  it('asks for every course (paginate=false) when Refine paginates on the client or not at all', async () => {
    const { provider, requests } = setup({
      [`GET ${COURSES}`]: { data: [{ uuid: 'a' }, { uuid: 'b' }] },
    });
    for (const mode of ['client', 'off'] as const) {
      const result = await provider.getList({
        resource: 'courses',
        pagination: { currentPage: 1, pageSize: 10, mode },
      });
      expect(result).toEqual({ data: [{ uuid: 'a' }, { uuid: 'b' }], total: 2 });
    }
    expect(requests().map((call) => call.options.query)).toEqual([
      { archived: false, paginate: false },
      { archived: false, paginate: false },
    ]);
  });

  it('lists archived courses through a filter or meta, and in another classroom through meta', async () => {
    const { provider, calls } = setup({
      'GET /api/v1/classrooms/room-9/courses': page([]),
    });
    await provider.getList({
      resource: 'courses',
      pagination: server,
      filters: [{ field: 'archived', operator: 'eq', value: 'true' }],
      meta: { classroomUuid: 'room-9' },
    });
    await provider.getList({
      resource: 'courses',
      pagination: server,
      meta: { classroomUuid: 'room-9', archived: true },
    });
    expect(calls.map((call) => [call.path, call.options.query])).toEqual([
      ['/api/v1/classrooms/room-9/courses', { archived: true, page: 2, per_page: 50 }],
      ['/api/v1/classrooms/room-9/courses', { archived: true, page: 2, per_page: 50 }],
    ]);
  });

  it('refuses filters, sorters and page sizes the API cannot honour, saying what works', async () => {
    const { provider } = setup({ [`GET ${COURSES}`]: page([]) });
    await expect(
      provider.getList({
        resource: 'courses',
        filters: [{ field: 'status', operator: 'eq', value: 'draft' }],
      }),
    ).rejects.toThrow(
      'The "courses" resource cannot filter by "status" with "eq". Supported filters: archived (eq).',
    );
    await expect(
      provider.getList({
        resource: 'courses',
        filters: [{ operator: 'or', value: [{ field: 'archived', operator: 'eq', value: true }] }],
      }),
    ).rejects.toThrow('cannot combine filters with "or"');
    await expect(
      provider.getList({ resource: 'courses', sorters: [{ field: 'name', order: 'asc' }] }),
    ).rejects.toThrow(/cannot be sorted by the API \(asked: name asc\).*sorters\.mode "off"/);
    await expect(
      provider.getList({ resource: 'courses', pagination: { pageSize: 500, mode: 'server' } }),
    ).rejects.toThrow('page size must be 1 to 100; got pageSize 500');
  });

  it('creates with JSON, or multipart with the cover as image.png', async () => {
    const { provider, requests } = setup({
      [`POST ${COURSES}`]: (call: { options: { form?: FormData } }) => ({
        data: { uuid: call.options.form ? 'with-image' : 'json' },
      }),
    });
    const json = await provider.create({
      resource: 'courses',
      variables: { name: 'Negotiation', description: 'Short', image: null },
    });
    const image = new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' });
    const multipart = await provider.create({
      resource: 'courses',
      variables: { name: 'Negotiation', description: 'Short', category: null, image },
    });

    expect([json.data, multipart.data]).toEqual([{ uuid: 'json' }, { uuid: 'with-image' }]);
    const [first, second] = requests();
    expect(first?.options).toEqual({ body: { name: 'Negotiation', description: 'Short' } });
    const form = second?.options.form as FormData;
    expect(fieldsOf(form).map(([name]) => name)).toEqual([
      'name',
      'description',
      'category',
      'image',
    ]);
    expect(form.get('category')).toBe('');
    expect((form.get('image') as File).name).toBe('image.png');
  });

  it('saves the full course as JSON and the Intro step as multipart with its uuid', async () => {
    const { provider, requests } = setup({ [`POST ${COURSES}/c1`]: { data: { uuid: 'c1' } } });
    await provider.update({
      resource: 'courses',
      id: 'c1',
      variables: { name: 'N', description: 'D', languages: [], lessons: [], image: '/x.png' },
    });
    await provider.update({
      resource: 'courses',
      id: 'c1',
      variables: { name: 'N', description: 'D' },
      meta: { intro: true },
    });
    const [full, intro] = requests();
    expect(full?.options).toEqual({
      body: { name: 'N', description: 'D', languages: [], lessons: [] },
    });
    expect(Object.fromEntries(fieldsOf(intro?.options.form as FormData))).toEqual({
      uuid: 'c1',
      name: 'N',
      description: 'D',
    });
  });

  it('gets one, deletes permanently, and lists the short courses', async () => {
    const { provider, requests } = setup({
      [`GET ${COURSES}/c1`]: { data: { uuid: 'c1' } },
      [`DELETE ${COURSES}/c1`]: { data: { deleted: 'c1' } },
      [`GET ${COURSES}/short`]: { data: [{ uuid: 'c1', name: 'N', status: 'draft' }] },
    });
    expect(await provider.getOne({ resource: 'courses', id: 'c1' })).toEqual({
      data: { uuid: 'c1' },
    });
    expect(await provider.deleteOne({ resource: 'courses', id: 'c1' })).toEqual({
      data: { deleted: 'c1' },
    });
    expect(await provider.getList({ resource: 'courses-short', pagination: server })).toEqual({
      data: [{ uuid: 'c1', name: 'N', status: 'draft' }],
      total: 1,
    });
    expect(requests().map((call) => `${call.method} ${call.path}`)).toEqual([
      `GET ${COURSES}/c1`,
      `DELETE ${COURSES}/c1`,
      `GET ${COURSES}/short`,
    ]);
  });

  it('passes the query signal on', async () => {
    const { provider, requests } = setup({ [`GET ${COURSES}/c1`]: { data: { uuid: 'c1' } } });
    const controller = new AbortController();
    await provider.getOne({
      resource: 'courses',
      id: 'c1',
      meta: { queryContext: { signal: controller.signal } as never },
    });
    expect(requests()[0]?.options.signal).toBe(controller.signal);
  });
});

describe('dataProvider: learners', () => {
  const learner = (phone: string | null) => ({ uuid: 'l1', first_name: 'Ada', phone });

  it('lists with archived, search and page; a list filter uses the list path', async () => {
    const { provider, calls } = setup({
      'GET /api/v1/learners': page([learner('393331234567')]),
      'GET /api/v1/learners/learners-lists/list-1': page([]),
    });
    const result = await provider.getList({
      resource: 'learners',
      pagination: server,
      filters: [
        { field: 'archived', operator: 'eq', value: false },
        { field: 'q', operator: 'contains', value: 'ada' },
      ],
    });
    await provider.getList({
      resource: 'learners',
      pagination: { currentPage: 1, pageSize: 20 },
      filters: [
        { field: 'learners_lists', operator: 'eq', value: 'list-1' },
        { field: 'search', operator: 'contains', value: '' },
      ],
      meta: { archived: 'true' },
    });
    await provider.getList({ resource: 'learners', meta: { listUuid: '' } });

    expect(result.data).toEqual([learner('+393331234567')]);
    expect(result.total).toBe(120);
    expect(calls.map((call) => [call.path, call.options.query])).toEqual([
      ['/api/v1/learners', { archived: false, search: 'ada', page: 2, per_page: 50 }],
      ['/api/v1/learners/learners-lists/list-1', { archived: true, page: 1, per_page: 20 }],
      ['/api/v1/learners', { archived: false }],
    ]);
  });

  it('refuses client-side pagination: the learners are paginated by the API', async () => {
    const { provider } = setup({});
    await expect(
      provider.getList({ resource: 'learners', pagination: { mode: 'off' } }),
    ).rejects.toThrow('paginated by the API only');
  });

  it('applies the phone rules: create drops a lone plus, update sends it as null, reads add the plus', async () => {
    const { provider, requests } = setup({
      'POST /api/v1/learners': { data: learner('393331234567') },
      'POST /api/v1/learners/learners-lists/list-1': { data: learner(null) },
      'PUT /api/v1/learners/l1': { data: learner('441234567') },
      'GET /api/v1/learners/l1': { data: learner('441234567') },
    });
    const body = { first_name: 'Ada', last_name: 'Lovelace', channels: ['whatsapp'] };
    const created = await provider.create({
      resource: 'learners',
      variables: { ...body, phone: '+39 333 123-4567' },
    });
    await provider.create({
      resource: 'learners',
      variables: { ...body, phone: '+' },
      meta: { listUuid: 'list-1' },
    });
    const updated = await provider.update({
      resource: 'learners',
      id: 'l1',
      variables: { ...body, phone: '+' },
    });
    const fetched = await provider.getOne({ resource: 'learners', id: 'l1' });

    expect(requests().map((call) => [call.method, call.path, call.options.body])).toEqual([
      ['POST', '/api/v1/learners', { ...body, phone: '+393331234567' }],
      ['POST', '/api/v1/learners/learners-lists/list-1', body],
      ['PUT', '/api/v1/learners/l1', { ...body, phone: null }],
      ['GET', '/api/v1/learners/l1', undefined],
    ]);
    expect([created.data.phone, updated.data.phone, fetched.data.phone]).toEqual([
      '+393331234567',
      '+441234567',
      '+441234567',
    ]);
  });

  it('deletes permanently', async () => {
    const { provider, requests } = setup({
      'DELETE /api/v1/learners/l1': { data: { deleted: 'l1' } },
    });
    expect(await provider.deleteOne({ resource: 'learners', id: 'l1' })).toEqual({
      data: { deleted: 'l1' },
    });
    expect(requests()[0]?.path).toBe('/api/v1/learners/l1');
  });
});

describe('dataProvider: learners lists', () => {
  const lists = [
    { uuid: 'list-1', name: 'Sales', learners_count: 3 },
    { uuid: 'list-2', name: 'Support', learners_count: 0 },
  ];

  it('lists, finds one in the list, creates and renames', async () => {
    const { provider, requests, session } = setup({
      'GET /api/v1/learners-lists': { data: lists },
      'POST /api/v1/learners-lists': { data: { uuid: 'list-3', name: 'New' } },
      'PUT /api/v1/learners-lists/list-2': { data: { uuid: 'list-2', name: 'Renamed' } },
    });
    expect(await provider.getList({ resource: 'learners-lists', pagination: server })).toEqual({
      data: lists,
      total: 2,
    });
    expect(await session.learnersLists()).toEqual(lists);
    expect(await provider.getOne({ resource: 'learners-lists', id: 'list-2' })).toEqual({
      data: lists[1],
    });
    await expect(provider.getOne({ resource: 'learners-lists', id: 'nope' })).rejects.toMatchObject(
      { statusCode: 404 },
    );
    await provider.create({
      resource: 'learners-lists',
      variables: { name: 'New', learners: ['l1'] },
    });
    await provider.update({
      resource: 'learners-lists',
      id: 'list-2',
      variables: { name: 'Renamed' },
    });
    expect(requests().map((call) => [call.method, call.path, call.options.body])).toEqual([
      ['GET', '/api/v1/learners-lists', undefined],
      ['GET', '/api/v1/learners-lists', undefined],
      ['GET', '/api/v1/learners-lists', undefined],
      ['POST', '/api/v1/learners-lists', { name: 'New', learners: ['l1'] }],
      ['PUT', '/api/v1/learners-lists/list-2', { name: 'Renamed' }],
    ]);
  });

  it('deletes only when the answer names the same uuid', async () => {
    const { provider } = setup({
      'DELETE /api/v1/learners-lists/list-1': { data: { deleted: 'list-1' } },
      'DELETE /api/v1/learners-lists/list-2': { data: { deleted: 'list-1' } },
    });
    await expect(provider.deleteOne({ resource: 'learners-lists', id: 'list-1' })).resolves.toEqual(
      { data: { deleted: 'list-1' } },
    );
    await expect(provider.deleteOne({ resource: 'learners-lists', id: 'list-2' })).rejects.toThrow(
      'Deleting learners list list-2 was not confirmed: the server answered deleted="list-1".',
    );
  });
});

describe('dataProvider: reference resources and the rest', () => {
  it('serves channels, languages, translations, company and subscription from the cache', async () => {
    const { provider, calls } = setup({
      'GET /api/v1/channels': { data: [{ key: 'slack' }] },
      'GET /api/v1/languages': { data: [{ short_name: 'en' }] },
      'GET /api/v1/translations': { data: [{ locale: 'it', key: 'k', value: 'v' }] },
      'GET /api/v1/users/me/subscriptions': { data: { plan: { key: 'free' } } },
    });
    for (let round = 0; round < 2; round += 1) {
      expect(await provider.getList({ resource: 'channels', pagination: server })).toEqual({
        data: [{ key: 'slack' }],
        total: 1,
      });
      await provider.getList({ resource: 'languages' });
      await provider.getList({
        resource: 'translations',
        filters: [{ field: 'locale', operator: 'eq', value: 'it' }],
      });
      expect(await provider.getOne({ resource: 'company', id: 'current' })).toEqual({
        data: COMPANY,
      });
      await provider.getOne({ resource: 'subscription', id: 'current' });
      expect(await provider.getList({ resource: 'classrooms' })).toEqual({
        data: CLASSROOMS,
        total: 2,
      });
    }
    expect(calls.map((call) => call.path).sort()).toEqual([
      '/api/v1/channels',
      '/api/v1/companies/co-1/classrooms',
      '/api/v1/company',
      '/api/v1/languages',
      '/api/v1/translations',
      '/api/v1/users/me/subscriptions',
    ]);
    expect(calls.find((call) => call.path === '/api/v1/translations')?.options).toEqual({
      query: { locale: 'it' },
    });
    await expect(
      provider.getList({ resource: 'translations', meta: { locale: 'fr' } }),
    ).rejects.toThrow('Translations exist for en, it, de; got locale "fr".');
  });

  it('lists the terms to accept', async () => {
    const { provider } = setup({
      'GET /api/v1/users/me/terms-and-conditions/to-accept': { data: [{ uuid: 't1' }] },
    });
    expect(await provider.getList({ resource: 'terms' })).toEqual({
      data: [{ uuid: 't1' }],
      total: 1,
    });
  });

  it('says what is not there: unknown resources, methods and reports', async () => {
    const { provider, calls } = setup({});
    await expect(provider.getList({ resource: 'analytics' })).rejects.toThrow(
      'The "analytics" lists are meta.report "courses-insights" (every counted course), "course-learners"',
    );
    await expect(
      provider.getList({ resource: 'analytics', meta: { report: 'course-learners' } }),
    ).rejects.toThrow('The "course-learners" list needs meta.courseId.');
    await expect(
      provider.getList({ resource: 'analytics', meta: { report: 'course-questions' } }),
    ).rejects.toThrow('The "course-questions" list needs meta.courseId.');
    await expect(provider.getOne({ resource: 'analytics', id: 'zick' })).rejects.toThrow(
      'Unknown analytics report "zick". Reports: classroom, statistics, learners,',
    );
    await expect(
      provider.getOne({ resource: 'analytics', id: 'statistics', meta: { period: {} } }),
    ).rejects.toThrow('The "statistics" report has no period');
    await expect(
      provider.getOne({
        resource: 'analytics',
        id: 'classroom',
        meta: { period: { start_date: '1.1.2026' } },
      }),
    ).rejects.toThrow('as YYYY-MM-DD; got start_date="1.1.2026"');
    await expect(
      provider.create({ resource: 'exports', variables: { type: 'pdf', course_id: 'c1' } }),
    ).rejects.toThrow("An export's type is one of statistics, not_enrolled_learners, course");
    await expect(provider.getList({ resource: 'posts' })).rejects.toThrow(
      'Unknown resource "posts". Known resources: courses, courses-short, learners,',
    );
    await expect(provider.create({ resource: 'channels', variables: {} })).rejects.toThrow(
      'The "channels" resource supports getList only, not create.',
    );
    expect(calls).toEqual([]);
  });
});

describe('dataProvider: analytics and exports', () => {
  const V1 = '/api/v1/analytics/classrooms';
  const V2 = '/api/v2/analytics/classrooms';

  it('answers each report of the current or the named classroom, with its period and course', async () => {
    const { provider, requests } = setup({
      [`GET ${V1}/room-1`]: { data: { total_courses: 3 } },
      [`GET ${V1}/room-2`]: { data: { total_courses: 1 } },
      [`GET ${V2}/room-1/statistics`]: { data: { learningTime: 40 } },
      [`GET ${V2}/room-1/learners/status`]: { data: { total: 9 } },
      [`GET ${V2}/room-1/distribution`]: { data: { list: [] } },
      [`GET ${V1}/room-1/learners`]: { data: { interacted: 2 } },
      'GET /api/v1/analytics/learners/l1': { data: { courses: [] } },
      [`GET ${V2}/room-1/courses/insights`]: { data: [{ uuid: 'c1' }, { uuid: 'c2' }] },
      [`GET ${V2}/room-1/courses/c1/learners`]: page([{ uuid: 'l1' }]),
      [`GET ${V2}/room-1/courses/c1/questions`]: { data: [{ day: 1 }, { day: 2 }] },
    });
    expect(
      await provider.getOne({
        resource: 'analytics',
        id: 'classroom',
        meta: { period: { start_date: '2026-11-16', end_date: '2026-11-23' } },
      }),
    ).toEqual({ data: { total_courses: 3 } });
    await provider.getOne({
      resource: 'analytics',
      id: 'classroom',
      meta: { classroomUuid: 'room-2' },
    });
    await provider.getOne({ resource: 'analytics', id: 'statistics' });
    await provider.getOne({
      resource: 'analytics',
      id: 'learners-status',
      meta: { courseId: 'c1', period: { end_date: '2026-11-23' } },
    });
    await provider.getOne({ resource: 'analytics', id: 'distribution' });
    await provider.getOne({ resource: 'analytics', id: 'learners' });
    await provider.getOne({ resource: 'analytics', id: 'l1', meta: { report: 'learner' } });
    expect(
      await provider.getList({ resource: 'analytics', meta: { report: 'courses-insights' } }),
    ).toEqual({ data: [{ uuid: 'c1' }, { uuid: 'c2' }], total: 2 });
    expect(
      await provider.getList({
        resource: 'analytics',
        meta: { report: 'course-learners', courseId: 'c1' },
        filters: [{ field: 'status', operator: 'eq', value: 'dormant' }],
        pagination: server,
      }),
    ).toMatchObject({ data: [{ uuid: 'l1' }], total: 120 });
    expect(
      await provider.getList({
        resource: 'analytics',
        meta: { report: 'course-questions', courseId: 'c1' },
      }),
    ).toEqual({ data: [{ day: 1 }, { day: 2 }], total: 2 });
    expect(requests().map((call) => [call.path, call.options.query])).toEqual([
      [`${V1}/room-1`, { start_date: '2026-11-16', end_date: '2026-11-23' }],
      [`${V1}/room-2`, {}],
      [`${V2}/room-1/statistics`, {}],
      [`${V2}/room-1/learners/status`, { end_date: '2026-11-23', course_id: 'c1' }],
      [`${V2}/room-1/distribution`, {}],
      [`${V1}/room-1/learners`, {}],
      ['/api/v1/analytics/learners/l1', {}],
      [`${V2}/room-1/courses/insights`, undefined],
      [`${V2}/room-1/courses/c1/learners`, { status: 'dormant', page: 2, per_page: 50 }],
      [`${V2}/room-1/courses/c1/questions`, undefined],
    ]);
  });

  it('requests each kind of export and downloads one by id', async () => {
    const { provider, requests } = setup({
      'POST /api/v1/analytics/courses/c1/export-delivery-statistics': { data: { export_id: 'e1' } },
      'POST /api/v1/analytics/courses/c1/export-not-enrolled-learners': {
        data: { export_id: 'e2' },
      },
      [`POST ${V1}/room-1/courses/c1/export`]: { data: { export_id: 'e3' } },
      'GET /api/v1/analytics/exports/e1/download': { data: { file_name: 'a.csv' } },
    });
    for (const type of ['statistics', 'not_enrolled_learners', 'course']) {
      await provider.create({ resource: 'exports', variables: { type, course_id: 'c1' } });
    }
    expect(await provider.getOne({ resource: 'exports', id: 'e1' })).toEqual({
      data: { file_name: 'a.csv' },
    });
    expect(requests().map((call) => `${call.method} ${call.path}`)).toEqual([
      'POST /api/v1/analytics/courses/c1/export-delivery-statistics',
      'POST /api/v1/analytics/courses/c1/export-not-enrolled-learners',
      `POST ${V1}/room-1/courses/c1/export`,
      'GET /api/v1/analytics/exports/e1/download',
    ]);
  });
});

describe('dataProvider: custom and actions', () => {
  it('fills {classroomUuid}, passes query and payload, and answers the envelope', async () => {
    const { provider, requests } = setup({
      [`POST ${COURSES}/c1/clone`]: { data: { uuid: 'c2' } },
      'GET /api/v1/learners/l1/reachability': { data: { uuid: 'l1' } },
    });
    expect(await provider.custom({ ...actionRequests.cloneCourse('c1') })).toEqual({
      data: { uuid: 'c2' },
    });
    await provider.custom({
      url: 'http://api.test/api/v1/learners/l1/reachability',
      method: 'get',
      query: { a: 1 },
    });
    expect(requests()).toEqual([
      { method: 'POST', path: `${COURSES}/c1/clone`, options: { body: undefined } },
      { method: 'GET', path: '/api/v1/learners/l1/reachability', options: { query: { a: 1 } } },
    ]);
  });

  it('answers a file the API serves as it is (meta.responseType bytes) as its bytes', async () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04]);
    const path = '/api/v1/channel-connections/ms-teams/app-package';
    const { provider, requests } = setup({ [`GET ${path}`]: zip });
    expect(
      await provider.custom({ url: path, method: 'get', meta: { responseType: 'bytes' } }),
    ).toEqual({ data: zip });
    expect(requests()[0]?.options).toMatchObject({ responseType: 'bytes' });
  });

  it('never sends the token elsewhere and takes no headers', async () => {
    const { provider, calls } = setup({});
    await expect(
      provider.custom({ url: 'http://api.test.evil.example/x', method: 'get' }),
    ).rejects.toThrow('custom() only calls the API at http://api.test');
    await expect(
      provider.custom({ url: '/api/v1/x', method: 'get', headers: { 'x-a': '1' } }),
    ).rejects.toThrow('custom() takes no headers');
    expect(calls).toEqual([]);
  });

  it('createActions: typed calls with the spec payloads', async () => {
    const { provider, requests, session } = setup({
      [`POST ${COURSES}/c1/clone`]: { data: { uuid: 'c2' } },
      [`DELETE ${COURSES}/c1/soft`]: { data: { uuid: 'c1' } },
      [`POST ${COURSES}/c1/restore`]: { data: { uuid: 'c1' } },
      [`POST ${COURSES}/c1/resume`]: { data: { uuid: 'c1' } },
      [`POST ${COURSES}/c1/cancel`]: { data: { uuid: 'c1' } },
      'DELETE /api/v1/learners/l1/soft': { data: { uuid: 'l1', phone: '391' } },
      'POST /api/v1/learners/l1/restore': { data: { uuid: 'l1', phone: null } },
      'PATCH /api/v1/learners/l1/learners-lists/sync': { data: { result: true } },
      'POST /api/v1/users/me/subscriptions/upgrade-request': { data: { uuid: 'u1' } },
      'GET /api/v1/users/me/subscriptions/learners/usage': { data: { used: 4 } },
      'POST /api/v1/users/me/terms-and-conditions': { data: { accepted: ['t1'] } },
      'GET /api/v1/learners-lists': { data: [] },
    });
    const actions = createActions(provider, session);
    expect(await actions.cloneCourse('c1')).toEqual({ uuid: 'c2' });
    await actions.archiveCourse('c1');
    await actions.restoreCourse('c1');
    await actions.resumeCourse('c1');
    await actions.cancelCourse('c1');
    expect(await actions.archiveLearner('l1')).toEqual({ uuid: 'l1', phone: '+391' });
    await actions.restoreLearner('l1');
    await session.learnersLists();
    expect(await actions.syncLearnerLists('l1', ['list-1'])).toEqual({ result: true });
    await session.learnersLists();
    await actions.requestUpgrade('learners');
    expect(await actions.usage('learners')).toEqual({ used: 4 });
    expect(await actions.acceptTerms(['t1'])).toEqual({ accepted: ['t1'] });

    expect(requests().map((call) => [call.method, call.path, call.options.body])).toEqual([
      ['POST', `${COURSES}/c1/clone`, undefined],
      ['DELETE', `${COURSES}/c1/soft`, undefined],
      ['POST', `${COURSES}/c1/restore`, undefined],
      ['POST', `${COURSES}/c1/resume`, undefined],
      ['POST', `${COURSES}/c1/cancel`, undefined],
      ['DELETE', '/api/v1/learners/l1/soft', undefined],
      ['POST', '/api/v1/learners/l1/restore', undefined],
      ['GET', '/api/v1/learners-lists', undefined],
      ['PATCH', '/api/v1/learners/l1/learners-lists/sync', { lists: ['list-1'] }],
      // The sync changed list counts, so the session fetches the lists again.
      ['GET', '/api/v1/learners-lists', undefined],
      ['POST', '/api/v1/users/me/subscriptions/upgrade-request', { requestedFunction: 'learners' }],
      ['GET', '/api/v1/users/me/subscriptions/learners/usage', undefined],
      ['POST', '/api/v1/users/me/terms-and-conditions', [{ uuid: 't1' }]],
    ]);
  });

  it('createActions: a learner’s sends, a course’s failures and resending them, in any classroom', async () => {
    const { provider, requests } = setup({
      'GET /api/v1/learners/l1/deliveries': { data: [] },
      [`GET ${COURSES}/c1/delivery-failures`]: { data: { items: [], resendable: true } },
      'POST /api/v1/classrooms/room-2/courses/c1/resend': { data: { lessons: 2, invitations: 0 } },
    });
    const actions = createActions(provider);
    expect(await actions.learnerDeliveries('l1')).toEqual([]);
    expect(await actions.courseDeliveryFailures('c1')).toEqual({ items: [], resendable: true });
    expect(await actions.resendCourseSends('c1', { all_failed: true }, 'room-2')).toEqual({
      lessons: 2,
      invitations: 0,
    });
    expect(requests().map((call) => [call.method, call.path, call.options.body])).toEqual([
      ['GET', '/api/v1/learners/l1/deliveries', undefined],
      ['GET', `${COURSES}/c1/delivery-failures`, undefined],
      ['POST', '/api/v1/classrooms/room-2/courses/c1/resend', { all_failed: true }],
    ]);
  });

  it('createActions: a learner’s conversation, a page of days of one course in a time zone', async () => {
    const page = { courses: [], course: null, time_zone: 'Europe/Rome', days: [], earlier: null };
    const { provider, requests } = setup({
      'GET /api/v1/learners/l1/conversation': { data: page },
    });
    const actions = createActions(provider);
    const query = { course: 'c1', before: '2026-11-20', days: 7, tz: 'America/New_York' };
    expect(await actions.learnerConversation('l1', query)).toEqual(page);
    expect(requests().map((call) => [call.method, call.path, call.options.query])).toEqual([
      ['GET', '/api/v1/learners/l1/conversation', query],
    ]);
  });

  it('leaves failures to the caller with meta.errorFeedback "caller", but never the upgrade modal or a logout', async () => {
    const { provider, requests } = setup({
      [`POST ${COURSES}/c1/clone`]: { data: { uuid: 'c2' } },
      'POST /api/v1/learners-lists': { data: { uuid: 'l1' } },
    });
    await provider.custom({
      ...actionRequests.cloneCourse('c1'),
      meta: { errorFeedback: 'caller' },
    });
    await provider.create({
      resource: 'learners-lists',
      variables: { name: 'A' },
      meta: { errorFeedback: 'caller' },
    });
    await provider.custom({ ...actionRequests.cloneCourse('c1') });
    const [clone, create, plain] = requests().map((call) => call.options.quiet);
    const failure = (type: 'toast' | 'errorModal' | 'upgrade' | 'logout') => {
      const error = new ApiError({ status: 422, code: 'X', message: 'x' });
      error.reaction =
        type === 'toast' || type === 'errorModal'
          ? { type, message: 'x' }
          : type === 'upgrade'
            ? { type, message: null }
            : { type };
      return error;
    };
    for (const quiet of [clone, create]) {
      expect(quiet?.(failure('toast'))).toBe(true);
      expect(quiet?.(failure('errorModal'))).toBe(true);
      expect(quiet?.(failure('upgrade'))).toBe(false);
      expect(quiet?.(failure('logout'))).toBe(false);
    }
    expect(plain).toBeUndefined();
  });

  it('rejects with the client’s ApiError untouched (a Refine HttpError)', async () => {
    const failure = new ApiError({
      status: 422,
      code: 'VALIDATION_FAILED',
      message: 'The email must be valid.',
      errors: { email: ['The email must be valid.'] },
    });
    const { provider } = setup({
      'POST /api/v1/learners': () => {
        throw failure;
      },
    });
    await expect(provider.create({ resource: 'learners', variables: { email: 'x' } })).rejects.toBe(
      failure,
    );
  });
});

describe('Refine types', () => {
  it('the providers and ApiError fit the shapes Refine asks for', () => {
    const { client } = setup({});
    // Compile-time checks: `<Refine dataProvider authProvider>` take these without casts.
    const provider: DataProvider = dataProvider(client);
    const auth: AuthProvider = authProvider(client);
    const error: HttpError = new ApiError({ status: 422, code: 'VALIDATION_FAILED', message: 'x' });
    expect([typeof provider.custom, typeof auth.getIdentity, error.statusCode]).toEqual([
      'function',
      'function',
      422,
    ]);
  });
});

describe('dataProvider: API tokens and learner imports', () => {
  it('lists, creates and revokes the user’s tokens under /users/me/tokens', async () => {
    const token = { uuid: 't1', name: 'ci', scopes: ['exports:read'] };
    const { provider, requests } = setup({
      'GET /api/v1/users/me/tokens': { data: [token] },
      'POST /api/v1/users/me/tokens': { data: { ...token, token: 'ccp_pat_x' } },
      'DELETE /api/v1/users/me/tokens/t1': { data: { revoked: 't1' } },
    });
    expect(await provider.getList({ resource: 'api-tokens' })).toEqual({ data: [token], total: 1 });
    const variables = { name: 'ci', scopes: ['exports:read'], expires_in_days: 30, code: '123456' };
    expect((await provider.create({ resource: 'api-tokens', variables })).data).toMatchObject({
      token: 'ccp_pat_x',
    });
    expect((await provider.deleteOne({ resource: 'api-tokens', id: 't1' })).data).toEqual({
      revoked: 't1',
    });
    expect(requests().map((call) => [`${call.method} ${call.path}`, call.options?.body])).toEqual([
      ['GET /api/v1/users/me/tokens', undefined],
      ['POST /api/v1/users/me/tokens', variables],
      ['DELETE /api/v1/users/me/tokens/t1', undefined],
    ]);
  });

  it('pages the import jobs and reads one; cancel is an action', async () => {
    const { provider, requests } = setup({
      'GET /api/v1/learners/imports': page([{ uuid: 'j1' }]),
      'GET /api/v1/learners/imports/j1': { data: { uuid: 'j1', status: 'running' } },
    });
    expect(
      (await provider.getList({ resource: 'learners-imports', pagination: server })).total,
    ).toBe(120);
    expect((await provider.getOne({ resource: 'learners-imports', id: 'j1' })).data).toEqual({
      uuid: 'j1',
      status: 'running',
    });
    expect(requests()[0]?.options).toMatchObject({ query: { page: 2, per_page: 50 } });
    expect(actionRequests.cancelImport('j1')).toEqual({
      url: '/api/v1/learners/imports/j1/cancel',
      method: 'post',
    });
  });

  it('uploads an AI import and reads its job in the classroom; cancel is an action', async () => {
    const { provider, requests } = setup({
      'POST /api/v1/classrooms/room-9/courses/import': { data: { uuid: 'a1', status: 'queued' } },
      'GET /api/v1/classrooms/room-9/courses/import/a1': { data: { uuid: 'a1', phase: 'writing' } },
    });
    const meta = { classroomUuid: 'room-9' };
    const file = new File(['Plants make food.'], 'source.txt');
    const created = await provider.create({
      resource: 'ai-imports',
      variables: { file, name: 'Plants', number_of_lessons: 3 },
      meta,
    });
    expect(created.data).toEqual({ uuid: 'a1', status: 'queued' });
    const form = requests()[0]?.options?.form as FormData;
    expect([
      form.get('name'),
      form.get('number_of_lessons'),
      (form.get('file') as File).name,
    ]).toEqual(['Plants', '3', 'source.txt']);
    expect((await provider.getOne({ resource: 'ai-imports', id: 'a1', meta })).data).toEqual({
      uuid: 'a1',
      phase: 'writing',
    });
    expect(actionRequests.cancelAiImport('a1')).toEqual({
      url: '/api/v1/classrooms/{classroomUuid}/courses/import/a1/cancel',
      method: 'post',
    });
  });
});
