import { describe, expect, it } from 'vitest';

import { buildTestApp, call } from '../helper.ts';

describe('GET /api/health', async () => {
  const app = await buildTestApp();

  it('answers ok without a token', async () => {
    const response = await call(app, { method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json).toEqual({ status: 'ok' });
  });

  it('answers the spec error body for an unknown API route', async () => {
    const response = await call(app, { method: 'GET', url: '/api/v1/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json).toEqual({
      error: {
        status: 404,
        code: 'ROUTE_NOT_FOUND',
        message: 'The requested resource was not found.',
      },
    });
  });

  it('serves the OpenAPI document', async () => {
    const response = await call(app, { method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    expect(response.json.openapi).toMatch(/^3\./);
    expect(Object.keys(response.json.paths)).toContain('/api/health');
  });
});
