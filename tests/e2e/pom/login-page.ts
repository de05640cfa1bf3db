import { expect } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';

import { ACCOUNTS, DEMO_PASSWORD } from '../helpers/accounts.ts';
import type { TAccount } from '../helpers/accounts.ts';

/** /login: e-mail and password, then the authentication code. */
export class LoginPage {
  readonly email: Locator;
  readonly password: Locator;
  readonly signIn: Locator;
  readonly code: Locator;
  readonly verify: Locator;

  constructor(readonly page: Page) {
    this.email = page.getByLabel('E-mail');
    this.password = page.getByLabel('Password', { exact: true });
    this.signIn = page.getByRole('button', { name: 'Sign in' });
    this.code = page.getByLabel('Authentication code');
    this.verify = page.getByRole('button', { name: 'Verify' });
  }

  async goto() {
    await this.page.goto('/login');
    await expect(this.email).toBeVisible();
  }

  async submitCredentials(account: TAccount, password = DEMO_PASSWORD) {
    await this.email.fill(ACCOUNTS[account]);
    await this.password.fill(password);
    await this.signIn.click();
  }

  async submitCode(code: string) {
    await this.code.fill(code);
    await this.verify.click();
  }
}
