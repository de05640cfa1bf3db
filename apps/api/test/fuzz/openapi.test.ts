import { createHash, randomBytes } from 'node:crypto';

import { ZErrorBodySchema } from '@ccp/schemas';
import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';

import { seedDemo } from '../../src/seed/demo.ts';
import { aiLesson } from '../fixtures/ai.ts';
import { startFakeOpenAi } from '../fixtures/fake-openai.ts';
import { buildTestApp, signIn } from '../helper.ts';
import { createRandom, badValues, resolver, validValue } from './values.ts';
import type { Schema, ValueContext } from './values.ts';

// Issue 11: walks the served OpenAPI document and sends every operation invalid and boundary
// values (wrong types, limits ±1, hostile strings, 40,000-id arrays, broken multipart, no or a
// foreign token, another company's ids). It fails on any 5xx, any answer slower than HANG_MS, a
// status or media type the document does not list for the operation, an error body outside
// `{error: {status, code, message, errors?, limit?}}`, a success body the documented schema
// refuses, and any change to the other company's rows. Seeded: CCP_FUZZ_SEED reproduces a run.

const SEED = Number(process.env.CCP_FUZZ_SEED ?? 20_261_111);
/** Cases per operation, sampled from everything the generator can make for it. */
const CASES_PER_OPERATION = Number(process.env.CCP_FUZZ_CASES ?? 120);
const HANG_MS = 10_000;

type Operation = {
  method: string;
  path: string;
  parameters?: {
    name: string;
    in: 'path' | 'query' | 'header';
    required?: boolean;
    schema?: Schema;
  }[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
};

type Case = { label: string } & Pick<InjectOptions, 'method' | 'url' | 'headers' | 'payload'>;

const multipartBody = (parts: { name: string; filename?: string; content: Buffer | string }[]) => {
  const boundary = `fuzz${randomBytes(6).toString('hex')}`;
  const chunks = parts.map((part) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}\r\n\r\n`,
      ),
      Buffer.from(part.content),
      Buffer.from('\r\n'),
    ]),
  );
  return {
    payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
};

// A lone surrogate cannot be percent-encoded; send the invalid UTF-8 it would be instead.
const encodeSegment = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
};

const hash = (rows: unknown) => createHash('sha256').update(JSON.stringify(rows)).digest('hex');

describe('OpenAPI fuzz: every operation with invalid and boundary values', async () => {
  // The AI calls answer from a local fake provider, as a configured server would: without one
  // they answer 503 by design, which would hide whatever comes after.
  const fake = await startFakeOpenAi();
  fake.onChat(({ system, user }) => {
    if (system.includes('instructional designer')) {
      return {
        content: { lessons: Array.from({ length: 30 }, (_, index) => aiLesson(index + 1)) },
      };
    }
    try {
      const { items } = JSON.parse(user) as { items?: unknown };
      if (Array.isArray(items)) return { content: { items } };
    } catch {
      // Not a translation: the writing helpers.
    }
    return { content: { processed: 'ok' } };
  });
  const app = await buildTestApp({
    webDist: false,
    ai: { apiKey: 'sk-fuzz', baseUrl: fake.baseUrl, maxRetryDelayMs: 10 },
  });
  await seedDemo(app.db, { totpSecret: 'JBSWY3DPEHPK3PXP', now: app.clock.now() });
  const document = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
    paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>;
    components?: { schemas?: Record<string, Schema> };
  }>();
  const resolve = resolver(document);

  const userOf = (email: string) =>
    app.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  const owner = await userOf('creator@example.com');
  const stranger = await userOf('globex.admin@example.com');
  // The company's first row of each kind, read again before every operation: the operations
  // before may have deleted the one used so far.
  const idsOf = async (companyUuid: string) => {
    const first = async (
      table: 'classrooms' | 'learners' | 'learners_lists' | 'exports' | 'jobs' | 'channel_tokens',
    ) =>
      (
        await app.db
          .selectFrom(table)
          .select('uuid')
          .where('company_uuid', '=', companyUuid)
          .orderBy('uuid')
          .executeTakeFirst()
      )?.uuid;
    const course = await app.db
      .selectFrom('courses')
      .select(['uuid', 'classroom_uuid'])
      .where('company_uuid', '=', companyUuid)
      .orderBy('uuid')
      .executeTakeFirst();
    return {
      company: companyUuid,
      classroom: course?.classroom_uuid ?? (await first('classrooms')),
      course: course?.uuid,
      learner: await first('learners'),
      list: await first('learners_lists'),
      export: await first('exports'),
      job: await first('jobs'),
      token: await first('channel_tokens'),
    };
  };
  type Ids = Awaited<ReturnType<typeof idsOf>>;
  // An import job, an export and a channel token, so their paths reach real rows.
  {
    const tokens = await signIn(app, owner);
    const headers = { authorization: `Bearer ${tokens.access_token}` };
    const csv = multipartBody([
      {
        name: 'file',
        filename: 'a.csv',
        content: 'first_name,last_name,email,channels\nAda,Lovelace,ada@example.test,slack\n',
      },
    ]);
    for (const setup of [
      {
        method: 'POST',
        url: '/api/v1/learners/imports',
        headers: { ...headers, 'content-type': csv.type },
        payload: csv.payload,
      },
      { method: 'POST', url: '/api/v1/channels/slack/tokens', headers },
    ] as const) {
      const answer = await app.inject(setup);
      if (answer.statusCode >= 300) throw new Error(`setup ${setup.url}: ${answer.body}`);
    }
    const course = (await idsOf(owner.company_uuid)).course;
    const exported = await app.inject({
      method: 'POST',
      url: `/api/v1/analytics/courses/${course}/export-delivery-statistics`,
      headers,
    });
    if (exported.statusCode >= 300) throw new Error(`setup export: ${exported.body}`);
  }
  const theirs = await idsOf(stranger.company_uuid);

  /** Which real id a path parameter or body field names, read from its name and the path. */
  const idKind = (name: string, path: string | null): keyof Ids | undefined => {
    if (/^company/i.test(name)) return 'company';
    if (/^classroom/i.test(name)) return 'classroom';
    if (/^course/i.test(name)) return 'course';
    if (/^list|^lists$|learners_lists/i.test(name)) return 'list';
    if (/^learner/i.test(name)) return 'learner';
    if (/^export/i.test(name)) return 'export';
    if (/^job/i.test(name)) return 'job';
    if (/^token/i.test(name)) return 'token';
    // A bare `id` or `uuid` is read from the path only; in a body it names anything.
    if (path === null) return undefined;
    if (name === 'id') return path.includes('/learners/') ? 'learner' : 'classroom';
    if (name === 'uuid') return path.includes('learners-lists/{uuid}') ? 'list' : 'learner';
    return undefined;
  };

  // The other company's rows: no request of the owner may change them.
  const strangerRows = async () =>
    hash(
      await Promise.all([
        app.db
          .selectFrom('courses')
          .selectAll()
          .where('company_uuid', '=', stranger.company_uuid)
          .orderBy('uuid')
          .execute(),
        app.db
          .selectFrom('learners')
          .selectAll()
          .where('company_uuid', '=', stranger.company_uuid)
          .orderBy('uuid')
          .execute(),
        app.db
          .selectFrom('learners_lists')
          .selectAll()
          .where('company_uuid', '=', stranger.company_uuid)
          .orderBy('uuid')
          .execute(),
        app.db
          .selectFrom('classrooms')
          .selectAll()
          .where('company_uuid', '=', stranger.company_uuid)
          .orderBy('uuid')
          .execute(),
      ]),
    );
  const strangerBefore = await strangerRows();

  // Permanent deletes last, so the other operations still find the rows.
  const operations: Operation[] = Object.entries(document.paths)
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ ...operation, method, path })),
    )
    .sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));

  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false });
  const validators = new Map<string, ValidateFunction>();
  const successCheck = (key: string, schema: Schema) => {
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile(schema);
      validators.set(key, validate);
    }
    return validate;
  };

  /** Every case of one operation, sampled down to CASES_PER_OPERATION (the first ones are kept). */
  const casesOf = (
    operation: Operation,
    random: ReturnType<typeof createRandom>,
    token: string,
    mine: Ids,
  ): Case[] => {
    const context: ValueContext = {
      random,
      resolve,
      idFor: (name) => {
        const kind = idKind(name, null);
        return kind ? mine[kind] : undefined;
      },
    };
    const auth = { authorization: `Bearer ${token}` };
    const pathParams = (operation.parameters ?? []).filter((p) => p.in === 'path');
    const queryParams = (operation.parameters ?? []).filter((p) => p.in === 'query');
    const validPath: Record<string, string> = {};
    for (const param of pathParams) {
      const kind = idKind(param.name, operation.path);
      validPath[param.name] =
        kind && mine[kind] ? mine[kind] : String(validValue(param.schema, context, param.name));
    }
    const urlOf = (path: Record<string, string>, query: Record<string, unknown> = {}) => {
      const filled = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
        encodeSegment(path[name] ?? 'x'),
      );
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) {
        search.append(key, typeof value === 'string' ? value : JSON.stringify(value));
      }
      const text = search.toString();
      return text ? `${filled}?${text}` : filled;
    };
    const validQuery: Record<string, unknown> = {};
    for (const param of queryParams.filter((p) => p.required)) {
      validQuery[param.name] = validValue(param.schema, context, param.name);
    }
    const method = operation.method.toUpperCase() as Case['method'];
    const content = operation.requestBody?.content ?? {};
    const jsonSchema = content['application/json']?.schema;
    const multipartSchema = content['multipart/form-data']?.schema;
    const base = { method, url: urlOf(validPath, validQuery) };
    const json = (body: unknown, label: string): Case => ({
      label,
      ...base,
      headers: { ...auth, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });

    const first: Case[] = [];
    const rest: Case[] = [];
    const validBody = jsonSchema ? validValue(jsonSchema, context) : undefined;
    first.push(
      jsonSchema ? json(validBody, 'valid body') : { label: 'valid', ...base, headers: auth },
      { label: 'no token', ...base, headers: {} },
      { label: 'foreign token', ...base, headers: { authorization: 'Bearer x' } },
    );
    for (const param of pathParams) {
      const kind = idKind(param.name, operation.path);
      if (kind && theirs[kind]) {
        first.push({
          label: `${param.name}: other company's`,
          ...base,
          url: urlOf({ ...validPath, [param.name]: theirs[kind] }, validQuery),
          headers: auth,
        });
      }
      first.push({
        label: `${param.name}: 150 characters`,
        ...base,
        url: urlOf({ ...validPath, [param.name]: 'a'.repeat(150) }, validQuery),
        headers: auth,
      });
      for (const value of badValues(param.schema, context, param.name)) {
        const text = typeof value === 'string' ? value : JSON.stringify(value);
        rest.push({
          label: `${param.name}=${text.slice(0, 40)}`,
          ...base,
          url: urlOf({ ...validPath, [param.name]: text }, validQuery),
          headers: auth,
        });
      }
    }
    for (const param of queryParams) {
      for (const value of badValues(param.schema, context, param.name)) {
        if (Array.isArray(value) && value.length > 100) continue;
        rest.push({
          label: `?${param.name}=${JSON.stringify(value)?.slice(0, 40)}`,
          ...base,
          url: urlOf(validPath, { ...validQuery, [param.name]: value }),
          headers: auth,
        });
      }
    }
    if (jsonSchema) {
      first.push(
        {
          label: 'broken JSON',
          ...base,
          headers: { ...auth, 'content-type': 'application/json' },
          payload: '{"a":',
        },
        {
          label: 'text/plain body',
          ...base,
          headers: { ...auth, 'content-type': 'text/plain' },
          payload: 'hello',
        },
      );
      for (const value of [null, [], 'x', 12345])
        rest.push(json(value, `body=${JSON.stringify(value)}`));
      const schema = resolve(jsonSchema);
      // A body of several forms (`[{uuid}]` or `{terms: [{uuid}]}`) is fuzzed in each of them.
      for (const branch of (schema.anyOf ?? schema.oneOf ?? [schema]).map(resolve)) {
        if (branch.items) {
          for (const value of badValues(branch, context)) {
            rest.push(json(value, `body=${JSON.stringify(value)?.slice(0, 40)}`));
          }
          continue;
        }
        // A fresh valid body for every mutation: names must stay unique, for one.
        const bodyObject = () => {
          const valid = validValue(branch, context);
          return (
            valid && typeof valid === 'object' && !Array.isArray(valid) ? valid : {}
          ) as Record<string, unknown>;
        };
        for (const [key, property] of Object.entries(branch.properties ?? {})) {
          for (const value of badValues(property, context, key)) {
            rest.push(
              json(
                { ...bodyObject(), [key]: value },
                `body.${key}=${JSON.stringify(value)?.slice(0, 40)}`,
              ),
            );
          }
          const inner = resolve(resolve(property).items);
          for (const [innerKey, innerProperty] of Object.entries(inner.properties ?? {})) {
            const item = validValue(inner, context, key) as Record<string, unknown>;
            for (const value of badValues(innerProperty, context, innerKey).slice(0, 12)) {
              rest.push(
                json(
                  { ...bodyObject(), [key]: [{ ...item, [innerKey]: value }] },
                  `body.${key}.0.${innerKey}=${JSON.stringify(value)?.slice(0, 30)}`,
                ),
              );
            }
          }
        }
      }
      if (Array.isArray(schema.anyOf ?? schema.oneOf)) {
        rest.push(json(validValue(jsonSchema, context), 'another branch'));
      }
    }
    if (multipartSchema) {
      const fileField =
        Object.entries(resolve(multipartSchema).properties ?? {}).find(
          ([, property]) => resolve(property).format === 'binary',
        )?.[0] ?? 'file';
      const fields = Object.entries(
        (validValue(multipartSchema, context) as Record<string, unknown> | undefined) ?? {},
      )
        .filter(([key]) => key !== fileField)
        .map(([name, value]) => ({
          name,
          content: typeof value === 'string' ? value : JSON.stringify(value),
        }));
      const upload = (label: string, filename: string, bytes: Buffer | string) => {
        const body = multipartBody([...fields, { name: fileField, filename, content: bytes }]);
        return {
          label,
          ...base,
          headers: { ...auth, 'content-type': body.type },
          payload: body.payload,
        };
      };
      first.push(
        upload('multipart: random bytes', 'a.csv', randomBytes(2048)),
        upload(
          'multipart: zip-looking bytes',
          'a.xlsx',
          Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(512)]),
        ),
        upload('multipart: empty file', 'a.pdf', ''),
        upload(
          'multipart: upper-case name',
          'A.CSV',
          'first_name,last_name,email\nAda,Lovelace,ada@example.test\n',
        ),
        upload(
          'multipart: hostile name',
          '../../<script>.svg',
          '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        ),
        {
          label: 'multipart: no boundary',
          ...base,
          headers: { ...auth, 'content-type': 'multipart/form-data' },
          payload: '--x\r\n',
        },
        {
          label: 'multipart: truncated',
          ...base,
          headers: { ...auth, 'content-type': 'multipart/form-data; boundary=xx' },
          payload: `--xx\r\nContent-Disposition: form-data; name="${fileField}"; filename="a.csv"\r\n\r\nabc`,
        },
      );
    }
    return [...first, ...random.sample(rest, Math.max(0, CASES_PER_OPERATION - first.length))];
  };

  type Failure = { operation: string; label: string; problem: string };

  const check = async (operation: Operation, testCase: Case): Promise<string | null> => {
    let timer: NodeJS.Timeout | undefined;
    const response = await Promise.race([
      app.inject(testCase),
      new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), HANG_MS);
      }),
    ]);
    clearTimeout(timer);
    if (!response) return `no answer within ${HANG_MS} ms`;
    const { statusCode: status } = response;
    if (process.env.CCP_FUZZ_DEBUG)
      console.log(
        status,
        operation.method,
        operation.path,
        testCase.label.slice(0, 60),
        response.body.slice(0, 150),
      );
    if (status >= 500) return `${status}: ${response.body.slice(0, 200)}`;
    const documented =
      operation.responses[String(status)] ??
      operation.responses[`${String(status)[0]}XX`] ??
      operation.responses.default;
    if (!documented)
      return `status ${status} is not documented (${Object.keys(operation.responses).join(', ')})`;
    const media = String(response.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim();
    if (documented.content && !(media in documented.content)) {
      return `${status} answered ${media}, documented ${Object.keys(documented.content).join(', ')}`;
    }
    if (status >= 400) {
      let body: unknown;
      try {
        body = JSON.parse(response.body);
      } catch {
        return `${status} body is not JSON: ${response.body.slice(0, 120)}`;
      }
      const parsed = ZErrorBodySchema.strict().safeParse(body);
      const shape =
        parsed.success && parsed.data.error.status === status && parsed.data.error.message !== '';
      if (!shape || Object.keys(body as object).length !== 1) {
        return `${status} error body out of shape: ${response.body.slice(0, 200)}`;
      }
      return null;
    }
    const schema = documented.content?.[media]?.schema;
    if (media === 'application/json' && schema) {
      const validate = successCheck(`${operation.method} ${operation.path} ${status}`, schema);
      if (!validate(JSON.parse(response.body))) {
        return `${status} body does not match the documented schema: ${ajv.errorsText(validate.errors).slice(0, 200)}`;
      }
    }
    return null;
  };

  it(`answers every case without a 5xx, a hang or an undocumented answer (seed ${SEED})`, async () => {
    const failures: Failure[] = [];
    let sent = 0;
    for (const [index, operation] of operations.entries()) {
      const random = createRandom(SEED + index);
      // A fresh sign-in per operation: logout and the 2FA calls end the one they are sent with.
      const tokens = await signIn(app, owner);
      const mine = await idsOf(owner.company_uuid);
      for (const testCase of casesOf(operation, random, tokens.access_token, mine)) {
        sent += 1;
        const problem = await check(operation, testCase);
        if (problem) {
          failures.push({
            operation: `${operation.method.toUpperCase()} ${operation.path}`,
            label: testCase.label,
            problem,
          });
        }
      }
    }
    expect(sent).toBeGreaterThan(operations.length * 10);
    expect(failures.slice(0, 40)).toEqual([]);
    // Nothing the owner sent, with the other company's ids or otherwise, changed its rows.
    expect(await strangerRows()).toBe(strangerBefore);
  }, 240_000);
});
