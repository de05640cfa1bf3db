import { expect, test } from '../../fixtures/test.ts';
import { ACCOUNTS, DEMO_TOTP_SECRET } from '../../helpers/accounts.ts';
import { withFreshCode } from '../../helpers/totp.ts';

test.use({ account: 'creator' });

test('an API token is made with scopes and a fresh code, shown once, works for its scope, and is revoked', async ({
  page,
  baseURL,
}) => {
  await page.goto('/dashboard');
  // The tokens live in account settings, under the user's name in the top bar (issue 17).
  await page.getByRole('link', { name: 'Account settings' }).click();
  await page.getByRole('link', { name: 'API tokens' }).click();
  await expect(page).toHaveURL(/\/account\/tokens$/);
  await expect(page.getByRole('heading', { level: 1, name: 'API tokens' })).toBeVisible();

  const name = `CI ${Date.now()}`;
  await page.getByLabel('Name').fill(name);
  await page.getByRole('checkbox', { name: /analytics:read/ }).check();
  await withFreshCode(ACCOUNTS.creator, DEMO_TOTP_SECRET, async (code) => {
    await page.getByLabel('Code from your authenticator app').fill(code);
    const answer = page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/v1/users/me/tokens') &&
        response.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Create token' }).click();
    expect((await answer).status()).toBe(201);
  });

  // Shown once, in full.
  const secret = page.getByLabel('New API token');
  await expect(secret).toHaveValue(/^ccp_pat_/);
  const token = await secret.inputValue();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('analytics:read');
  await expect(row).toContainText('exports:read');
  await expect(row).not.toContainText(token);

  // It opens what its scopes name, and nothing else.
  const request = page.request;
  const headers = { authorization: `Bearer ${token}` };
  expect((await request.get(`${baseURL}/api/v1/users/me`, { headers })).status()).toBe(200);
  expect((await request.get(`${baseURL}/api/v1/learners`, { headers })).status()).toBe(403);

  await page.getByRole('button', { name: 'I have saved it' }).click();
  await expect(secret).toHaveCount(0);

  await row.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('tooltip').getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText(`The token “${name}” was revoked.`)).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0);
  expect((await request.get(`${baseURL}/api/v1/users/me`, { headers })).status()).toBe(401);
});
