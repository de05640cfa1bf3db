import { expect, test } from '../../fixtures/test.ts';

// A lazy chunk that does not load (apps/web/src/lib/chunk-load.ts): a tab from before a redeploy
// reloads once to the new build; a lost network says so; the browser's own words never show.

test.use({ account: 'creator' });

test('a page chunk that is gone reloads the app once, then says a new version is there', async ({
  page,
}) => {
  let documents = 0;
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents += 1;
  });
  await page.route(/\/assets\/faq-[^/]+\.js$/, (route) => route.fulfill({ status: 404, body: '' }));
  await page.goto('/faq');
  await expect(
    page.getByRole('heading', {
      name: 'A new version of CCP is available. Reload the page to continue.',
    }),
  ).toBeVisible();
  // The first load, and one reload to the new build: no loop.
  expect(documents).toBe(2);
  await expect(page.getByText('Failed to fetch dynamically imported module')).toHaveCount(0);
});

test('offline, a page that is not loaded yet shows the network error', async ({
  page,
  context,
}) => {
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome, / })).toBeVisible();
  await context.setOffline(true);
  await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'FAQ' }).click();
  await expect(
    page.getByRole('heading', { name: 'Network error. Failed to receive response from server.' }),
  ).toBeVisible();
  await context.setOffline(false);
});
