import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { seedDemo } from '../../src/seed/demo.ts';
import { buildTestApp, signIn } from '../helper.ts';

// Issue 11, "passed and to keep passing": tenant isolation (every operation of the served
// document sent with another company's ids: 0 leaks, 0 rows changed) and SQL injection in query
// parameters (0 errors, 0 leaks). Run on the demo data, where two companies have everything.

type Operation = {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, unknown> };
};

const INJECTIONS = [
  "' OR '1'='1",
  "1' OR 1=1 --",
  "'; DROP TABLE learners; --",
  '1) UNION SELECT uuid, email, 1, 1 FROM learners --',
  '" OR ""="',
  "%' OR company_uuid LIKE '%",
  '\\',
  '1; SELECT pg_sleep(5) --',
];

describe('tenant isolation and SQL injection', async () => {
  const app = await buildTestApp({ webDist: false });
  await seedDemo(app.db, { totpSecret: 'JBSWY3DPEHPK3PXP', now: app.clock.now() });
  const document = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
    paths: Record<string, Record<string, Operation>>;
  }>();
  const userOf = (email: string) =>
    app.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  const owner = await userOf('globex.admin@example.com');
  const victim = await userOf('creator@example.com');

  // Everything of the victim's company that an answer must never show.
  const victimIds = async () => {
    const of = (table: 'classrooms' | 'courses' | 'learners' | 'learners_lists') =>
      app.db
        .selectFrom(table)
        .select('uuid')
        .where('company_uuid', '=', victim.company_uuid)
        .execute();
    const rows = await Promise.all([
      of('classrooms'),
      of('courses'),
      of('learners'),
      of('learners_lists'),
    ]);
    return rows.flat().map((row) => row.uuid);
  };
  const victimEmails = (
    await app.db
      .selectFrom('learners')
      .select('email')
      .where('company_uuid', '=', victim.company_uuid)
      .execute()
  )
    .map((row) => row.email)
    .filter((email): email is string => email !== null);
  const snapshot = async () =>
    createHash('sha256')
      .update(
        JSON.stringify(
          await Promise.all(
            (
              [
                'courses',
                'lessons',
                'learners',
                'learners_lists',
                'learners_list_members',
                'classrooms',
                'terms_acceptances',
              ] as const
            ).map((table) => app.db.selectFrom(table).selectAll().execute()),
          ),
        ),
      )
      .digest('hex');

  const [classroom, course, learner, list] = await Promise.all(
    (['classrooms', 'courses', 'learners', 'learners_lists'] as const).map(
      async (table) =>
        (
          await app.db
            .selectFrom(table)
            .select('uuid')
            .where('company_uuid', '=', victim.company_uuid)
            .orderBy('uuid')
            .executeTakeFirstOrThrow()
        ).uuid,
    ),
  );
  const courseRow = await app.db
    .selectFrom('courses')
    .select(['uuid', 'classroom_uuid'])
    .where('uuid', '=', course!)
    .executeTakeFirstOrThrow();
  const foreign = (name: string, path: string): string => {
    if (/^company/i.test(name)) return victim.company_uuid;
    if (/^classroom/i.test(name)) return courseRow.classroom_uuid;
    if (/^course/i.test(name)) return courseRow.uuid;
    if (/^list/i.test(name)) return list!;
    if (name === 'id') return path.includes('/learners/') ? learner! : classroom!;
    if (name === 'uuid') return path.includes('learners-lists') ? list! : learner!;
    return learner!;
  };

  it('answers another company’s ids with 403 or 404 on every operation, showing and changing nothing', async () => {
    const before = await snapshot();
    const secrets = [...(await victimIds()), ...victimEmails];
    const leaks: string[] = [];
    let sent = 0;
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const params = (operation.parameters ?? []).filter((param) => param.in === 'path');
        if (params.length === 0 || path.includes('{channel}') || path.includes('{function}'))
          continue;
        const url = path.replace(/\{(\w+)\}/g, (_, name: string) => foreign(name, path));
        const tokens = await signIn(app, owner);
        const hasBody = Boolean(operation.requestBody);
        const send = (target: string) =>
          app.inject({
            method: method.toUpperCase() as 'GET',
            url: target,
            headers: {
              authorization: `Bearer ${tokens.access_token}`,
              ...(hasBody ? { 'content-type': 'application/json' } : {}),
            },
            ...(hasBody ? { payload: '{}' } : {}),
          });
        const response = await send(url);
        // A body refused before any lookup (422) is no leak when ids that exist nowhere get the
        // very same answer.
        const nowhere = await send(path.replace(/\{(\w+)\}/g, () => crypto.randomUUID()));
        sent += 1;
        const leaked = secrets.filter(
          (secret) => response.body.includes(secret) && !url.includes(secret),
        );
        const sameAsNowhere =
          response.statusCode === nowhere.statusCode && response.body === nowhere.body;
        if (!([403, 404].includes(response.statusCode) || sameAsNowhere) || leaked.length > 0) {
          leaks.push(`${method.toUpperCase()} ${path}: ${response.statusCode} ${response.body}`);
        }
      }
    }
    expect(sent).toBeGreaterThan(30);
    expect(leaks).toEqual([]);
    expect(await snapshot()).toBe(before);
  });

  it('answers SQL injection in every query parameter without an error, a leak or a change', async () => {
    const before = await snapshot();
    const secrets = await victimIds();
    const problems: string[] = [];
    const tokens = await signIn(app, owner);
    for (const [path, methods] of Object.entries(document.paths)) {
      const operation = methods.get;
      const query = (operation?.parameters ?? []).filter((param) => param.in === 'query');
      if (!operation || query.length === 0) continue;
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
        // The caller's own rows, so the query runs as far as it can.
        name === 'function'
          ? 'learners'
          : name === 'channel'
            ? 'slack'
            : '00000000-0000-4000-8000-000000000000',
      );
      const own = await app.db
        .selectFrom('classrooms')
        .select('uuid')
        .where('company_uuid', '=', owner.company_uuid)
        .executeTakeFirstOrThrow();
      const target = url.replace(/\/classrooms\/[^/]+/, `/classrooms/${own.uuid}`);
      for (const param of query) {
        for (const injection of INJECTIONS) {
          const response = await app.inject({
            method: 'GET',
            url: `${target}?${param.name}=${encodeURIComponent(injection)}`,
            headers: { authorization: `Bearer ${tokens.access_token}` },
          });
          const leaked = secrets.filter((secret) => response.body.includes(secret));
          if (response.statusCode >= 500 || leaked.length > 0) {
            problems.push(
              `${path}?${param.name}=${injection}: ${response.statusCode} ${leaked.length}`,
            );
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(await snapshot()).toBe(before);
  });
});
