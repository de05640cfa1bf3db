import type { Page } from '@playwright/test';

import { expect, test } from '../../fixtures/test.ts';
import { apiData } from '../../requests/api.ts';

test.use({ account: 'creator' });

/** The error shown under a form field, found by the field's label. */
const fieldError = (page: Page, label: string) =>
  page
    .locator('.ant-form-item')
    .filter({ has: page.getByLabel(label) })
    .locator('.ant-form-item-explain-error');

test('the shared schema’s rule and the API’s 422 both show under the field', async ({
  page,
  tokens,
}) => {
  await page.goto('/learners/list/create');
  await expect(page.getByRole('heading', { level: 1, name: 'New learners list' })).toBeVisible();
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/v1/learners-lists')) {
      posts.push(request.url());
    }
  });

  // The client-side rule comes from @ccp/schemas: nothing is sent.
  await page.getByRole('button', { name: 'Create list' }).click();
  await expect(fieldError(page, 'Name')).toHaveText('The name is required.');
  expect(posts).toEqual([]);

  // A name another list has: only the server knows, and its 422 lands under the field.
  const [existing] = await apiData<{ name: string }[]>(
    page.request,
    tokens!.access_token,
    '/api/v1/learners-lists',
  );
  await page.getByLabel('Name').fill(existing!.name.toUpperCase());
  const answer = page.waitForResponse((response) =>
    response.url().endsWith('/api/v1/learners-lists'),
  );
  await page.getByRole('button', { name: 'Create list' }).click();
  expect((await answer).status()).toBe(422);
  await expect(fieldError(page, 'Name')).toHaveText('The name has already been taken.');
  // Under the field, not in an error modal as well.
  await expect(page.getByRole('dialog')).toHaveCount(0);

  const name = `Field test ${Date.now()}`;
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Create list' }).click();
  await expect(
    page.locator('.ant-notification-notice').filter({ hasText: `The list “${name}” was created.` }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/learners\?list=[0-9a-f-]{36}$/);
});
