import type { Locator, Page } from '@playwright/test';

import {
  antdAlert,
  antdCheckbox,
  antdModal,
  antdModalCloseIcon,
  antdModalFooter,
} from '../helpers/antd.ts';

/** The blocking terms and conditions modal of the authenticated layout. */
export class TermsModal {
  readonly dialog: Locator;
  readonly accept: Locator;
  readonly logOut: Locator;
  readonly closeIcon: Locator;

  constructor(readonly page: Page) {
    this.dialog = antdModal(page, 'Terms and conditions');
    this.accept = this.dialog.getByRole('button', { name: 'Accept' });
    this.logOut = this.dialog.getByRole('button', { name: 'Log out' });
    this.closeIcon = antdModalCloseIcon(this.dialog);
  }

  term(title: string | RegExp): Locator {
    return antdCheckbox(this.dialog, title);
  }

  alert(text: string | RegExp): Locator {
    return antdAlert(this.dialog, text);
  }
}

/** The upgrade modal a 402 opens: the plan limit, the upgrade request, the thanks. */
export class UpgradeModal {
  readonly dialog: Locator;
  readonly send: Locator;
  readonly close: Locator;

  constructor(readonly page: Page) {
    // Its title is the limit's own text, then "Thank you!"; no other dialog is open meanwhile.
    this.dialog = page.getByRole('dialog');
    this.send = this.dialog.getByRole('button', { name: 'Send upgrade request' });
    this.close = antdModalFooter(this.dialog).getByRole('button', { name: 'Close' });
  }

  /** A fact of the limit ("Feature", "Your plan's limit"): its value. */
  fact(term: string): Locator {
    return this.dialog.locator('.upgrade-facts > div').filter({ hasText: term }).locator('dd');
  }
}
