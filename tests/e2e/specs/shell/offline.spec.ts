import { expect, test } from '../../fixtures/test.ts';

test('going offline shows the banner, coming back removes it', async ({
  page,
  context,
  loginPage,
}) => {
  await loginPage.goto();
  const banner = page
    .getByRole('alert')
    .filter({ hasText: 'Seems like you are offline. Please check your internet connection.' });
  await expect(banner).toBeHidden();

  await context.setOffline(true);
  await expect(banner).toBeVisible();

  await context.setOffline(false);
  await expect(banner).toBeHidden();
});
