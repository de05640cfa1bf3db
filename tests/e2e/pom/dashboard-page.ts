import type { Locator, Page } from '@playwright/test';

import { antdModal } from '../helpers/antd.ts';

/** /dashboard: the period stats, the course cards, archive mode and the card actions. */
export class DashboardPage {
  readonly stats: Locator;
  readonly grid: Locator;
  readonly showArchived: Locator;
  readonly backToCourses: Locator;
  readonly classroom: Locator;

  constructor(readonly page: Page) {
    this.stats = page.getByRole('region', { name: /Overview|Panoramica|Überblick/ });
    this.grid = page.locator('.course-grid');
    this.showArchived = page.getByRole('link', { name: 'Archived courses' });
    this.backToCourses = page.getByRole('link', { name: 'Back to courses' });
    this.classroom = page.getByRole('banner').getByLabel('Classroom');
  }

  async goto(path = '/dashboard') {
    await this.page.goto(path);
  }

  /** A course card, by the course's name. */
  card(name: string | RegExp): Locator {
    return this.page.getByRole('article', { name });
  }

  /** The period switch's option (W, M, Y, ALL in English). */
  period(label: string): Locator {
    return this.stats.locator('.ant-segmented-item').filter({ hasText: new RegExp(`^${label}$`) });
  }

  /** The shown value of a figure: completionRate, engagementRate or totalCourses. */
  figure(key: 'completionRate' | 'engagementRate' | 'totalCourses'): Locator {
    return this.stats.locator(`[data-stat="${key}"] .stat-number`);
  }

  /** Runs one of a live card's actions from its "more" menu (Clone, Archive, Delete…). */
  async cardAction(name: string, action: string | RegExp) {
    await this.card(name)
      .getByRole('button', { name: /More actions for/ })
      .click();
    await this.page.getByRole('menuitem', { name: action }).click();
  }

  /** The confirmation of a permanent delete. */
  deleteDialog(name: string): Locator {
    return antdModal(this.page, `Delete “${name}” permanently?`);
  }

  toast(text: string | RegExp): Locator {
    return this.page.locator('.ant-notification-notice').filter({ hasText: text });
  }
}
