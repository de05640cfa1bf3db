import { CHART_DAYS } from '@ccp/schemas';
import type { TCourseInsight } from '@ccp/schemas';

import { expect, test } from '../../fixtures/test.ts';
import { InsightsPage } from '../../pom/insights-page.ts';
import { apiClassrooms, apiData } from '../../requests/api.ts';

test.use({ account: 'creator' });

const percent = (value: number, locale: string) =>
  `${new Intl.NumberFormat(locale).format(Math.round(value * 10) / 10)}%`;

const courseInsights = async (request: Parameters<typeof apiData>[0], token: string) => {
  const [room] = await apiClassrooms(request, token);
  return apiData<TCourseInsight[]>(
    request,
    token,
    `/api/v2/analytics/classrooms/${room!.uuid}/courses/insights`,
  );
};

test('a chosen course shows the figures the API answers, its 15-day charts and its learners', async ({
  page,
  tokens,
}) => {
  const insights = new InsightsPage(page);
  const courses = await courseInsights(page.request, tokens!.access_token);
  const gdpr = courses.find((course) => course.name === 'GDPR for Sales')!;
  await insights.goto();
  await insights.selectCourse('GDPR for Sales');
  await expect(page).toHaveURL(new RegExp(`course=${gdpr.uuid}`));
  for (const key of [
    'zick_score',
    'delivery',
    'completion',
    'engagementRate',
    'dormant',
    // Retention (issue 28): the demo's GDPR course repeats questions.
    'retention',
  ] as const) {
    await expect(insights.metric(key)).toHaveText(percent(gdpr[key], 'en-GB'));
  }
  await expect(insights.metric('dormantLearners')).toHaveText(String(gdpr.dormantLearners));
  // A dormant rate is not rated: mirrored, the spec's bands called 41.3 % "Good" (issue 27).
  await expect(page.locator('[data-metric="dormant"] .metric-band')).toHaveText('\u00a0');

  // Each figure explains itself: name, definition and the formula of docs/metrics.md.
  await page.getByRole('button', { name: 'About Engagement rate' }).click();
  await expect(page.getByRole('tooltip')).toContainText(
    '(assessment completion rate + assessment success rate) ÷ 2 − 5 × (reminders ÷ enrolled learners), never below 0',
  );

  // The active course has sends in the last 15 days: one row per day in its chart's data.
  await insights.selectCourse('Negotiation Basics');
  await expect(insights.chartTable('distribution').locator('tbody tr')).toHaveCount(CHART_DAYS);
  await expect(insights.chartTable('status').locator('tbody tr')).toHaveCount(5);

  // The learners who interacted, each a link to the learner's page.
  const first = insights.learners.getByRole('row').nth(1).getByRole('link');
  const href = await first.getAttribute('href');
  expect(href).toMatch(/^\/learners\/view\/[0-9a-f-]{36}$/);
  await insights.learners.getByText('Dormant', { exact: true }).click();
  await expect(insights.learners.getByRole('row').nth(1)).toBeVisible();
});

test('the dashboard’s "view report" preselects the course; Italian formats the figures', async ({
  page,
  tokens,
  appFrame,
}) => {
  const insights = new InsightsPage(page);
  const courses = await courseInsights(page.request, tokens!.access_token);
  const gdpr = courses.find((course) => course.name === 'GDPR for Sales')!;
  await appFrame.goto('/dashboard');
  await page
    .getByRole('article', { name: 'GDPR for Sales' })
    .getByRole('link', { name: 'View report' })
    .click();
  await expect(page.getByRole('heading', { level: 3, name: 'GDPR for Sales' })).toBeVisible();
  await expect(insights.metric('delivery')).toHaveText(percent(gdpr.delivery, 'en-GB'));

  await appFrame.language.selectOption('it');
  await expect(page.getByRole('heading', { level: 2, name: 'Panoramica dell’aula' })).toBeVisible();
  await expect(insights.metric('delivery')).toHaveText(percent(gdpr.delivery, 'it-IT'));
  await expect(insights.metric('zick_score')).toHaveText(percent(gdpr.zick_score, 'it-IT'));
  await expect(page.locator('[data-metric="mood"] .metric-value')).toHaveText(
    /Entusiasta|Felice|Neutro|Triste/,
  );
  // The choice is remembered: back on /insights without ?course=, the same course.
  await page.goto('/insights');
  await expect(page.getByRole('heading', { level: 3, name: 'GDPR for Sales' })).toBeVisible();
});
