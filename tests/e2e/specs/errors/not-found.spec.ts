import { expect, test } from '../../fixtures/test.ts';

test('signed out: "Page not found" with a way to sign in', async ({ page, loginPage }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await page.getByRole('button', { name: 'Go to sign in' }).click();
  await expect(page).toHaveURL('/login');
  await expect(loginPage.email).toBeVisible();
});

test.describe('signed in', () => {
  test.use({ account: 'free' });

  test('"Page not found" in the app frame, with a way to the dashboard', async ({
    page,
    appFrame,
  }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
    await appFrame.expectShown();
    await page.getByRole('button', { name: 'Go to the dashboard' }).click();
    await expect(page).toHaveURL('/dashboard');
    await expect(page.getByRole('heading', { name: /^Welcome, /, level: 1 })).toBeVisible();
  });
});
