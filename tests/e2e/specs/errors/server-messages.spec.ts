import type { Page, Response } from '@playwright/test';

import { expect, test } from '../../fixtures/test.ts';

// The server says its error messages in the language the user chose: the app sends it as
// Accept-Language and shows the server's text as it came. Calls go through the app's own client
// (its debug handle), as a screen would send them.
// free@ (Free plan): the 422 adds no learner, so the upgrade spec's count stays as it expects.
test.use({ account: 'free', debugClient: true });

type TDebugWindow = {
  ccpClient: { request: (method: string, path: string, body?: unknown) => Promise<unknown> };
};

/** Sends a call through the app's client and answers the server's response to it. */
const sendAsTheApp = async (
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> => {
  const answer = page.waitForResponse(
    (response) =>
      response.request().method() === method && new URL(response.url()).pathname === path,
  );
  await page.evaluate(
    async ([method, path, body]) => {
      const { ccpClient } = window as unknown as TDebugWindow;
      // The app shows the failure itself (its §7 reaction); the promise only rejects.
      await ccpClient.request(method, path, body).catch(() => undefined);
    },
    [method, path, body] as const,
  );
  return answer;
};

// One sign-in for both languages: each sign-in spends a one-time code step of the account.
test('German then Italian: the toast and the error modal show the server text in the language', async ({
  page,
  appFrame,
}) => {
  await appFrame.goto('/dashboard');

  await appFrame.language.selectOption('de');
  await expect(page.getByRole('link', { name: 'Abmelden' })).toBeVisible();
  const path = '/api/v1/learners/00000000-0000-4000-8000-000000000000';
  const missing = await sendAsTheApp(page, 'GET', path);
  expect(missing.status()).toBe(404);
  expect(await missing.request().headerValue('accept-language')).toBe('de');
  expect(await missing.json()).toEqual({
    error: { status: 404, code: 'NOT_FOUND', message: 'Nicht gefunden.' },
  });
  await expect(page.getByText('Nicht gefunden.')).toBeVisible();

  await page.getByLabel('Sprache').first().selectOption('it');
  await expect(page.getByRole('link', { name: 'Esci' })).toBeVisible();
  const invalid = await sendAsTheApp(page, 'POST', '/api/v1/learners', {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'not-an-email',
    channels: ['slack'],
    locale: 'it',
  });
  expect(invalid.status()).toBe(422);
  expect(await invalid.request().headerValue('accept-language')).toBe('it');
  const message = "L'indirizzo e-mail deve essere valido.";
  expect(await invalid.json()).toMatchObject({
    error: { code: 'VALIDATION_FAILED', message, errors: { email: [message] } },
  });
  const modal = page.getByRole('dialog', { name: 'Qualcosa è andato storto' });
  await expect(modal).toBeVisible();
  await expect(modal).toContainText(message);
});
