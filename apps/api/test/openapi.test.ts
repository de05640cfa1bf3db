import { MESSAGES } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { buildTestApp, call, createSignedInUser } from './helper.ts';

// Every call of spec §7 that the foundation serves, plus the paths it designed where the spec says "not shown".
const CONTRACT: [method: string, path: string][] = [
  ['post', '/api/v1/users/oauth/token'],
  ['post', '/api/v1/users/oauth/2fa-token'],
  ['post', '/api/v1/users/oauth/logout'],
  ['post', '/api/v1/users/oauth/refresh'],
  ['get', '/api/v1/users/me'],
  ['get', '/api/v1/users/2fa-qrcode'],
  ['post', '/api/v1/users/2fa-verify/'],
  ['get', '/api/v1/company'],
  ['get', '/api/v1/companies/{companyUuid}/classrooms'],
  ['get', '/api/v1/channels'],
  ['get', '/api/v1/languages'],
  ['get', '/api/v1/translations'],
  ['get', '/api/v1/classrooms/{classroomUuid}/courses'],
  ['get', '/api/v1/classrooms/{classroomUuid}/courses/short'],
  ['get', '/api/v1/classrooms/{classroomUuid}/courses/{courseUuid}'],
  ['post', '/api/v1/classrooms/{classroomUuid}/courses'],
  ['post', '/api/v1/classrooms/{classroomUuid}/courses/{courseUuid}'],
  ['post', '/api/v1/classrooms/{classroomUuid}/courses/{courseUuid}/clone'],
  ['delete', '/api/v1/classrooms/{classroomUuid}/courses/{courseUuid}'],
  ['delete', '/api/v1/classrooms/{classroomUuid}/courses/{courseUuid}/soft'],
  ['post', '/api/v1/classrooms/{classroomUuid}/courses/{courseUuid}/restore'],
  ['post', '/api/v1/learners'],
  ['post', '/api/v1/learners/learners-lists/{listUuid}'],
  ['put', '/api/v1/learners/{uuid}'],
  ['get', '/api/v1/learners/{uuid}'],
  ['get', '/api/v1/learners/{uuid}/reachability'],
  ['patch', '/api/v1/learners/{uuid}/learners-lists/sync'],
  ['get', '/api/v1/learners'],
  ['get', '/api/v1/learners/learners-lists/{listUuid}'],
  ['delete', '/api/v1/learners/{uuid}/soft'],
  ['delete', '/api/v1/learners/{uuid}'],
  ['post', '/api/v1/learners/{uuid}/restore'],
  ['get', '/api/v1/learners-lists'],
  ['post', '/api/v1/learners-lists'],
  ['put', '/api/v1/learners-lists/{uuid}'],
  ['delete', '/api/v1/learners-lists/{uuid}'],
  ['get', '/api/v1/users/me/subscriptions'],
  ['post', '/api/v1/users/me/subscriptions/upgrade-request'],
  ['get', '/api/v1/users/me/subscriptions/{function}/usage'],
  ['get', '/api/v1/users/me/terms-and-conditions/to-accept'],
  ['post', '/api/v1/users/me/terms-and-conditions'],
  ['get', '/api/health'],
];

// Path parameter names are ours; compare the shape of the path only.
const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

describe('the OpenAPI document', async () => {
  const app = await buildTestApp();
  const response = await call(app, { method: 'GET', url: '/api/docs/json' });
  const paths = response.json.paths as Record<string, Record<string, { responses?: object }>>;
  const documented = new Map(Object.entries(paths).map(([path, ops]) => [shape(path), ops]));

  it.each(CONTRACT)('documents %s %s with its answers', (method, path) => {
    const operations = documented.get(shape(path));
    expect(operations, `${path} is not in /api/docs/json`).toBeDefined();
    expect(Object.keys(operations![method]?.responses ?? {})).not.toHaveLength(0);
  });

  // Issue 11 §7: the document describes every status and media type a route answers.
  it('documents the error body, in the product shape, on every operation', () => {
    const missing = Object.entries(paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => {
          const responses = (operation.responses ?? {}) as Record<string, { content?: object }>;
          return !responses['4XX']?.content || !responses['5XX']?.content;
        })
        .map(([method]) => `${method} ${path}`),
    );
    expect(missing).toEqual([]);
    const error = (paths['/api/v1/learners']!.get!.responses as any)['4XX'].content[
      'application/json'
    ].schema;
    expect(error.required).toEqual(['error']);
    expect(error.properties.error.required).toEqual(['status', 'code', 'message']);
  });

  // Issue 32: the specific error statuses beside the range, so generated clients tell them apart.
  it('names the specific error statuses each route answers beside 4XX', () => {
    const errorStatuses = (path: string, method: string) =>
      Object.keys(paths[path]![method]!.responses ?? {}).filter((status) => /^4\d\d$/.test(status));
    expect(errorStatuses('/api/v1/learners/{uuid}', 'get')).toEqual(['401', '403', '404', '422']);
    expect(errorStatuses('/api/v1/learners', 'get')).toEqual(['401', '403', '422']);
    expect(errorStatuses('/api/v1/users/oauth/token', 'post')).toEqual(['422', '429']);
    expect(errorStatuses('/api/v1/team/members/{uuid}/deactivate', 'post')).toContain('409');
    expect(errorStatuses('/api/health', 'get')).toEqual([]);
    const unauthorized = (paths['/api/v1/learners']!.get!.responses as any)['401'];
    expect(unauthorized.content['application/json'].schema.required).toEqual(['error']);
  });

  it('documents the CSV downloads as text/csv, as they answer', async () => {
    for (const path of [
      '/api/v1/learners/imports/template',
      '/api/v1/learners/imports/{jobUuid}/errors',
    ]) {
      const ok = (paths[path]!.get!.responses as any)['200'];
      expect(Object.keys(ok.content)).toEqual(['text/csv']);
    }
    const { headers } = await createSignedInUser(app);
    const template = await call(app, {
      method: 'GET',
      url: '/api/v1/learners/imports/template',
      headers,
    });
    expect(template.headers['content-type']).toMatch(/^text\/csv/);
  });

  it('documents the course bodies per media type: the image only in multipart', () => {
    for (const [path, method] of [
      ['/api/v1/classrooms/{classroomUuid}/courses', 'post'],
      ['/api/v1/classrooms/{classroomUuid}/courses/{courseUuid}', 'post'],
    ] as const) {
      const content = (paths[path]![method] as any).requestBody.content;
      expect(content['multipart/form-data'].schema.properties.image).toBeDefined();
      expect(content['application/json'].schema.properties.image).toBeUndefined();
    }
  });

  it('refuses an image in a JSON course body instead of ignoring it', async () => {
    const { company, headers } = await createSignedInUser(app);
    for (const image of [true, 12345, 'cover.png']) {
      const response = await call(app, {
        method: 'POST',
        url: `/api/v1/classrooms/${company.classrooms[0]!.uuid}/courses`,
        headers,
        payload: { name: 'Negotiation', description: 'Ten minutes a day.', image },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json.error.errors).toEqual({ image: [MESSAGES.imageMultipartOnly] });
    }
  });

  it('declares bearer authentication', () => {
    expect(response.json.components.securitySchemes.bearer).toEqual({
      type: 'http',
      scheme: 'bearer',
    });
  });

  it('serves the reference UI', async () => {
    const ui = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('swagger-ui');
    const bundle = await app.inject({
      method: 'GET',
      url: '/api/docs/static/swagger-ui-bundle.js',
    });
    expect(bundle.statusCode).toBe(200);
  });
});
