import { MESSAGES } from '@ccp/schemas';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';

import { bearer, countAcceptances, insertTerm } from '../fixtures/organisation.ts';
import type { FixtureTerm } from '../fixtures/organisation.ts';
import { buildTestApp, call, createSignedInUser, createUser } from '../helper.ts';

const TO_ACCEPT = '/api/v1/users/me/terms-and-conditions/to-accept';
const ACCEPT = '/api/v1/users/me/terms-and-conditions';

const MANDATORY = {
  error: {
    status: 422,
    code: 'VALIDATION_FAILED',
    message: MESSAGES.termsMandatory,
    errors: { terms: [MESSAGES.termsMandatory] },
  },
};

const item = (term: FixtureTerm, canAccept: boolean) => ({
  uuid: term.uuid,
  title: term.title,
  content: term.content,
  can_accept: canAccept,
  scope: term.scope,
});

const toAccept = (app: FastifyInstance, headers: Record<string, string>) =>
  call(app, { method: 'GET', url: TO_ACCEPT, headers });
const accept = (app: FastifyInstance, headers: Record<string, string>, payload: unknown) =>
  call(app, { method: 'POST', url: ACCEPT, headers, payload: payload as object });

// Terms are global, so each scenario gets its own app (and database).

describe('terms: authentication', async () => {
  const app = await buildTestApp();

  it.each([
    ['GET', TO_ACCEPT],
    ['POST', ACCEPT],
  ] as const)('answers 401 without a token: %s %s', async (method, url) => {
    const response = await call(app, {
      method,
      url,
      ...(method === 'POST' ? { payload: [] } : {}),
    });
    expect(response.statusCode).toBe(401);
    expect(response.json).toEqual({
      error: { status: 401, code: 'UNAUTHENTICATED', message: 'Unauthenticated.' },
    });
  });
});

describe('terms: an administrator accepts', async () => {
  const app = await buildTestApp();
  const admin = await createSignedInUser(app);
  const colleague = await createUser(app, admin.company, { isAdmin: false });
  const outsider = await createSignedInUser(app);
  const companyTerm = await insertTerm(app, { scope: 'company', title: 'Data processing' });
  const userTerm = await insertTerm(app, { scope: 'user', title: 'Acceptable use', position: 1 });
  // Not yet published: nobody sees it, nobody may accept it.
  const future = await insertTerm(app, {
    scope: 'user',
    title: 'Next year',
    publishedAt: '2027-01-01T00:00:00.000Z',
  });

  it('lists the pending terms, both acceptable, in position order', async () => {
    const response = await toAccept(app, admin.headers);
    expect(response.statusCode).toBe(200);
    expect(response.json).toEqual({ data: [item(companyTerm, true), item(userTerm, true)] });
  });

  it('refuses an empty list while acceptable terms are pending, storing nothing', async () => {
    const response = await accept(app, admin.headers, []);
    expect(response.statusCode).toBe(422);
    expect(response.json).toEqual(MANDATORY);
    expect(await countAcceptances(app)).toBe(0);
  });

  it('refuses a list missing one acceptable term, storing nothing', async () => {
    const response = await accept(app, admin.headers, [{ uuid: companyTerm.uuid }]);
    expect(response.statusCode).toBe(422);
    expect(response.json).toEqual(MANDATORY);
    expect(await countAcceptances(app)).toBe(0);
  });

  it('answers 422 for an unknown or unpublished uuid, storing nothing', async () => {
    const response = await accept(app, admin.headers, [
      { uuid: companyTerm.uuid },
      { uuid: userTerm.uuid },
      { uuid: future.uuid },
    ]);
    expect(response.statusCode).toBe(422);
    expect(response.json).toEqual({
      error: {
        status: 422,
        code: 'VALIDATION_FAILED',
        message: MESSAGES.termsInvalid,
        errors: { '2.uuid': [MESSAGES.termsInvalid] },
      },
    });
    expect(await countAcceptances(app)).toBe(0);
  });

  it('accepts every pending term; the list is then empty', async () => {
    const response = await accept(app, admin.headers, [
      { uuid: companyTerm.uuid },
      { uuid: userTerm.uuid },
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json).toEqual({ data: { accepted: [companyTerm.uuid, userTerm.uuid] } });
    const rows = await app.db
      .selectFrom('terms_acceptances')
      .select(['term_uuid', 'company_uuid', 'user_uuid', 'accepted_at'])
      .orderBy('term_uuid')
      .execute();
    expect(rows).toEqual(
      [companyTerm.uuid, userTerm.uuid].sort().map((term_uuid) => ({
        term_uuid,
        company_uuid: admin.company.uuid,
        user_uuid: admin.user.uuid,
        accepted_at: '2026-11-22T09:00:00.000Z',
      })),
    );
    expect((await toAccept(app, admin.headers)).json).toEqual({ data: [] });
  });

  it('clears the company term for every user of the company, not their user terms', async () => {
    const response = await toAccept(app, await bearer(app, colleague));
    expect(response.json).toEqual({ data: [item(userTerm, true)] });
  });

  it('leaves other companies untouched', async () => {
    const response = await toAccept(app, outsider.headers);
    expect(response.json).toEqual({ data: [item(companyTerm, true), item(userTerm, true)] });
  });

  it('accepts the wrapped form {terms: [...]} too', async () => {
    const headers = await bearer(app, colleague);
    const response = await accept(app, headers, { terms: [{ uuid: userTerm.uuid }] });
    expect(response.statusCode).toBe(200);
    expect(response.json).toEqual({ data: { accepted: [userTerm.uuid] } });
    expect((await toAccept(app, headers)).json).toEqual({ data: [] });
  });

  it('does not store a term accepted twice', async () => {
    const before = await countAcceptances(app);
    const response = await accept(app, admin.headers, [
      { uuid: userTerm.uuid },
      { uuid: userTerm.uuid },
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json).toEqual({ data: { accepted: [userTerm.uuid] } });
    expect(await countAcceptances(app)).toBe(before);
  });

  it('shows a newly published term', async () => {
    app.testClock.set('2027-01-01T00:00:00.000Z');
    try {
      const response = await toAccept(app, await bearer(app, admin.user));
      expect(response.json).toEqual({ data: [item(future, true)] });
    } finally {
      app.testClock.set('2026-11-22T09:00:00.000Z');
    }
  });
});

describe('terms: a user who is not an administrator', async () => {
  const app = await buildTestApp();
  const member = await createSignedInUser(app, { isAdmin: false });
  const companyTerm = await insertTerm(app, { scope: 'company', title: 'Data processing' });
  const userTerm = await insertTerm(app, { scope: 'user', title: 'Acceptable use', position: 1 });

  it('may not accept the company term', async () => {
    const response = await toAccept(app, member.headers);
    expect(response.json).toEqual({ data: [item(companyTerm, false), item(userTerm, true)] });
  });

  it('answers 403 when posting the company term, storing nothing', async () => {
    const response = await accept(app, member.headers, [
      { uuid: companyTerm.uuid },
      { uuid: userTerm.uuid },
    ]);
    expect(response.statusCode).toBe(403);
    expect(response.json).toEqual({
      error: { status: 403, code: 'FORBIDDEN', message: MESSAGES.termsNotAcceptable },
    });
    expect(await countAcceptances(app)).toBe(0);
  });

  it('refuses an empty list while their user term is pending', async () => {
    const response = await accept(app, member.headers, []);
    expect(response.statusCode).toBe(422);
    expect(response.json).toEqual(MANDATORY);
    expect(await countAcceptances(app)).toBe(0);
  });

  it.each([
    ['a malformed uuid', [{ uuid: 'not-a-uuid' }], '0.uuid'],
    ['an unknown uuid', [{ uuid: '0b9e8a52-2f7a-4e0c-9a53-3e2f1d8c7b61' }], '0.uuid'],
    [
      'an unknown uuid, wrapped',
      { terms: [{ uuid: '0b9e8a52-2f7a-4e0c-9a53-3e2f1d8c7b61' }] },
      'terms.0.uuid',
    ],
  ])('answers 422 for %s', async (_name, payload, path) => {
    const response = await accept(app, member.headers, payload);
    expect(response.statusCode).toBe(422);
    expect(response.json).toEqual({
      error: {
        status: 422,
        code: 'VALIDATION_FAILED',
        message: MESSAGES.termsInvalid,
        errors: { [path]: [MESSAGES.termsInvalid] },
      },
    });
    expect(await countAcceptances(app)).toBe(0);
  });

  it('answers 422 for a body that is not a list', async () => {
    const response = await accept(app, member.headers, { uuid: userTerm.uuid });
    expect(response.statusCode).toBe(422);
    expect(response.json.error.code).toBe('VALIDATION_FAILED');
    expect(await countAcceptances(app)).toBe(0);
  });

  it('accepts their user term; the company term stays, still not acceptable', async () => {
    const response = await accept(app, member.headers, [{ uuid: userTerm.uuid }]);
    expect(response.statusCode).toBe(200);
    expect(response.json).toEqual({ data: { accepted: [userTerm.uuid] } });
    expect(await countAcceptances(app)).toBe(1);
    expect((await toAccept(app, member.headers)).json).toEqual({
      data: [item(companyTerm, false)],
    });
  });

  it('may then post an empty list: nothing acceptable is pending', async () => {
    const response = await accept(app, member.headers, []);
    expect(response.statusCode).toBe(200);
    expect(response.json).toEqual({ data: { accepted: [] } });
  });

  it('sees the company term cleared once an administrator accepts it', async () => {
    const admin = await createUser(app, { uuid: member.company.uuid });
    const response = await accept(app, await bearer(app, admin), [
      { uuid: companyTerm.uuid },
      { uuid: userTerm.uuid },
    ]);
    expect(response.statusCode).toBe(200);
    expect((await toAccept(app, member.headers)).json).toEqual({ data: [] });
    // Another company still has both.
    const outsider = await createSignedInUser(app, { isAdmin: false });
    expect((await toAccept(app, outsider.headers)).json.data).toHaveLength(2);
  });
});
