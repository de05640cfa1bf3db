import type { Page } from '@playwright/test';

import { expect, test } from '../../fixtures/test.ts';
import { antdModalCloseIcon } from '../../helpers/antd.ts';

// free@ is on the Free plan: 6 learners, 4 used. The 7th learner is refused with a real 402,
// sent through the app's own client (its debug handle), which opens the upgrade modal.
test.use({ account: 'free', debugClient: true });

type TDebugWindow = {
  ccpClient: { request: (method: string, path: string, body?: unknown) => Promise<unknown> };
};

/** Adds learners through the app's client until the plan refuses one (at most 5 tries). */
const addLearnersUntilRefused = (page: Page) =>
  page.evaluate(async () => {
    const { ccpClient } = window as unknown as TDebugWindow;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      try {
        await ccpClient.request('POST', '/api/v1/learners', {
          first_name: 'Extra',
          last_name: 'Learner',
          email: `extra.${Date.now()}.${attempt}@freelance.example`,
          channels: ['slack'],
          locale: 'en',
        });
      } catch {
        return attempt;
      }
    }
    throw new Error('The plan never refused a learner.');
  });

const refusal = (page: Page) =>
  page.waitForResponse(
    (response) =>
      response.request().method() === 'POST' &&
      new URL(response.url()).pathname === '/api/v1/learners' &&
      response.status() !== 201 &&
      response.status() !== 200,
  );

test('a 402 opens the upgrade modal: closable, then the request is sent and thanked', async ({
  page,
  upgradeModal,
}) => {
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: /^Welcome, /, level: 1 })).toBeVisible();

  const refused = refusal(page);
  await addLearnersUntilRefused(page);
  expect((await refused).status()).toBe(402);
  await expect(upgradeModal.dialog).toHaveAccessibleName('Learners limit reached');
  await expect(upgradeModal.fact('Feature')).toHaveText('Learners');
  await expect(upgradeModal.fact("Your plan's limit")).toHaveText('6');
  await antdModalCloseIcon(upgradeModal.dialog).click();
  await expect(upgradeModal.dialog).toBeHidden();

  const refusedAgain = refusal(page);
  await addLearnersUntilRefused(page);
  expect((await refusedAgain).status()).toBe(402);
  await expect(upgradeModal.dialog).toBeVisible();
  const sent = page.waitForRequest(
    (request) =>
      request.method() === 'POST' &&
      new URL(request.url()).pathname === '/api/v1/users/me/subscriptions/upgrade-request',
  );
  await upgradeModal.send.click();
  expect((await sent).postDataJSON()).toEqual({ requestedFunction: 'learners' });
  await expect(upgradeModal.dialog).toHaveAccessibleName('Thank you!');
  await expect(upgradeModal.dialog).toContainText('We have received your upgrade request.');
  await upgradeModal.close.click();
  await expect(upgradeModal.dialog).toBeHidden();
});
