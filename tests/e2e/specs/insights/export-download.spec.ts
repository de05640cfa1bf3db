import type { TExport } from '@ccp/schemas';
import type { APIRequestContext } from '@playwright/test';

import { expect, test } from '../../fixtures/test.ts';
import { ACCOUNTS, DEMO_TOTP_SECRET } from '../../helpers/accounts.ts';
import { withFreshCode } from '../../helpers/totp.ts';
import { InsightsPage } from '../../pom/insights-page.ts';
import { apiClassrooms, apiData, apiPostData } from '../../requests/api.ts';
import type { TStoredTokens } from '../../requests/auth.ts';

type TDownload = { file_content: string; file_name: string; content_type: string };

/** A delivery statistics export of the account's first course, requested through the API. */
const requestExport = async (request: APIRequestContext, tokens: TStoredTokens) => {
  const [room] = await apiClassrooms(request, tokens.access_token);
  const [course] = await apiData<{ uuid: string }[]>(
    request,
    tokens.access_token,
    `/api/v1/classrooms/${room!.uuid}/courses?paginate=false`,
  );
  return apiPostData<TExport>(
    request,
    tokens.access_token,
    `/api/v1/analytics/courses/${course!.uuid}/export-delivery-statistics`,
  );
};

test.describe('signed in', () => {
  test.use({ account: 'creator' });

  test('an export is requested from Insights and downloaded on its page, with its name and content', async ({
    page,
    tokens,
  }) => {
    const insights = new InsightsPage(page);
    await insights.goto();
    await insights.selectCourse('GDPR for Sales');
    // The spec's two exports, no third button downloading the same file (issue 27).
    await expect(insights.exportButton('Not enrolled learners')).toBeVisible();
    await expect(insights.exportButton('Course statistics')).toHaveCount(0);
    const download = page.waitForEvent('download');
    await insights.exportButton('Delivery statistics').click();
    await expect(page.getByText('The export “Delivery statistics” was requested.')).toBeVisible();
    await expect(page).toHaveURL(/\/exports\/[0-9a-f-]{36}$/);
    const file = await download;
    const exportId = page.url().split('/').pop()!;
    const stored = await apiData<TDownload>(
      page.request,
      tokens!.access_token,
      `/api/v1/analytics/exports/${exportId}/download`,
    );
    expect(file.suggestedFilename()).toBe(stored.file_name);
    const saved = await file.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of saved) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(Buffer.from(stored.file_content, 'base64'))).toBe(true);
    await expect(page.getByText('Your download has started')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Download again' })).toBeVisible();
  });

  test('each failure says what happened: a bad link, an unknown export, another company’s', async ({
    page,
    sessionOf,
  }) => {
    await page.goto('/exports/not-an-id');
    await expect(page.getByText('This download link is not valid')).toBeVisible();

    await page.goto('/exports/00000000-0000-4000-8000-000000000000');
    await expect(page.getByText('Export not found')).toBeVisible();
    // The page says it; no second message from the client.
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // An export of the Free plan's company, opened by Acme's creator.
    const foreign = await requestExport(page.request, await sessionOf('free'));
    await page.goto(`/exports/${foreign.export_id}`);
    await expect(page.getByText('You have no privileges to download this export')).toBeVisible();
  });
});

test('signed out: the link leads to sign-in, then back to the download', async ({
  page,
  sessionOf,
  loginPage,
}) => {
  // Signing in through the form may wait for the next one-time code.
  test.setTimeout(60_000);
  const requested = await requestExport(page.request, await sessionOf('free'));
  await page.goto(`/exports/${requested.export_id}`);
  await expect(page).toHaveURL(new RegExp(`/login\\?to=%2Fexports%2F${requested.export_id}`));
  await loginPage.submitCredentials('free');
  const download = page.waitForEvent('download', { timeout: 50_000 });
  await withFreshCode(ACCOUNTS.free, DEMO_TOTP_SECRET, async (code) => {
    await loginPage.submitCode(code);
    await expect(page).toHaveURL(`/exports/${requested.export_id}`);
  });
  expect((await download).suggestedFilename()).toMatch(/\.csv$/);
});
