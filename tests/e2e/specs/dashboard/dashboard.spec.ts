import { STATS_PERIOD_KEYS, statsPeriodDates } from '@ccp/schemas';
import type { TClassroomAnalytics, TStatsPeriod } from '@ccp/schemas';
import type { Page, Response } from '@playwright/test';

import { expect, test } from '../../fixtures/test.ts';
import { DashboardPage } from '../../pom/dashboard-page.ts';
import { apiClassrooms, apiData } from '../../requests/api.ts';

test.use({ account: 'creator' });

const CLASSROOM_ANALYTICS = /\/api\/v1\/analytics\/classrooms\/[^/?]+(\?|$)/;

const isClassroomAnalytics = (response: Response) =>
  CLASSROOM_ANALYTICS.test(new URL(response.url()).pathname + new URL(response.url()).search);

const percent = (value: number, locale: string) =>
  `${new Intl.NumberFormat(locale).format(Math.round(value * 10) / 10)}%`;

const expectFigures = async (
  dashboard: DashboardPage,
  figures: TClassroomAnalytics,
  locale = 'en-GB',
) => {
  // A period without learners has no rates to show.
  const rate = (value: number) => (figures.learners > 0 ? percent(value, locale) : '—');
  await expect(dashboard.figure('completionRate')).toHaveText(rate(figures.completion_rate));
  await expect(dashboard.figure('engagementRate')).toHaveText(rate(figures.active_learners_rate));
  await expect(dashboard.figure('totalCourses')).toHaveText(
    new Intl.NumberFormat(locale).format(figures.total_courses),
  );
};

/** The classroom analytics the page asks for next, with the period it asked for. */
const nextAnalytics = (page: Page) =>
  page.waitForResponse((response) => isClassroomAnalytics(response) && response.ok());

test('the period switch shows the figures the API answers for W, M, Y and ALL', async ({
  page,
  tokens,
}) => {
  const dashboard = new DashboardPage(page);
  const seen = new Map<TStatsPeriod, TClassroomAnalytics>();
  const first = nextAnalytics(page);
  await dashboard.goto();
  const monthly = await first;
  seen.set('M', ((await monthly.json()) as { data: TClassroomAnalytics }).data);
  await expectFigures(dashboard, seen.get('M')!);

  for (const key of STATS_PERIOD_KEYS.filter((period) => period !== 'M')) {
    const answer = nextAnalytics(page);
    await dashboard.period(key).click();
    const response = await answer;
    const query = new URL(response.url()).searchParams;
    const dates = statsPeriodDates(key, new Date());
    expect(query.get('start_date') ?? undefined).toBe(dates.start_date);
    expect(query.get('end_date') ?? undefined).toBe(dates.end_date);
    const figures = ((await response.json()) as { data: TClassroomAnalytics }).data;
    seen.set(key, figures);
    await expectFigures(dashboard, figures);
  }

  // ALL has no bounds and equals the API's own answer without dates.
  const [room] = await apiClassrooms(page.request, tokens!.access_token);
  const allTime = await apiData<TClassroomAnalytics>(
    page.request,
    tokens!.access_token,
    `/api/v1/analytics/classrooms/${room!.uuid}`,
  );
  expect(seen.get('ALL')).toEqual(allTime);
  // Back to M: the figures of M again.
  await dashboard.period('M').click();
  await expectFigures(dashboard, seen.get('M')!);
});

test('clone makes a new card; archive, restore and the permanent delete each say what they did', async ({
  page,
}) => {
  const dashboard = new DashboardPage(page);
  const original = 'Cold Calling 101';
  const copy = `${original} (copy)`;
  await dashboard.goto();
  await expect(dashboard.card(original)).toBeVisible();
  await expect(dashboard.card(copy)).toHaveCount(0);

  await dashboard.cardAction(original, 'Clone');
  await expect(dashboard.toast(`“${original}” was cloned: the copy is a draft.`)).toBeVisible();
  await expect(dashboard.card(copy)).toBeVisible();
  await expect(dashboard.card(copy).locator('.course-status')).toHaveText('Draft');

  await dashboard.cardAction(copy, 'Archive');
  await expect(dashboard.toast(`“${copy}” was archived.`)).toBeVisible();
  await expect(dashboard.card(copy)).toHaveCount(0);

  await dashboard.showArchived.click();
  await expect(page).toHaveURL('/dashboard?archived=1');
  await expect(page.getByRole('heading', { level: 2, name: 'Archived courses' })).toBeVisible();
  const archived = dashboard.card(copy);
  await expect(archived).toBeVisible();
  // The badge says archived (not the status it had), and when the purge deletes it.
  await expect(archived.locator('.course-status')).toHaveText('Archived');
  await expect(archived.getByText('Deleted for good in 30 days')).toBeVisible();
  await archived.getByRole('button', { name: 'Restore' }).click();
  await expect(dashboard.toast(`“${copy}” was restored.`)).toBeVisible();
  await expect(dashboard.card(copy)).toHaveCount(0);

  await dashboard.backToCourses.click();
  await expect(page).toHaveURL('/dashboard');
  await expect(dashboard.card(copy)).toBeVisible();
  await dashboard.cardAction(copy, 'Delete permanently');
  const confirm = dashboard.deleteDialog(copy);
  await expect(confirm).toContainText('This cannot be undone.');
  await confirm.getByRole('button', { name: 'Delete permanently' }).click();
  await expect(dashboard.toast(`“${copy}” was deleted permanently.`)).toBeVisible();
  await expect(dashboard.card(copy)).toHaveCount(0);
  await page.reload();
  await expect(dashboard.card(original)).toBeVisible();
  await expect(dashboard.card(copy)).toHaveCount(0);
});

test('Italian: the dashboard in Italian, with Italian number formatting', async ({
  page,
  appFrame,
}) => {
  const dashboard = new DashboardPage(page);
  const first = nextAnalytics(page);
  await appFrame.goto('/dashboard');
  const figures = ((await (await first).json()) as { data: TClassroomAnalytics }).data;
  await appFrame.language.selectOption('it');
  await expect(page.getByRole('heading', { level: 2, name: 'Panoramica' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Corsi' })).toBeVisible();
  await expect(page.getByText('Gli ultimi 30 giorni')).toBeVisible();
  await expect(page.getByText('Tasso di coinvolgimento dei discenti')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Corsi archiviati' })).toBeVisible();
  await expectFigures(dashboard, figures, 'it-IT');
  // A figure with decimals, so the decimal comma shows.
  expect(await dashboard.figure('engagementRate').innerText()).toMatch(/^\d+(,\d)?%$/);
  const card = dashboard.card('GDPR for Sales');
  await expect(card.locator('.course-status')).toHaveText('Erogato');
  await expect(card.getByRole('link', { name: 'Vedi report' })).toBeVisible();
  await expect(card.locator('[data-figure="delivery"] .figure-value')).toHaveText(/^\d+(,\d)?%$/);
});

test('the classroom switch shows the other classroom’s courses and is remembered', async ({
  page,
}) => {
  const dashboard = new DashboardPage(page);
  await dashboard.goto();
  await expect(dashboard.classroom).toHaveValue(/.+/);
  await expect(dashboard.card('Negotiation Basics')).toBeVisible();
  await expect(dashboard.card('Welcome to Acme')).toHaveCount(0);

  await dashboard.classroom.selectOption({ label: 'Onboarding' });
  await expect(dashboard.card('Welcome to Acme')).toBeVisible();
  await expect(dashboard.card('Security Essentials')).toBeVisible();
  await expect(dashboard.card('Negotiation Basics')).toHaveCount(0);
  await expect(page.getByText('Here is how Onboarding is doing.')).toBeVisible();

  await page.reload();
  await expect(dashboard.card('Welcome to Acme')).toBeVisible();
  await expect(dashboard.classroom.locator('option:checked')).toHaveText('Onboarding');
});

test('the view-report link opens Insights on that course', async ({ page }) => {
  const dashboard = new DashboardPage(page);
  await dashboard.goto();
  const card = dashboard.card('GDPR for Sales');
  const uuid = await card.getAttribute('data-course');
  await card.getByRole('link', { name: 'View report' }).click();
  await expect(page).toHaveURL(`/insights?course=${uuid}`);
});

test('a failed load keeps the page: empty figures when analytics fail, a retry when classrooms fail', async ({
  page,
}) => {
  const dashboard = new DashboardPage(page);
  await page.route(CLASSROOM_ANALYTICS, (route) => route.fulfill({ status: 503, body: '' }));
  await dashboard.goto();
  await expect(dashboard.card('Negotiation Basics')).toBeVisible();
  await expect(dashboard.figure('completionRate')).toHaveText('—');
  await expect(page.getByText('The figures could not be loaded.', { exact: false })).toBeVisible();
  await page.unroute(CLASSROOM_ANALYTICS);

  let failing = true;
  await page.route(/\/api\/v1\/companies\/[^/]+\/classrooms$/, (route) =>
    failing ? route.fulfill({ status: 503, body: '' }) : route.continue(),
  );
  await page.reload();
  await expect(page.getByText('Failed to fetch classrooms.')).toBeVisible();
  failing = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(dashboard.card('Negotiation Basics')).toBeVisible();
});
