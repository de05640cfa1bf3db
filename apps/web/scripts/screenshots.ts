import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { chromium } from 'playwright-core';
import type { Page } from 'playwright-core';

import { CHROMIUM, DEMO, startServer, totp } from './server.ts';

// Screenshots of the shell's pages at the spec's breakpoints, to look at after a layout change:
//   npm run build -w @ccp/web && npx tsx apps/web/scripts/screenshots.ts [--all-widths] [--out dir]
// Not part of `npm test` (tests/e2e asserts the behaviour).

const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const OUT = path.resolve(
  outIndex >= 0 && args[outIndex + 1]
    ? args[outIndex + 1]!
    : path.join(tmpdir(), 'ccp-screenshots'),
);
const WIDTHS = args.includes('--all-widths') ? [768, 900, 1024, 1366, 1680] : [768, 1366];
const HEIGHT = 900;

const shoot = async (page: Page, name: string) => {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: HEIGHT });
    await page.waitForTimeout(150);
    await page.screenshot({ path: path.join(OUT, `${name}-${width}.png`), fullPage: true });
  }
};

const signIn = async (page: Page, email: string) => {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
};

const main = async () => {
  mkdirSync(OUT, { recursive: true });
  const server = await startServer();
  const browser = await chromium.launch(CHROMIUM);
  try {
    const context = await browser.newContext({ baseURL: server.url, locale: 'en-GB' });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error('page error:', error.message));

    await page.goto('/login');
    await page.getByLabel('E-mail').waitFor();
    await shoot(page, 'login');

    await page.getByRole('button', { name: 'Sign in' }).click();
    await shoot(page, 'login-required');
    await page.getByLabel('E-mail').fill(DEMO.creator);
    await page.getByLabel('Password', { exact: true }).fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Invalid credentials.').waitFor();
    await shoot(page, 'login-invalid');

    await page.goto('/faq');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await shoot(page, 'faq');

    await page.goto('/no-such-page');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await shoot(page, 'not-found');

    // The creator: password, then the code.
    await signIn(page, DEMO.creator);
    await page.getByLabel('Authentication code').waitFor();
    await shoot(page, 'login-otp');
    await page.getByLabel('Authentication code').fill(totp(DEMO.totpSecret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await shoot(page, 'dashboard');

    await page.getByRole('button', { name: 'Create course' }).click();
    await page.getByRole('dialog').waitFor();
    await shoot(page, 'create-course-modal');
    await page.keyboard.press('Escape');

    await page.getByLabel('Language').selectOption('de');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await shoot(page, 'dashboard-de');
    await page.goto('/no-such-page');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await shoot(page, 'not-found-signed-in-de');
    await page.getByLabel('Sprache').selectOption('it');
    await page.getByLabel('Lingua').waitFor();
    // The choice survives a reload.
    await page.goto('/faq');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await shoot(page, 'faq-signed-in-it');
    await page.getByLabel('Lingua').selectOption('en');
    await page.getByLabel('Language').waitFor();
    await page.goto('/logout');
    await page.waitForURL('**/login');

    // A new creator: 2FA setup, then the terms.
    await signIn(page, DEMO.newCreator);
    await page.waitForURL('**/2fa');
    await page.getByRole('img', { name: /QR code/ }).waitFor();
    await shoot(page, 'two-factor');
    // The API made a new secret for this setup: read it as a user typing it in would.
    const secret = (await page.locator('.qr-secret').first().innerText()).trim();
    await page.getByLabel('First code').fill('000000');
    await page.getByLabel('Second code').fill('000000');
    await page.getByRole('button', { name: 'Activate' }).click();
    await page.getByText('Entered codes are wrong').waitFor();
    await shoot(page, 'two-factor-wrong');
    await page.getByLabel('First code').fill(totp(secret, -1));
    await page.getByLabel('Second code').fill(totp(secret));
    await page.getByRole('button', { name: 'Activate' }).click();
    await page.getByText('Two-factor authentication is now active.').waitFor();
    await shoot(page, 'two-factor-done');
    await page.waitForURL('**/dashboard', { timeout: 15_000 });
    await page.getByRole('dialog', { name: 'Terms and conditions' }).waitFor();
    await page.getByRole('button', { name: 'Accept' }).click();
    await shoot(page, 'terms-modal-mandatory');
    await page.goto('/logout');
    await page.waitForURL('**/login');

    // A member: the terms only an administrator may accept.
    await signIn(page, DEMO.member);
    await page.getByLabel('Authentication code').fill(totp(DEMO.totpSecret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('dialog', { name: 'Terms and conditions' }).waitFor();
    await shoot(page, 'terms-modal-member');

    // Offline.
    await context.setOffline(true);
    await page.waitForTimeout(200);
    await shoot(page, 'offline');
    await context.setOffline(false);
    await page.goto('/logout');
    await page.waitForURL('**/login');

    // The lowest plan: a real 402 through the app's client opens the upgrade modal.
    await page.evaluate(() => window.localStorage.setItem('ccp.debug', '1'));
    await signIn(page, 'free@example.com');
    await page.getByLabel('Authentication code').fill(totp(DEMO.totpSecret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/dashboard');
    await page.evaluate(async () => {
      const { ccpClient } = window as unknown as {
        ccpClient: { request: (m: string, p: string, b?: unknown) => Promise<unknown> };
      };
      for (let i = 0; i < 5; i += 1) {
        const learner = {
          first_name: 'Extra',
          last_name: `Learner ${'ABCDE'.charAt(i)}`,
          email: `extra.${i}.${Date.now()}@freelance.example`,
          channels: ['slack'],
          locale: 'en',
        };
        try {
          await ccpClient.request('POST', '/api/v1/learners', learner);
        } catch {
          return;
        }
      }
    });
    await page.getByRole('dialog').waitFor();
    await page.getByRole('button', { name: 'Send upgrade request' }).waitFor();
    await shoot(page, 'upgrade-modal');
    await page.getByRole('button', { name: 'Send upgrade request' }).click();
    await page.getByText('Thank you!').waitFor();
    await shoot(page, 'upgrade-modal-thanks');
    await page.getByRole('button', { name: 'Close' }).first().click();

    // A page that cannot load shows the 500 page.
    await page.route('**/assets/faq-*.js', (route) => route.abort());
    await page.getByRole('link', { name: 'FAQ' }).click();
    await page.getByRole('heading', { name: 'Whoops! An unknown error occurred' }).waitFor();
    await shoot(page, 'server-error');
    await page.unroute('**/assets/faq-*.js');
    await page.goto('/logout');
    await page.waitForURL('**/login');

    // Last (it locks sign-in from this address for a minute): too many attempts.
    const slowDown = page.getByText('Wow, slow down.', { exact: false });
    for (let attempt = 0; attempt < 8 && !(await slowDown.isVisible()); attempt += 1) {
      await page.getByLabel('E-mail').fill(DEMO.creator);
      await page.getByLabel('Password', { exact: true }).fill(`wrong ${attempt}`);
      const answered = page.waitForResponse('**/api/v1/users/oauth/token');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await answered;
      await page.waitForTimeout(500);
    }
    await slowDown.waitFor();
    await shoot(page, 'slow-down');

    console.log(`screenshots in ${OUT}`);
  } catch (error) {
    const pages = browser.contexts().flatMap((context) => context.pages());
    for (const [index, open] of pages.entries()) {
      await open
        .screenshot({ path: path.join(OUT, `failure-${index}.png`) })
        .catch(() => undefined);
    }
    throw error;
  } finally {
    await browser.close();
    await server.stop();
  }
};

await main();
