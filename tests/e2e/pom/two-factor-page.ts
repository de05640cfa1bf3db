import type { Locator, Page } from '@playwright/test';

/** /2fa: the first-time two-factor setup. */
export class TwoFactorPage {
  readonly heading: Locator;
  readonly qrCode: Locator;
  readonly firstCode: Locator;
  readonly secondCode: Locator;
  readonly activate: Locator;
  readonly done: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Set up two-factor authentication' });
    this.qrCode = page.getByRole('img', { name: /QR code/ });
    this.firstCode = page.getByLabel('First code');
    this.secondCode = page.getByLabel('Second code');
    this.activate = page.getByRole('button', { name: 'Activate' });
    this.done = page
      .getByRole('status')
      .filter({ hasText: 'Two-factor authentication is now active.' });
  }

  /** The secret shown for manual entry (a new one for every setup). */
  async secret(): Promise<string> {
    return (await this.page.locator('.qr-secret').first().innerText()).trim();
  }

  async submitCodes([first, second]: readonly [string, string]) {
    await this.firstCode.fill(first);
    await this.secondCode.fill(second);
    await this.activate.click();
  }
}
