import type { Locator, Page } from '@playwright/test';

import { antdSelectOption } from '../helpers/antd.ts';

/** /insights: the classroom overview, the course selector, figures, charts, learners, exports. */
export class InsightsPage {
  readonly courseSelect: Locator;
  readonly learners: Locator;

  constructor(readonly page: Page) {
    this.courseSelect = page.getByRole('combobox', { name: /Choose a course|Scegli un corso/ });
    this.learners = page.getByRole('region', { name: /^Learners$|^Discenti$/ });
  }

  async goto(query = '') {
    await this.page.goto(`/insights${query}`);
  }

  /** The shown value of a figure (`metrics.<key>` in locales: zick_score, delivery…). */
  metric(key: string): Locator {
    return this.page.locator(`[data-metric="${key}"] .metric-value`);
  }

  /** Picks a course in the selector by its name. */
  async selectCourse(name: string) {
    await antdSelectOption(this.page, this.courseSelect, new RegExp(`^${name} · `));
  }

  /** The data table a chart carries for screen readers. */
  chartTable(kind: 'distribution' | 'channels' | 'status'): Locator {
    return this.page.locator(`[data-chart="${kind}"] table`);
  }

  exportButton(name: string): Locator {
    return this.page.getByRole('group', { name: 'Exports' }).getByRole('button', { name });
  }
}
