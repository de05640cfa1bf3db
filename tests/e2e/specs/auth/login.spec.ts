import { expect, test } from '../../fixtures/test.ts';
import { ACCOUNTS, DEMO_TOTP_SECRET } from '../../helpers/accounts.ts';
import { withFreshCode, wrongCode } from '../../helpers/totp.ts';
import { TOKENS_STORAGE_KEY } from '../../requests/auth.ts';

// The one place that signs in through the form; every other spec signs in through the API.

test('a wrong password answers "Invalid credentials."', async ({ page, loginPage }) => {
  await loginPage.goto();
  await loginPage.submitCredentials('creator', 'not-the-password');

  await expect(page.getByRole('alert')).toHaveText('Invalid credentials.');
  await expect(loginPage.code).toBeHidden();
  await expect(page).toHaveURL('/login');
});

test('password, then a wrong code ("Invalid OTP"), then the right one opens the dashboard', async ({
  page,
  loginPage,
  appFrame,
}) => {
  await loginPage.goto();
  await loginPage.submitCredentials('creator');
  await expect(loginPage.code).toBeVisible();
  await expect(page).toHaveURL('/login');

  await loginPage.submitCode(wrongCode(DEMO_TOTP_SECRET));
  await expect(page.getByRole('alert')).toHaveText('Invalid OTP');
  await expect(loginPage.code).toHaveValue('');

  await withFreshCode(ACCOUNTS.creator, DEMO_TOTP_SECRET, async (code) => {
    await loginPage.submitCode(code);
    await expect(page).toHaveURL('/dashboard');
  });
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await appFrame.expectShown();
  const stored = await page.evaluate((key) => window.localStorage.getItem(key), TOKENS_STORAGE_KEY);
  expect(JSON.parse(stored ?? '{}')).toHaveProperty('refresh_token');
});
