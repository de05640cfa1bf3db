import { expect, test } from '../../fixtures/test.ts';

// Spec §2 route guards. The third one (signed in without 2FA) is in onboarding.spec.ts, with the
// only account that has no 2FA yet.

test.describe('signed out', () => {
  test('authenticated pages send to /login, remembering the page', async ({ page, loginPage }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL('/login');
    await expect(loginPage.email).toBeVisible();

    await page.goto('/learners');
    await expect(page).toHaveURL('/login?to=%2Flearners');

    await page.goto('/2fa');
    await expect(page).toHaveURL('/login');
  });
});

test.describe('signed in', () => {
  test.use({ account: 'globexAdmin' });

  test('/login and /2fa send to the dashboard, or back to the remembered page', async ({
    page,
  }) => {
    await page.goto('/login');
    await expect(page).toHaveURL('/dashboard');

    await page.goto('/2fa');
    await expect(page).toHaveURL('/dashboard');

    await page.goto('/login?to=%2Finsights');
    await expect(page).toHaveURL('/insights');
  });
});
