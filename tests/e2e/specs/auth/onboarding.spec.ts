import type { Page } from '@playwright/test';

import { expect, test } from '../../fixtures/test.ts';
import { ACCOUNTS } from '../../helpers/accounts.ts';
import { withSetupCodes, wrongCode } from '../../helpers/totp.ts';

// new.creator@ is the demo's only account without 2FA: the setup guard, the setup itself, then
// the terms an administrator must accept. In order, once per server (the setup cannot be undone),
// so no retries.
test.describe.configure({ mode: 'serial', retries: 0 });

const TERMS_API = '/api/v1/users/me/terms-and-conditions';

/** The paths the page shows, in order, including the router's in-page navigations. */
const trackPaths = (page: Page): string[] => {
  const paths: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) paths.push(new URL(frame.url()).pathname);
  });
  return paths;
};

/** Follows a link of the app without reloading (the first sign-in step lives in memory only). */
const openInApp = (page: Page, path: string) =>
  page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);

test('signed in without 2FA: every page but /2fa and /logout sends to /2fa', async ({
  page,
  loginPage,
  twoFactorPage,
}) => {
  await loginPage.goto();
  await loginPage.submitCredentials('newCreator');
  await expect(page).toHaveURL('/2fa');
  await expect(twoFactorPage.heading).toBeVisible();
  // A reload keeps the setup: still signed in without 2FA, so still on /2fa with its QR code.
  await page.reload();
  await expect(page).toHaveURL('/2fa');
  await expect(twoFactorPage.qrCode).toBeVisible();
  await page.goto('/dashboard');
  await expect(page).toHaveURL('/2fa');
  await expect(twoFactorPage.heading).toBeVisible();
  const paths = trackPaths(page);

  const footer = page.getByRole('navigation', { name: 'Footer' });
  await footer.getByRole('link', { name: 'Dashboard' }).click();
  await expect.poll(() => paths).toEqual(['/dashboard', '/2fa']);
  await footer.getByRole('link', { name: 'FAQ' }).click();
  await expect.poll(() => paths.slice(2)).toEqual(['/faq', '/2fa']);
  await page.getByRole('link', { name: 'CCP home' }).click();
  await expect.poll(() => paths.slice(4)).toEqual(['/login', '/2fa']);
  await expect(twoFactorPage.heading).toBeVisible();

  await openInApp(page, '/logout');
  await expect(page).toHaveURL('/login');
  await expect(loginPage.email).toBeVisible();
  await page.goto('/2fa');
  await expect(page).toHaveURL('/login');
});

test('2FA setup: wrong codes, then two consecutive codes, a countdown and the dashboard', async ({
  page,
  loginPage,
  twoFactorPage,
}) => {
  await loginPage.goto();
  await loginPage.submitCredentials('newCreator');
  await expect(page).toHaveURL('/2fa');
  await expect(twoFactorPage.qrCode).toBeVisible();
  await expect(twoFactorPage.qrCode).toHaveAttribute('src', /^data:image\/svg\+xml;base64,/);
  // A new secret for this setup: read it as someone typing it into an app would.
  const secret = await twoFactorPage.secret();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);

  await twoFactorPage.submitCodes([wrongCode(secret), wrongCode(secret)]);
  await expect(page.getByRole('alert')).toHaveText('Entered codes are wrong');
  await expect(twoFactorPage.firstCode).toHaveValue('');

  await withSetupCodes(ACCOUNTS.newCreator, secret, async (codes) => {
    await twoFactorPage.submitCodes(codes);
    await expect(twoFactorPage.done).toBeVisible();
  });
  const countdown = twoFactorPage.done.getByText(
    /You will be taken to the dashboard in \d+ seconds?\./,
  );
  await expect(countdown).toBeVisible();
  const first = await countdown.innerText();
  await expect(countdown).not.toHaveText(first);
  await expect(page).toHaveURL('/dashboard', { timeout: 10_000 });
});

test.describe('terms an administrator must accept', () => {
  test.use({ account: 'newCreator' });

  test('unticked: "You must accept…" and nothing sent; ticked: accepted and gone', async ({
    page,
    termsModal,
  }) => {
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === TERMS_API) {
        posts.push(request.url());
      }
    });
    await page.goto('/dashboard');
    await expect(termsModal.dialog).toBeVisible();
    await expect(termsModal.dialog).toContainText(
      'Please read and accept the following terms to continue using CCP.',
    );
    await expect(termsModal.closeIcon).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(termsModal.dialog).toBeVisible();

    await termsModal.accept.click();
    await expect(termsModal.dialog.getByRole('alert')).toHaveText(
      'You must accept mandatory terms and conditions.',
    );
    expect(posts).toEqual([]);

    const term = termsModal.dialog.getByRole('checkbox');
    await expect(term).toHaveCount(1);
    await term.check();
    await expect(termsModal.dialog.getByRole('alert')).toBeHidden();
    const accepted = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' && new URL(response.url()).pathname === TERMS_API,
    );
    await termsModal.accept.click();
    expect((await accepted).ok()).toBe(true);
    await expect(termsModal.dialog).toBeHidden();

    const listed = page.waitForResponse((response) =>
      response.url().endsWith(`${TERMS_API}/to-accept`),
    );
    await page.reload();
    expect(await (await listed).json()).toEqual({ data: [] });
    await expect(page.getByRole('heading', { name: 'Welcome, Liam!', level: 1 })).toBeVisible();
    await expect(termsModal.dialog).toBeHidden();
  });
});
