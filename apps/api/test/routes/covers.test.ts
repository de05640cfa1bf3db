import { readFileSync } from 'node:fs';
import path from 'node:path';

import { MESSAGES } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { multipart } from '../fixtures/courses.ts';
import { buildTestApp, call, createSignedInUser } from '../helper.ts';

// Issue 11 §9: an uploaded SVG cover kept its <script>, and covers were served to anyone with a
// guessable-looking name. SVGs are rebuilt from an allow-list on upload; names carry 256 random
// bits; nothing lists them and the answer keeps them out of referrers and shared caches.

const HOSTILE_SVG = `<?xml version="1.0"?>
<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaaaaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="100" viewBox="0 0 200 100" onload="alert(1)">
  <script>alert(document.cookie)</script>
  <style>@import url(https://evil.example/x.css);</style>
  <foreignObject width="10" height="10"><iframe src="https://evil.example"></iframe></foreignObject>
  <a href="javascript:alert(1)"><rect width="10" height="10" onclick="alert(1)"/></a>
  <image href="https://evil.example/track.png" width="1" height="1"/>
  <use xlink:href="https://evil.example/sprite.svg#icon"/>
  <linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient>
  <rect width="200" height="100" fill="url(#g)" stroke="url(https://evil.example/p)"/>
  <text x="10" y="50">&b;</text>
</svg>`;

describe('cover images', async () => {
  const app = await buildTestApp();
  const { company, headers } = await createSignedInUser(app);
  const upload = (content: string) => {
    const body = multipart(
      { name: 'Negotiation', description: 'Ten minutes a day.' },
      { filename: 'cover.svg', contentType: 'image/svg+xml', content },
    );
    return call(app, {
      method: 'POST',
      url: `/api/v1/classrooms/${company.classrooms[0]!.uuid}/courses`,
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
  };

  it('stores an SVG cover rebuilt from the allow-list: no script, handler or outside reference', async () => {
    const response = await upload(HOSTILE_SVG);
    expect(response.statusCode).toBe(201);
    const image: string = response.json.data.image;
    expect(image).toMatch(/^\/uploads\/covers\/[A-Za-z0-9_-]{43}\.svg$/);
    const stored = readFileSync(path.join(app.dataDir, image), 'utf8');
    for (const banned of [
      'script',
      'onload',
      'onclick',
      'javascript:',
      'foreignObject',
      'iframe',
      'evil.example',
      '@import',
      '<image',
      'ENTITY',
    ]) {
      expect({ banned, found: stored.includes(banned) }).toEqual({ banned, found: false });
    }
    // The drawing stays: its root, gradient and shapes.
    expect(stored).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(stored).toContain('viewBox="0 0 200 100"');
    expect(stored).toContain('fill="url(#g)"');
    expect(stored).toContain('<linearGradient id="g">');
  });

  it('refuses an SVG that is nothing once cleaned', async () => {
    const response = await upload(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>'.replace(
        /<svg[^>]*>/,
        '<svg:svg xmlns:svg="http://www.w3.org/2000/svg" width="10" height="10">',
      ),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json.error.errors).toEqual({ image: [MESSAGES.imageType] });
  });

  it('serves covers inert, unlisted and kept out of referrers and shared caches', async () => {
    const response = await upload(HOSTILE_SVG);
    const served = await app.inject({ method: 'GET', url: response.json.data.image });
    expect(served.statusCode).toBe(200);
    expect(served.headers).toMatchObject({
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-resource-policy': 'same-origin',
      'cache-control': 'private, max-age=86400',
    });
    for (const url of ['/uploads/', '/uploads/covers/', '/uploads/covers']) {
      const listing = await call(app, { method: 'GET', url });
      expect({ url, status: listing.statusCode }).toEqual({ url, status: 404 });
      expect(listing.json.error.code).toBe('ROUTE_NOT_FOUND');
    }
  });
});
