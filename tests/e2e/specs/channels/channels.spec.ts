import { readFile } from 'node:fs/promises';

import { expect, test } from '../../fixtures/test.ts';
import { fakeProviderFields } from '../../helpers/providers.ts';

// The Channels page: the demo's sample connections, an administrator connecting each of the
// five providers with its form (against the fakes the e2e server runs: a wrong token shows the
// provider's error), disconnecting, and a member seeing the status only.

/** The forms' labels (channel-connections.fields in locales/en.json). */
const LABELS: Record<string, string> = {
  bot_token: 'Bot token',
  signing_secret: 'Signing secret',
  webhook_secret: 'Webhook secret',
  business_account_id: 'Business account ID',
  phone_number_id: 'Phone number ID',
  template_name: 'Approved template name',
  invitation_template_name: 'Approved invitation template name',
  access_token: 'Access token',
  app_secret: 'App secret',
  verify_token: 'Webhook verify token',
  tenant_id: 'Tenant ID',
  app_id: 'App ID',
  app_password: 'App password',
  project_number: 'Project number',
  service_account_json: 'Service account key (JSON)',
};

test.describe('as an administrator', () => {
  test.use({ account: 'creator' });
  // Each save is a round trip to the provider's fake, several per test.
  test.describe.configure({ timeout: 60_000 });

  test('the demo shows a sample Slack workspace and Teams app, marked as demo', async ({
    page,
  }) => {
    await page.goto('/dashboard');
    await page.getByRole('link', { name: 'Channels' }).click();
    await expect(page).toHaveURL(/\/channels$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Channels' })).toBeVisible();
    const slack = page.locator('.channel-connection-card[data-channel="slack"]');
    await expect(slack.locator('.channel-connection-status')).toHaveText('Demo');
    await expect(slack).toContainText('A sample connection of the demo: nothing is sent');
    await expect(slack.locator('.channel-connection-details')).toContainText('Acme Training');
    const teams = page.locator('.channel-connection-card[data-channel="ms-teams"]');
    await expect(teams.locator('.channel-connection-status')).toHaveText('Demo');
    await expect(
      page.locator('.channel-connection-card[data-channel="webex"] .channel-connection-status'),
    ).toHaveText('Not connected');

    // The setup guide (issue 29): the addresses to paste, from the server's CCP_PUBLIC_URL, and
    // Slack's app manifest to download.
    const origin = new URL(page.url()).origin;
    const values = slack.locator('.channel-setup-values');
    await expect(values).toContainText(`${origin}/api/v1/webhooks/slack`);
    await expect(values).toContainText(`${origin}/api/v1/webhooks/slack/oauth`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      slack.getByRole('button', { name: 'Download: Manifest (YAML)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('ccp-slack-manifest.yaml');
    const manifest = await readFile(await download.path(), 'utf8');
    expect(manifest).toContain('"message.im"');
    expect(manifest).toContain(`request_url: "${origin}/api/v1/webhooks/slack"`);

    // Teams' app package names the bot at this server's https address; this server runs on
    // plain http, so the guide says why there is no package instead of saving a useless one.
    await teams.getByRole('button', { name: 'Download: App package (zip)' }).click();
    await expect(teams.locator('.channel-setup-download-error')).toContainText(
      'Teams reaches its bot only at an https address',
    );
  });

  test('connects Slack: a wrong token shows Slack’s error, the right one connects', async ({
    page,
  }) => {
    await page.goto('/channels');
    const card = page.locator('.channel-connection-card[data-channel="slack"]');
    // The form opens from the card (the page first shows every channel's status).
    await expect(card.getByLabel('Bot token')).toHaveCount(0);
    await card.getByRole('button', { name: 'Change credentials' }).click();
    // Missing the signing secret: the field says so and nothing is saved.
    await card.getByLabel('Bot token').fill('xoxb-wrong');
    await card.getByRole('button', { name: 'Save and test' }).click();
    await expect(card.getByText('This field is required to connect.')).toBeVisible();

    await card.getByLabel('Signing secret').fill(fakeProviderFields().slack!.signing_secret!);
    await card.getByRole('button', { name: 'Save and test' }).click();
    await expect(card.locator('.channel-connection-status')).toHaveText('Error');
    await expect(card).toContainText('invalid_auth');

    await card.getByLabel('Bot token').fill(fakeProviderFields().slack!.bot_token!);
    await card.getByRole('button', { name: 'Save and test' }).click();
    await expect(card.locator('.channel-connection-status')).toHaveText('Connected');
    await expect(card).not.toContainText('invalid_auth');
    await expect(card.getByText('Stored. Leave empty to keep it.')).toHaveCount(2);
    // The secrets never come back to the page; what Slack said of the workspace does.
    await expect(card.getByLabel('Bot token')).toHaveValue('');
    await expect(card.locator('.channel-connection-details')).toContainText('Fake team');

    await card.getByRole('button', { name: 'Test connection' }).click();
    await expect(card.locator('.channel-connection-status')).toHaveText('Connected');
  });

  test('connects Webex, WhatsApp, MS Teams and Google Chat with their forms, then disconnects one', async ({
    page,
  }) => {
    const fields = fakeProviderFields();
    await page.goto('/channels');
    for (const channel of ['webex', 'whatsapp', 'ms-teams', 'google-chat']) {
      const card = page.locator(`.channel-connection-card[data-channel="${channel}"]`);
      // MS Teams holds the demo's sample connection: its form opens to change it.
      await card.getByRole('button', { name: /^(Connect|Change credentials)$/ }).click();
      for (const [key, value] of Object.entries(fields[channel]!)) {
        await card.getByLabel(LABELS[key]!, { exact: true }).fill(value);
      }
      await card.getByRole('button', { name: 'Save and test' }).click();
      // Google Chat's key works at once; its audience waits for Chat's first signed event.
      await expect(card.locator('.channel-connection-status')).toHaveText(
        channel === 'google-chat' ? 'Awaiting verification' : 'Connected',
      );
    }
    // What each provider answered the test shows beside its form.
    const whatsapp = page.locator('.channel-connection-card[data-channel="whatsapp"]');
    await expect(whatsapp.locator('.channel-connection-details')).toContainText('APPROVED');
    await expect(
      page.locator(
        '.channel-connection-card[data-channel="google-chat"] .channel-connection-details',
      ),
    ).toContainText('ccp-bot@ccp-project.iam.gserviceaccount.com');
    // What each test proved, and what it could not: Chat's signed event is still to come.
    await expect(
      page.locator(
        '.channel-connection-card[data-channel="google-chat"] .channel-connection-proofs',
      ),
    ).toContainText('Waiting for a signed event from Google Chat for the audience');
    await expect(
      page.locator('.channel-connection-card[data-channel="webex"] .channel-connection-proofs'),
    ).toContainText('Webhook registered, and active at Webex');

    await whatsapp.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('tooltip').getByRole('button', { name: 'OK' }).click();
    await expect(whatsapp.locator('.channel-connection-status')).toHaveText('Not connected');
    await expect(whatsapp).toContainText('nothing is sent on this channel');
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
