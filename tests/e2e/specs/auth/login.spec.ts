import { REFRESH_COOKIE_NAME, REFRESH_COOKIE_PATH } from '@ccp/schemas';

import { expect, test } from '../../fixtures/test.ts';
import { ACCOUNTS, DEMO_TOTP_SECRET } from '../../helpers/accounts.ts';
import { localStorageItem, tokenLikeStorage } from '../../helpers/storage.ts';
import { withFreshCode, wrongCode } from '../../helpers/totp.ts';
import { SESSION_FLAG_STORAGE_KEY } from '../../requests/auth.ts';

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
  context,
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
  await expect(page.getByRole('heading', { name: /^Welcome, /, level: 1 })).toBeVisible();
  await appFrame.expectShown();
  // Issue 30: the refresh token is a cookie no script reads, on the refresh call's path only;
  // Web Storage keeps the "maybe signed in" flag and no token.
  const cookies = (await context.cookies()).filter(({ name }) => name === REFRESH_COOKIE_NAME);
  expect(cookies).toEqual([
    expect.objectContaining({ httpOnly: true, sameSite: 'Strict', path: REFRESH_COOKIE_PATH }),
  ]);
  expect(await localStorageItem(page, SESSION_FLAG_STORAGE_KEY)).toBe('1');
  expect(await tokenLikeStorage(page)).toEqual([]);
});

test('the password can be shown to check it, then hidden again', async ({ page, loginPage }) => {
  await loginPage.goto();
  await loginPage.password.fill('Typed-Secret-1');
  await expect(loginPage.password).toHaveAttribute('type', 'password');

  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(loginPage.password).toHaveAttribute('type', 'text');
  await expect(loginPage.password).toHaveValue('Typed-Secret-1');

  await page.getByRole('button', { name: 'Hide password' }).click();
  await expect(loginPage.password).toHaveAttribute('type', 'password');
});

test('too many failed attempts: "Wow, slow down…" in a modal, and the form keeps its input', async ({
  page,
  loginPage,
}) => {
  // Its own address and an unknown account: the lock this test causes touches no other test.
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': '203.0.113.29' });
  const email = 'too.many.attempts@example.com';
  await loginPage.goto();
  await loginPage.email.fill(email);
  await loginPage.password.fill('not-the-password');
  const attempt = async () => {
    const answer = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' && response.url().includes('/oauth/token'),
    );
    await loginPage.signIn.click();
    return (await answer).status();
  };

  // Five failures a minute for one address are allowed (the server's limit)…
  for (let failure = 1; failure <= 5; failure += 1) {
    expect(await attempt()).toBe(400);
    await expect(page.getByRole('alert')).toHaveText('Invalid credentials.');
  }
  // …the sixth is refused before the password is checked.
  expect(await attempt()).toBe(429);
  const modal = page.getByRole('dialog', { name: 'Something went wrong' });
  await expect(modal).toBeVisible();
  await expect(modal).toContainText(
    'Wow, slow down. Too many requests. Please wait and try again.',
  );

  await modal.getByRole('button', { name: 'OK' }).click();
  await expect(modal).toBeHidden();
  await expect(loginPage.email).toHaveValue(email);
  await expect(page).toHaveURL('/login');
});
