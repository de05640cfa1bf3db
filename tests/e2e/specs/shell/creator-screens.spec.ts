import type { TLearner } from '@ccp/schemas';
import type { Page } from '@playwright/test';

import { expect, test } from '../../fixtures/test.ts';
import { CourseWizard } from '../../pom/course-wizard.ts';
import { LearnersPage } from '../../pom/learners-page.ts';
import { apiPostData } from '../../requests/api.ts';

// Issue 27 item 10, what only a browser shows, on one sign-in: the Content step never scrolls
// sideways at 768 px in any language, Channels keeps its name at 1366 px, the learner form asks
// in the app's own leave dialog, and deleting a learner shows its success and no "Not found.".

test.use({ account: 'creator' });
test.describe.configure({ timeout: 90_000 });

const LANGUAGE_LABELS = { en: 'Language', it: 'Lingua', de: 'Sprache' } as const;

/** How much wider than the window the page is (0: no sideways scroll). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test('the creator’s screens fit, name their links and ask before losing anything', async ({
  page,
  tokens,
}) => {
  await test.step('Channels keeps its name at 1366 px in English', async () => {
    await page.setViewportSize({ width: 1366, height: 800 });
    await page.goto('/dashboard');
    const name = page.getByRole('banner').locator('.top-nav-channels .top-nav-text');
    await expect(name).toHaveText('Channels');
    expect((await name.boundingBox())?.width ?? 0).toBeGreaterThan(20);
  });

  await test.step('the Content step is no wider than 768 px in en, it and de', async () => {
    const wizard = new CourseWizard(page);
    await page.goto('/courses/create');
    await wizard.fillIntro(`Fits ${Date.now().toString(36)}`, 'A course that fits a tablet.');
    await page.setViewportSize({ width: 768, height: 1000 });
    let current: keyof typeof LANGUAGE_LABELS = 'en';
    for (const language of ['en', 'it', 'de'] as const) {
      if (language !== current) {
        await page.getByRole('banner').getByLabel(LANGUAGE_LABELS[current]).selectOption(language);
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        current = language;
      }
      await expect(wizard.lessonForm).toBeVisible();
      expect(await overflow(page), language).toBeLessThanOrEqual(0);
    }
    await page.getByRole('banner').getByLabel(LANGUAGE_LABELS[current]).selectOption('en');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });

  await test.step('the learner form asks in the wizard’s dialog, not the browser’s', async () => {
    await page.setViewportSize({ width: 1366, height: 800 });
    let browserDialog = false;
    page.on('dialog', (dialog) => {
      browserDialog = true;
      void dialog.dismiss();
    });
    await page.goto('/learners/mode/new');
    await page.getByLabel('First name').fill('Unsaved');
    await page.getByRole('button', { name: 'Cancel' }).click();
    const ask = page.getByRole('dialog', { name: 'Save your progress?' });
    await expect(ask).toContainText('This learner has changes that are not saved yet.');
    await ask.getByRole('button', { name: 'Stay' }).click();
    await expect(page.getByLabel('First name')).toHaveValue('Unsaved');
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Learners' })
      .click();
    await ask.getByRole('button', { name: 'Leave without saving' }).click();
    await expect(page).toHaveURL(/\/learners$/);
    await expect(new LearnersPage(page).rows().first()).toBeVisible();
    expect(browserDialog).toBe(false);
  });

  await test.step('deleting a learner says so, with no “Not found.” beside it', async () => {
    const learner = await apiPostData<TLearner>(
      page.request,
      tokens!.access_token,
      '/api/v1/learners',
      {
        first_name: 'Deletable',
        last_name: 'Tester',
        email: `deletable.${Date.now()}@example.test`,
        channels: ['slack'],
      },
    );
    // Only an archived learner is deleted for good.
    const archived = await page.request.delete(`/api/v1/learners/${learner.uuid}/soft`, {
      headers: { authorization: `Bearer ${tokens!.access_token}` },
    });
    expect(archived.ok()).toBe(true);
    const name = `${learner.first_name} ${learner.last_name}`;
    await page.goto(`/learners/view/${learner.uuid}`);
    await page.getByRole('button', { name: 'Delete permanently' }).click();
    await page
      .getByRole('dialog', { name: `Delete ${name} permanently?` })
      .getByRole('button', { name: 'Delete permanently' })
      .click();
    await expect(page.getByText(`${name} was deleted permanently.`)).toBeVisible();
    await expect(page).toHaveURL(/\/learners$/);
    await expect(page.getByText('Not found.')).toHaveCount(0);
  });
});
