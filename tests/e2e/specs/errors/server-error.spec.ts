import type { Page } from '@playwright/test';

import { expect, test } from '../../fixtures/test.ts';

// A page whose code cannot load (a deploy replaced it) shows the 500 page after one reload, in the
// user's words (lib/chunk-load.ts), with the way back.
const breakFaqPage = (page: Page) => page.route('**/assets/faq-*.js', (route) => route.abort());

const heading = (page: Page) =>
  page.getByRole('heading', {
    level: 1,
    name: 'A new version of CCP is available. Reload the page to continue.',
  });

test('signed out: the 500 page leads to the sign-in', async ({ page, loginPage }) => {
  await breakFaqPage(page);
  await page.goto('/faq');
  await expect(heading(page)).toBeVisible();
  const back = page.getByRole('link', { name: 'Go to sign in' });
  await expect(back).toHaveAttribute('href', '/login');
  await back.click();
  await expect(page).toHaveURL('/login');
  await expect(loginPage.email).toBeVisible();
});

test.describe('signed in', () => {
  test.use({ account: 'free' });

  test('the 500 page leads to the dashboard', async ({ page }) => {
    await breakFaqPage(page);
    await page.goto('/faq');
    await expect(heading(page)).toBeVisible();
    const back = page.getByRole('link', { name: 'Go to the dashboard' });
    await expect(back).toHaveAttribute('href', '/dashboard');
    await back.click();
    await expect(page).toHaveURL('/dashboard');
    await expect(page.getByRole('heading', { name: /^Welcome, /, level: 1 })).toBeVisible();
  });
});
