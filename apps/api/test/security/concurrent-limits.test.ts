import { describe, expect, it } from 'vitest';

import {
  buildTestApp,
  call,
  createCompany,
  createSignedInUser,
  createUser,
  signIn,
} from '../helper.ts';
import { bearer } from '../fixtures/auth.ts';
import { seedCourse } from '../fixtures/courses.ts';
import { HEADER, csv, uploadImport } from '../fixtures/imports.ts';
import { insertLearner, insertLearners } from '../fixtures/learners.ts';
import { drainJobs } from '../../src/jobs/runner.ts';
import { countCreators, countLessonDays, monthBounds } from '../../src/lib/usage.ts';

// Issue 30, item 1: plan limits and the last-administrator rule hold when the requests that
// would break them arrive together. Each test starts all its requests at once (Promise.all over
// app.inject): on Postgres they run on separate connections, as a burst from a client would.
// Before the per-company lock, 12 parallel creations took a free plan to 8 of 6 learners.

const app = await buildTestApp();

/** Starts every request before awaiting any; answers the status codes, sorted. */
const together = async (requests: (() => Promise<{ statusCode: number }>)[]) =>
  (await Promise.all(requests.map((request) => request()))).map((r) => r.statusCode).sort();

const times = <T>(n: number, make: (index: number) => T): T[] =>
  Array.from({ length: n }, (_, index) => make(index));

const createLearner = (headers: Record<string, string>, email: string) =>
  call(app, {
    method: 'POST',
    url: '/api/v1/learners',
    headers,
    payload: { first_name: 'Par', last_name: 'Allel', email, locale: 'en', channels: ['Slack'] },
  });

const activeLearners = async (companyUuid: string) =>
  Number(
    (
      await app.db
        .selectFrom('learners')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('company_uuid', '=', companyUuid)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('plan limits under parallel requests (issue 30)', () => {
  it('12 parallel learner creations on a free plan with 4 of 6 used: 2 created, 10 × 402', async () => {
    const { company, headers } = await createSignedInUser(app, { plan: 'free' });
    await insertLearners(app, company.uuid, 4);
    const statuses = await together(
      times(12, (n) => () => createLearner(headers, `parallel${n}@example.test`)),
    );
    expect(statuses).toEqual([...times(2, () => 201), ...times(10, () => 402)]);
    expect(await activeLearners(company.uuid)).toBe(6);
  });

  it('imports run by three workers beside 12 creations never pass the plan', async () => {
    const { company, headers } = await createSignedInUser(app, { plan: 'free' });
    await insertLearners(app, company.uuid, 2);
    // Each file alone fits (2 + 4 of 6), so each upload is accepted; together they do not.
    for (const file of ['a', 'b', 'c']) {
      const rows = times(4, (n) => ['Im', 'Port', `${file}${n}@example.test`, '', 'slack', 'en']);
      const upload = await uploadImport(app, headers, {
        name: `${file}.csv`,
        content: csv([HEADER, ...rows]),
      });
      expect(upload.statusCode).toBe(202);
    }
    await Promise.all([
      ...times(3, (n) => drainJobs(app, { worker: `worker-${n}` })),
      ...times(12, (n) => createLearner(headers, `beside${n}@example.test`)),
    ]);
    expect(await activeLearners(company.uuid)).toBe(6);
  });

  it('12 parallel restores of archived learners stop at the plan too', async () => {
    const { company, headers } = await createSignedInUser(app, { plan: 'free' });
    await insertLearners(app, company.uuid, 5);
    const archived = await Promise.all(
      times(12, () =>
        insertLearner(app, company.uuid, { deleted_at: app.clock.now().toISOString(), active: 0 }),
      ),
    );
    const statuses = await together(
      archived.map(
        (learner) => () =>
          call(app, { method: 'POST', url: `/api/v1/learners/${learner.uuid}/restore`, headers }),
      ),
    );
    expect(statuses).toEqual([200, ...times(11, () => 402)]);
    expect(await activeLearners(company.uuid)).toBe(6);
  });

  it('13 parallel invitations with 7 free seats: 7 created, 6 × 402, seats 10 of 10', async () => {
    const company = await createCompany(app, { plan: 'business' });
    const admin = await createUser(app, company);
    await createUser(app, company, { isAdmin: false });
    await createUser(app, company, { isAdmin: false });
    const headers = bearer((await signIn(app, admin)).access_token);
    const statuses = await together(
      times(
        13,
        (n) => () =>
          call(app, {
            method: 'POST',
            url: '/api/v1/team/invitations',
            headers,
            payload: { email: `seat${n}@example.test`, role: 'creator' },
          }),
      ),
    );
    expect(statuses).toEqual([...times(7, () => 201), ...times(6, () => 402)]);
    expect(await countCreators(app.db, company.uuid, app.clock.now())).toBe(10);
  });

  it('six parallel clones of a 3-day course on a 10-lesson plan with 3 used: 2 × 201, 4 × 402', async () => {
    const { company, user, headers } = await createSignedInUser(app, { plan: 'free' });
    const classroom = company.classrooms[0]!.uuid;
    const course = await seedCourse(app, {
      companyUuid: company.uuid,
      classroomUuid: classroom,
      creatorUuid: user.uuid,
      days: 3,
    });
    const statuses = await together(
      times(
        6,
        () => () =>
          call(app, {
            method: 'POST',
            url: `/api/v1/classrooms/${classroom}/courses/${course}/clone`,
            headers,
          }),
      ),
    );
    expect(statuses).toEqual([201, 201, 402, 402, 402, 402]);
    expect(await countLessonDays(app.db, company.uuid, monthBounds(app.clock.now()))).toBe(9);
  });

  it('restoring an archived course whose days would pass the month answers 402', async () => {
    const { company, user, headers } = await createSignedInUser(app, { plan: 'free' });
    const classroom = company.classrooms[0]!.uuid;
    const seed = { companyUuid: company.uuid, classroomUuid: classroom, creatorUuid: user.uuid };
    const archived = await seedCourse(app, {
      ...seed,
      days: 4,
      deletedAt: app.clock.now().toISOString(),
    });
    await seedCourse(app, { ...seed, days: 8 });
    const restored = await call(app, {
      method: 'POST',
      url: `/api/v1/classrooms/${classroom}/courses/${archived}/restore`,
      headers,
    });
    expect(restored.statusCode).toBe(402);
    expect(await countLessonDays(app.db, company.uuid, monthBounds(app.clock.now()))).toBe(8);
  });
});

describe('the last administrator under parallel requests (issue 30)', () => {
  /** Ten companies, each with two administrators signed in. */
  const pairs = async () =>
    Promise.all(
      times(10, async () => {
        const company = await createCompany(app);
        const first = await createUser(app, company);
        const second = await createUser(app, company);
        return {
          company,
          first: { ...first, headers: bearer((await signIn(app, first)).access_token) },
          second: { ...second, headers: bearer((await signIn(app, second)).access_token) },
        };
      }),
    );

  const administrators = async (companyUuid: string) =>
    Number(
      (
        await app.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('company_uuid', '=', companyUuid)
          .where('is_admin', '=', 1)
          .where('deactivated_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('two administrators demoting each other at once: one wins, the other gets 409', async () => {
    const companies = await pairs();
    const statuses = await together(
      companies.flatMap(({ first, second }) => [
        () =>
          call(app, {
            method: 'PATCH',
            url: `/api/v1/team/members/${second.uuid}`,
            headers: first.headers,
            payload: { role: 'creator' },
          }),
        () =>
          call(app, {
            method: 'PATCH',
            url: `/api/v1/team/members/${first.uuid}`,
            headers: second.headers,
            payload: { role: 'creator' },
          }),
      ]),
    );
    expect(statuses).toEqual([...times(10, () => 200), ...times(10, () => 409)]);
    for (const { company } of companies) expect(await administrators(company.uuid)).toBe(1);
  });

  it('two administrators deactivating each other at once: one stays', async () => {
    const companies = await pairs();
    const statuses = await together(
      companies.flatMap(({ first, second }) => [
        () =>
          call(app, {
            method: 'POST',
            url: `/api/v1/team/members/${second.uuid}/deactivate`,
            headers: first.headers,
          }),
        () =>
          call(app, {
            method: 'POST',
            url: `/api/v1/team/members/${first.uuid}/deactivate`,
            headers: second.headers,
          }),
      ]),
    );
    // The loser is either refused as the last administrator (409) or already signed out (401).
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    for (const { company } of companies) expect(await administrators(company.uuid)).toBe(1);
  });
});
