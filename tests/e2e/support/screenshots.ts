import { mkdirSync } from 'node:fs';
import path from 'node:path';

import { request } from '@playwright/test';
import { chromium } from 'playwright-core';

import { ACCOUNTS } from '../helpers/accounts.ts';
import type { TAccount } from '../helpers/accounts.ts';
import { apiSignIn, refreshCookieOf, signedInState } from '../requests/auth.ts';

// Screenshots of pages for a person to look at: every route at every width in every language,
// signed in as a demo account, against a running server (`npm start` or the e2e server).
//
//   CCP_E2E_TMP=$(mktemp -d) npx tsx support/screenshots.ts http://127.0.0.1:8080 \
//     --routes /dashboard,/dashboard?archived=1 --widths 1366,768 --langs en,it,de --out /tmp/shots
//
// `--click 'role=button[name="Menu"]'` clicks these Playwright selectors (`;;` between several)
// on every route before its shot: a menu, a drawer or a form that opens on a click.
//
// CCP_E2E_TMP holds the spent sign-in codes (helpers/totp.ts); reuse it between runs against
// the same server so a second run does not replay a code the server has seen.

const argValue = (name: string, fallback: string) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? (process.argv[index + 1] ?? fallback) : fallback;
};

const baseURL = process.argv[2] ?? 'http://127.0.0.1:8080';
const routes = argValue('routes', '/dashboard').split(',');
const widths = argValue('widths', '1366,768').split(',').map(Number);
const langs = argValue('langs', 'en,it,de').split(',');
const out = argValue('out', '/tmp/ccp-shots');
const account = argValue('account', 'creator') as TAccount;
const fullPage = argValue('full', '1') === '1';
// A file to put in the page's file input before the shot (the learners upload's mapping step).
const file = argValue('file', '');
const clicks = argValue('click', '').split(';;').filter(Boolean);
if (!(account in ACCOUNTS)) throw new Error(`Unknown account ${account}.`);

mkdirSync(out, { recursive: true });
const api = await request.newContext({ baseURL });
// The browser's session is the refresh cookie (issue 30), spent by each page load: every context
// starts from the cookie the previous one was left with.
let refreshToken = (await apiSignIn(api, account)).refresh_token;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
for (const lang of langs) {
  for (const width of widths) {
    const context = await browser.newContext({
      baseURL,
      viewport: { width, height: 900 },
      locale: 'en-GB',
      timezoneId: 'Europe/Rome',
      storageState: signedInState(baseURL, refreshToken, [{ name: 'ccp.language', value: lang }]),
    });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`page error on ${page.url()}: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') console.error(`console on ${page.url()}: ${message.text()}`);
    });
    for (const route of routes) {
      await page.goto(route);
      await page.waitForLoadState('networkidle');
      if (file) await page.locator('input[type=file]').first().setInputFiles(file);
      for (const selector of clicks) await page.locator(selector).first().click();
      await page.waitForTimeout(400);
      const name = `${route.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'root'}-${width}-${lang}.png`;
      await page.screenshot({ path: path.join(out, name), fullPage });
      console.log(path.join(out, name));
    }
    // networkidle above: no refresh is on its way, the cookie is the current one.
    refreshToken = (await refreshCookieOf(context)) ?? refreshToken;
    await context.close();
  }
}
await browser.close();
await api.dispose();
