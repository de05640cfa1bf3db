import { readFile } from 'node:fs/promises';

import type { Locator, Page } from '@playwright/test';

import { expect, test } from '../../fixtures/test.ts';
import { ACCOUNTS } from '../../helpers/accounts.ts';
import { antdSelectOption } from '../../helpers/antd.ts';
import { atProvider, fakeProviderFields } from '../../helpers/providers.ts';
import type { TDelivered } from '../../support/provider-control.ts';

// The Channels page: the demo's sample connections, an administrator connecting each of the
// five providers by following its setup guide (against the fakes the e2e server runs: a wrong
// token shows the provider's error) to a test lesson answered, disconnecting, and a member seeing
// the status only.

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
});

/** A channel's card on the Channels page. */
const cardOf = (page: Page, channel: string) =>
  page.locator(`.channel-connection-card[data-channel="${channel}"]`);

/** A value the card's setup guide shows to paste at the provider, by its label (opened first). */
const guideValue = async (card: Locator, label: string) => {
  const header = card.getByRole('button', { name: 'Setup guide' });
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
  const row = card
    .locator('.channel-setup-values tr')
    .filter({ has: card.page().getByText(label, { exact: true }) });
  return row.locator('.setup-value code').innerText();
};

/** Opens the card's form ("Connect", or "Change credentials" when it was connected before). */
const openForm = (card: Locator) =>
  card.getByRole('button', { name: /^(Connect|Change credentials)$/ }).click();

/**
 * "Send me a test lesson" to `address` (the form starts with the administrator's e-mail), the
 * learner side taps the first answer at the provider, and the card shows it came back: the
 * status (the page polls for it) and the proof of reaching a learner.
 */
const testLessonAnswered = async (
  card: Locator,
  channel: string,
  { address, sent = 'Test lesson sent' }: { address?: string; sent?: string } = {},
) => {
  await test.step(`${channel}: a test lesson answered`, async () => {
    const section = card.locator('.channel-test-lesson');
    if (address) await section.getByRole('textbox').fill(address);
    // The answer to this click, not the status an earlier lesson left (a retry finds one).
    await Promise.all([
      card
        .page()
        .waitForResponse(
          (response) =>
            response.request().method() === 'POST' && response.url().endsWith('/test-lesson'),
        ),
      section.getByRole('button', { name: 'Send me a test lesson' }).click(),
    ]);
    await expect(section.getByRole('status')).toContainText(sent);
    const delivered = await atProvider<TDelivered>('answer', {
      channel,
      answer: 0,
      phone: address,
    });
    expect(delivered).toEqual({ status: 200, body: { status: 'recorded' } });
    await expect(section.getByRole('status')).toContainText(
      /Your answer came back .* \(answer 1\)/,
    );
    await expect(card.locator('[data-proof="learner_reach"]')).toHaveAttribute(
      'data-outcome',
      'proved',
    );
  });
};

// Issue 29's walk: an administrator follows each provider's setup guide on the built server, the
// provider's part played by its fake (support/provider-control.ts) with the addresses and files
// the page gave, ends with the channel connected, and gets a test lesson answered on their own
// account. One page and one sign-in for the five, in the order a company would connect them.
test.describe('an administrator following each provider’s guide', () => {
  test.use({ account: 'creator' });
  test.describe.configure({ timeout: 120_000 });

  test('connects the five channels as the guides say, each test lesson’s answer comes back, then one is disconnected', async ({
    page,
  }) => {
    const fields = fakeProviderFields();
    const email = ACCOUNTS.creator;
    // A retry walks again in the world the first walk left (the server and the fakes keep their
    // state): a few answers then differ, as they would for an administrator doing it twice.
    const firstWalk = test.info().retry === 0 && test.info().repeatEachIndex === 0;
    await page.goto('/channels');

    // Slack: the manifest from the page makes the app; its credentials, then one "Add to Slack"
    // through Slack's consent page (the fake refuses a redirect URL the manifest did not list).
    await test.step('Slack', async () => {
      const slack = cardOf(page, 'slack');
      const requestUrl = await guideValue(slack, 'Request URL (events and interactivity)');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        slack.getByRole('button', { name: 'Download: Manifest (JSON)' }).click(),
      ]);
      const manifest = JSON.parse(await readFile(await download.path(), 'utf8')) as {
        settings: { interactivity: { request_url: string } };
      };
      expect(manifest.settings.interactivity.request_url).toBe(requestUrl);
      const app = await atProvider<{ credentials: Record<string, string> }>('slack/apps', {
        manifest,
      });
      await atProvider('slack/users', { email });
      await openForm(slack);
      await slack.getByLabel('Client ID').fill(app.credentials.client_id!);
      await slack.getByLabel('Client secret').fill(app.credentials.client_secret!);
      await slack.getByLabel('Signing secret').fill(app.credentials.signing_secret!);
      await slack.getByRole('button', { name: 'Save and test' }).click();
      // Saved: the secrets typed leave the form (they never come back to the page).
      await expect(slack.getByLabel('Client secret')).toHaveValue('');
      await slack.getByRole('button', { name: 'Add to Slack' }).click();
      await expect(
        page.getByRole('heading', { name: /CCP is requesting permission/ }),
      ).toBeVisible();
      await page.getByRole('button', { name: 'Allow' }).click();
      await expect(page).toHaveURL(/\/channels\?connected=slack$/);
      await expect(
        page.getByText('Slack installed the app: the channel is connected.'),
      ).toBeVisible();
      await expect(slack.locator('.channel-connection-status')).toHaveText('Connected');
      await testLessonAnswered(slack, 'slack');
    });

    // Webex: the bot's token and a secret; the server registers the webhook the guide names.
    await test.step('Webex', async () => {
      await atProvider('webex/people', { email });
      const webex = cardOf(page, 'webex');
      const webexHook = await guideValue(webex, 'Webhook address (registered for you)');
      await openForm(webex);
      await webex.getByLabel('Bot token').fill(fields.webex!.bot_token!);
      await webex.getByLabel('Webhook secret').fill(fields.webex!.webhook_secret!);
      await webex.getByRole('button', { name: 'Save and test' }).click();
      await expect(webex.locator('.channel-connection-status')).toHaveText('Connected');
      // What the test proved, and what it could not.
      await expect(webex.locator('.channel-connection-proofs')).toContainText(
        'Webhook registered, and active at Webex',
      );
      expect(await atProvider('webex/hooks')).toContainEqual({
        targetUrl: webexHook,
        resource: 'attachmentActions',
      });
      await testLessonAnswered(webex, 'webex');
      // The answer was Webex's first signed notification: the round trip is proved too.
      await expect(webex.locator('[data-proof="webhook_round_trip"]')).toHaveAttribute(
        'data-outcome',
        'proved',
      );
    });

    // WhatsApp: saved first, then the callback URL and verify token at Meta, which checks the
    // address at once; the test lesson goes as the approved template, Start brings the question.
    await test.step('WhatsApp', async () => {
      const whatsapp = cardOf(page, 'whatsapp');
      const callbackUrl = await guideValue(whatsapp, 'Callback URL');
      await openForm(whatsapp);
      for (const [key, value] of Object.entries(fields.whatsapp!)) {
        await whatsapp.getByLabel(LABELS[key]!, { exact: true }).fill(value);
      }
      await whatsapp.getByRole('button', { name: 'Save and test' }).click();
      await expect(whatsapp.locator('.channel-connection-status')).toHaveText('Connected');
      // What Meta answered the test shows beside the form.
      await expect(whatsapp.locator('.channel-connection-details')).toContainText('APPROVED');
      expect(
        await atProvider('whatsapp/webhook', {
          callback_url: callbackUrl,
          verify_token: fields.whatsapp!.verify_token,
        }),
      ).toEqual({ verified: true });
      // The first walk is outside WhatsApp's 24-hour window, so the lesson goes as the approved
      // template; a walk run again is inside the window its answer opened, and the question goes
      // as a plain message.
      await testLessonAnswered(whatsapp, 'whatsapp', {
        address: '+393331234567',
        ...(firstWalk ? { sent: 'as the approved template' } : {}),
      });
    });

    // Microsoft Teams: the app registration's ids, then the administrator adds the app (the
    // package upload is the Teams admin centre's part: this server is on http, see
    // docs/decisions.md) and Teams posts the install to the messaging endpoint the guide names.
    await test.step('Microsoft Teams', async () => {
      const teams = cardOf(page, 'ms-teams');
      const messagingEndpoint = await guideValue(teams, 'Messaging endpoint');
      await openForm(teams);
      for (const [key, value] of Object.entries(fields['ms-teams']!)) {
        await teams.getByLabel(LABELS[key]!, { exact: true }).fill(value);
      }
      await teams.getByRole('button', { name: 'Save and test' }).click();
      await expect(teams.locator('.channel-connection-status')).toHaveText('Connected');
      expect(
        await atProvider('ms-teams/install', { email, messaging_endpoint: messagingEndpoint }),
      ).toEqual({ status: 200, body: { status: 'installed' } });
      await testLessonAnswered(teams, 'ms-teams');
    });

    // Google Chat: the HTTP endpoint URL audience; once saved, the guide shows this connection's
    // own endpoint, and Chat's signed event for it (the administrator adding the app) connects.
    await test.step('Google Chat', async () => {
      const chat = cardOf(page, 'google-chat');
      await openForm(chat);
      await antdSelectOption(page, chat.getByLabel('Authentication audience'), 'HTTP endpoint URL');
      for (const [key, value] of Object.entries(fields['google-chat']!)) {
        await chat.getByLabel(LABELS[key]!, { exact: true }).fill(value);
      }
      await chat.getByRole('button', { name: 'Save and test' }).click();
      // The key works at once; the audience waits for Chat's first signed event (a walk run
      // again keeps the audience Chat already proved).
      if (firstWalk) {
        await expect(chat.locator('.channel-connection-status')).toHaveText(
          'Awaiting verification',
        );
        await expect(chat.locator('.channel-connection-proofs')).toContainText(
          'Waiting for a signed event from Google Chat for the audience',
        );
      }
      await expect(chat.locator('.channel-connection-details')).toContainText(
        'ccp-bot@ccp-project.iam.gserviceaccount.com',
      );
      const endpointUrl = await guideValue(chat, 'HTTP endpoint URL (this connection)');
      expect(await atProvider('google-chat/add', { email, endpoint_url: endpointUrl })).toEqual({
        status: 200,
        body: { status: 'installed' },
      });
      await expect(chat.locator('.channel-connection-status')).toHaveText('Connected');
      await expect(chat.locator('[data-proof="signed_event"]')).toHaveAttribute(
        'data-outcome',
        'proved',
      );
      await testLessonAnswered(chat, 'google-chat');
    });

    await test.step('Disconnecting', async () => {
      const whatsapp = cardOf(page, 'whatsapp');
      await whatsapp.getByRole('button', { name: 'Disconnect' }).click();
      await page.getByRole('tooltip').getByRole('button', { name: 'OK' }).click();
      await expect(whatsapp.locator('.channel-connection-status')).toHaveText('Not connected');
      await expect(whatsapp).toContainText('nothing is sent on this channel');
    });
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
