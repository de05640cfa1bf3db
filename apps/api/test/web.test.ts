import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { afterAll, describe, expect, it } from 'vitest';

import { WEB_CSP } from '../src/plugins/web.ts';
import { buildTestApp, call } from './helper.ts';

// The built web app served next to the API, on a fake dist directory.

const INDEX =
  '<!doctype html><html><head><title>CCP</title></head><body><div id="root"></div></body></html>';
const SCRIPT = 'console.log("app");'.repeat(100);

const fakeDist = () => {
  const root = mkdtempSync(path.join(tmpdir(), 'ccp-web-dist-'));
  mkdirSync(path.join(root, 'assets'));
  writeFileSync(path.join(root, 'index.html'), INDEX);
  writeFileSync(path.join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(root, 'assets', 'index-AbC123.js'), SCRIPT);
  writeFileSync(path.join(root, 'assets', 'index-AbC123.js.gz'), gzipSync(SCRIPT));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  return root;
};

const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('the web app at /', async () => {
  const app = await buildTestApp({ webDist: fakeDist() });

  it('serves index.html at / with the CSP and no caching', async () => {
    const response = await call(app, { method: 'GET', url: '/', headers: html });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toBe(INDEX);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-security-policy']).toBe(WEB_CSP);
  });

  it.each(['/login', '/dashboard', '/courses/create/content', '/no-such-page?x=1'])(
    'lets the app route %s when a browser navigates there (SPA fallback)',
    async (url) => {
      const response = await call(app, { method: 'GET', url, headers: html });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(INDEX);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-security-policy']).toBe(WEB_CSP);
    },
  );

  it('caches content-hashed assets for a year and sends them compressed when accepted', async () => {
    const plain = await call(app, { method: 'GET', url: '/assets/index-AbC123.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers['content-type']).toMatch(/javascript/);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const gzipped = await call(app, {
      method: 'GET',
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('revalidates files without a content hash', async () => {
    const response = await call(app, { method: 'GET', url: '/favicon.svg' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-type']).toBe('image/svg+xml');
    // Revalidated with the ETag: unchanged, nothing is sent again.
    const again = await call(app, {
      method: 'GET',
      url: '/favicon.svg',
      headers: { 'if-none-match': String(response.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers a missing asset with 404, not with the app', async () => {
    const response = await call(app, { method: 'GET', url: '/assets/gone-123.js' });
    expect(response.statusCode).toBe(404);
    expect(response.json.error.code).toBe('ROUTE_NOT_FOUND');
  });

  it.each(['/api/v1/nothing-here', '/api', '/uploads/covers/missing.png'])(
    'keeps %s out of the fallback, even for a browser',
    async (url) => {
      const response = await call(app, { method: 'GET', url, headers: html });
      expect(response.statusCode).toBe(404);
      expect(response.json?.error?.code).toBe('ROUTE_NOT_FOUND');
    },
  );

  it('does not answer HTML to clients that did not ask for it', async () => {
    const response = await call(app, {
      method: 'GET',
      url: '/dashboard',
      headers: { accept: 'application/json' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json.error.code).toBe('ROUTE_NOT_FOUND');
  });

  it('keeps the API working beside it', async () => {
    const health = await call(app, { method: 'GET', url: '/api/health', headers: html });
    expect(health.json).toEqual({ status: 'ok' });
    const docs = await call(app, { method: 'GET', url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    expect(Object.keys(docs.json.paths).some((p: string) => p === '/' || p === '/*')).toBe(false);
  });
});

describe('without a built web app', async () => {
  const empty = mkdtempSync(path.join(tmpdir(), 'ccp-web-empty-'));
  afterAll(() => rmSync(empty, { recursive: true, force: true }));
  const app = await buildTestApp({ webDist: empty });

  it('serves the API only', async () => {
    const response = await call(app, { method: 'GET', url: '/', headers: html });
    expect(response.statusCode).toBe(404);
    expect(response.json.error.code).toBe('ROUTE_NOT_FOUND');
    expect((await call(app, { method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});
