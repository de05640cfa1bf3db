import { REFRESH_COOKIE_PATH } from '@ccp/schemas';

import { expect, test } from '../../fixtures/test.ts';
import { ACCOUNTS, DEMO_TOTP_SECRET } from '../../helpers/accounts.ts';
import { localStorageItem } from '../../helpers/storage.ts';
import { withFreshCode } from '../../helpers/totp.ts';
import { AppFrame } from '../../pom/app-frame.ts';
import { LoginPage } from '../../pom/login-page.ts';
import { SESSION_FLAG_STORAGE_KEY, refreshCookieOf } from '../../requests/auth.ts';

test.use({ account: 'creator', freshSession: true });

test('log out: back to /login in this tab and the other, the cookie gone and the session revoked, Back does not show the dashboard', async ({
  page,
  context,
  appFrame,
  loginPage,
}) => {
  // Signing in again waits for an authenticator code no other test has spent (up to a period).
  test.slow();
  // The app keeps its access token in memory only: the one its first call got from the cookie.
  const resumed = page.waitForResponse(
    (response) => new URL(response.url()).pathname === REFRESH_COOKIE_PATH && response.ok(),
  );
  await appFrame.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Welcome, Chiara!', level: 1 })).toBeVisible();
  const { data } = (await (await resumed).json()) as { data: { access_token: string } };
  expect(await refreshCookieOf(context)).not.toBeNull();
  // A second tab of the same browser, signed in by the same cookie.
  const other = await context.newPage();
  await other.goto('/learners');
  await expect(new AppFrame(other).nav).toBeVisible();

  // The user works in one tab at a time: a tab in the background may wait for the screen.
  await page.bringToFront();
  await appFrame.logOut.click();
  await expect(page).toHaveURL('/login');
  await expect(loginPage.email).toBeVisible();
  // The other tab heard the flag go and left, remembering where it was.
  await other.bringToFront();
  await expect(other).toHaveURL('/login?to=%2Flearners');
  await expect(new LoginPage(other).email).toBeVisible();
  await other.close();
  await page.bringToFront();
  expect(await refreshCookieOf(context)).toBeNull();
  expect(await localStorageItem(page, SESSION_FLAG_STORAGE_KEY)).toBeNull();
  const me = await page.request.get('/api/v1/users/me', {
    headers: { authorization: `Bearer ${data.access_token}` },
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
