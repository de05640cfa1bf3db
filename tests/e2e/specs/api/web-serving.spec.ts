import { expect, test } from '@playwright/test';

// What the server sends a browser: the app for any page address, its assets compressed and
// cached for good, and API paths that never turn into the app.

test('pages get index.html with the Content Security Policy, revalidated on every visit', async ({
  request,
}) => {
  for (const path of ['/', '/dashboard', '/no/such/page']) {
    const response = await request.get(path, { headers: { accept: 'text/html' } });
    expect(response.status(), path).toBe(200);
    expect(response.headers()['content-type']).toContain('text/html');
    expect(response.headers()['cache-control']).toBe('no-cache');
    expect(response.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(await response.text()).toContain('<div id="root"></div>');
  }
});

test('hashed assets are compressed and cached for a year', async ({ request }) => {
  const html = await (await request.get('/', { headers: { accept: 'text/html' } })).text();
  const entry = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  expect(entry).toBeDefined();
  const response = await request.get(entry ?? '', { headers: { 'accept-encoding': 'gzip, br' } });
  expect(response.status()).toBe(200);
  expect(response.headers()['content-encoding']).toMatch(/^(br|gzip)$/);
  expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
});

test('unknown API paths stay JSON 404s', async ({ request }) => {
  const response = await request.get('/api/v1/no-such-thing', {
    headers: { accept: 'text/html,application/json' },
  });
  expect(response.status()).toBe(404);
  expect(response.headers()['content-type']).toContain('application/json');
});
