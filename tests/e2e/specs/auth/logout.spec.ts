import { expect, test } from '../../fixtures/test.ts';
import { ACCOUNTS, DEMO_TOTP_SECRET } from '../../helpers/accounts.ts';
import { withFreshCode } from '../../helpers/totp.ts';
import { TOKENS_STORAGE_KEY } from '../../requests/auth.ts';

test.use({ account: 'creator', freshSession: true });

test('log out: back to /login, tokens gone and revoked, Back does not show the dashboard', async ({
  page,
  appFrame,
  loginPage,
}) => {
  // Signing in again waits for an authenticator code no other test has spent (up to a period).
  test.slow();
  await appFrame.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Welcome, Chiara!', level: 1 })).toBeVisible();
  const readTokens = () =>
    page.evaluate((key) => window.localStorage.getItem(key), TOKENS_STORAGE_KEY);
  const { access_token: accessToken } = JSON.parse((await readTokens()) ?? '{}') as {
    access_token?: string;
  };

  await appFrame.logOut.click();
  await expect(page).toHaveURL('/login');
  await expect(loginPage.email).toBeVisible();
  expect(await readTokens()).toBeNull();
  const me = await page.request.get('/api/v1/users/me', {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  expect(me.status()).toBe(401);

  await page.goBack();
  await expect(page).toHaveURL('/login');
  await expect(loginPage.email).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Welcome, Chiara!' })).toBeHidden();
  await expect(appFrame.nav).toBeHidden();

  // Signing in again on the same page (the app's own /login, not a fresh load) works as well.
  await loginPage.submitCredentials('creator');
  await withFreshCode(ACCOUNTS.creator, DEMO_TOTP_SECRET, async (code) => {
    await loginPage.submitCode(code);
    await expect(page).toHaveURL('/dashboard');
  });
  await expect(page.getByRole('heading', { name: 'Welcome, Chiara!', level: 1 })).toBeVisible();
  await appFrame.expectShown();
});
