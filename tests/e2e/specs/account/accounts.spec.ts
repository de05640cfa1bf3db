import { PLATFORM } from '@ccp/schemas';

import { expect, test } from '../../fixtures/test.ts';
import { ACCOUNTS, DEMO_PASSWORD, DEMO_TOTP_SECRET } from '../../helpers/accounts.ts';
import { withFreshCode, withSetupCodes } from '../../helpers/totp.ts';
import { linkInLastMailTo, lastMailTo } from '../../requests/outbox.ts';

// Issue 17 in the browser: a forgotten password and a lost phone without support, and a team
// built within the plan's seats.

test.describe('signed out', () => {
  test('a forgotten password is reset through the e-mailed link; the code is still asked', async ({
    page,
    loginPage,
  }) => {
    // A demo team member nobody else signs in as.
    const email = 'marta.rossi@example.com';
    const password = `new-Passphrase-${Date.now()}`;
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();

    const mail = await lastMailTo(email);
    // Marta chose Italian: the mail is in her language and carries no password.
    expect(mail.subject).toBe('Reimposta la password di CCP');
    expect(mail.text).not.toContain(DEMO_PASSWORD);
    await page.goto(await linkInLastMailTo(email));
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await page.getByLabel('New password', { exact: true }).fill('password1234');
    await page.getByLabel('Repeat the new password').fill('password1234');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'This password is too common. Choose one that is harder to guess.',
    );
    await page.getByLabel('New password', { exact: true }).fill(password);
    await page.getByLabel('Repeat the new password').fill(password);
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await expect(page.getByRole('heading', { name: 'Your password was changed' })).toBeVisible();

    await page.getByRole('link', { name: 'Sign in' }).click();
    await loginPage.email.fill(email);
    await loginPage.password.fill(password);
    await loginPage.signIn.click();
    await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
  });

  test('a recovery code signs in instead of the authenticator code', async ({
    page,
    loginPage,
    request,
  }) => {
    // globex.admin@ makes a fresh set of codes through the API (a fresh TOTP code confirms).
    const email = ACCOUNTS.globexAdmin;
    type TTokens = { data: { access_token: string; refresh_token: string } };
    const first = (await (
      await request.post('/api/v1/users/oauth/token', {
        data: { username: email, password: DEMO_PASSWORD, platform: PLATFORM },
      })
    ).json()) as TTokens;
    const full = await withFreshCode(
      email,
      DEMO_TOTP_SECRET,
      async (code) =>
        (
          await request.post('/api/v1/users/oauth/2fa-token', {
            headers: { authorization: `Bearer ${first.data.access_token}` },
            data: { refresh_token: first.data.refresh_token, platform: PLATFORM, code },
          })
        ).json() as Promise<TTokens>,
    );
    const made = await withFreshCode(
      email,
      DEMO_TOTP_SECRET,
      async (code) =>
        (
          await request.post('/api/v1/users/me/recovery-codes', {
            headers: { authorization: `Bearer ${full.data.access_token}` },
            data: { code },
          })
        ).json() as Promise<{ data: { codes: string[] } }>,
    );
    const codes = made.data.codes;
    expect(codes).toHaveLength(10);

    await page.goto('/login');
    await loginPage.email.fill(email);
    await loginPage.password.fill(DEMO_PASSWORD);
    await loginPage.signIn.click();
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByRole('textbox', { name: 'Recovery code' }).fill('aaaaa-bbbbb');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid recovery code.');
    await page.getByRole('textbox', { name: 'Recovery code' }).fill(codes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});

test.describe('team', () => {
  test.use({ account: 'creator' });

  test('an invited creator joins in another browser, sets up 2FA and shows on the Team page', async ({
    page,
    browser,
    baseURL,
  }) => {
    const email = `invitee.${Date.now()}@example.com`;
    await page.goto('/dashboard');
    await page.getByRole('link', { name: 'Account settings' }).click();
    await page.getByRole('link', { name: 'Team', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Team' })).toBeVisible();
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    const pending = page.locator('.team-invitations').getByRole('row').filter({ hasText: email });
    await expect(pending).toBeVisible();

    // A browser of its own, signed out (new contexts would inherit the test's sign-in).
    const invitee = await browser.newContext({
      baseURL,
      locale: 'en-GB',
      storageState: { cookies: [], origins: [] },
    });
    const other = await invitee.newPage();
    await other.goto(await linkInLastMailTo(email));
    await expect(other.getByText(`Acme Training invites ${email} as a creator.`)).toBeVisible();
    await other.getByLabel('First name').fill('Ines');
    await other.getByLabel('Last name').fill('Neuer');
    await other.getByLabel('New password').fill(`Invited-passphrase-${Date.now()}`);
    await other.getByRole('button', { name: 'Create my account' }).click();
    await expect(other).toHaveURL(/\/2fa$/);
    const secret = (await other.locator('.qr-secret').first().innerText()).trim();
    await withSetupCodes(email, secret, async ([firstCode, secondCode]) => {
      await other.getByLabel('First code').fill(firstCode);
      await other.getByLabel('Second code').fill(secondCode);
      await other.getByRole('button', { name: 'Activate' }).click();
      await expect(other.getByText('Two-factor authentication is now active.')).toBeVisible();
    });
    await invitee.close();

    await page.reload();
    const row = page.locator('.team-members').getByRole('row').filter({ hasText: email });
    await expect(row).toContainText('Ines Neuer');
    await expect(row).toContainText('On');
    // Accepted: no longer among the pending invitations.
    await expect(pending).toHaveCount(0);
  });
});

test.describe('seats', () => {
  test.use({ account: 'free' });

  test('inviting beyond the Free plan seat opens the upgrade modal', async ({
    page,
    upgradeModal,
  }) => {
    await page.goto('/team');
    await expect(page.getByText('1 of 1 seats used')).toBeVisible();
    await page.getByLabel('E-mail').fill('second.trainer@example.com');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await expect(upgradeModal.dialog).toBeVisible();
    await expect(upgradeModal.fact("Your plan's limit")).toHaveText('1');
    await upgradeModal.send.click();
    await expect(upgradeModal.dialog.getByText('Thank you!')).toBeVisible();
  });
});
