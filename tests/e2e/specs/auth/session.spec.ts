import { REFRESH_COOKIE_NAME, REFRESH_COOKIE_PATH } from '@ccp/schemas';
import type { Page } from '@playwright/test';

import { expect, test } from '../../fixtures/test.ts';
import { localStorageItem, tokenLikeStorage } from '../../helpers/storage.ts';
import { LEGACY_TOKENS_STORAGE_KEY, SESSION_FLAG_STORAGE_KEY } from '../../requests/auth.ts';

// Issue 30: the web app keeps its access token in memory and its refresh token in an HttpOnly
// cookie; a "maybe signed in" flag in localStorage decides whether a page load asks the cookie.

/** Every path the page shows, including the router's in-page navigations. */
const trackPaths = (page: Page): string[] => {
  const paths: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) paths.push(new URL(frame.url()).pathname);
  });
  return paths;
};

/** The calls the page makes to the refresh path. */
const trackRefreshes = (page: Page): string[] => {
  const calls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === REFRESH_COOKIE_PATH) calls.push(request.method());
  });
  return calls;
};

test.describe('signed in', () => {
  test.use({ account: 'creator' });

  test('a reload keeps the user signed in without showing /login, and no token is in Web Storage', async ({
    page,
    context,
    appFrame,
  }) => {
    const welcome = page.getByRole('heading', { name: 'Welcome, Chiara!', level: 1 });
    const paths = trackPaths(page);
    await appFrame.goto('/dashboard');
    await expect(welcome).toBeVisible();

    await page.reload();
    await expect(welcome).toBeVisible();
    await expect(page).toHaveURL('/dashboard');
    expect(paths).not.toContain('/login');

    expect(await tokenLikeStorage(page)).toEqual([]);
    expect(await localStorageItem(page, SESSION_FLAG_STORAGE_KEY)).toBe('1');
    // One cookie, rotated in place by each load (never a second one beside a spent one).
    const cookies = (await context.cookies()).filter(({ name }) => name === REFRESH_COOKIE_NAME);
    expect(cookies).toEqual([expect.objectContaining({ httpOnly: true, sameSite: 'Strict' })]);
  });
});

test('a stranger sends no refresh call; a flag left without its cookie and old stored tokens land quietly on /login', async ({
  page,
  loginPage,
}) => {
  const refreshes = trackRefreshes(page);
  const bearers: string[] = [];
  page.on('request', (request) => {
    const authorization = request.headers().authorization;
    if (authorization) bearers.push(authorization);
  });
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));

  await page.goto('/dashboard');
  await expect(page).toHaveURL('/login');
  await expect(loginPage.email).toBeVisible();
  expect(refreshes).toEqual([]);

  // What a browser may hold: the flag of a session whose cookie expired or was cleared with the
  // site's cookies, and the tokens an earlier version kept in localStorage.
  await page.evaluate(
    ({ flag, legacy }) => {
      window.localStorage.setItem(flag, '1');
      window.localStorage.setItem(
        legacy,
        JSON.stringify({ access_token: 'legacy-access', refresh_token: 'legacy-refresh' }),
      );
    },
    { flag: SESSION_FLAG_STORAGE_KEY, legacy: LEGACY_TOKENS_STORAGE_KEY },
  );
  await page.goto('/learners');
  await expect(page).toHaveURL('/login?to=%2Flearners');
  await expect(loginPage.email).toBeVisible();

  // One try with the cookie, refused; then the flag is gone, and the old tokens were never sent.
  expect(refreshes).toEqual(['POST']);
  expect(await localStorageItem(page, SESSION_FLAG_STORAGE_KEY)).toBeNull();
  expect(await localStorageItem(page, LEGACY_TOKENS_STORAGE_KEY)).toBeNull();
  expect(bearers).toEqual([]);
  // Quietly: no error modal, no toast, nothing thrown.
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText('Something went wrong')).toHaveCount(0);
  expect(pageErrors).toEqual([]);

  // The next load is a stranger's again.
  await page.reload();
  await expect(loginPage.email).toBeVisible();
  expect(refreshes).toEqual(['POST']);
});
