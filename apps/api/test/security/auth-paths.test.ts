import http from 'node:http';

import { describe, expect, it } from 'vitest';

import { buildTestApp, call, createSignedInUser } from '../helper.ts';

// Issue 30, item 5: the auth hook judged the raw URL (`startsWith('/api/')`) while the router
// decodes it, so `/%61pi/v1/languages` reached the route without credentials (200 with data).
// Now the matched route decides, and paths that name something other than they seem are refused.

const app = await buildTestApp({ webDist: false });
const base = new URL(await app.listen({ host: '127.0.0.1', port: 0 }));

/** A GET whose path is sent exactly as written. */
const rawGet = (path: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(
      { host: base.hostname, port: base.port, path, method: 'GET' },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.end();
  });

describe('auth on the path the router reaches (issue 30)', () => {
  it.each(['/%61pi/v1/languages', '/api/v1/%6Canguages', '/%41PI/v1/languages'])(
    '%s without credentials answers 401 like /api/v1/languages',
    async (url) => {
      const plain = await call(app, { method: 'GET', url: '/api/v1/languages' });
      expect(plain.statusCode).toBe(401);
      const response = await call(app, { method: 'GET', url });
      // The router either reaches the protected route (401) or nothing (404): never the data.
      expect([401, 404]).toContain(response.statusCode);
      expect(response.json.data).toBeUndefined();
    },
  );

  it('the encoded form of a protected route is protected, and opens with a token', async () => {
    const anonymous = await call(app, { method: 'GET', url: '/%61pi/v1/languages' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json.error.code).toBe('UNAUTHENTICATED');
    const { headers } = await createSignedInUser(app);
    const signed = await call(app, { method: 'GET', url: '/%61pi/v1/languages', headers });
    expect(signed.statusCode).toBe(200);
  });

  it.each(['/api%2Fv1/languages', '/api/v1%2flanguages', '/api/v1%5Clanguages'])(
    '%s answers 400: encoded slashes are refused',
    async (url) => {
      const response = await call(app, { method: 'GET', url });
      expect(response.statusCode).toBe(400);
      expect(response.json.error).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    },
  );

  // app.inject and fetch resolve dot segments before sending; a raw request keeps them.
  it.each([
    '/api/v1/./languages',
    '/api/v1/../v1/languages',
    '/api/v1/%2e%2e/v1/languages',
    '/api/v1/%2E/languages',
    '/x/../api/v1/languages?q=1',
  ])('%s over HTTP answers 400: dot segments are refused', async (path) => {
    const response = await rawGet(path);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body).error).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
  });

  it('keeps the public routes public and a dot in a name or a query allowed', async () => {
    expect((await call(app, { method: 'GET', url: '/api/docs/json' })).statusCode).toBe(200);
    expect((await call(app, { method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    const { headers } = await createSignedInUser(app);
    const search = await call(app, {
      method: 'GET',
      url: '/api/v1/learners?search=a.b%2Fc..d',
      headers,
    });
    expect(search.statusCode).toBe(200);
  });
});
