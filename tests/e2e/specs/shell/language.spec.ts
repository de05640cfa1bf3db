import type { Page } from '@playwright/test';

import { expect, test } from '../../fixtures/test.ts';

const htmlLang = (page: Page) => page.locator('html');

test('signed out: English, Italian, German, and the choice survives a reload', async ({
  page,
  loginPage,
}) => {
  await loginPage.goto();
  await expect(htmlLang(page)).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');

  await page.getByLabel('Language').selectOption('it');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Accedi');
  await expect(page.getByRole('button', { name: 'Accedi' })).toBeVisible();
  await expect(htmlLang(page)).toHaveAttribute('lang', 'it');

  await page.getByLabel('Lingua').selectOption('de');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Anmelden');
  await expect(page.getByLabel('E-Mail')).toBeVisible();
  await expect(htmlLang(page)).toHaveAttribute('lang', 'de');

  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Anmelden');
  await expect(htmlLang(page)).toHaveAttribute('lang', 'de');
  await expect(page.getByLabel('Sprache')).toHaveValue('de');
});

test.describe('signed in', () => {
  test.use({ account: 'creator' });

  test('the top bar switch translates the frame and the page', async ({ page, appFrame }) => {
    await appFrame.goto('/dashboard');
    const overview = page.getByRole('heading', { level: 2, name: 'Overview' });
    await expect(overview).toBeVisible();

    await appFrame.language.selectOption('it');
    await expect(page.getByRole('navigation', { name: 'Navigazione principale' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Esci' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Panoramica' })).toBeVisible();
    await expect(htmlLang(page)).toHaveAttribute('lang', 'it');

    await page.getByLabel('Lingua').first().selectOption('de');
    await expect(page.getByRole('link', { name: 'Abmelden' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Fußzeile' })).toBeVisible();
    await expect(htmlLang(page)).toHaveAttribute('lang', 'de');

    await page.reload();
    await expect(page.getByRole('navigation', { name: 'Hauptnavigation' })).toBeVisible();
    await expect(htmlLang(page)).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('heading', { level: 2, name: 'Überblick' })).toBeVisible();
    await expect(overview).toBeHidden();
  });

  test('German names fit the top bar at 1280 px; at 768 px they are in the menu', async ({
    page,
    appFrame,
  }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await appFrame.goto('/dashboard');
    await appFrame.language.selectOption('de');
    const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
    const insights = nav.getByRole('link', { name: 'Auswertungen' });
    await expect(insights).toBeVisible();
    // Not under the classroom and language switches that follow it.
    const end = await page.getByRole('banner').locator('.top-bar-end').boundingBox();
    const link = await insights.boundingBox();
    expect(link!.x + link!.width).toBeLessThanOrEqual(end!.x);

    await page.setViewportSize({ width: 768, height: 900 });
    await expect(nav).toBeHidden();
    await page.getByRole('button', { name: 'Menü' }).click();
    const menu = page.getByRole('dialog', { name: 'Menü' });
    await menu.getByRole('link', { name: 'Auswertungen' }).click();
    // Insights names the course it shows in the address (?course=) once its list has loaded.
    await expect(page).toHaveURL(/\/insights(\?course=[0-9a-f-]+)?$/);
    await expect(menu).toBeHidden();
  });
});
