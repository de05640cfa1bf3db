import {
  ApiError,
  authProvider,
  createActions,
  createHttpClient,
  createSession,
  dataProvider,
  memoryTokenStore,
} from '@ccp/data-provider';
import type { ClientEvents, HttpClient } from '@ccp/data-provider';
import { MESSAGES } from '@ccp/schemas';
import type {
  TChannel,
  TClassroom,
  TCourse,
  TLanguage,
  TLearner,
  TLearnersList,
  TPaginationMeta,
  TShortCourse,
  TTranslation,
} from '@ccp/schemas';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { DEMO_PASSWORD, startApi } from './api-server.ts';
import type { RunningApi } from './api-server.ts';

// The data provider against the real API on the demo organisation: every resource mapping,
// pagination, archived mode, the current classroom, and the §7 error shapes it hands to Refine.

let api: RunningApi;

type Events = Required<ClientEvents>;

const signIn = async (email: string) => {
  const events = {
    toast: vi.fn<Events['toast']>(),
    errorModal: vi.fn<Events['errorModal']>(),
    upgrade: vi.fn<Events['upgrade']>(),
    logout: vi.fn<Events['logout']>(),
  };
  const client = createHttpClient({ apiUrl: api.url, tokens: memoryTokenStore(), events });
  const session = createSession(client);
  // Each TOTP code signs in once per user: move to the next step before every login.
  api.clock.advance(30_000);
  const login = await authProvider(client, { session }).login({
    email,
    password: DEMO_PASSWORD,
    code: api.totp(),
  });
  expect(login.success).toBe(true);
  const provider = dataProvider(client, { session });
  return { client, session, events, provider, actions: createActions(provider, session) };
};

const metaOf = async (client: HttpClient, path: string, query: Record<string, string | number>) =>
  (await client.get<{ meta: TPaginationMeta }>(path, { query })).meta;

const server = (currentPage: number, pageSize: number) =>
  ({ currentPage, pageSize, mode: 'server' }) as const;

let acme: Awaited<ReturnType<typeof signIn>>;

beforeAll(async () => {
  api = await startApi();
  acme = await signIn('creator@example.com');
});
afterAll(async () => {
  await api.close();
});

describe('courses', () => {
  it('uses the first classroom, Sales Academy, unless meta names another', async () => {
    const { provider, session, client } = acme;
    const classrooms = await provider.getList<TClassroom>({ resource: 'classrooms' });
    expect(classrooms.data.map((room) => room.name)).toEqual(['Sales Academy', 'Onboarding']);
    expect((await session.currentClassroom()).name).toBe('Sales Academy');

    const [sales, onboarding] = classrooms.data;
    const listed = await provider.getList<TCourse>({
      resource: 'courses',
      pagination: server(1, 100),
    });
    const direct = await client.get<{ data: TCourse[] }>(
      `/api/v1/classrooms/${sales!.uuid}/courses`,
      { query: { per_page: 100 } },
    );
    expect(listed.data.map((course) => course.uuid)).toEqual(
      direct.data.map((course) => course.uuid),
    );
    const other = await provider.getList<TCourse>({
      resource: 'courses',
      pagination: server(1, 100),
      meta: { classroomUuid: onboarding!.uuid },
    });
    const overlap = other.data.filter((course) => listed.data.some((c) => c.uuid === course.uuid));
    expect(overlap).toEqual([]);
  });

  it('pages with Laravel meta as the total, and lists archived courses apart', async () => {
    const { provider } = acme;
    const all = await provider.getList<TCourse>({
      resource: 'courses',
      pagination: { mode: 'off' },
    });
    const second = await provider.getList<TCourse>({
      resource: 'courses',
      pagination: server(2, 3),
    });
    expect(all.total).toBe(all.data.length);
    expect(second.total).toBe(all.total);
    expect(second.meta).toMatchObject({ current_page: 2, per_page: 3, total: all.total });
    expect(second.data.map((course) => course.uuid)).toEqual(
      all.data.slice(3, 6).map((course) => course.uuid),
    );
    expect(all.data.every((course) => course.deleted_at === null)).toBe(true);

    const archived = await provider.getList<TCourse>({
      resource: 'courses',
      pagination: server(1, 100),
      filters: [{ field: 'archived', operator: 'eq', value: true }],
    });
    expect(archived.total).toBeGreaterThan(0);
    expect(archived.data.every((course) => course.deleted_at !== null)).toBe(true);

    const short = await provider.getList<TShortCourse>({ resource: 'courses-short' });
    expect(short.data.map((course) => course.uuid)).toEqual(all.data.map((course) => course.uuid));
  });

  it('creates (JSON and multipart), saves, clones, archives, restores and deletes', async () => {
    const { provider, actions } = acme;
    const { data: draft } = await provider.create<TCourse>({
      resource: 'courses',
      variables: { name: 'Provider course', description: 'Made by the data provider test.' },
    });
    expect(draft).toMatchObject({ name: 'Provider course', status: 'draft', image: null });

    // A 1×1 PNG: the server checks the bytes, and the provider names it image.png.
    const png = Uint8Array.from(
      atob(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      ),
      (char) => char.charCodeAt(0),
    );
    const image = new Blob([png], { type: 'image/png' });
    const { data: covered } = await provider.create<TCourse>({
      resource: 'courses',
      variables: { name: 'With cover', description: 'Has an image.', image },
    });
    expect(covered.image).toMatch(/^\/uploads\/covers\/.+\.png$/);

    const { data: renamed } = await provider.update<TCourse>({
      resource: 'courses',
      id: draft.uuid,
      variables: { name: 'Renamed course', description: 'New text.', category: 'Sales' },
      meta: { intro: true },
    });
    expect(renamed).toMatchObject({ name: 'Renamed course', category: 'Sales' });

    const lesson = {
      day: 1,
      language: 'en',
      title: 'Welcome',
      topic_intro: 'Why this matters.',
      topic_content: '<p>Content.</p>',
      learning_minutes: 5,
      media: null,
      assessment: null,
    };
    const { data: saved } = await provider.update<TCourse>({
      resource: 'courses',
      id: draft.uuid,
      variables: {
        name: 'Renamed course',
        description: 'New text.',
        languages: [{ short_name: 'en', is_primary: true }],
        lessons: [lesson],
      },
    });
    expect(saved.lessons.map((item) => item.title)).toEqual(['Welcome']);
    const { data: fetched } = await provider.getOne<TCourse>({
      resource: 'courses',
      id: draft.uuid,
    });
    expect(fetched.lessons_count).toBe(1);

    const clone = await actions.cloneCourse(draft.uuid);
    expect(clone).toMatchObject({ name: 'Renamed course (copy)', status: 'draft' });
    const archived = await actions.archiveCourse(clone.uuid);
    expect(archived.deleted_at).not.toBeNull();
    const archivedList = await provider.getList<TCourse>({
      resource: 'courses',
      pagination: server(1, 100),
      meta: { archived: true },
    });
    expect(archivedList.data.map((course) => course.uuid)).toContain(clone.uuid);
    expect((await actions.restoreCourse(clone.uuid)).deleted_at).toBeNull();

    for (const uuid of [draft.uuid, covered.uuid, clone.uuid]) {
      expect(await provider.deleteOne({ resource: 'courses', id: uuid })).toEqual({
        data: { deleted: uuid },
      });
    }
    await expect(provider.getOne({ resource: 'courses', id: draft.uuid })).rejects.toMatchObject({
      statusCode: 404,
    });
  });
});

describe('learners', () => {
  it('pages 50 at a time; the total is the live learners, the archived ones apart', async () => {
    const { provider, client } = acme;
    const live = (await metaOf(client, '/api/v1/learners', { per_page: 1 })).total;
    const archived = (await metaOf(client, '/api/v1/learners', { per_page: 1, archived: 'true' }))
      .total;
    expect(live + archived).toBe(500);
    expect(archived).toBeGreaterThan(0);

    const page2 = await provider.getList<TLearner>({
      resource: 'learners',
      pagination: server(2, 50),
    });
    expect(page2.data).toHaveLength(50);
    expect(page2.total).toBe(live);
    expect(page2.meta).toMatchObject({ current_page: 2, per_page: 50, from: 51, to: 100 });

    const gone = await provider.getList<TLearner>({
      resource: 'learners',
      pagination: server(1, 100),
      filters: [{ field: 'archived', operator: 'eq', value: true }],
    });
    expect(gone.total).toBe(archived);
    expect(gone.data.every((learner) => learner.status === 'archived')).toBe(true);
    expect(
      page2.data.every((learner) => learner.phone === null || learner.phone.startsWith('+')),
    ).toBe(true);
  });

  it('searches, and lists one learners list through a filter or meta', async () => {
    const { provider } = acme;
    const { data: firstPage, total: liveTotal } = await provider.getList<TLearner>({
      resource: 'learners',
      pagination: server(1, 1),
    });
    const term = firstPage[0]!.last_name.toUpperCase();
    const found = await provider.getList<TLearner>({
      resource: 'learners',
      pagination: server(1, 100),
      filters: [{ field: 'q', operator: 'contains', value: term }],
    });
    expect(found.data.map((learner) => learner.uuid)).toContain(firstPage[0]!.uuid);
    const haystack = (learner: TLearner) =>
      `${learner.first_name} ${learner.last_name} ${learner.email ?? ''}`.toUpperCase();
    expect(found.data.every((learner) => haystack(learner).includes(term))).toBe(true);
    expect(found.total).toBeLessThan(liveTotal);

    const { data: lists } = await provider.getList<TLearnersList>({ resource: 'learners-lists' });
    const list = lists[0]!;
    const byFilter = await provider.getList<TLearner>({
      resource: 'learners',
      pagination: server(1, 100),
      filters: [{ field: 'learners_lists', operator: 'eq', value: list.uuid }],
    });
    const byMeta = await provider.getList<TLearner>({
      resource: 'learners',
      pagination: server(1, 100),
      meta: { listUuid: list.uuid },
    });
    expect(byFilter.total).toBe(list.learners_count);
    expect(byMeta.total).toBe(list.learners_count);
    expect(
      byFilter.data.every((learner) => learner.learners_lists.some((l) => l.uuid === list.uuid)),
    ).toBe(true);
  });

  it('creates (into a list too), updates, archives, restores and deletes, with the phone rules', async () => {
    const { provider, actions } = acme;
    const { data: lists } = await provider.getList<TLearnersList>({ resource: 'learners-lists' });
    const { data: ada } = await provider.create<TLearner>({
      resource: 'learners',
      variables: {
        first_name: 'Ada',
        last_name: 'Provider',
        email: null,
        channels: ['whatsapp'],
        locale: 'it',
        phone: '+39 (333) 000-1111',
      },
    });
    expect(ada).toMatchObject({ phone: '+393330001111', channels: [{ key: 'whatsapp' }] });

    const { data: inList } = await provider.create<TLearner>({
      resource: 'learners',
      variables: {
        first_name: 'Bea',
        last_name: 'Provider',
        email: 'bea.provider@acme.example',
        channels: ['slack'],
        phone: '+',
      },
      meta: { listUuid: lists[0]!.uuid },
    });
    expect(inList.phone).toBeNull();
    expect(inList.learners_lists.map((list) => list.uuid)).toEqual([lists[0]!.uuid]);

    const { data: updated } = await provider.update<TLearner>({
      resource: 'learners',
      id: ada.uuid,
      variables: {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada.provider@acme.example',
        channels: ['ms-teams'],
        locale: 'en',
        phone: '+',
      },
    });
    expect(updated).toMatchObject({ last_name: 'Lovelace', phone: null });
    const { data: fetched } = await provider.getOne<TLearner>({
      resource: 'learners',
      id: ada.uuid,
    });
    expect(fetched.email).toBe('ada.provider@acme.example');

    expect((await actions.archiveLearner(ada.uuid)).status).toBe('archived');
    expect((await actions.restoreLearner(ada.uuid)).status).toBe('active');
    const synced = await actions.syncLearnerLists(ada.uuid, [lists[1]!.uuid]);
    expect(synced).toMatchObject({ result: true, learners_lists: [{ uuid: lists[1]!.uuid }] });

    for (const uuid of [ada.uuid, inList.uuid]) {
      expect(await provider.deleteOne({ resource: 'learners', id: uuid })).toEqual({
        data: { deleted: uuid },
      });
    }
    await expect(provider.getOne({ resource: 'learners', id: ada.uuid })).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it('a 422 reaches Refine as HttpError.errors on the field path, shown once as an error modal', async () => {
    const { provider, actions, events } = acme;
    events.errorModal.mockClear();
    const failure: unknown = await provider
      .create({
        resource: 'learners',
        variables: {
          first_name: 'Bad',
          last_name: 'Email',
          email: 'not-an-email',
          channels: ['slack'],
        },
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({
      statusCode: 422,
      errors: { email: [MESSAGES.emailInvalid] },
    });
    expect(events.errorModal).toHaveBeenCalledTimes(1);

    const { data: firstPage } = await provider.getList<TLearner>({
      resource: 'learners',
      pagination: server(1, 1),
    });
    const nested: unknown = await actions
      .syncLearnerLists(firstPage[0]!.uuid, ['not-a-uuid'])
      .catch((error: unknown) => error);
    expect(nested).toMatchObject({ statusCode: 422, errors: { 'lists.0': expect.any(Array) } });
  });
});

describe('learners lists', () => {
  it('creates, reads, renames and deletes; a taken name is a field error', async () => {
    const { provider, session } = acme;
    const { data: created } = await provider.create<TLearnersList>({
      resource: 'learners-lists',
      variables: { name: 'Provider list' },
    });
    expect(created).toMatchObject({ name: 'Provider list', learners_count: 0 });
    expect((await session.learnersLists()).map((list) => list.uuid)).toContain(created.uuid);

    const { data: one } = await provider.getOne<TLearnersList>({
      resource: 'learners-lists',
      id: created.uuid,
    });
    expect(one.name).toBe('Provider list');
    const { data: renamed } = await provider.update<TLearnersList>({
      resource: 'learners-lists',
      id: created.uuid,
      variables: { name: 'Provider list 2' },
    });
    expect(renamed.name).toBe('Provider list 2');
    await expect(
      provider.create({ resource: 'learners-lists', variables: { name: 'PROVIDER LIST 2' } }),
    ).rejects.toMatchObject({ statusCode: 422, errors: { name: [MESSAGES.nameTaken] } });

    expect(await provider.deleteOne({ resource: 'learners-lists', id: created.uuid })).toEqual({
      data: { deleted: created.uuid },
    });
    expect((await session.learnersLists()).map((list) => list.uuid)).not.toContain(created.uuid);
    await expect(
      provider.deleteOne({ resource: 'learners-lists', id: created.uuid }),
    ).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe('reference resources, terms and plan limits', () => {
  it('maps channels, languages, translations, company, subscription and terms', async () => {
    const { provider } = acme;
    const channels = await provider.getList<TChannel>({ resource: 'channels' });
    expect(channels.data.map((channel) => channel.key)).toEqual([
      'ms-teams',
      'slack',
      'whatsapp',
      'webex',
      'google-chat',
    ]);
    const languages = await provider.getList<TLanguage>({ resource: 'languages' });
    expect(languages.data.map((language) => language.short_name)).toEqual(['en', 'it', 'de']);
    const italian = await provider.getList<TTranslation>({
      resource: 'translations',
      filters: [{ field: 'locale', operator: 'eq', value: 'it' }],
    });
    expect(italian.total).toBeGreaterThan(0);
    expect(italian.data.every((text) => text.locale === 'it')).toBe(true);
    expect((await provider.getOne({ resource: 'company', id: 'current' })).data.name).toBe(
      'Acme Training',
    );
    const subscription = await provider.getOne({ resource: 'subscription', id: 'current' });
    expect(subscription.data.subscription_functions.length).toBeGreaterThan(0);
    expect(await provider.getList({ resource: 'terms' })).toEqual({ data: [], total: 0 });
  });

  it('analytics: the reports and the per-course insights of the current classroom, as the API answers them', async () => {
    const { provider, client, session } = await signIn('creator@example.com');
    const room = (await session.currentClassroom()).uuid;
    const period = { start_date: '2026-01-01', end_date: '2026-12-31' };
    const classroom = await provider.getOne({
      resource: 'analytics',
      id: 'classroom',
      meta: { period },
    });
    expect(classroom.data).toEqual(
      (
        await client.get<{ data: unknown }>(`/api/v1/analytics/classrooms/${room}`, {
          query: period,
        })
      ).data,
    );
    const insights = await provider.getList<{ uuid: string; status: string }>({
      resource: 'analytics',
      meta: { report: 'courses-insights' },
    });
    expect(insights.total).toBeGreaterThan(0);
    expect(insights.data.every((course) => ['active', 'delivered'].includes(course.status))).toBe(
      true,
    );
    const statistics = await provider.getOne({ resource: 'analytics', id: 'statistics' });
    expect(statistics.data).toEqual(
      (await client.get<{ data: unknown }>(`/api/v2/analytics/classrooms/${room}/statistics`)).data,
    );
  });

  it('the 7th learner on the Free plan: a 402 with the limit, the upgrade event once', async () => {
    const free = await signIn('free@example.com');
    const learner = (n: number) => ({
      first_name: 'Free',
      last_name: `Learner ${'abcdefg'[n]}`,
      channels: ['whatsapp'],
      phone: `+3933300000${n}0`,
    });
    expect((await free.actions.usage('learners')).used).toBe(4);
    for (const n of [5, 6]) {
      await free.provider.create({ resource: 'learners', variables: learner(n) });
    }
    const failure: unknown = await free.provider
      .create({ resource: 'learners', variables: learner(0) })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({
      statusCode: 402,
      message: 'Learners limit reached.',
      limit: { feature: 'learners', required: 7, limit: 6 },
    });
    expect(free.events.upgrade).toHaveBeenCalledTimes(1);
    expect(free.events.upgrade).toHaveBeenCalledWith({
      type: 'upgrade',
      message: 'Learners limit reached.',
      limit: { feature: 'learners', required: 7, limit: 6 },
    });
    expect(await free.actions.requestUpgrade('learners')).toMatchObject({
      requested_function: 'learners',
    });
    const rooms = await free.provider.getList<TClassroom>({ resource: 'classrooms' });
    expect(rooms.data.map((room) => room.name)).toEqual(['My Workshops']);
  });
});
