import net from 'node:net';

import { MESSAGES, ZErrorBodySchema } from '@ccp/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { multipart } from '../fixtures/courses.ts';
import { buildTestApp, call, createSignedInUser } from '../helper.ts';

// Issue 11 §8: every error answers `{error: {status, code, message}}`, including the ones raised
// before a route runs (a path parameter over 100 characters answered Fastify's own 414 body,
// echoing the path) and the ones Node's HTTP parser raises.

describe('errors raised outside the routes', async () => {
  const app = await buildTestApp({ webDist: false });
  const { company, headers } = await createSignedInUser(app);
  const classroom = company.classrooms[0]!.uuid;

  it('answers 404 in the product shape to a path parameter over 100 characters, on any method', async () => {
    const long = 'a'.repeat(150);
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const response = await call(app, {
        method,
        url: `/api/v1/classrooms/${classroom}/courses/${long}`,
        headers,
        ...(method === 'POST' ? { payload: {} } : {}),
      });
      expect({ method, status: response.statusCode, body: response.json }).toEqual({
        method,
        status: 404,
        body: { error: { status: 404, code: 'NOT_FOUND', message: MESSAGES.notFound } },
      });
      expect(response.body).not.toContain(long);
    }
  });

  it.each([
    [
      'a broken percent-encoding in the path',
      { method: 'GET', url: '/api/v1/learners/%E0%A4%A' },
      400,
      'BAD_REQUEST',
      MESSAGES.requestMalformed,
    ],
    [
      'a body that is not JSON',
      {
        method: 'POST',
        url: '/api/v1/learners-lists',
        payload: '{"name":',
        type: 'application/json',
      },
      400,
      'BAD_REQUEST',
      MESSAGES.requestMalformed,
    ],
    [
      'a body of another media type',
      {
        method: 'POST',
        url: '/api/v1/learners-lists',
        payload: '<name/>',
        type: 'application/xml',
      },
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      MESSAGES.unsupportedMediaType,
    ],
    [
      'a body over the limit',
      {
        method: 'POST',
        url: '/api/v1/learners-lists',
        payload: JSON.stringify({ name: 'x'.repeat(11 * 1024 * 1024) }),
        type: 'application/json',
      },
      413,
      'PAYLOAD_TOO_LARGE',
      MESSAGES.payloadTooLarge,
    ],
  ] as const)('answers %s in the product shape', async (_, request, status, code, message) => {
    const response = await call(app, {
      method: request.method,
      url: request.url,
      headers: { ...headers, ...('type' in request ? { 'content-type': request.type } : {}) },
      ...('payload' in request ? { payload: request.payload } : {}),
    });
    expect(response.statusCode).toBe(status);
    expect(response.json).toEqual({ error: { status, code, message } });
  });

  // Found by the fuzz test on PostgreSQL, whose text cannot hold NUL: it answered 500 there.
  it('refuses the NUL character in a body, a query or a form field with 422 naming the field', async () => {
    const cases = [
      {
        method: 'POST',
        url: '/api/v1/learners-lists',
        payload: { name: 'a\u0000b' },
        field: 'name',
      },
      { method: 'GET', url: '/api/v1/learners?search=a%00b', field: 'search' },
      {
        method: 'POST',
        url: `/api/v1/learners-lists`,
        payload: { name: 'ok', learners: ['\u0000'] },
        field: 'learners.0',
      },
    ] as const;
    for (const { field, ...request } of cases) {
      const response = await call(app, { ...request, headers });
      expect({ field, status: response.statusCode, errors: response.json.error?.errors }).toEqual({
        field,
        status: 422,
        errors: { [field]: [MESSAGES.nulCharacter] },
      });
    }
    const form = multipart({ name: 'a\u0000b', description: 'Ten minutes a day.' });
    const response = await call(app, {
      method: 'POST',
      url: `/api/v1/classrooms/${classroom}/courses`,
      headers: { ...headers, ...form.headers },
      payload: form.payload,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json.error.errors).toEqual({ name: [MESSAGES.nulCharacter] });
  });

  describe('over a socket', () => {
    let port = 0;
    beforeAll(async () => {
      await app.listen({ port: 0, host: '127.0.0.1' });
      port = (app.server.address() as net.AddressInfo).port;
    });
    afterAll(() => app.server.closeAllConnections());

    const raw = (bytes: string) =>
      new Promise<string>((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        let data = '';
        socket.on('data', (chunk) => (data += chunk.toString('utf8')));
        socket.on('close', () => resolve(data));
        socket.on('error', () => resolve(data));
        socket.write(bytes);
      });

    it.each([
      ['a broken request line', 'GARBAGE\r\n\r\n'],
      ['a header without a colon', 'GET /api/health HTTP/1.1\r\nHost: x\r\nbroken\r\n\r\n'],
      [
        'headers over the limit',
        `GET /api/health HTTP/1.1\r\nHost: x\r\nX-A: ${'a'.repeat(20_000)}\r\n\r\n`,
      ],
    ])('answers %s that Node refuses in the product shape', async (_, bytes) => {
      const answer = await raw(bytes);
      const status = Number(answer.slice(9, 12));
      expect([400, 431]).toContain(status);
      const body: unknown = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
      expect(ZErrorBodySchema.strict().parse(body)).toEqual({
        error: { status, code: 'BAD_REQUEST', message: MESSAGES.requestMalformed },
      });
    });
  });
});
