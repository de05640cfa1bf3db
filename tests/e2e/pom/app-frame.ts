import { expect } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';

/** The authenticated layout: top bar (navigation, language, log out) and footer. */
export class AppFrame {
  readonly nav: Locator;
  readonly footer: Locator;
  readonly language: Locator;
  readonly logOut: Locator;

  constructor(readonly page: Page) {
    this.nav = page.getByRole('navigation', { name: 'Main navigation' });
    this.footer = page.getByRole('navigation', { name: 'Footer' });
    this.language = page.getByRole('banner').getByLabel('Language');
    this.logOut = page.getByRole('banner').getByRole('link', { name: 'Log out' });
  }

  async goto(path = '/dashboard') {
    await this.page.goto(path);
    await this.expectShown();
  }

  /** The whole frame, in English. */
  async expectShown() {
    await expect(this.nav).toBeVisible();
    for (const link of ['Home', 'Learners', 'Insights']) {
      await expect(this.nav.getByRole('link', { name: link })).toBeVisible();
    }
    await expect(this.nav.getByRole('button', { name: 'Create course' })).toBeVisible();
    await expect(this.language).toBeVisible();
    await expect(this.logOut).toBeVisible();
    await expect(this.footer.getByRole('link', { name: 'FAQ' })).toBeVisible();
  }
}
