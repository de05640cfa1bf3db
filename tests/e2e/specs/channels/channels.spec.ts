import { expect, test } from '../../fixtures/test.ts';

// The Channels page: an administrator connects Slack (against the fake Slack the e2e server
// runs), a wrong token shows the provider's error, and a member sees the status only.

test.describe('as an administrator', () => {
  test.use({ account: 'creator' });

  test('connects Slack: a wrong token shows Slack’s error, the right one connects', async ({
    page,
  }) => {
    await page.goto('/dashboard');
    await page.getByRole('link', { name: 'Channels' }).click();
    await expect(page).toHaveURL(/\/channels$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Channels' })).toBeVisible();
    const card = page.locator('.channel-connection-card[data-channel="slack"]');
    await expect(card.locator('.channel-connection-status')).toHaveText('Not connected');
    await expect(card).toContainText('lessons on this channel are only recorded');

    // Missing the signing secret: the field says so and nothing is saved.
    await card.getByLabel('Bot token').fill('xoxb-wrong');
    await card.getByRole('button', { name: 'Save and test' }).click();
    await expect(card.getByText('This field is required to connect.')).toBeVisible();

    await card.getByLabel('Signing secret').fill('fake-signing-secret');
    await card.getByRole('button', { name: 'Save and test' }).click();
    await expect(card.locator('.channel-connection-status')).toHaveText('Error');
    await expect(card).toContainText('invalid_auth');

    await card.getByLabel('Bot token').fill('xoxb-fake-token');
    await card.getByRole('button', { name: 'Save and test' }).click();
    await expect(card.locator('.channel-connection-status')).toHaveText('Connected');
    await expect(card).not.toContainText('invalid_auth');
    await expect(card.getByText('Stored. Leave empty to keep it.')).toHaveCount(2);
    // The secrets never come back to the page.
    await expect(card.getByLabel('Bot token')).toHaveValue('');

    await card.getByRole('button', { name: 'Test connection' }).click();
    await expect(card.locator('.channel-connection-status')).toHaveText('Connected');
  });
});

test.describe('as a member', () => {
  test.use({ account: 'member' });

  test('sees each channel’s status without a form', async ({ page }) => {
    await page.goto('/channels');
    await expect(page.getByRole('heading', { level: 1, name: 'Channels' })).toBeVisible();
    await expect(page.locator('.channel-connection-card')).toHaveCount(5);
    await expect(page.getByRole('button', { name: 'Save and test' })).toHaveCount(0);
    await expect(page.getByText('An administrator connects them.')).toBeVisible();
  });
});
