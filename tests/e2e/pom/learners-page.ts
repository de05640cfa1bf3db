import type { Locator, Page } from '@playwright/test';

import { antdModal } from '../helpers/antd.ts';

/** /learners: the lists, the table, search, archive mode, row actions. */
export class LearnersPage {
  readonly lists: Locator;
  readonly search: Locator;
  readonly table: Locator;
  readonly loadMore: Locator;

  constructor(readonly page: Page) {
    this.lists = page.getByRole('navigation', { name: 'Learners lists' });
    this.search = page.getByRole('searchbox', { name: 'Search learners' });
    this.table = page.locator('.learners-main table');
    this.loadMore = page.getByRole('button', { name: 'Load more' });
  }

  async goto(query = '') {
    await this.page.goto(`/learners${query}`);
  }

  rows(): Locator {
    return this.table.locator('tbody tr.ant-table-row');
  }

  row(name: string): Locator {
    return this.rows().filter({ has: this.page.getByRole('link', { name, exact: true }) });
  }

  list(name: string): Locator {
    return this.lists.getByRole('button', { name: new RegExp(`^${name}`) });
  }

  shown(): Locator {
    return this.page.getByRole('status').filter({ hasText: /learners$/ });
  }

  toast(text: string | RegExp): Locator {
    return this.page.locator('.ant-notification-notice').filter({ hasText: text });
  }

  confirm(title: string | RegExp): Locator {
    return antdModal(this.page, title);
  }
}
